import type { CustomerPayment } from '@pharmapoint/domain/sales-history';
import type { Queryable } from '../../db/database.ts';

/**
 * All SQL of a customer's later payments of credit sales (issue 10 item 10, decision 0039): the customer's row lock,
 * their owing sales locked oldest first, the payment with its allocations, and the sales' figures moved on.
 */

/** Locks the customer's contact row: later payments of one customer queue up on it. Undefined: no such customer. */
export async function lockCustomer(q: Queryable, pharmacyId: string, clientId: string): Promise<{ id: string; name: string } | undefined> {
  const [row] = await q.query<{ id: string; name: string }>(
    `SELECT id, name FROM contacts WHERE pharmacy_id = $1 AND id = $2 AND type = 'customer' FOR UPDATE`,
    [pharmacyId, clientId],
  );
  return row;
}

export interface OwingSale {
  id: string;
  invoice_number: string;
  sale_date: string;
  branch_id: string;
  balanceCents: number;
}

/** The customer's sales that still owe something, oldest first, their rows locked (in that order). */
export async function lockOwingSales(q: Queryable, pharmacyId: string, clientId: string, branchIds: readonly string[] | null): Promise<OwingSale[]> {
  const rows = await q.query<{ id: string; invoice_number: string; sale_date: string; branch_id: string; balance_due_cents: number }>(
    `SELECT id, invoice_number, sale_date, branch_id, balance_due_cents FROM sales
      WHERE pharmacy_id = $1 AND client_id = $2 AND balance_due_cents > 0 AND status <> 'voided'
        AND ($3::uuid[] IS NULL OR branch_id = ANY ($3::uuid[]))
      ORDER BY sale_date, created_at, invoice_number
      FOR UPDATE`,
    [pharmacyId, clientId, branchIds],
  );
  return rows.map((r) => ({ id: r.id, invoice_number: r.invoice_number, sale_date: r.sale_date, branch_id: r.branch_id, balanceCents: r.balance_due_cents }));
}

export async function paymentExists(q: Queryable, pharmacyId: string, id: string): Promise<boolean> {
  return (await q.query(`SELECT 1 FROM customer_payments WHERE pharmacy_id = $1 AND id = $2`, [pharmacyId, id])).length > 0;
}

export interface NewCustomerPayment {
  id: string;
  clientId: string;
  amountCents: number;
  method: string;
  reference: string | null;
  notes: string | null;
  createdBy: string;
  createdByName: string;
  at: Date;
  allocations: { saleId: string; amountCents: number; balanceAfterCents: number }[];
}

export async function insertCustomerPayment(q: Queryable, pharmacyId: string, p: NewCustomerPayment): Promise<void> {
  await q.query(
    `INSERT INTO customer_payments (pharmacy_id, id, client_id, amount_cents, method, reference, notes, created_by, created_by_name, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [pharmacyId, p.id, p.clientId, p.amountCents, p.method, p.reference, p.notes, p.createdBy, p.createdByName, p.at],
  );
  if (p.allocations.length === 0) return;
  await q.query(
    `INSERT INTO customer_payment_allocations (pharmacy_id, payment_id, sale_id, amount_cents, balance_after_cents)
     VALUES ${p.allocations.map((_, i) => `($1, $2, $${3 + i * 3}, $${4 + i * 3}, $${5 + i * 3})`).join(', ')}`,
    [pharmacyId, p.id, ...p.allocations.flatMap((a) => [a.saleId, a.amountCents, a.balanceAfterCents])],
  );
  for (const a of p.allocations) {
    await q.query(
      `UPDATE sales SET balance_due_cents = balance_due_cents - $3, paid_later_cents = paid_later_cents + $3 WHERE pharmacy_id = $1 AND id = $2`,
      [pharmacyId, a.saleId, a.amountCents],
    );
  }
}

/** What the customer owes over every branch (after this transaction's changes). */
export async function customerBalance(q: Queryable, pharmacyId: string, clientId: string): Promise<number> {
  const [row] = await q.query<{ cents: number }>(
    `SELECT coalesce(sum(balance_due_cents), 0)::bigint AS cents FROM sales WHERE pharmacy_id = $1 AND client_id = $2 AND status <> 'voided'`,
    [pharmacyId, clientId],
  );
  return row?.cents ?? 0;
}

/** Payments newest first (one customer's, or everyone's), with their allocations; `ids` to read given ones. */
export async function findCustomerPayments(
  q: Queryable,
  pharmacyId: string,
  filters: { clientId?: string; ids?: readonly string[]; limit: number; offset: number },
): Promise<{ items: Omit<CustomerPayment, 'balanceAfterCents'>[]; total: number }> {
  const where = `p.pharmacy_id = $1 AND ($2::uuid IS NULL OR p.client_id = $2) AND ($3::uuid[] IS NULL OR p.id = ANY ($3::uuid[]))`;
  const params = [pharmacyId, filters.clientId ?? null, filters.ids ?? null];
  const [count] = await q.query<{ n: number }>(`SELECT count(*)::int AS n FROM customer_payments p WHERE ${where}`, params);
  const rows = await q.query<{
    id: string; client_id: string; client_name: string; amount_cents: number; method: string; reference: string | null; notes: string | null;
    created_by: string | null; created_by_name: string; created_at: string;
  }>(
    `SELECT p.id, p.client_id, c.name AS client_name, p.amount_cents, p.method, p.reference, p.notes, p.created_by, p.created_by_name, p.created_at
       FROM customer_payments p JOIN contacts c ON c.pharmacy_id = p.pharmacy_id AND c.id = p.client_id
      WHERE ${where} ORDER BY p.created_at DESC, p.id LIMIT $4 OFFSET $5`,
    [...params, filters.limit, filters.offset],
  );
  const allocations = rows.length === 0 ? [] : await q.query<{ payment_id: string; sale_id: string; invoice_number: string; sale_date: string; amount_cents: number; balance_after_cents: number }>(
    `SELECT a.payment_id, a.sale_id, s.invoice_number, s.sale_date, a.amount_cents, a.balance_after_cents
       FROM customer_payment_allocations a JOIN sales s ON s.pharmacy_id = a.pharmacy_id AND s.id = a.sale_id
      WHERE a.pharmacy_id = $1 AND a.payment_id = ANY ($2::uuid[]) ORDER BY s.sale_date, s.created_at, s.invoice_number`,
    [pharmacyId, rows.map((r) => r.id)],
  );
  return {
    total: count?.n ?? 0,
    items: rows.map((r) => ({
      id: r.id,
      clientId: r.client_id,
      clientName: r.client_name,
      amountCents: r.amount_cents,
      method: r.method,
      reference: r.reference,
      notes: r.notes,
      recordedBy: { id: r.created_by, name: r.created_by_name },
      createdAt: r.created_at,
      allocations: allocations
        .filter((a) => a.payment_id === r.id)
        .map((a) => ({ saleId: a.sale_id, invoiceNumber: a.invoice_number, saleDate: a.sale_date, amountCents: a.amount_cents, balanceAfterCents: a.balance_after_cents })),
    })),
  };
}
