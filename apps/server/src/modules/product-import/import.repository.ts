import type { NormalizedImportRow } from '@pharmapoint/domain/product-import';
import type { Queryable } from '../../db/database.ts';

/** The import's SQL: what validation needs to know, and the set-based writes of an import. */

export interface ImportBranch {
  id: string;
  name: string;
  isDefault: boolean;
}

/** The pharmacy's active branches, the default first. */
export async function activeBranches(q: Queryable, pharmacyId: string): Promise<ImportBranch[]> {
  const rows = await q.query<{ id: string; name: string; is_default: boolean }>(
    `SELECT id, name, is_default FROM branches WHERE pharmacy_id = $1 AND is_active ORDER BY is_default DESC, name`,
    [pharmacyId],
  );
  return rows.map((b) => ({ id: b.id, name: b.name, isDefault: b.is_default }));
}

/** Which of these SKUs products of the pharmacy already have, lower-cased. */
export async function existingSkus(q: Queryable, pharmacyId: string, skus: readonly string[]): Promise<Set<string>> {
  if (skus.length === 0) return new Set();
  const rows = await q.query<{ sku: string }>(`SELECT lower(sku) AS sku FROM products WHERE pharmacy_id = $1 AND lower(sku) = ANY($2::text[])`, [
    pharmacyId,
    skus.map((s) => s.toLowerCase()),
  ]);
  return new Set(rows.map((r) => r.sku));
}

/**
 * Runs work inside a savepoint and rolls back what it wrote, keeping its answer (or its error): a dry run checks
 * the plan limit exactly as the import would, without keeping the places the check takes.
 */
export async function thenRolledBack<T>(q: Queryable, work: () => Promise<T>): Promise<T> {
  await q.query('SAVEPOINT import_dry_run');
  const result = await work();
  await q.query('ROLLBACK TO SAVEPOINT import_dry_run');
  return result;
}

export interface ImportProduct {
  id: string;
  row: NormalizedImportRow;
}

export interface ImportBranchProduct {
  productId: string;
  branchId: string;
  /** The first row of the product in this branch: its prices. */
  row: NormalizedImportRow;
  /** Opening stock in the branch: the sum of its batches. */
  quantity: number;
}

export interface ImportBatch {
  id: string;
  productId: string;
  branchId: string;
  batchNumber: string | null;
  expiryDate: string | null;
  quantity: number;
  /** The branch quantity after this batch (the ledger's running balance, in file order). */
  quantityAfter: number;
  unitCostCents: number;
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

// Barcodes travel as one text per product (unnest cannot carry ragged text[][]); a unit separator splits them.
const SEP = '\u001f';

/**
 * Writes an import set-based, in the caller's transaction, chunk by chunk (multi-row INSERT ... SELECT FROM
 * unnest). This is the bulk path beside the stock ledger's applyStockChange: it writes exactly what the ledger
 * would for an opening balance of new products, namely for each row with stock one batch (source 'import')
 * and one stock movement (kind 'import', delta = the batch quantity, quantity_after = the running branch
 * balance, batch id, reason 'Import', reference the import), and branch stock equal to the sum of its
 * batches. New products have no earlier stock, so no lock or read of existing stock is needed.
 */
export async function insertImport(
  q: Queryable,
  ctx: { pharmacyId: string; userId: string | null },
  data: { importId: string; products: ImportProduct[]; branchProducts: ImportBranchProduct[]; batches: ImportBatch[]; now: Date },
  chunkSize: number,
  progress: (written: number) => void,
): Promise<void> {
  const { pharmacyId, userId } = ctx;
  for (const part of chunks(data.products, chunkSize)) {
    const r = part.map((p) => p.row);
    await q.query(
      `INSERT INTO products (pharmacy_id, id, name, sku, barcodes, category, package_size, package_type, unit, is_dda,
                             tax_applied, tax_rate_basis_points, min_margin_basis_points, low_stock_threshold, reorder_level,
                             created_at, updated_at)
       SELECT $1, t.id, t.name, t.sku, CASE WHEN t.barcodes = '' THEN '{}'::text[] ELSE string_to_array(t.barcodes, $17) END,
              t.category, COALESCE(t.package_size, 1), COALESCE(t.package_type, 'pieces'), COALESCE(t.unit, 'piece'),
              COALESCE(t.is_dda, false), COALESCE(t.tax_applied, false), COALESCE(t.tax_rate, 1600), COALESCE(t.min_margin, 2200),
              COALESCE(t.low_stock, 5), COALESCE(t.reorder, 2), $16, $16
         FROM unnest($2::uuid[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int[], $8::text[], $9::text[], $10::bool[],
                     $11::bool[], $12::int[], $13::int[], $14::int[], $15::int[])
              AS t(id, name, sku, barcodes, category, package_size, package_type, unit, is_dda, tax_applied, tax_rate, min_margin,
                   low_stock, reorder)`,
      [
        pharmacyId,
        part.map((p) => p.id),
        r.map((x) => x.name),
        r.map((x) => x.sku),
        r.map((x) => x.barcodes.join(SEP)),
        r.map((x) => x.category),
        r.map((x) => x.packageSize),
        r.map((x) => x.packageType),
        r.map((x) => x.unit),
        r.map((x) => x.isDda),
        r.map((x) => x.taxApplied),
        r.map((x) => x.taxRateBasisPoints),
        r.map((x) => x.minMarginBasisPoints),
        r.map((x) => x.lowStockThreshold),
        r.map((x) => x.reorderLevel),
        data.now,
        SEP,
      ],
    );
    progress(part.length);
  }
  for (const part of chunks(data.branchProducts, chunkSize)) {
    await q.query(
      `INSERT INTO branch_products (pharmacy_id, branch_id, product_id, selling_price_cents, purchase_price_cents,
                                    min_margin_basis_points, quantity, reserved_quantity)
       SELECT $1, t.branch_id, t.product_id, COALESCE(t.selling, 0), COALESCE(t.purchase, 0), t.min_margin, t.quantity, 0
         FROM unnest($2::uuid[], $3::uuid[], $4::bigint[], $5::bigint[], $6::int[], $7::int[])
              AS t(branch_id, product_id, selling, purchase, min_margin, quantity)`,
      [
        pharmacyId,
        part.map((b) => b.branchId),
        part.map((b) => b.productId),
        part.map((b) => b.row.sellingPriceCents),
        part.map((b) => b.row.purchasePriceCents),
        part.map((b) => b.row.minMarginBasisPoints),
        part.map((b) => b.quantity),
      ],
    );
    progress(part.length);
  }
  for (const part of chunks(data.batches, chunkSize)) {
    await q.query(
      `INSERT INTO batches (pharmacy_id, id, branch_id, product_id, batch_number, expiry_date, quantity, reserved_quantity,
                            unit_cost_cents, received_at, source)
       SELECT $1, t.id, t.branch_id, t.product_id, t.batch_number, t.expiry_date, t.quantity, 0, t.unit_cost, $9, 'import'
         FROM unnest($2::uuid[], $3::uuid[], $4::uuid[], $5::text[], $6::date[], $7::int[], $8::bigint[])
              AS t(id, branch_id, product_id, batch_number, expiry_date, quantity, unit_cost)`,
      [
        pharmacyId,
        part.map((b) => b.id),
        part.map((b) => b.branchId),
        part.map((b) => b.productId),
        part.map((b) => b.batchNumber),
        part.map((b) => b.expiryDate),
        part.map((b) => b.quantity),
        part.map((b) => b.unitCostCents),
        data.now,
      ],
    );
    await q.query(
      `INSERT INTO stock_movements (pharmacy_id, branch_id, product_id, batch_id, kind, delta, quantity_after, batch_quantity_after, reason,
                                    reference_type, reference_id, user_id, at)
       SELECT $1, t.branch_id, t.product_id, t.batch_id, 'import', t.delta, t.after, t.delta, 'Import', 'import', $7, $8, $9
         FROM unnest($2::uuid[], $3::uuid[], $4::uuid[], $5::int[], $6::int[]) AS t(branch_id, product_id, batch_id, delta, after)`,
      [
        pharmacyId,
        part.map((b) => b.branchId),
        part.map((b) => b.productId),
        part.map((b) => b.id),
        part.map((b) => b.quantity),
        part.map((b) => b.quantityAfter),
        data.importId,
        userId,
        data.now,
      ],
    );
    progress(part.length);
  }
}
