import type { Adjustment, AdjustmentReasonType } from '@pharmapoint/domain/stock';
import { deferWrite, type Queryable } from '../../db/database.ts';

/** Stock adjustments and their lines (the stock changes themselves go through the ledger). */

export interface AdjustmentFilter {
  ids?: readonly string[];
  /** null = every branch. */
  branchIds: readonly string[] | null;
  productId?: string;
  reasonType?: AdjustmentReasonType;
  /** Business dates (YYYY-MM-DD): days in `timeZone`, the pharmacy's. */
  from?: string;
  to?: string;
  timeZone?: string;
}

interface AdjustmentRow {
  id: string;
  branch_id: string;
  branch_name: string;
  reason: string;
  user_id: string | null;
  user_name: string | null;
  created_at: string;
}

interface AdjustmentItemRow {
  id: string;
  adjustment_id: string;
  product_id: string;
  product_name: string;
  batch_id: string | null;
  batch_number: string | null;
  delta: number;
  reason_type: AdjustmentReasonType;
  note: string | null;
}

interface AdjustmentMovementRow {
  adjustment_id: string;
  product_id: string;
  batch_id: string | null;
  batch_number: string | null;
  expiry_date: string | null;
  delta: number;
}

type AdjustmentBatch = Adjustment['items'][number]['batches'][number];

/**
 * The batches each line took, from the ledger: the movements of an adjustment are written line by line in the
 * request's order (one per batch), so walking them in the ledger's order and giving each line the movements of its
 * product until they add up to its change attributes every movement, even with two lines for one product.
 */
function batchesByLine(items: readonly AdjustmentItemRow[], movements: readonly AdjustmentMovementRow[]): Map<string, AdjustmentBatch[]> {
  const result = new Map<string, AdjustmentBatch[]>();
  const pending = new Map<string, AdjustmentMovementRow[]>();
  for (const m of movements) {
    const key = `${m.adjustment_id}:${m.product_id}`;
    const list = pending.get(key) ?? [];
    list.push(m);
    pending.set(key, list);
  }
  for (const item of items) {
    const queue = pending.get(`${item.adjustment_id}:${item.product_id}`) ?? [];
    const taken: AdjustmentBatch[] = [];
    let total = 0;
    while (queue.length > 0 && total !== item.delta) {
      const m = queue.shift()!;
      total += m.delta;
      taken.push({ batchId: m.batch_id, batchNumber: m.batch_number, expiryDate: m.expiry_date, delta: m.delta });
    }
    result.set(item.id, taken);
  }
  return result;
}

function toAdjustment(row: AdjustmentRow, items: readonly AdjustmentItemRow[], batches: ReadonlyMap<string, AdjustmentBatch[]>): Adjustment {
  return {
    id: row.id,
    branchId: row.branch_id,
    branchName: row.branch_name,
    reason: row.reason,
    userId: row.user_id,
    userName: row.user_name,
    createdAt: row.created_at,
    items: items
      .filter((i) => i.adjustment_id === row.id)
      .map((i) => ({
        id: i.id,
        productId: i.product_id,
        productName: i.product_name,
        batchId: i.batch_id,
        batchNumber: i.batch_number,
        delta: i.delta,
        reasonType: i.reason_type,
        note: i.note,
        batches: batches.get(i.id) ?? [],
      })),
  };
}

function adjustmentWhere(pharmacyId: string, filter: AdjustmentFilter): { where: string; params: unknown[] } {
  return {
    where: `a.pharmacy_id = $1 AND ($2::uuid[] IS NULL OR a.id = ANY($2::uuid[])) AND ($3::uuid[] IS NULL OR a.branch_id = ANY($3::uuid[]))
      AND ($4::uuid IS NULL OR EXISTS (SELECT 1 FROM stock_adjustment_items i WHERE i.pharmacy_id = a.pharmacy_id AND i.adjustment_id = a.id AND i.product_id = $4::uuid))
      AND ($5::text IS NULL OR EXISTS (SELECT 1 FROM stock_adjustment_items i WHERE i.pharmacy_id = a.pharmacy_id AND i.adjustment_id = a.id AND i.reason_type = $5::text))
      AND ($6::date IS NULL OR (a.created_at AT TIME ZONE $8::text)::date >= $6::date)
      AND ($7::date IS NULL OR (a.created_at AT TIME ZONE $8::text)::date <= $7::date)`,
    params: [pharmacyId, filter.ids ?? null, filter.branchIds, filter.productId ?? null, filter.reasonType ?? null, filter.from ?? null, filter.to ?? null, filter.timeZone ?? 'UTC'],
  };
}

/** Adjustments with their lines, newest first. */
export async function findAdjustments(q: Queryable, pharmacyId: string, filter: AdjustmentFilter, page: { limit: number; offset: number }): Promise<Adjustment[]> {
  const { where, params } = adjustmentWhere(pharmacyId, filter);
  const heads = await q.query<AdjustmentRow>(
    `SELECT a.id, a.branch_id, b.name AS branch_name, a.reason, a.user_id, u.name AS user_name, a.created_at
       FROM stock_adjustments a
       JOIN branches b ON b.pharmacy_id = a.pharmacy_id AND b.id = a.branch_id
       LEFT JOIN users u ON u.id = a.user_id
      WHERE ${where}
      ORDER BY a.created_at DESC, a.id
      LIMIT $9 OFFSET $10`,
    [...params, page.limit, page.offset],
  );
  if (heads.length === 0) return [];
  const items = await q.query<AdjustmentItemRow>(
    `SELECT i.id, i.adjustment_id, i.product_id, p.name AS product_name, i.batch_id, bt.batch_number, i.delta, i.reason_type, i.note
       FROM stock_adjustment_items i
       JOIN products p ON p.pharmacy_id = i.pharmacy_id AND p.id = i.product_id
       LEFT JOIN batches bt ON bt.pharmacy_id = i.pharmacy_id AND bt.id = i.batch_id
      WHERE i.pharmacy_id = $1 AND i.adjustment_id = ANY($2::uuid[])
      ORDER BY i.adjustment_id, i.position`,
    [pharmacyId, heads.map((h) => h.id)],
  );
  const movements = await q.query<AdjustmentMovementRow>(
    `SELECT m.reference_id AS adjustment_id, m.product_id, m.batch_id, bt.batch_number, bt.expiry_date, m.delta
       FROM stock_movements m
       LEFT JOIN batches bt ON bt.pharmacy_id = m.pharmacy_id AND bt.id = m.batch_id
      WHERE m.pharmacy_id = $1 AND m.reference_type = 'stock_adjustment' AND m.reference_id = ANY($2::text[]) AND m.kind = 'adjustment'
      ORDER BY m.sequence, m.id`,
    [pharmacyId, heads.map((h) => h.id)],
  );
  const batches = batchesByLine(items, movements);
  return heads.map((h) => toAdjustment(h, items, batches));
}

export async function countAdjustments(q: Queryable, pharmacyId: string, filter: AdjustmentFilter): Promise<number> {
  const { where, params } = adjustmentWhere(pharmacyId, filter);
  const [row] = await q.query<{ total: number }>(`SELECT count(*)::int AS total FROM stock_adjustments a WHERE ${where}`, params);
  return row?.total ?? 0;
}

export interface NewAdjustmentItem {
  productId: string;
  batchId: string | null;
  delta: number;
  reasonType: AdjustmentReasonType;
  note: string | null;
}

/**
 * What an adjustment reads before it changes stock, in one statement: its branch (null when the pharmacy has no such
 * branch), the pharmacy's products among `productIds` and the user's name (for the answer). The products are looked
 * up one by one (see KEYS_LOOKED_UP_ONE_BY_ONE in ledger.repository.ts): `p.id = ANY($3)` was planned, without
 * statistics, as a scan of the pharmacy's products filtered on id.
 */
export async function findAdjustmentRefs(
  q: Queryable,
  pharmacyId: string,
  branchId: string,
  productIds: readonly string[],
  userId: string,
): Promise<{ branch: { id: string; name: string } | null; products: { id: string; name: string }[]; userName: string | null }> {
  const [row] = await q.query<{ branch: { id: string; name: string } | null; products: { id: string; name: string }[]; user_name: string | null }>(
    `SELECT (SELECT json_build_object('id', b.id, 'name', b.name) FROM branches b WHERE b.pharmacy_id = $1 AND b.id = $2) AS branch,
            COALESCE((SELECT json_agg(json_build_object('id', p.id, 'name', p.name))
                        FROM (SELECT * FROM unnest($3::uuid[]) LIMIT cardinality($3::uuid[])) AS k(id)
                        CROSS JOIN LATERAL (SELECT p.id, p.name FROM products p WHERE p.pharmacy_id = $1 AND p.id = k.id OFFSET 0) p),
                     '[]'::json) AS products,
            (SELECT u.name FROM users u WHERE u.id = $4) AS user_name`,
    [pharmacyId, branchId, productIds, userId],
  );
  return { branch: row?.branch ?? null, products: row?.products ?? [], userName: row?.user_name ?? null };
}

/**
 * Writes an adjustment and its lines (in the request's order, with the ids the caller chose) at the end of the
 * transaction, in COMMIT's round trip (a deferred write: nothing reads its result; the branch, products, user and named
 * batches it references were read or changed in this transaction already).
 */
export function insertAdjustment(
  q: Queryable,
  pharmacyId: string,
  adjustment: { id: string; branchId: string; reason: string; userId: string; at: Date; items: readonly (NewAdjustmentItem & { id: string })[] },
): void {
  const { items } = adjustment;
  // Two plain INSERT ... VALUES (a row of parameters per line) rather than one statement inserting the lines from
  // unnest(...) WITH ORDINALITY joined with the head's CTE: a deferred write is sent inlined in COMMIT's simple-protocol
  // message, so it is parsed and planned for every adjustment, and the VALUES lists cost about a third of that
  // (decision 0082). The lines' foreign key to the head is checked at the end of their statement, after the head's.
  deferWrite(
    q,
    `INSERT INTO stock_adjustments (pharmacy_id, id, branch_id, reason, user_id, created_at) VALUES ($1, $2, $3, $4, $5, $6)`,
    [pharmacyId, adjustment.id, adjustment.branchId, adjustment.reason, adjustment.userId, adjustment.at],
  );
  const params: unknown[] = [pharmacyId, adjustment.id];
  const rows = items.map((i, position) => {
    const n = params.length;
    params.push(i.id, position, i.productId, i.batchId, i.delta, i.reasonType, i.note);
    return `($1, $${n + 1}, $2, $${n + 2}, $${n + 3}, $${n + 4}, $${n + 5}, $${n + 6}, $${n + 7})`;
  });
  deferWrite(
    q,
    `INSERT INTO stock_adjustment_items (pharmacy_id, id, adjustment_id, position, product_id, batch_id, delta, reason_type, note)
     VALUES ${rows.join(', ')}`,
    params,
  );
}

/** The branch purchase price of a product (0 when the branch has no row for it). */
export async function findBranchPurchasePrice(q: Queryable, pharmacyId: string, branchId: string, productId: string): Promise<number> {
  const [row] = await q.query<{ purchase_price_cents: number }>(
    `SELECT purchase_price_cents FROM branch_products WHERE pharmacy_id = $1 AND branch_id = $2 AND product_id = $3`,
    [pharmacyId, branchId, productId],
  );
  return row?.purchase_price_cents ?? 0;
}
