import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Queryable } from '../src/db/database.ts';
import { AppError } from '../src/platform/errors.ts';
import type { RequestContext } from '../src/platform/context.ts';
import {
  applyOpeningStock,
  applyStockChanges,
  lockStockRows,
  sellableStock,
  type StockChange,
} from '../src/modules/stock/stock.service.ts';
import { createTestApp, type TestApp } from './app.ts';
import { testDatabaseKinds } from './database.ts';
import type { StockPharmacy } from './import-helpers.ts';
import { alertsDrift, daysFromToday, ledgerProblems, ownerContext, pickWeighted, prng, stockTestPharmacy, withToday } from './stock-helpers.ts';

/**
 * The stock ledger keeps stock_alerts itself for the rows it changes (decision 0078, migration 0040): no trigger runs
 * on a change of quantity. Random ledger changes (sales-like multi-product decreases, receipts, reservations, opening
 * stock) with branch and product thresholds, deactivations and renames in between must leave stock_alerts equal to
 * what the rows say. And no code but the ledger's repository may change branch_products.quantity.
 */

const SERVER_SRC = path.join(path.dirname(fileURLToPath(import.meta.url)), '../src');

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : /\.(ts|sql)$/.test(name) ? [full] : [];
  });
}

describe('branch_products.quantity', () => {
  it('is changed by the stock ledger only (ledger.repository.ts): stock_alerts depend on it', () => {
    const offenders: string[] = [];
    for (const file of filesUnder(SERVER_SRC)) {
      const relative = path.relative(SERVER_SRC, file);
      if (relative === path.join('modules', 'stock', 'ledger.repository.ts')) continue;
      const text = readFileSync(file, 'utf8');
      // Every UPDATE of branch_products, up to its WHERE (or the end of the string or statement): does it set quantity?
      for (const match of text.matchAll(/UPDATE\s+(?:ONLY\s+)?(?:public\.)?branch_products\b[\s\S]*?(?:\bWHERE\b|`|;|$)/gi)) {
        if (/(?<![\w.])quantity\s*=/i.test(match[0])) offenders.push(`${relative}: ${match[0].replace(/\s+/g, ' ').slice(0, 120)}`);
      }
      // Dynamic SETs (a column name in a string handed to a set helper).
      if (/branch_products/.test(text) && /set\(\s*'quantity'/.test(text)) offenders.push(`${relative}: set('quantity', ...)`);
    }
    expect(offenders).toEqual([]);
  });
});



const SEED = Number(process.env.ALERTS_SEED ?? 20261126);
const OPERATIONS = Number(process.env.ALERTS_OPERATIONS ?? 160);

describe.each(testDatabaseKinds())(`stock alerts kept by the ledger (seed ${SEED}) on %s`, (kind) => {
  let t: TestApp;
  let ph: StockPharmacy;
  const products: string[] = [];

  beforeAll(async () => {
    t = await createTestApp(kind);
    ph = await stockTestPharmacy(t.db, 'h1_alerts_ledger', ['owner']);
    for (const [i, name] of ['Paracetamol 500mg', 'Ibuprofen 200mg', 'ORS Sachets', 'Cough syrup', 'Vitamin C'].entries()) {
      const [row] = await t.db.owner.query<{ id: string }>(`INSERT INTO products (pharmacy_id, name, low_stock_threshold) VALUES ($1, $2, $3) RETURNING id`, [
        ph.pharmacyId,
        name,
        [5, 10, 0, 3, 8][i],
      ]);
      products.push(row!.id);
    }
  });
  afterAll(async () => t?.close());

  it(`equal the rows through ${OPERATIONS} random ledger changes, threshold changes in between`, async () => {
    const random = prng(SEED);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
    const int = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
    const branches = ph.branches.map((b) => b.id);
    const owner = ownerContext(ph);
    const scope = { pharmacyId: ph.pharmacyId, userId: ph.users.owner! };
    const run = <T>(work: (q: Queryable, ctx: RequestContext & { today: string }) => Promise<T>) => t.db.transaction(scope, (q) => work(q, withToday({ ...owner, now: new Date() })));
    const someProducts = () => [...new Set(Array.from({ length: int(1, 3) }, () => pick(products)))];
    const counts: Record<string, number> = {};
    let refused = 0;
    let opened = 0;

    const operations: Record<string, () => Promise<unknown>> = {
      // A sale: several products of one branch at once, small decreases (often down to low or out, or refused).
      sale: () => {
        const branchId = pick(branches);
        return run((q, ctx) =>
          applyStockChanges(q, ctx, someProducts().map((productId): StockChange => ({ kind: 'sale', branchId, productId, delta: -int(1, 6), reason: 'Sale' }))),
        );
      },
      // A sale as the sales module makes it: lock first, read the sellable stock, then change the locked rows.
      lockedSale: async () => {
        const branchId = pick(branches);
        const ids = someProducts();
        return run(async (q, ctx) => {
          const locked = await lockStockRows(q, ctx, ids.map((productId) => ({ branchId, productId })));
          const sellable = await sellableStock(q, locked, daysFromToday(0));
          const changes = ids
            .filter((id) => (sellable.get(id) ?? 0) > 0)
            .map((productId): StockChange => ({ kind: 'sale', branchId, productId, delta: -Math.min(sellable.get(productId)!, int(1, 6)), reason: 'Sale' }));
          return applyStockChanges(q, ctx, changes, locked);
        });
      },
      receipt: () => {
        const branchId = pick(branches);
        return run((q, ctx) =>
          applyStockChanges(
            q,
            ctx,
            someProducts().map((productId): StockChange => ({
              kind: 'purchase_receipt',
              branchId,
              productId,
              delta: int(1, 12),
              batch: { batchNumber: `B${int(1, 3)}`, expiryDate: daysFromToday(pick([30, 365])), unitCostCents: 500 },
              reason: 'Receipt',
            })),
          ),
        );
      },
      adjustment: () =>
        run((q, ctx) =>
          applyStockChanges(q, ctx, [{ kind: 'adjustment', branchId: pick(branches), productId: pick(products), delta: pick([-1, 1]) * int(1, 5), reason: 'Adjustment' }]),
        ),
      reserve: () => run((q, ctx) => applyStockChanges(q, ctx, [{ kind: 'reserve', branchId: pick(branches), productId: pick(products), quantity: int(1, 4), reason: 'Reserve' }])),
      release: () => run((q, ctx) => applyStockChanges(q, ctx, [{ kind: 'release', branchId: pick(branches), productId: pick(products), quantity: int(1, 4), reason: 'Release' }])),
      // A new product, then its opening stock in some branches (an import's path).
      opening: async () => {
        opened += 1;
        const [row] = await t.db.owner.query<{ id: string }>(`INSERT INTO products (pharmacy_id, name, low_stock_threshold) VALUES ($1, $2, $3) RETURNING id`, [
          ph.pharmacyId,
          `Opened ${opened}`,
          int(0, 10),
        ]);
        const productId = row!.id;
        products.push(productId);
        const at = branches.filter(() => random() < 0.7);
        await t.db.owner.query(`INSERT INTO branch_products (pharmacy_id, branch_id, product_id) SELECT $1, unnest($2::uuid[]), $3`, [ph.pharmacyId, at, productId]);
        return run((q, ctx) =>
          applyOpeningStock(
            q,
            ctx,
            at.map((branchId): StockChange => ({
              kind: 'opening',
              branchId,
              productId,
              delta: int(1, 12),
              batch: { batchNumber: 'OPEN', expiryDate: daysFromToday(400), unitCostCents: 400 },
              reason: 'Opening stock',
            })),
          ),
        );
      },
      branchThreshold: () =>
        t.db.owner.query(`UPDATE branch_products SET low_stock_threshold = $4 WHERE pharmacy_id = $1 AND branch_id = $2 AND product_id = $3`, [
          ph.pharmacyId,
          pick(branches),
          pick(products),
          random() < 0.3 ? null : int(0, 12),
        ]),
      productThreshold: () => t.db.owner.query(`UPDATE products SET low_stock_threshold = $3 WHERE pharmacy_id = $1 AND id = $2`, [ph.pharmacyId, pick(products), int(0, 12)]),
      productActive: () => t.db.owner.query(`UPDATE products SET is_active = NOT is_active WHERE pharmacy_id = $1 AND id = $2`, [ph.pharmacyId, pick(products)]),
      rename: () => t.db.owner.query(`UPDATE products SET name = name || '.' WHERE pharmacy_id = $1 AND id = $2`, [ph.pharmacyId, pick(products)]),
    };
    const weights: [string, number][] = [
      ['sale', 6],
      ['lockedSale', 4],
      ['receipt', 5],
      ['adjustment', 3],
      ['reserve', 2],
      ['release', 2],
      ['opening', 1],
      ['branchThreshold', 2],
      ['productThreshold', 2],
      ['productActive', 1],
      ['rename', 1],
    ];
    for (let step = 0; step < OPERATIONS; step += 1) {
      const name = pickWeighted(random, weights);
      try {
        await operations[name]!();
        counts[name] = (counts[name] ?? 0) + 1;
      } catch (error) {
        if (!(error instanceof AppError) || error.code !== 'INSUFFICIENT_STOCK') throw new Error(`step ${step} (${name}, seed ${SEED}): ${String(error)}`);
        refused += 1;
      }
      expect(await alertsDrift(t.db, ph.pharmacyId), `step ${step} (${name}, seed ${SEED})`).toEqual([]);
    }
    for (const [name] of weights) expect(counts[name] ?? 0, name).toBeGreaterThan(0);
    expect(refused).toBeGreaterThan(0);
    expect(await ledgerProblems(t.db, ph.pharmacyId)).toEqual([]);
    // The sequence went through every state: some pairs low, some out, some with no alert.
    const statuses = await t.db.owner.query<{ status: string }>(`SELECT DISTINCT status FROM stock_alerts WHERE pharmacy_id = $1`, [ph.pharmacyId]);
    expect(statuses.map((s) => s.status).sort()).toEqual(['low', 'out']);
    const good = await t.db.owner.query(
      `SELECT 1 FROM branch_products bp WHERE bp.pharmacy_id = $1 AND NOT EXISTS (SELECT 1 FROM stock_alerts a WHERE a.pharmacy_id = bp.pharmacy_id AND a.branch_id = bp.branch_id AND a.product_id = bp.product_id)`,
      [ph.pharmacyId],
    );
    expect(good.length).toBeGreaterThan(0);
  });
});
