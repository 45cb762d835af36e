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
  alert_threshold: number;
  product_active: boolean;
  product_name: string;
}

export interface BranchStock {
  quantity: number;
  reservedQuantity: number;
  purchasePriceCents: number;
  /**
   * What the row's stock alert depends on besides its quantity (the ledger keeps stock_alerts, decision 0078): the
   * threshold (the branch's, else the product's), whether the product is active, and its name. Read with the lock.
   */
  alert: StockAlertInputs;
}

export interface StockAlertInputs {
  threshold: number;
  productActive: boolean;
  productName: string;
}

function toBranchStock(row: BranchStockRow): BranchStock {
  return {
    quantity: row.quantity,
    reservedQuantity: row.reserved_quantity,
    purchasePriceCents: row.purchase_price_cents,
    alert: { threshold: row.alert_threshold, productActive: row.product_active, productName: row.product_name },
  };
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

/** `branch:product`, the key of a branch row in the maps below. */
export function stockKeyOf(key: StockKey): string {
  return `${key.branchId}:${key.productId}`;
}

/*
 * KEYS_LOOKED_UP_ONE_BY_ONE (decision 0082). The ledger's statements take a list of keys (unnest of arrays) and
 * touch those rows of branch_products, batches, products and stock_alerts. Written as a plain join of unnest(...)
 * with the table, the planner estimated the keys at 10 rows (it cannot see an array parameter's length in a generic
 * plan) and, without statistics, the pharmacy's rows (`pharmacy_id = $1`) at a row or two: it scanned all the
 * pharmacy's rows and hashed them against the keys — ~300 rows per table and statement at 300 products, growing with
 * the catalogue, about 2,800 index entries read per one-line adjustment (pg_stat_user_indexes). Now:
 * - the keys come from `(SELECT * FROM unnest(...) LIMIT cardinality(first array))`: the LIMIT changes nothing (the
 *   arrays have that many elements) but the generic plan estimates it at one row (a LIMIT it cannot evaluate counts
 *   as a tenth of its input), so a nested loop of index lookups by key is the cheapest plan, as it is in a custom
 *   plan, which sees the array's real length; with statistics the pharmacy's rows are many and the lookups win anyway;
 * - the SELECTs reach each table in a LATERAL subquery that cannot be flattened into a join (FOR UPDATE, OFFSET 0),
 *   so each key is one index lookup.
 */
const LOCK_COLUMNS = `bp.branch_id, bp.product_id, bp.quantity, bp.reserved_quantity, bp.purchase_price_cents,
       COALESCE(bp.low_stock_threshold, p.low_stock_threshold) AS alert_threshold, p.is_active AS product_active, p.name AS product_name`;

/**
 * Locks the existing branch rows of these keys in the ledger's one global order, (branch, product): every
 * multi-product change takes its locks in this order, so two of them never wait for each other in a circle.
 * Answers the locked rows by stockKeyOf (a key without a row is absent), with what their stock alert depends on.
 * `onlyIfAll`: lock nothing (and answer nothing) unless every key has a row: the caller then creates the missing
 * rows and locks all again, in order, never holding a later row while it waits for an earlier one.
 */
export async function lockBranchStockRows(
  q: Queryable,
  pharmacyId: string,
  keys: readonly StockKey[],
  options: { onlyIfAll?: boolean } = {},
): Promise<Map<string, BranchStock>> {
  const locked = new Map<string, BranchStock>();
  if (keys.length === 0) return locked;
  // Every table is reached key by key (KEYS_LOOKED_UP_ONE_BY_ONE), so each lookup is an index scan on the key. The
  // keys are sorted first and the nested loop keeps their order, so the rows are still locked in the one global
  // (branch, product) order.
  const rows = await q.query<BranchStockRow & { branch_id: string; product_id: string }>(
    `SELECT ${LOCK_COLUMNS}
       FROM (SELECT k.branch_id, k.product_id FROM unnest($2::uuid[], $3::uuid[]) AS k(branch_id, product_id) ORDER BY 1, 2 LIMIT cardinality($2::uuid[])) k
       CROSS JOIN LATERAL (SELECT bp.branch_id, bp.product_id, bp.quantity, bp.reserved_quantity, bp.purchase_price_cents, bp.low_stock_threshold
                             FROM branch_products bp
                            WHERE bp.pharmacy_id = $1 AND bp.branch_id = k.branch_id AND bp.product_id = k.product_id
                              FOR UPDATE) bp
       CROSS JOIN LATERAL (SELECT p.low_stock_threshold, p.is_active, p.name FROM products p WHERE p.pharmacy_id = $1 AND p.id = k.product_id OFFSET 0) p
      ${options.onlyIfAll ? `WHERE (SELECT count(*) FROM (SELECT * FROM unnest($2::uuid[], $3::uuid[]) LIMIT cardinality($2::uuid[])) AS k(branch_id, product_id)
                                 CROSS JOIN LATERAL (SELECT 1 FROM branch_products x
                                                      WHERE x.pharmacy_id = $1 AND x.branch_id = k.branch_id AND x.product_id = k.product_id OFFSET 0) x) = $4` : ''}
      ORDER BY bp.branch_id, bp.product_id`,
    [pharmacyId, keys.map((k) => k.branchId), keys.map((k) => k.productId), ...(options.onlyIfAll ? [keys.length] : [])],
  );
  for (const row of rows) locked.set(stockKeyOf({ branchId: row.branch_id, productId: row.product_id }), toBranchStock(row));
  return locked;
}

export async function branchExists(q: Queryable, pharmacyId: string, branchId: string): Promise<boolean> {
  const rows = await q.query(`SELECT 1 FROM branches WHERE pharmacy_id = $1 AND id = $2`, [pharmacyId, branchId]);
  return rows.length > 0;
}

export async function findProductName(q: Queryable, pharmacyId: string, productId: string): Promise<string | undefined> {
  const [row] = await q.query<{ name: string }>(`SELECT name FROM products WHERE pharmacy_id = $1 AND id = $2`, [pharmacyId, productId]);
  return row?.name;
}

/** Every batch of these branches and products, by stockKeyOf (the caller holds their branch rows' locks). */
export async function findBatchesOf(q: Queryable, pharmacyId: string, keys: readonly StockKey[]): Promise<Map<string, LedgerBatch[]>> {
  const found = new Map<string, LedgerBatch[]>(keys.map((k) => [stockKeyOf(k), []]));
  if (keys.length === 0) return found;
  const rows = await q.query<LedgerBatchRow & { branch_id: string; product_id: string }>(
    // Key by key (KEYS_LOOKED_UP_ONE_BY_ONE): an index scan of batches_stock per key.
    `SELECT b.branch_id, b.product_id, b.${BATCH_COLUMNS.split(', ').join(', b.')}
       FROM (SELECT * FROM unnest($2::uuid[], $3::uuid[]) LIMIT cardinality($2::uuid[])) AS k(branch_id, product_id)
       CROSS JOIN LATERAL (SELECT * FROM batches b WHERE b.pharmacy_id = $1 AND b.branch_id = k.branch_id AND b.product_id = k.product_id OFFSET 0) b`,
    [pharmacyId, keys.map((k) => k.branchId), keys.map((k) => k.productId)],
  );
  for (const row of rows) found.get(stockKeyOf({ branchId: row.branch_id, productId: row.product_id }))?.push(toLedgerBatch(row));
  return found;
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

/** What a set of changes writes: batch quantities, ledger rows in order, and each branch row's final stock. */
export interface LedgerWrite {
  /** Who made the changes and when (every ledger row of one write has the same). */
  userId: string | null;
  at: Date;
  /** Pieces added to each batch's sellable (dq) and reserved (dr) quantity; each batch once. */
  batches: readonly { batchId: string; dq: number; dr: number }[];
  /** Ledger rows in ledger order (their `sequence` numbers follow it). */
  movements: readonly (Omit<MovementHead, 'userId' | 'at'> & MovementLine)[];
  /** Each branch row's stock after the changes, with the last change's reason and time. */
  branchRows: readonly (StockKey & { quantity: number; reservedQuantity: number; reason: string; at: Date; saleId: string | null })[];
  /** The stock alerts these changes set (upsert by key) or clear (delete by key); rows whose alert stays are in neither. */
  alerts: { set: readonly (StockKey & { status: 'out' | 'low'; productName: string })[]; clear: readonly StockKey[] };
}

/**
 * Writes the result of several stock changes in ONE statement: the batches' quantities, the ledger rows, the
 * branch rows and their stock alerts (decision 0078: no trigger recomputes them after a change of quantity). Answers
 * the highest ledger `sequence` written per branch row (by stockKeyOf).
 */
export async function writeLedger(q: Queryable, pharmacyId: string, write: LedgerWrite): Promise<Map<string, number>> {
  const { batches, movements, branchRows, alerts } = write;
  const rows = await q.query<{ branch_id: string; product_id: string; seq: number }>(
    `WITH b AS (
       UPDATE batches b SET quantity = b.quantity + m.dq, reserved_quantity = b.reserved_quantity + m.dr
         FROM (SELECT * FROM unnest($2::uuid[], $3::int[], $4::int[]) LIMIT cardinality($2::uuid[])) AS m(id, dq, dr)
        WHERE b.pharmacy_id = $1 AND b.id = m.id
       RETURNING 1
     ), bp AS (
       UPDATE branch_products bp SET quantity = r.quantity, reserved_quantity = r.reserved, last_stock_update_at = r.at,
              last_stock_update_reason = r.reason, last_stock_update_sale_id = r.sale_id, updated_at = r.at
         FROM (SELECT * FROM unnest($5::uuid[], $6::uuid[], $7::int[], $8::int[], $9::text[], $10::timestamptz[], $29::uuid[]) LIMIT cardinality($5::uuid[]))
              AS r(branch_id, product_id, quantity, reserved, reason, at, sale_id)
        WHERE bp.pharmacy_id = $1 AND bp.branch_id = r.branch_id AND bp.product_id = r.product_id
       RETURNING 1
     ), m AS (
       INSERT INTO stock_movements (pharmacy_id, branch_id, product_id, batch_id, kind, delta, quantity_after, batch_quantity_after, reason,
                                    reference_type, reference_id, user_id, at)
       SELECT $1, m.branch_id, m.product_id, m.batch_id, m.kind, m.delta, m.after, m.batch_after, m.reason, m.ref_type, m.ref_id, $21::uuid, $22::timestamptz
         FROM unnest($11::uuid[], $12::uuid[], $13::uuid[], $14::text[], $15::int[], $16::int[], $17::int[], $18::text[], $19::text[], $20::text[])
              WITH ORDINALITY AS m(branch_id, product_id, batch_id, kind, delta, after, batch_after, reason, ref_type, ref_id, n)
        ORDER BY m.n
       RETURNING branch_id, product_id, sequence
     ), alert_set AS (
       INSERT INTO stock_alerts AS a (pharmacy_id, branch_id, product_id, status, product_name)
       SELECT $1, s.branch_id, s.product_id, s.status, s.name FROM unnest($23::uuid[], $24::uuid[], $25::text[], $26::text[]) AS s(branch_id, product_id, status, name)
       ON CONFLICT (pharmacy_id, branch_id, product_id) DO UPDATE SET status = EXCLUDED.status, product_name = EXCLUDED.product_name
        WHERE a.status IS DISTINCT FROM EXCLUDED.status OR a.product_name IS DISTINCT FROM EXCLUDED.product_name
       RETURNING 1
     ), alert_clear AS (
       DELETE FROM stock_alerts a USING (SELECT * FROM unnest($27::uuid[], $28::uuid[]) LIMIT cardinality($27::uuid[])) AS c(branch_id, product_id)
        WHERE a.pharmacy_id = $1 AND a.branch_id = c.branch_id AND a.product_id = c.product_id
       RETURNING 1
     )
     SELECT branch_id, product_id, max(sequence) AS seq FROM m GROUP BY branch_id, product_id`,
    [
      pharmacyId,
      batches.map((b) => b.batchId),
      batches.map((b) => b.dq),
      batches.map((b) => b.dr),
      branchRows.map((r) => r.branchId),
      branchRows.map((r) => r.productId),
      branchRows.map((r) => r.quantity),
      branchRows.map((r) => r.reservedQuantity),
      branchRows.map((r) => r.reason),
      branchRows.map((r) => r.at.toISOString()),
      movements.map((m) => m.branchId),
      movements.map((m) => m.productId),
      movements.map((m) => m.batchId),
      movements.map((m) => m.kind),
      movements.map((m) => m.delta),
      movements.map((m) => m.quantityAfter),
      movements.map((m) => m.batchQuantityAfter),
      movements.map((m) => m.reason),
      movements.map((m) => m.referenceType),
      movements.map((m) => m.referenceId),
      write.userId,
      write.at.toISOString(),
      alerts.set.map((a) => a.branchId),
      alerts.set.map((a) => a.productId),
      alerts.set.map((a) => a.status),
      alerts.set.map((a) => a.productName),
      alerts.clear.map((a) => a.branchId),
      alerts.clear.map((a) => a.productId),
      branchRows.map((r) => r.saleId),
    ],
  );
  return new Map(rows.map((r) => [stockKeyOf({ branchId: r.branch_id, productId: r.product_id }), r.seq]));
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
               FOR UPDATE OF bp),
          u AS (
            UPDATE branch_products bp SET quantity = k.quantity, last_stock_update_at = $5, last_stock_update_reason = $6,
                   last_stock_update_sale_id = NULL, updated_at = $5
              FROM k JOIN locked USING (branch_id, product_id)
             WHERE bp.pharmacy_id = $1 AND bp.branch_id = k.branch_id AND bp.product_id = k.product_id
            RETURNING bp.branch_id, bp.product_id, bp.quantity, bp.low_stock_threshold),
          -- The rows' stock alerts (decision 0078: the ledger keeps them; no trigger runs on a change of quantity).
          s AS (
            SELECT u.branch_id, u.product_id, CASE WHEN u.quantity <= 0 THEN 'out' ELSE 'low' END AS status, x.name,
                   COALESCE(x.is_active AND u.quantity <= COALESCE(u.low_stock_threshold, x.low_stock_threshold), false) AS alert
              FROM u JOIN products x ON x.pharmacy_id = $1 AND x.id = u.product_id),
          alert_set AS (
            INSERT INTO stock_alerts AS a (pharmacy_id, branch_id, product_id, status, product_name)
            SELECT $1, s.branch_id, s.product_id, s.status, s.name FROM s WHERE s.alert
            ON CONFLICT (pharmacy_id, branch_id, product_id) DO UPDATE SET status = EXCLUDED.status, product_name = EXCLUDED.product_name
             WHERE a.status IS DISTINCT FROM EXCLUDED.status OR a.product_name IS DISTINCT FROM EXCLUDED.product_name
            RETURNING 1),
          alert_clear AS (
            DELETE FROM stock_alerts a USING s WHERE a.pharmacy_id = $1 AND a.branch_id = s.branch_id AND a.product_id = s.product_id AND NOT s.alert
            RETURNING 1)
     SELECT 1 AS n FROM u`,
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
