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

export interface ImportProduct {
  id: string;
  row: NormalizedImportRow;
}

export interface ImportBranchProduct {
  productId: string;
  branchId: string;
  /** The first row of the product in this branch: its prices. */
  row: NormalizedImportRow;
  /** Opening stock in the branch: the sum of its batches (insertImport only; an import run writes stock through the ledger). */
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

/** The products INSERT of both import writers (the run's chunks and the seed's one-go path): $1 the pharmacy, $2–$17 productParams. */
const PRODUCTS_INSERT = `
       INSERT INTO products (pharmacy_id, id, name, sku, barcodes, category, package_size, package_type, unit, is_dda,
                             tax_applied, tax_rate_basis_points, min_margin_basis_points, low_stock_threshold, reorder_level,
                             created_at, updated_at)
       SELECT $1, t.id, t.name, t.sku, CASE WHEN t.barcodes = '' THEN '{}'::text[] ELSE string_to_array(t.barcodes, $17) END,
              t.category, COALESCE(t.package_size, 1), COALESCE(t.package_type, 'pieces'), COALESCE(t.unit, 'piece'),
              COALESCE(t.is_dda, false), COALESCE(t.tax_applied, false), COALESCE(t.tax_rate, 1600), COALESCE(t.min_margin, 2200),
              COALESCE(t.low_stock, 5), COALESCE(t.reorder, 2), $16, $16
         FROM unnest($2::uuid[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int[], $8::text[], $9::text[], $10::bool[],
                     $11::bool[], $12::int[], $13::int[], $14::int[], $15::int[])
              AS t(id, name, sku, barcodes, category, package_size, package_type, unit, is_dda, tax_applied, tax_rate, min_margin,
                   low_stock, reorder)`;

function productParams(pharmacyId: string, part: readonly ImportProduct[], now: Date): unknown[] {
  const r = part.map((p) => p.row);
  return [
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
    now,
    SEP,
  ];
}

/**
 * Writes a chunk of an import's products set-based, in the caller's transaction: the products (multi-row
 * INSERT ... SELECT FROM unnest), the run's record of them (what an undo removes) and their branch rows with the
 * file's prices and no stock yet (the opening stock goes through the stock ledger afterwards).
 */
export async function insertImportChunk(
  q: Queryable,
  pharmacyId: string,
  data: { importId: string; products: readonly ImportProduct[]; branchProducts: readonly ImportBranchProduct[]; now: Date },
): Promise<void> {
  await q.query(
    `WITH written AS (${PRODUCTS_INSERT}
       RETURNING id)
     INSERT INTO product_import_items (pharmacy_id, import_id, product_id) SELECT $1, $18, id FROM written`,
    [...productParams(pharmacyId, data.products, data.now), data.importId],
  );
  const bps = data.branchProducts;
  if (bps.length === 0) return;
  await q.query(
    `INSERT INTO branch_products (pharmacy_id, branch_id, product_id, selling_price_cents, purchase_price_cents,
                                  min_margin_basis_points, quantity, reserved_quantity)
     SELECT $1, t.branch_id, t.product_id, COALESCE(t.selling, 0), COALESCE(t.purchase, 0), t.min_margin, 0, 0
       FROM unnest($2::uuid[], $3::uuid[], $4::bigint[], $5::bigint[], $6::int[])
            AS t(branch_id, product_id, selling, purchase, min_margin)`,
    [
      pharmacyId,
      bps.map((b) => b.branchId),
      bps.map((b) => b.productId),
      bps.map((b) => b.row.sellingPriceCents),
      bps.map((b) => b.row.purchasePriceCents),
      bps.map((b) => b.row.minMarginBasisPoints),
    ],
  );
}

// ------------------------------------------------------------------------------------------- import runs

/** Records a run that has taken `products` plan places and is about to write them ('importing'). */
export async function insertImportRun(
  q: Queryable,
  pharmacyId: string,
  run: { id: string; userId: string | null; idempotencyKey: string | null; products: number; now: Date },
): Promise<void> {
  await q.query(
    `INSERT INTO product_imports (pharmacy_id, id, user_id, status, idempotency_key, products, created_at, updated_at)
     VALUES ($1, $2, $3, 'importing', $4, $5, $6, $6)`,
    [pharmacyId, run.id, run.userId, run.idempotencyKey, run.products, run.now],
  );
}

/** Counts `written` more products of the run and moves its heartbeat on. */
export async function advanceImportRun(q: Queryable, pharmacyId: string, id: string, written: number, now: Date): Promise<void> {
  await q.query(`UPDATE product_imports SET written = written + $3, updated_at = $4 WHERE pharmacy_id = $1 AND id = $2`, [pharmacyId, id, written, now]);
}

/** Marks the run done; false when it is not 'importing' any more (an undo took it). */
export async function finishImportRun(q: Queryable, pharmacyId: string, id: string, now: Date): Promise<boolean> {
  const rows = await q.query(
    `UPDATE product_imports SET status = 'done', updated_at = $3 WHERE pharmacy_id = $1 AND id = $2 AND status = 'importing' RETURNING id`,
    [pharmacyId, id, now],
  );
  return rows.length > 0;
}

/** Runs of the pharmacy still 'importing' with no progress since `before` (their process died). */
export async function abandonedImportRuns(q: Queryable, pharmacyId: string, before: Date): Promise<string[]> {
  const rows = await q.query<{ id: string }>(
    `SELECT id FROM product_imports WHERE pharmacy_id = $1 AND status = 'importing' AND updated_at < $2 ORDER BY updated_at`,
    [pharmacyId, before],
  );
  return rows.map((r) => r.id);
}

/** Undoes up to `max` products of an unfinished run (undo_product_import, migration 0014); returns how many are left. */
export async function undoImportRunChunk(q: Queryable, id: string, max: number): Promise<number> {
  const [row] = await q.query<{ remaining: number }>(`SELECT undo_product_import($1, $2) AS remaining`, [id, max]);
  return row?.remaining ?? 0;
}

/**
 * The demo catalogue's bulk path (db/demo-catalogue.ts, seeding in one transaction): writes products with their
 * opening stock set-based, in the caller's transaction, chunk by chunk (multi-row INSERT ... SELECT FROM
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
    await q.query(PRODUCTS_INSERT, productParams(pharmacyId, part, data.now));
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
