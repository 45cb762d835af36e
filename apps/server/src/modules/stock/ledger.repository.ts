import type { Queryable } from '../../db/database.ts';

/**
 * The ledger's SQL: branch stock rows (locked in one global order), batches and movements. Only the ledger
 * (ledger.service.ts) writes through these; everything here runs in the caller's transaction.
 */

/** A branch and product: the key of a branch_products row. */
export interface StockKey {
  branchId: string;
  productId: string;
}

interface BranchStockRow {
  quantity: number;
  reserved_quantity: number;
  purchase_price_cents: number;
}

export interface BranchStock {
  quantity: number;
  reservedQuantity: number;
  purchasePriceCents: number;
}

function toBranchStock(row: BranchStockRow): BranchStock {
  return { quantity: row.quantity, reservedQuantity: row.reserved_quantity, purchasePriceCents: row.purchase_price_cents };
}

interface LedgerBatchRow {
  id: string;
  batch_number: string | null;
  expiry_date: string | null;
  quantity: number;
  reserved_quantity: number;
  unit_cost_cents: number;
  received_at: string;
}

/** A batch as the ledger works with it (its quantities change in memory as the change is applied). */
export interface LedgerBatch {
  id: string;
  batchNumber: string | null;
  expiryDate: string | null;
  quantity: number;
  reservedQuantity: number;
  unitCostCents: number;
  receivedAt: string;
}

function toLedgerBatch(row: LedgerBatchRow): LedgerBatch {
  return {
    id: row.id,
    batchNumber: row.batch_number,
    expiryDate: row.expiry_date,
    quantity: row.quantity,
    reservedQuantity: row.reserved_quantity,
    unitCostCents: row.unit_cost_cents,
    receivedAt: row.received_at,
  };
}

const BATCH_COLUMNS = `id, batch_number, expiry_date, quantity, reserved_quantity, unit_cost_cents, received_at`;

/** The branch row of a product, locked until the transaction ends; undefined when there is none. */
export async function lockBranchStock(q: Queryable, pharmacyId: string, key: StockKey): Promise<BranchStock | undefined> {
  const [row] = await q.query<BranchStockRow>(
    `SELECT quantity, reserved_quantity, purchase_price_cents FROM branch_products
      WHERE pharmacy_id = $1 AND branch_id = $2 AND product_id = $3 FOR UPDATE`,
    [pharmacyId, key.branchId, key.productId],
  );
  return row ? toBranchStock(row) : undefined;
}

/**
 * Creates the missing branch rows of these keys, in (branch, product) order: two transactions creating the same
 * rows wait for each other in the same order, so they never deadlock.
 */
export async function createBranchStockRows(q: Queryable, pharmacyId: string, keys: readonly StockKey[]): Promise<void> {
  if (keys.length === 0) return;
  await q.query(
    `INSERT INTO branch_products (pharmacy_id, branch_id, product_id)
     SELECT $1, k.branch_id, k.product_id FROM unnest($2::uuid[], $3::uuid[]) AS k(branch_id, product_id)
      ORDER BY k.branch_id, k.product_id
     ON CONFLICT DO NOTHING`,
    [pharmacyId, keys.map((k) => k.branchId), keys.map((k) => k.productId)],
  );
}

/**
 * Locks the existing branch rows of these keys in the ledger's one global order, (branch, product): every
 * multi-product change takes its locks in this order, so two of them never wait for each other in a circle.
 */
export async function lockBranchStockRows(q: Queryable, pharmacyId: string, keys: readonly StockKey[]): Promise<void> {
  if (keys.length === 0) return;
  await q.query(
    `SELECT 1 FROM branch_products bp
       JOIN unnest($2::uuid[], $3::uuid[]) AS k(branch_id, product_id) ON k.branch_id = bp.branch_id AND k.product_id = bp.product_id
      WHERE bp.pharmacy_id = $1
      ORDER BY bp.branch_id, bp.product_id
      FOR UPDATE OF bp`,
    [pharmacyId, keys.map((k) => k.branchId), keys.map((k) => k.productId)],
  );
}

export async function branchExists(q: Queryable, pharmacyId: string, branchId: string): Promise<boolean> {
  const rows = await q.query(`SELECT 1 FROM branches WHERE pharmacy_id = $1 AND id = $2`, [pharmacyId, branchId]);
  return rows.length > 0;
}

export async function findProductName(q: Queryable, pharmacyId: string, productId: string): Promise<string | undefined> {
  const [row] = await q.query<{ name: string }>(`SELECT name FROM products WHERE pharmacy_id = $1 AND id = $2`, [pharmacyId, productId]);
  return row?.name;
}

/** Every batch of a branch and product (the caller holds the branch row lock). */
export async function findBatches(q: Queryable, pharmacyId: string, key: StockKey): Promise<LedgerBatch[]> {
  const rows = await q.query<LedgerBatchRow>(`SELECT ${BATCH_COLUMNS} FROM batches WHERE pharmacy_id = $1 AND branch_id = $2 AND product_id = $3`, [
    pharmacyId,
    key.branchId,
    key.productId,
  ]);
  return rows.map(toLedgerBatch);
}

export interface NewBatch {
  batchNumber: string | null;
  expiryDate: string | null;
  unitCostCents: number;
  source: string;
  receivedAt: Date;
}

/** An empty batch (the change then adds its pieces). */
export async function insertBatch(q: Queryable, pharmacyId: string, key: StockKey, batch: NewBatch): Promise<LedgerBatch> {
  const [row] = await q.query<LedgerBatchRow>(
    `INSERT INTO batches (pharmacy_id, branch_id, product_id, batch_number, expiry_date, quantity, reserved_quantity, unit_cost_cents,
                          received_at, source)
     VALUES ($1, $2, $3, $4, $5, 0, 0, $6, $7, $8) RETURNING ${BATCH_COLUMNS}`,
    [pharmacyId, key.branchId, key.productId, batch.batchNumber, batch.expiryDate, batch.unitCostCents, batch.receivedAt, batch.source],
  );
  if (!row) throw new Error('batch insert returned nothing');
  return toLedgerBatch(row);
}

/** Adds to the sellable and reserved pieces of several batches in one statement (each batch once). */
export async function addToBatches(q: Queryable, pharmacyId: string, moves: readonly { batchId: string; quantity: number; reserved: number }[]): Promise<void> {
  if (moves.length === 0) return;
  await q.query(
    `UPDATE batches b SET quantity = b.quantity + m.dq, reserved_quantity = b.reserved_quantity + m.dr
       FROM unnest($2::uuid[], $3::int[], $4::int[]) AS m(id, dq, dr)
      WHERE b.pharmacy_id = $1 AND b.id = m.id`,
    [pharmacyId, moves.map((m) => m.batchId), moves.map((m) => m.quantity), moves.map((m) => m.reserved)],
  );
}

export interface MovementHead {
  branchId: string;
  productId: string;
  kind: string;
  reason: string;
  referenceType: string | null;
  referenceId: string | null;
  userId: string | null;
  at: Date;
}

export interface MovementLine {
  batchId: string;
  delta: number;
  /** The branch's on-hand (quantity + reserved) after this movement. */
  quantityAfter: number;
  /** The batch's on-hand after this movement. */
  batchQuantityAfter: number;
}

/** Appends movements to the ledger in the given order (their `sequence` numbers follow it). */
export async function insertMovements(q: Queryable, pharmacyId: string, head: MovementHead, lines: readonly MovementLine[]): Promise<void> {
  if (lines.length === 0) return;
  await q.query(
    `INSERT INTO stock_movements (pharmacy_id, branch_id, product_id, batch_id, kind, delta, quantity_after, batch_quantity_after, reason,
                                  reference_type, reference_id, user_id, at)
     SELECT $1, $2, $3, m.batch_id, $4, m.delta, m.after, m.batch_after, $5, $6, $7, $8, $9
       FROM unnest($10::uuid[], $11::int[], $12::int[], $13::int[]) WITH ORDINALITY AS m(batch_id, delta, after, batch_after, n)
      ORDER BY m.n`,
    [
      pharmacyId,
      head.branchId,
      head.productId,
      head.kind,
      head.reason,
      head.referenceType,
      head.referenceId,
      head.userId,
      head.at,
      lines.map((l) => l.batchId),
      lines.map((l) => l.delta),
      lines.map((l) => l.quantityAfter),
      lines.map((l) => l.batchQuantityAfter),
    ],
  );
}

/** The branch's stock after a change, with its stamps. */
export async function updateBranchStock(
  q: Queryable,
  pharmacyId: string,
  key: StockKey,
  stock: { quantity: number; reservedQuantity: number; reason: string; at: Date },
): Promise<void> {
  await q.query(
    `UPDATE branch_products SET quantity = $4, reserved_quantity = $5, last_stock_update_at = $6, last_stock_update_reason = $7, updated_at = $6
      WHERE pharmacy_id = $1 AND branch_id = $2 AND product_id = $3`,
    [pharmacyId, key.branchId, key.productId, stock.quantity, stock.reservedQuantity, stock.at, stock.reason],
  );
}

// ------------------------------------------------------------------------------------------- opening stock

export interface OpeningBatchRow extends StockKey {
  id: string;
  batchNumber: string | null;
  expiryDate: string | null;
  unitCostCents: number;
  quantity: number;
  source: string;
}

export interface OpeningMovementRow extends StockKey {
  batchId: string;
  delta: number;
  quantityAfter: number;
  batchQuantityAfter: number;
}

/**
 * The opening stock of branch rows that have none yet, set-based (an import's chunk): the batches, their movements
 * in the given order, and the branch rows' quantity. The branch rows are locked and must hold no stock
 * (quantity = reserved = 0, no batch): answers how many rows qualified, so the caller refuses anything else.
 */
export async function insertOpeningStock(
  q: Queryable,
  pharmacyId: string,
  data: {
    keys: readonly (StockKey & { quantity: number })[];
    batches: readonly OpeningBatchRow[];
    movements: readonly OpeningMovementRow[];
    head: Omit<MovementHead, 'branchId' | 'productId'>;
  },
): Promise<number> {
  const { keys, batches, movements, head } = data;
  const updated = await q.query<{ n: number }>(
    `WITH k AS (SELECT * FROM unnest($2::uuid[], $3::uuid[], $4::int[]) AS k(branch_id, product_id, quantity) ORDER BY branch_id, product_id),
          locked AS (
            SELECT bp.branch_id, bp.product_id FROM branch_products bp JOIN k USING (branch_id, product_id)
             WHERE bp.pharmacy_id = $1 AND bp.quantity = 0 AND bp.reserved_quantity = 0
               AND NOT EXISTS (SELECT 1 FROM batches b WHERE b.pharmacy_id = $1 AND b.branch_id = bp.branch_id AND b.product_id = bp.product_id)
             ORDER BY bp.branch_id, bp.product_id
               FOR UPDATE OF bp)
     UPDATE branch_products bp SET quantity = k.quantity, last_stock_update_at = $5, last_stock_update_reason = $6, updated_at = $5
       FROM k JOIN locked USING (branch_id, product_id)
      WHERE bp.pharmacy_id = $1 AND bp.branch_id = k.branch_id AND bp.product_id = k.product_id
      RETURNING 1 AS n`,
    [pharmacyId, keys.map((k) => k.branchId), keys.map((k) => k.productId), keys.map((k) => k.quantity), head.at, head.reason],
  );
  if (updated.length !== keys.length) return updated.length;
  if (batches.length) {
    await q.query(
      `INSERT INTO batches (pharmacy_id, id, branch_id, product_id, batch_number, expiry_date, quantity, reserved_quantity,
                            unit_cost_cents, received_at, source)
       SELECT $1, t.id, t.branch_id, t.product_id, t.batch_number, t.expiry_date, t.quantity, 0, t.unit_cost, $9, t.source
         FROM unnest($2::uuid[], $3::uuid[], $4::uuid[], $5::text[], $6::date[], $7::int[], $8::bigint[], $10::text[])
              AS t(id, branch_id, product_id, batch_number, expiry_date, quantity, unit_cost, source)`,
      [
        pharmacyId,
        batches.map((b) => b.id),
        batches.map((b) => b.branchId),
        batches.map((b) => b.productId),
        batches.map((b) => b.batchNumber),
        batches.map((b) => b.expiryDate),
        batches.map((b) => b.quantity),
        batches.map((b) => b.unitCostCents),
        head.at,
        batches.map((b) => b.source),
      ],
    );
  }
  if (movements.length) {
    await q.query(
      `INSERT INTO stock_movements (pharmacy_id, branch_id, product_id, batch_id, kind, delta, quantity_after, batch_quantity_after, reason,
                                    reference_type, reference_id, user_id, at)
       SELECT $1, m.branch_id, m.product_id, m.batch_id, $2, m.delta, m.after, m.batch_after, $3, $4, $5, $6, $7
         FROM unnest($8::uuid[], $9::uuid[], $10::uuid[], $11::int[], $12::int[], $13::int[]) WITH ORDINALITY
              AS m(branch_id, product_id, batch_id, delta, after, batch_after, n)
        ORDER BY m.n`,
      [
        pharmacyId,
        head.kind,
        head.reason,
        head.referenceType,
        head.referenceId,
        head.userId,
        head.at,
        movements.map((m) => m.branchId),
        movements.map((m) => m.productId),
        movements.map((m) => m.batchId),
        movements.map((m) => m.delta),
        movements.map((m) => m.quantityAfter),
        movements.map((m) => m.batchQuantityAfter),
      ],
    );
  }
  return updated.length;
}
