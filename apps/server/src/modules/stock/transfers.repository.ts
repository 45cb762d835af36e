import type { Transfer, TransferStatus } from '@pharmapoint/domain/stock';
import type { Queryable } from '../../db/database.ts';

/** Stock transfers and their lines (the stock moves themselves go through the ledger). */

interface TransferRow {
  id: string;
  from_branch_id: string;
  from_branch_name: string;
  to_branch_id: string;
  to_branch_name: string;
  status: TransferStatus;
  note: string | null;
  requested_by: string | null;
  requested_by_name: string | null;
  requested_at: string;
  approved_by: string | null;
  approved_by_name: string | null;
  approved_at: string | null;
  dispatched_by: string | null;
  dispatched_by_name: string | null;
  dispatched_at: string | null;
  received_by: string | null;
  received_by_name: string | null;
  received_at: string | null;
  cancelled_by: string | null;
  cancelled_by_name: string | null;
  cancelled_at: string | null;
  created_at: string;
  updated_at: string;
}

interface TransferItemRow {
  id: string;
  transfer_id: string;
  product_id: string;
  product_name: string;
  batch_id: string | null;
  batch_number: string | null;
  expiry_date: string | null;
  unit_cost_cents: number | null;
  quantity_requested: number;
  quantity_dispatched: number;
  quantity_received: number;
  quantity_returned: number;
}

function toTransfer(row: TransferRow, items: readonly TransferItemRow[]): Transfer {
  return {
    id: row.id,
    fromBranchId: row.from_branch_id,
    fromBranchName: row.from_branch_name,
    toBranchId: row.to_branch_id,
    toBranchName: row.to_branch_name,
    status: row.status,
    note: row.note,
    requested: { userId: row.requested_by, userName: row.requested_by_name, at: row.requested_at },
    approved: { userId: row.approved_by, userName: row.approved_by_name, at: row.approved_at },
    dispatched: { userId: row.dispatched_by, userName: row.dispatched_by_name, at: row.dispatched_at },
    received: { userId: row.received_by, userName: row.received_by_name, at: row.received_at },
    cancelled: { userId: row.cancelled_by, userName: row.cancelled_by_name, at: row.cancelled_at },
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    items: items
      .filter((i) => i.transfer_id === row.id)
      .map((i) => ({
        id: i.id,
        productId: i.product_id,
        productName: i.product_name,
        batchId: i.batch_id,
        batchNumber: i.batch_number,
        expiryDate: i.expiry_date,
        unitCostCents: i.unit_cost_cents,
        quantityRequested: i.quantity_requested,
        quantityDispatched: i.quantity_dispatched,
        quantityReceived: i.quantity_received,
        quantityReturned: i.quantity_returned,
      })),
  };
}

const TRANSFER_SELECT = `SELECT t.id, t.from_branch_id, fb.name AS from_branch_name, t.to_branch_id, tb.name AS to_branch_name, t.status, t.note,
    t.requested_by, ru.name AS requested_by_name, t.requested_at, t.approved_by, au.name AS approved_by_name, t.approved_at,
    t.dispatched_by, du.name AS dispatched_by_name, t.dispatched_at, t.received_by, rcu.name AS received_by_name, t.received_at,
    t.cancelled_by, cu.name AS cancelled_by_name, t.cancelled_at, t.created_at, t.updated_at
  FROM stock_transfers t
  JOIN branches fb ON fb.pharmacy_id = t.pharmacy_id AND fb.id = t.from_branch_id
  JOIN branches tb ON tb.pharmacy_id = t.pharmacy_id AND tb.id = t.to_branch_id
  LEFT JOIN users ru ON ru.id = t.requested_by
  LEFT JOIN users au ON au.id = t.approved_by
  LEFT JOIN users du ON du.id = t.dispatched_by
  LEFT JOIN users rcu ON rcu.id = t.received_by
  LEFT JOIN users cu ON cu.id = t.cancelled_by`;

async function findItems(q: Queryable, pharmacyId: string, transferIds: readonly string[]): Promise<TransferItemRow[]> {
  if (transferIds.length === 0) return [];
  return q.query<TransferItemRow>(
    `SELECT i.id, i.transfer_id, i.product_id, p.name AS product_name, i.batch_id, i.batch_number, i.expiry_date, i.unit_cost_cents,
            i.quantity_requested, i.quantity_dispatched, i.quantity_received, i.quantity_returned
       FROM stock_transfer_items i JOIN products p ON p.pharmacy_id = i.pharmacy_id AND p.id = i.product_id
      WHERE i.pharmacy_id = $1 AND i.transfer_id = ANY($2::uuid[])
      ORDER BY i.transfer_id, i.position, i.id`,
    [pharmacyId, transferIds],
  );
}

/** One transfer with its lines; with `lock`, its row stays locked until the transaction ends (state changes). */
export async function findTransfer(q: Queryable, pharmacyId: string, id: string, lock = false): Promise<Transfer | undefined> {
  if (lock) {
    const locked = await q.query(`SELECT 1 FROM stock_transfers WHERE pharmacy_id = $1 AND id = $2 FOR UPDATE`, [pharmacyId, id]);
    if (locked.length === 0) return undefined;
  }
  const [row] = await q.query<TransferRow>(`${TRANSFER_SELECT} WHERE t.pharmacy_id = $1 AND t.id = $2`, [pharmacyId, id]);
  return row ? toTransfer(row, await findItems(q, pharmacyId, [id])) : undefined;
}

export interface TransferFilter {
  status?: TransferStatus;
  /** From or to one of these branches; null = any. */
  branchIds: readonly string[] | null;
}

const TRANSFER_WHERE = `t.pharmacy_id = $1 AND ($2::text IS NULL OR t.status = $2)
  AND ($3::uuid[] IS NULL OR t.from_branch_id = ANY($3::uuid[]) OR t.to_branch_id = ANY($3::uuid[]))`;

/** Transfers, newest first. */
export async function findTransfers(q: Queryable, pharmacyId: string, filter: TransferFilter, page: { limit: number; offset: number }): Promise<Transfer[]> {
  const rows = await q.query<TransferRow>(`${TRANSFER_SELECT} WHERE ${TRANSFER_WHERE} ORDER BY t.created_at DESC, t.id LIMIT $4 OFFSET $5`, [
    pharmacyId,
    filter.status ?? null,
    filter.branchIds,
    page.limit,
    page.offset,
  ]);
  const items = await findItems(q, pharmacyId, rows.map((r) => r.id));
  return rows.map((r) => toTransfer(r, items));
}

export async function countTransfers(q: Queryable, pharmacyId: string, filter: TransferFilter): Promise<number> {
  const [row] = await q.query<{ total: number }>(`SELECT count(*)::int AS total FROM stock_transfers t WHERE ${TRANSFER_WHERE}`, [
    pharmacyId,
    filter.status ?? null,
    filter.branchIds,
  ]);
  return row?.total ?? 0;
}

/** The sellable-looking batches of some products in a branch (for the early stock check of a request). */
export async function findBranchBatches(
  q: Queryable,
  pharmacyId: string,
  branchId: string,
  productIds: readonly string[],
): Promise<{ id: string; productId: string; expiryDate: string | null; quantity: number }[]> {
  const rows = await q.query<{ id: string; product_id: string; expiry_date: string | null; quantity: number }>(
    `SELECT id, product_id, expiry_date, quantity FROM batches WHERE pharmacy_id = $1 AND branch_id = $2 AND product_id = ANY($3::uuid[])`,
    [pharmacyId, branchId, productIds],
  );
  return rows.map((r) => ({ id: r.id, productId: r.product_id, expiryDate: r.expiry_date, quantity: r.quantity }));
}

/** A requested transfer with its lines (positions 0, 1000, 2000...: room for the lines a dispatch splits off). */
export async function insertTransfer(
  q: Queryable,
  pharmacyId: string,
  transfer: {
    fromBranchId: string;
    toBranchId: string;
    note: string | null;
    userId: string;
    at: Date;
    items: readonly { productId: string; batchId: string | null; quantity: number }[];
  },
): Promise<string> {
  const [row] = await q.query<{ id: string }>(
    `INSERT INTO stock_transfers (pharmacy_id, from_branch_id, to_branch_id, status, note, requested_by, requested_at, created_at, updated_at)
     VALUES ($1, $2, $3, 'requested', $4, $5, $6, $6, $6) RETURNING id`,
    [pharmacyId, transfer.fromBranchId, transfer.toBranchId, transfer.note, transfer.userId, transfer.at],
  );
  if (!row) throw new Error('transfer insert returned nothing');
  await q.query(
    `INSERT INTO stock_transfer_items (pharmacy_id, transfer_id, position, product_id, batch_id, quantity_requested)
     SELECT $1, $2, (i.n - 1) * 1000, i.product_id, i.batch_id, i.quantity
       FROM unnest($3::uuid[], $4::uuid[], $5::int[]) WITH ORDINALITY AS i(product_id, batch_id, quantity, n)`,
    [pharmacyId, row.id, transfer.items.map((i) => i.productId), transfer.items.map((i) => i.batchId), transfer.items.map((i) => i.quantity)],
  );
  return row.id;
}

const STAMPS = { approved: 'approved', dispatched: 'dispatched', received: 'received', cancelled: 'cancelled' } as const;

/** The new status, with who and when of the step (approved_by/approved_at, ...). */
export async function setTransferStatus(
  q: Queryable,
  pharmacyId: string,
  id: string,
  status: TransferStatus,
  step: keyof typeof STAMPS,
  userId: string,
  at: Date,
): Promise<void> {
  const stamp = STAMPS[step];
  await q.query(`UPDATE stock_transfers SET status = $3, ${stamp}_by = $4, ${stamp}_at = $5, updated_at = $5 WHERE pharmacy_id = $1 AND id = $2`, [
    pharmacyId,
    id,
    status,
    userId,
    at,
  ]);
}

export interface DispatchedBatch {
  batchId: string;
  batchNumber: string | null;
  expiryDate: string | null;
  unitCostCents: number;
  quantity: number;
}

/** A line as dispatched from one batch: it takes that batch's number, expiry, cost and quantity. */
export async function markItemDispatched(q: Queryable, pharmacyId: string, itemId: string, batch: DispatchedBatch): Promise<void> {
  await q.query(
    `UPDATE stock_transfer_items SET batch_id = $3, batch_number = $4, expiry_date = $5, unit_cost_cents = $6,
            quantity_requested = $7, quantity_dispatched = $7
      WHERE pharmacy_id = $1 AND id = $2`,
    [pharmacyId, itemId, batch.batchId, batch.batchNumber, batch.expiryDate, batch.unitCostCents, batch.quantity],
  );
}

/** A further batch a dispatched line took: a new line right after it (position + n). */
export async function insertSplitItem(q: Queryable, pharmacyId: string, transferId: string, itemId: string, n: number, batch: DispatchedBatch): Promise<void> {
  await q.query(
    `INSERT INTO stock_transfer_items (pharmacy_id, transfer_id, position, product_id, batch_id, batch_number, expiry_date, unit_cost_cents,
                                       quantity_requested, quantity_dispatched)
     SELECT $1, $2, position + $4, product_id, $5, $6, $7, $8, $9, $9 FROM stock_transfer_items WHERE pharmacy_id = $1 AND id = $3`,
    [pharmacyId, transferId, itemId, n, batch.batchId, batch.batchNumber, batch.expiryDate, batch.unitCostCents, batch.quantity],
  );
}

export async function addItemReceived(q: Queryable, pharmacyId: string, itemId: string, quantity: number): Promise<void> {
  await q.query(`UPDATE stock_transfer_items SET quantity_received = quantity_received + $3 WHERE pharmacy_id = $1 AND id = $2`, [pharmacyId, itemId, quantity]);
}

export async function addItemReturned(q: Queryable, pharmacyId: string, itemId: string, quantity: number): Promise<void> {
  await q.query(`UPDATE stock_transfer_items SET quantity_returned = quantity_returned + $3 WHERE pharmacy_id = $1 AND id = $2`, [pharmacyId, itemId, quantity]);
}
