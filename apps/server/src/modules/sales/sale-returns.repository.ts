import type { ReturnCondition, SaleReturn } from '@pharmapoint/domain/sale-returns';
import type { Sale } from '@pharmapoint/domain/sales';
import type { Queryable } from '../../db/database.ts';

/**
 * All SQL of returns and voids (issue 10 item 8, decision 0038): the sale's row lock, what each line and batch sold
 * and got back, the return with its items, and the sale's figures moved on.
 */

export interface LockedSale {
  id: string;
  invoice_number: string;
  branch_id: string;
  client_id: string | null;
  status: Sale['status'];
  sale_date: string;
  created_at: string;
  total_cents: number;
  rounding_cents: number;
  balance_due_cents: number;
  refunded_cents: number;
  paid_later_cents: number;
  payment_method: string;
}

/** The sale, its row locked for the transaction (returns, voids and later payments of one sale queue up on it). */
export async function lockSale(q: Queryable, pharmacyId: string, saleId: string): Promise<LockedSale | undefined> {
  const [row] = await q.query<LockedSale>(
    `SELECT id, invoice_number, branch_id, client_id, status, sale_date, created_at, total_cents, rounding_cents, balance_due_cents,
            refunded_cents, paid_later_cents, payment_method
       FROM sales WHERE pharmacy_id = $1 AND id = $2 FOR UPDATE`,
    [pharmacyId, saleId],
  );
  return row;
}

export interface ReturnLineRow {
  line: number;
  product_id: string;
  name: string;
  quantity: number;
  total_cents: number;
  returned: number;
}

export interface ReturnBatchRow {
  line: number;
  batch_id: string;
  batch_number: string | null;
  expiry_date: string | null;
  quantity: number;
  returned: number;
}

/** The sale's lines and the batches each took, with what earlier returns gave back (read under the sale's lock). */
export async function findReturnableLines(q: Queryable, pharmacyId: string, saleId: string): Promise<{ lines: ReturnLineRow[]; batches: ReturnBatchRow[] }> {
  const lines = await q.query<ReturnLineRow>(
    `SELECT i.line, i.product_id, i.name, i.quantity, i.total_cents,
            coalesce((SELECT sum(r.quantity) FROM sale_return_items r
                       WHERE r.pharmacy_id = i.pharmacy_id AND r.sale_id = i.sale_id AND r.line = i.line), 0)::int AS returned
       FROM sale_items i WHERE i.pharmacy_id = $1 AND i.sale_id = $2 ORDER BY i.line`,
    [pharmacyId, saleId],
  );
  const batches = await q.query<ReturnBatchRow>(
    `SELECT b.line, b.batch_id, b.batch_number, b.expiry_date, b.quantity,
            coalesce((SELECT sum(r.quantity) FROM sale_return_items r
                       WHERE r.pharmacy_id = b.pharmacy_id AND r.sale_id = b.sale_id AND r.line = b.line AND r.batch_id = b.batch_id), 0)::int AS returned
       FROM sale_item_batches b WHERE b.pharmacy_id = $1 AND b.sale_id = $2 ORDER BY b.line, b.batch_id`,
    [pharmacyId, saleId],
  );
  return { lines, batches };
}

/** The sale a return id belongs to, when the id is taken. */
export async function findReturnSaleId(q: Queryable, pharmacyId: string, returnId: string): Promise<string | undefined> {
  const [row] = await q.query<{ sale_id: string }>(`SELECT sale_id FROM sale_returns WHERE pharmacy_id = $1 AND id = $2`, [pharmacyId, returnId]);
  return row?.sale_id;
}

export interface NewSaleReturn {
  id: string;
  returnNumber: string;
  saleId: string;
  branchId: string;
  kind: 'return' | 'void';
  reason: string;
  refundCents: number;
  creditCents: number;
  refundMethod: string | null;
  refundReference: string | null;
  createdBy: string;
  createdByName: string;
  at: Date;
  items: { line: number; batchId: string; quantity: number; condition: ReturnCondition; refundCents: number }[];
}

export async function insertSaleReturn(q: Queryable, pharmacyId: string, r: NewSaleReturn): Promise<void> {
  await q.query(
    `INSERT INTO sale_returns (pharmacy_id, id, return_number, sale_id, branch_id, kind, reason, refund_cents, credit_cents, refund_method,
                               refund_reference, created_by, created_by_name, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
    [pharmacyId, r.id, r.returnNumber, r.saleId, r.branchId, r.kind, r.reason, r.refundCents, r.creditCents, r.refundMethod, r.refundReference, r.createdBy, r.createdByName, r.at],
  );
  if (r.items.length === 0) return;
  const width = 7;
  await q.query(
    `INSERT INTO sale_return_items (pharmacy_id, return_id, sale_id, line, batch_id, quantity, condition, refund_cents)
     VALUES ${r.items.map((_, i) => `($1, ${Array.from({ length: width }, (_, c) => `$${2 + i * width + c}`).join(', ')})`).join(', ')}`,
    [pharmacyId, ...r.items.flatMap((item) => [r.id, r.saleId, item.line, item.batchId, item.quantity, item.condition, item.refundCents])],
  );
}

/** Moves the sale's figures on after a return or a void. */
export async function updateSaleAfterReturn(
  q: Queryable,
  pharmacyId: string,
  saleId: string,
  figures: { status: Sale['status']; balanceDueCents: number; refundedCents: number; voidedBy?: string; voidedAt?: Date },
): Promise<void> {
  await q.query(
    `UPDATE sales SET status = $3, balance_due_cents = $4, refunded_cents = $5,
                      voided_by = coalesce($6, voided_by), voided_at = coalesce($7, voided_at)
      WHERE pharmacy_id = $1 AND id = $2`,
    [pharmacyId, saleId, figures.status, figures.balanceDueCents, figures.refundedCents, figures.voidedBy ?? null, figures.voidedAt ?? null],
  );
}

interface ReturnRow {
  id: string;
  return_number: string;
  sale_id: string;
  invoice_number: string;
  kind: 'return' | 'void';
  reason: string;
  refund_cents: number;
  credit_cents: number;
  refund_method: string | null;
  refund_reference: string | null;
  created_by: string | null;
  created_by_name: string;
  created_at: string;
  sale_status: Sale['status'];
}

interface ReturnItemRow {
  return_id: string;
  line: number;
  product_id: string;
  name: string;
  batch_id: string;
  batch_number: string | null;
  expiry_date: string | null;
  quantity: number;
  condition: ReturnCondition;
  refund_cents: number;
}

/** The returns of a sale (oldest first), or one return by id. */
export async function findSaleReturns(q: Queryable, pharmacyId: string, by: { saleId: string } | { returnId: string }): Promise<SaleReturn[]> {
  const [column, value] = 'saleId' in by ? ['r.sale_id', by.saleId] : ['r.id', by.returnId];
  const rows = await q.query<ReturnRow>(
    `SELECT r.id, r.return_number, r.sale_id, s.invoice_number, r.kind, r.reason, r.refund_cents, r.credit_cents, r.refund_method,
            r.refund_reference, r.created_by, r.created_by_name, r.created_at, s.status AS sale_status
       FROM sale_returns r JOIN sales s ON s.pharmacy_id = r.pharmacy_id AND s.id = r.sale_id
      WHERE r.pharmacy_id = $1 AND ${column} = $2 ORDER BY r.created_at, r.return_number`,
    [pharmacyId, value],
  );
  if (rows.length === 0) return [];
  const items = await q.query<ReturnItemRow>(
    `SELECT ri.return_id, ri.line, i.product_id, i.name, ri.batch_id, b.batch_number, b.expiry_date, ri.quantity, ri.condition, ri.refund_cents
       FROM sale_return_items ri
       JOIN sale_items i ON i.pharmacy_id = ri.pharmacy_id AND i.sale_id = ri.sale_id AND i.line = ri.line
       JOIN sale_item_batches b ON b.pharmacy_id = ri.pharmacy_id AND b.sale_id = ri.sale_id AND b.line = ri.line AND b.batch_id = ri.batch_id
      WHERE ri.pharmacy_id = $1 AND ri.return_id = ANY ($2::uuid[])
      ORDER BY ri.line, ri.condition, b.expiry_date DESC NULLS FIRST, ri.batch_id`,
    [pharmacyId, rows.map((r) => r.id)],
  );
  return rows.map((r) => {
    const mine = items.filter((i) => i.return_id === r.id);
    const grouped = new Map<string, SaleReturn['items'][number]>();
    for (const i of mine) {
      const key = `${i.line}:${i.condition}`;
      let item = grouped.get(key);
      if (!item) {
        item = { line: i.line, productId: i.product_id, name: i.name, quantity: 0, condition: i.condition, refundCents: 0, batches: [] };
        grouped.set(key, item);
      }
      item.quantity += i.quantity;
      item.refundCents += i.refund_cents;
      item.batches.push({ batchId: i.batch_id, batchNumber: i.batch_number, expiryDate: i.expiry_date, quantity: i.quantity });
    }
    return {
      id: r.id,
      returnNumber: r.return_number,
      saleId: r.sale_id,
      invoiceNumber: r.invoice_number,
      kind: r.kind,
      reason: r.reason,
      refundCents: r.refund_cents,
      creditCents: r.credit_cents,
      paidOutCents: r.refund_cents - r.credit_cents,
      refundMethod: r.refund_method,
      refundReference: r.refund_reference,
      createdBy: { id: r.created_by, name: r.created_by_name },
      createdAt: r.created_at,
      items: [...grouped.values()],
      saleStatus: r.sale_status,
    };
  });
}
