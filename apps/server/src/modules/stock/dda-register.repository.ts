import type { Queryable } from '../../db/database.ts';

/**
 * The DDA register's reads of the stock ledger (stock_movements in `sequence` order) and of what each movement's
 * reference names: the purchase and its supplier, the sale with its client and prescription, the customer's return,
 * the purchase return, the transfer's other branch. Balances are sums of the ledger's deltas (reservations carry
 * delta 0), so they hold whatever order transactions stamped their instants in.
 *
 * The range is business days in the pharmacy's time zone (scope.timeZone): [from 00:00, the day after `to` 00:00) there.
 */

export interface DdaScope {
  pharmacyId: string;
  /** null = every branch. */
  branchIds: readonly string[] | null;
  productId: string | null;
  from: string;
  /** The first day after the range. */
  until: string;
  /** The pharmacy's time zone: the days of the range are its business days. */
  timeZone: string;
}

/** The range's ends as instants: the dates $4 and $5 at 00:00 in the pharmacy's zone ($8). */
const RANGE_START = `(($4::date)::timestamp AT TIME ZONE $8::text)`;
const RANGE_END = `(($5::date)::timestamp AT TIME ZONE $8::text)`;

export interface DdaRegisterRow {
  branch_id: string;
  branch_name: string;
  product_id: string;
  product_name: string;
  sku: string | null;
  unit: string;
  opening: number;
  received: number;
  issued: number;
  lines: number;
  total: number;
}

/**
 * One page of registers: controlled products (is_dda) in the branches of the scope that had stock before the range
 * or moved in it; by product name, then the default branch first and branch name. `total` counts every register.
 */
export async function findDdaRegisters(q: Queryable, scope: DdaScope, page: { limit: number; offset: number }): Promise<DdaRegisterRow[]> {
  return q.query<DdaRegisterRow>(
    `WITH pairs AS (
       SELECT bp.branch_id, bp.product_id, br.name AS branch_name, br.is_default, p.name AS product_name, p.sku, p.unit
         FROM branch_products bp
         JOIN products p ON p.pharmacy_id = bp.pharmacy_id AND p.id = bp.product_id AND p.is_dda
         JOIN branches br ON br.pharmacy_id = bp.pharmacy_id AND br.id = bp.branch_id
        WHERE bp.pharmacy_id = $1 AND ($2::uuid[] IS NULL OR bp.branch_id = ANY($2::uuid[])) AND ($3::uuid IS NULL OR bp.product_id = $3::uuid)),
     sums AS (
       SELECT m.branch_id, m.product_id,
              COALESCE(sum(m.delta) FILTER (WHERE m.at < ${RANGE_START}), 0)::bigint AS opening,
              COALESCE(sum(m.delta) FILTER (WHERE m.at >= ${RANGE_START} AND m.delta > 0), 0)::bigint AS received,
              COALESCE(-sum(m.delta) FILTER (WHERE m.at >= ${RANGE_START} AND m.delta < 0), 0)::bigint AS issued,
              count(*) FILTER (WHERE m.at >= ${RANGE_START} AND m.delta <> 0)::int AS lines
         FROM stock_movements m
         JOIN pairs ON pairs.branch_id = m.branch_id AND pairs.product_id = m.product_id
        WHERE m.pharmacy_id = $1 AND m.at < ${RANGE_END}
        GROUP BY m.branch_id, m.product_id)
     SELECT pairs.branch_id, pairs.branch_name, pairs.product_id, pairs.product_name, pairs.sku, pairs.unit,
            sums.opening, sums.received, sums.issued, sums.lines, count(*) OVER ()::int AS total
       FROM pairs JOIN sums ON sums.branch_id = pairs.branch_id AND sums.product_id = pairs.product_id
      WHERE sums.opening <> 0 OR sums.lines > 0
      ORDER BY pairs.product_name, pairs.product_id, pairs.is_default DESC, pairs.branch_name, pairs.branch_id
      LIMIT $6 OFFSET $7`,
    [scope.pharmacyId, scope.branchIds, scope.productId, scope.from, scope.until, page.limit, page.offset, scope.timeZone],
  );
}

export interface DdaBatchRow {
  branch_id: string;
  product_id: string;
  batch_id: string;
  batch_number: string | null;
  expiry_date: string | null;
  opening: number;
  received: number;
  issued: number;
}

/** The batches of these registers that held stock before the range or moved in it: balance before it, pieces in and out. */
export async function findDdaBatches(q: Queryable, scope: DdaScope, registers: readonly { branchId: string; productId: string }[]): Promise<DdaBatchRow[]> {
  if (registers.length === 0) return [];
  const start = `(($4::date)::timestamp AT TIME ZONE $6::text)`;
  return q.query<DdaBatchRow>(
    `WITH pairs AS (SELECT * FROM unnest($2::uuid[], $3::uuid[]) AS t (branch_id, product_id)),
     sums AS (
       SELECT m.branch_id, m.product_id, m.batch_id,
              COALESCE(sum(m.delta) FILTER (WHERE m.at < ${start}), 0)::bigint AS opening,
              COALESCE(sum(m.delta) FILTER (WHERE m.at >= ${start} AND m.delta > 0), 0)::bigint AS received,
              COALESCE(-sum(m.delta) FILTER (WHERE m.at >= ${start} AND m.delta < 0), 0)::bigint AS issued
         FROM stock_movements m
         JOIN pairs ON pairs.branch_id = m.branch_id AND pairs.product_id = m.product_id
        WHERE m.pharmacy_id = $1 AND m.batch_id IS NOT NULL AND m.at < (($5::date)::timestamp AT TIME ZONE $6::text)
        GROUP BY m.branch_id, m.product_id, m.batch_id)
     SELECT sums.*, b.batch_number, b.expiry_date
       FROM sums JOIN batches b ON b.pharmacy_id = $1 AND b.id = sums.batch_id
      WHERE sums.opening <> 0 OR sums.received <> 0 OR sums.issued <> 0
      ORDER BY b.expiry_date NULLS LAST, b.batch_number NULLS LAST, sums.batch_id`,
    [scope.pharmacyId, registers.map((r) => r.branchId), registers.map((r) => r.productId), scope.from, scope.until, scope.timeZone],
  );
}

export interface DdaLineRow {
  id: string;
  sequence: number;
  branch_id: string;
  product_id: string;
  batch_id: string | null;
  batch_number: string | null;
  expiry_date: string | null;
  kind: string;
  delta: number;
  reason: string | null;
  at: string;
  business_date: string;
  user_name: string | null;
  supplier_name: string | null;
  supplier_invoice: string | null;
  sale_invoice: string | null;
  client_name: string | null;
  client_phone: string | null;
  client_location: string | null;
  client_address: string | null;
  prescription: Record<string, unknown> | null;
  return_number: string | null;
  other_branch_name: string | null;
}

/**
 * The movements of these registers in the range, in ledger order, at most `perRegister` of each, with what their
 * references name. A sale's line for the product (the one that took this batch first) gives the prescription; the
 * client's address is the contact's, the name, phone and location as the sale recorded them.
 */
export async function findDdaLines(
  q: Queryable,
  scope: DdaScope,
  registers: readonly { branchId: string; productId: string }[],
  perRegister: number,
): Promise<DdaLineRow[]> {
  if (registers.length === 0) return [];
  return q.query<DdaLineRow>(
    `WITH pairs AS (SELECT * FROM unnest($2::uuid[], $3::uuid[]) AS t (branch_id, product_id)),
     moves AS (
       SELECT m.*, row_number() OVER (PARTITION BY m.branch_id, m.product_id ORDER BY m.sequence) AS n
         FROM stock_movements m
         JOIN pairs ON pairs.branch_id = m.branch_id AND pairs.product_id = m.product_id
        WHERE m.pharmacy_id = $1 AND m.delta <> 0
          AND m.at >= (($4::date)::timestamp AT TIME ZONE $7::text) AND m.at < (($5::date)::timestamp AT TIME ZONE $7::text))
     SELECT m.id, m.sequence, m.branch_id, m.product_id, m.batch_id, b.batch_number, b.expiry_date, m.kind, m.delta, m.reason, m.at,
            to_char(m.at AT TIME ZONE $7::text, 'YYYY-MM-DD') AS business_date,
            COALESCE(u.name, s.cashier_name) AS user_name,
            sup.name AS supplier_name,
            COALESCE(pu.reference, pu.purchase_number) AS supplier_invoice,
            s.invoice_number AS sale_invoice, s.client_name, s.client_phone, s.client_location, ct.address AS client_address,
            rx.prescription, sr.return_number,
            CASE WHEN m.kind = 'transfer_out' THEN tb.name WHEN m.kind = 'transfer_in' AND st.to_branch_id = m.branch_id THEN fb.name END AS other_branch_name
       FROM moves m
       LEFT JOIN batches b ON b.pharmacy_id = m.pharmacy_id AND b.id = m.batch_id
       LEFT JOIN users u ON u.id = m.user_id
       LEFT JOIN purchase_returns pr ON pr.pharmacy_id = m.pharmacy_id AND m.reference_type = 'purchase_return' AND pr.id = CASE WHEN m.reference_type = 'purchase_return' THEN m.reference_id::uuid END
       LEFT JOIN purchases pu ON pu.pharmacy_id = m.pharmacy_id
             AND pu.id = CASE WHEN m.reference_type = 'purchase' THEN m.reference_id::uuid ELSE pr.purchase_id END
       LEFT JOIN contacts sup ON sup.pharmacy_id = m.pharmacy_id AND sup.id = COALESCE(pr.supplier_id, pu.supplier_id)
       LEFT JOIN sale_returns sr ON sr.pharmacy_id = m.pharmacy_id AND sr.id = CASE WHEN m.reference_type = 'sale_return' THEN m.reference_id::uuid END
       LEFT JOIN sales s ON s.pharmacy_id = m.pharmacy_id
             AND s.id = CASE WHEN m.reference_type = 'sale' THEN m.reference_id::uuid ELSE sr.sale_id END
       LEFT JOIN contacts ct ON ct.pharmacy_id = s.pharmacy_id AND ct.id = s.client_id
       LEFT JOIN LATERAL (
             SELECT si.prescription FROM sale_items si
               LEFT JOIN sale_item_batches sib ON sib.pharmacy_id = si.pharmacy_id AND sib.sale_id = si.sale_id AND sib.line = si.line AND sib.batch_id = m.batch_id
              WHERE si.pharmacy_id = s.pharmacy_id AND si.sale_id = s.id AND si.product_id = m.product_id
              ORDER BY (sib.batch_id IS NOT NULL) DESC, si.line
              LIMIT 1) rx ON s.id IS NOT NULL
       LEFT JOIN stock_transfers st ON st.pharmacy_id = m.pharmacy_id AND st.id = CASE WHEN m.reference_type = 'stock_transfer' THEN m.reference_id::uuid END
       LEFT JOIN branches fb ON fb.pharmacy_id = st.pharmacy_id AND fb.id = st.from_branch_id
       LEFT JOIN branches tb ON tb.pharmacy_id = st.pharmacy_id AND tb.id = st.to_branch_id
      WHERE m.n <= $6
      ORDER BY m.branch_id, m.product_id, m.sequence`,
    [scope.pharmacyId, registers.map((r) => r.branchId), registers.map((r) => r.productId), scope.from, scope.until, perRegister, scope.timeZone],
  );
}

/** The pharmacy's name, for the register's headings. */
export async function findPharmacyName(q: Queryable, pharmacyId: string): Promise<string> {
  const [row] = await q.query<{ name: string }>(`SELECT name FROM pharmacies WHERE id = $1`, [pharmacyId]);
  return row?.name ?? '';
}

/** Does the product exist in the pharmacy? */
export async function productExists(q: Queryable, pharmacyId: string, productId: string): Promise<boolean> {
  const [row] = await q.query(`SELECT 1 FROM products WHERE pharmacy_id = $1 AND id = $2`, [pharmacyId, productId]);
  return row !== undefined;
}
