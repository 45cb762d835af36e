import { randomUUID } from 'node:crypto';
import type { NormalizedImportRow } from '@pharmapoint/domain/product-import';
import type { Queryable } from './database.ts';
import type { SeededIds } from './seed.ts';
import { DEMO_CATALOGUE, type CatalogueRow } from './demo-catalogue-data.ts';
import { insertImport, type ImportBatch, type ImportBranchProduct, type ImportProduct } from '../modules/product-import/import.repository.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** A small deterministic random generator (mulberry32), so every seed gives the same catalogue (tests replay theirs by seed). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** An EAN-13 with the Kenyan GS1 prefix 616 and a valid check digit. */
function ean13(n: number): string {
  const body = `616${String(100000000 + n).slice(-9)}`;
  const sum = [...body].reduce((s, d, i) => s + Number(d) * (i % 2 === 0 ? 1 : 3), 0);
  return body + String((10 - (sum % 10)) % 10);
}

const SKU_PREFIX: Record<CatalogueRow[1], string> = {
  Medicine: 'MED',
  Equipment: 'EQP',
  Supplies: 'SUP',
  Cosmetics: 'COS',
  Supplements: 'SPL',
};

const toCents = (ksh: number) => Math.round(ksh * 100);
const isoDate = (d: Date) => d.toISOString().slice(0, 10);

export interface DemoCatalogueSummary {
  products: number;
  batches: number;
  nearExpiryBatches: number;
  expiredBatches: number;
}

/**
 * The demo pharmacy's catalogue: every product of DEMO_CATALOGUE in the Main Branch and most of them in the
 * second branch, with prices (a little dearer in the second branch), opening stock in batches with expiry
 * dates (some within 30 days, a few already expired), slow movers at low or no stock, and the controlled
 * medicines flagged. Written through the bulk path of the product import (the same batches and 'import'
 * ledger movements as applyStockChange writes), so the ledger invariant holds and seeding takes well under a
 * second.
 */
export async function seedDemoCatalogue(q: Queryable, ids: SeededIds, now: Date = new Date()): Promise<DemoCatalogueSummary> {
  const rand = seededRandom(20260101);
  const pick = <T>(items: readonly T[]) => items[Math.floor(rand() * items.length)]!;
  const owner = ids.users.owner;
  const products: ImportProduct[] = [];
  const branchProducts: ImportBranchProduct[] = [];
  const batches: ImportBatch[] = [];
  let nearExpiryBatches = 0;
  let expiredBatches = 0;

  DEMO_CATALOGUE.forEach(([name, category, packageSize, packageType, unit, buyKsh, sellKsh, flags = ''], index) => {
    const isDda = flags.includes('D');
    const slow = flags.includes('R');
    const row: NormalizedImportRow = {
      row: index + 2,
      name,
      sku: `${SKU_PREFIX[category]}-${String(index + 1).padStart(4, '0')}`,
      barcodes: [ean13(index + 1)],
      category,
      packageSize,
      packageType,
      unit,
      isDda,
      taxApplied: flags.includes('T'),
      taxRateBasisPoints: 1600,
      minMarginBasisPoints: null,
      lowStockThreshold: packageSize > 1 ? packageSize : 5,
      reorderLevel: packageSize > 1 ? packageSize * 2 : 2,
      branch: null,
      sellingPriceCents: toCents(sellKsh),
      purchasePriceCents: toCents(buyKsh),
      openingQuantity: 0,
      batchNumber: null,
      expiryDate: null,
      unitCostCents: toCents(buyKsh),
    };
    const productId = randomUUID();
    products.push({ id: productId, row });

    ids.branches.forEach((branch, branchIndex) => {
      // The second branch is smaller: it carries about 85 % of the catalogue.
      if (branchIndex > 0 && rand() < 0.15) return;
      const markup = branchIndex > 0 ? 1.05 : 1;
      const branchRow: NormalizedImportRow = {
        ...row,
        branch: branch.name,
        sellingPriceCents: Math.round((toCents(sellKsh) * markup) / 50) * 50 || toCents(sellKsh),
      };
      const bp: ImportBranchProduct = { productId, branchId: branch.id, row: branchRow, quantity: 0 };
      branchProducts.push(bp);

      const packs = slow ? Math.floor(rand() * 3) : 2 + Math.floor(rand() * (isDda ? 6 : 20));
      if (packs === 0 || rand() < 0.03) return; // out of stock
      const batchCount = packs > 4 && rand() < 0.5 ? 2 : 1;
      let remaining = packs * packageSize;
      for (let b = 0; b < batchCount; b += 1) {
        const quantity = b === batchCount - 1 ? remaining : Math.max(1, Math.floor(remaining / 2));
        remaining -= quantity;
        let expiry: string | null = null;
        if (category !== 'Equipment') {
          const roll = rand();
          let days: number;
          if (roll < 0.06) {
            days = 3 + Math.floor(rand() * 27); // within the 30-day expiry alert
            nearExpiryBatches += 1;
          } else if (roll < 0.09) {
            days = -(5 + Math.floor(rand() * 120)); // already expired, waiting for write-off
            expiredBatches += 1;
          } else {
            days = 120 + Math.floor(rand() * 900);
          }
          expiry = isoDate(new Date(now.getTime() + days * DAY_MS));
        }
        bp.quantity += quantity;
        batches.push({
          id: randomUUID(),
          productId,
          branchId: branch.id,
          batchNumber: `${pick(['BN', 'LOT', 'B', 'KE'])}${String(240000 + Math.floor(rand() * 60000))}`,
          expiryDate: expiry,
          quantity,
          quantityAfter: bp.quantity,
          unitCostCents: toCents(buyKsh),
        });
      }
    });
  });

  // In the seed's own transaction (seedDemoData), with the demo pharmacy as its tenant.
  await insertImport(q, { pharmacyId: ids.pharmacyId, userId: owner?.id ?? null }, { importId: randomUUID(), products, branchProducts, batches, now }, 1000, () => undefined);
  return { products: products.length, batches: batches.length, nearExpiryBatches, expiredBatches };
}
