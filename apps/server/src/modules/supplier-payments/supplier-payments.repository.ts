import type { AllocationDetails, OpenInvoice, SupplierAging, SupplierInvoice, SupplierPayment, SupplierPaymentMethod, SupplierReportSettings } from '@pharmapoint/domain/supplier-payments';
import type { Queryable } from '../../db/database.ts';
import { likeEscape } from '../../db/sql.ts';

/**
 * All SQL of supplier payments, their allocations and the supplier balances report. Purchases and purchase returns
 * (migration 0019, module purchases) are read here by joins: only purchases not deleted and not cancelled are
 * invoices (decision 0041).
 */

/** A purchase that counts as an invoice of its supplier. */
const LIVE_PURCHASE = `p.deleted_at IS NULL AND p.status <> 'cancelled'`;

export interface SupplierRef {
  id: string;
  name: string;
  phone: string | null;
  isActive: boolean;
  creditPeriodDays: number | null;
  creditTerms: string | null;
}

interface SupplierRow {
  id: string;
  name: string;
  phone: string | null;
  is_active: boolean;
  credit_period_days: number | null;
  credit_terms: string | null;
}
const toSupplier = (r: SupplierRow): SupplierRef => ({ id: r.id, name: r.name, phone: r.phone, isActive: r.is_active, creditPeriodDays: r.credit_period_days, creditTerms: r.credit_terms });

/** A supplier of the pharmacy; `lock` takes its row for the transaction (payments of one supplier are serialised). */
export async function findSupplier(q: Queryable, pharmacyId: string, id: string, lock = false): Promise<SupplierRef | undefined> {
  const [row] = await q.query<SupplierRow>(
    `SELECT id, name, phone, is_active, credit_period_days, credit_terms FROM contacts WHERE pharmacy_id = $1 AND id = $2 AND type = 'supplier'${lock ? ' FOR UPDATE' : ''}`,
    [pharmacyId, id],
  );
  return row ? toSupplier(row) : undefined;
}

export interface InvoiceRow extends OpenInvoice {
  status: string;
}

/** A supplier's invoices, oldest first, with what returns took off each and what live payments paid on each. */
export async function supplierInvoices(q: Queryable, pharmacyId: string, supplierId: string): Promise<InvoiceRow[]> {
  const rows = await q.query<{ id: string; purchase_number: string; date: string; status: string; total_cents: string; returned: string; paid: string }>(
    `SELECT p.id, p.purchase_number, to_char(p.purchase_date, 'YYYY-MM-DD') AS date, p.status, p.total_cents,
            coalesce((SELECT sum(r.total_cents) FROM purchase_returns r WHERE r.pharmacy_id = p.pharmacy_id AND r.purchase_id = p.id), 0)::bigint AS returned,
            coalesce((SELECT sum(a.amount_cents) FROM supplier_payment_allocations a
                        JOIN supplier_payments sp ON sp.pharmacy_id = a.pharmacy_id AND sp.id = a.payment_id AND sp.deleted_at IS NULL
                       WHERE a.pharmacy_id = p.pharmacy_id AND a.purchase_id = p.id AND a.removed_at IS NULL), 0)::bigint AS paid
       FROM purchases p
      WHERE p.pharmacy_id = $1 AND p.supplier_id = $2 AND ${LIVE_PURCHASE}
      ORDER BY p.purchase_date, p.purchase_number, p.id`,
    [pharmacyId, supplierId],
  );
  return rows.map((r) => ({ id: r.id, number: r.purchase_number, date: r.date, status: r.status, totalCents: Number(r.total_cents), returnedCents: Number(r.returned), paidCents: Number(r.paid) }));
}

/** Suppliers with the credit days their invoices are due after (the report's rows; one entry per supplier). */
export interface SupplierTerms {
  supplierIds: string[];
  creditDays: number[];
}

/**
 * The open invoices of the given suppliers on `today`, read from the kept balances (migration 0028): what each
 * still owes after returns, live payments' allocations and the supplier's unallocated credit shown as already given
 * oldest invoice first, as `allocateCredit` in the domain does (purchase_balances.outstanding_cents, kept by
 * `syncSupplierBalances`; the open invoices are a partial index);
 * only invoices still owing after that, with due date = invoice date + the supplier's credit days, days old and days
 * overdue (never below 0). Parameters: $1 pharmacy, $2 today, $3 supplier ids, $4 their credit days.
 */
const AGED_INVOICES = `
  WITH cd AS (SELECT * FROM unnest($3::uuid[], $4::int[]) AS t(supplier_id, days)),
       aged AS (SELECT b.purchase_id AS id, b.supplier_id, b.purchase_number, b.purchase_date, b.status, b.total_cents, cd.days,
                       b.returned_cents AS returned, b.paid_cents AS paid, b.credit_applied_cents AS from_credit, b.outstanding_cents AS outstanding,
                       b.purchase_date + cd.days AS due_date, greatest(0, $2::date - b.purchase_date) AS days_old,
                       greatest(0, $2::date - (b.purchase_date + cd.days)) AS days_overdue
                  FROM purchase_balances b JOIN cd ON cd.supplier_id = b.supplier_id
                 WHERE b.pharmacy_id = $1 AND b.is_invoice AND b.outstanding_cents > 0)`;

/** What the open invoices of each supplier add up to (count, oldest age, most overdue, owed per aging bucket). */
export async function agingBySupplier(q: Queryable, pharmacyId: string, today: string, terms: SupplierTerms, periods: readonly number[]): Promise<Map<string, SupplierAging>> {
  const rows = await q.query<{ supplier_id: string; n: number; max_old: number; max_overdue: number; b0: string; b1: string; b2: string; b3: string }>(
    `${AGED_INVOICES}
     SELECT supplier_id, count(*)::int AS n, max(days_old)::int AS max_old, max(days_overdue)::int AS max_overdue,
            coalesce(sum(outstanding) FILTER (WHERE days_overdue <= 0), 0)::bigint AS b0,
            coalesce(sum(outstanding) FILTER (WHERE days_overdue > 0 AND days_overdue <= $5), 0)::bigint AS b1,
            coalesce(sum(outstanding) FILTER (WHERE days_overdue > $5 AND days_overdue <= $6), 0)::bigint AS b2,
            coalesce(sum(outstanding) FILTER (WHERE days_overdue > $6), 0)::bigint AS b3
       FROM aged GROUP BY supplier_id`,
    [pharmacyId, today, terms.supplierIds, terms.creditDays, periods[0] ?? 30, periods[1] ?? 60],
  );
  return new Map(
    rows.map((r) => [
      r.supplier_id,
      { openInvoiceCount: r.n, maxDaysOld: r.max_old, maxDaysOverdue: r.max_overdue, breakdown: { current: Number(r.b0), days1to30: Number(r.b1), days31to60: Number(r.b2), over60: Number(r.b3) } },
    ]),
  );
}

/**
 * The payment-due alert in one query: of the open invoices due on or before `dueBy`, how many, what they owe and how
 * many are overdue, and those due no later than the `listed`-th soonest (all ties of that day included).
 */
export async function dueInvoices(
  q: Queryable,
  pharmacyId: string,
  today: string,
  terms: SupplierTerms,
  dueBy: string,
  listed: number,
): Promise<{ count: number; totalCents: number; overdueCount: number; invoices: (SupplierInvoice & { supplierId: string })[] }> {
  const rows = await q.query<AgedRow & { n: number; total: string; overdue: number }>(
    `${AGED_INVOICES},
       due AS (SELECT * FROM aged WHERE due_date <= $5::date),
       sums AS (SELECT count(*)::int AS n, coalesce(sum(outstanding), 0)::bigint AS total, (count(*) FILTER (WHERE days_overdue > 0))::int AS overdue FROM due),
       cut AS (SELECT due_date FROM due ORDER BY due_date OFFSET $6::int - 1 LIMIT 1)
     SELECT ${AGED_COLUMNS}, sums.n, sums.total, sums.overdue
       FROM sums LEFT JOIN due ON NOT EXISTS (SELECT 1 FROM cut) OR due.due_date <= (SELECT due_date FROM cut)
      ORDER BY due.due_date, due.supplier_id, due.purchase_date, due.purchase_number, due.id`,
    [pharmacyId, today, terms.supplierIds, terms.creditDays, dueBy, listed],
  );
  const first = rows[0];
  return {
    count: first?.n ?? 0,
    totalCents: Number(first?.total ?? 0),
    overdueCount: first?.overdue ?? 0,
    invoices: rows.filter((r) => r.id !== null).map(toAged),
  };
}

/** The open invoices themselves, oldest first per supplier (a report row opened). */
export async function agedOpenInvoices(q: Queryable, pharmacyId: string, today: string, terms: SupplierTerms): Promise<(SupplierInvoice & { supplierId: string })[]> {
  const rows = await q.query<AgedRow>(
    `${AGED_INVOICES}
     SELECT ${AGED_COLUMNS} FROM aged due ORDER BY due.supplier_id, due.purchase_date, due.purchase_number, due.id`,
    [pharmacyId, today, terms.supplierIds, terms.creditDays],
  );
  return rows.map(toAged);
}

interface AgedRow {
  id: string;
  supplier_id: string;
  purchase_number: string;
  date: string;
  status: string;
  total_cents: string;
  returned: string;
  paid: string;
  outstanding: string;
  days: number;
  due: string;
  days_old: number;
  days_overdue: number;
}

const AGED_COLUMNS = `due.id, due.supplier_id, due.purchase_number, to_char(due.purchase_date, 'YYYY-MM-DD') AS date, due.status, due.total_cents, due.returned,
  (due.paid + due.from_credit)::bigint AS paid, due.outstanding::bigint AS outstanding, due.days, to_char(due.due_date, 'YYYY-MM-DD') AS due,
  due.days_old::int AS days_old, due.days_overdue::int AS days_overdue`;

const toAged = (r: AgedRow): SupplierInvoice & { supplierId: string } => ({
  id: r.id,
  supplierId: r.supplier_id,
  purchaseNumber: r.purchase_number,
  date: r.date,
  status: r.status,
  totalCents: Number(r.total_cents),
  returnedCents: Number(r.returned),
  paidCents: Number(r.paid),
  outstandingCents: Number(r.outstanding),
  creditDays: r.days,
  dueDate: r.due,
  daysOld: r.days_old,
  daysOverdue: r.days_overdue,
});

/**
 * Payments whose amount is not all allocated to live invoices (their credit), oldest first; of one supplier or all.
 * `except` leaves one payment out (the one being edited).
 */
export async function paymentCredits(
  q: Queryable,
  pharmacyId: string,
  supplierId: string | null,
  except: string | null = null,
): Promise<{ paymentId: string; supplierId: string; creditCents: number }[]> {
  const rows = await q.query<{ id: string; supplier_id: string; credit: string }>(
    `SELECT sp.id, sp.supplier_id, (sp.amount_cents - coalesce(sum(a.amount_cents) FILTER (WHERE p.id IS NOT NULL), 0))::bigint AS credit
       FROM supplier_payments sp
       LEFT JOIN supplier_payment_allocations a ON a.pharmacy_id = sp.pharmacy_id AND a.payment_id = sp.id AND a.removed_at IS NULL
       LEFT JOIN purchases p ON p.pharmacy_id = a.pharmacy_id AND p.id = a.purchase_id AND ${LIVE_PURCHASE}
      WHERE sp.pharmacy_id = $1 AND sp.deleted_at IS NULL AND ($2::uuid IS NULL OR sp.supplier_id = $2::uuid) AND ($3::uuid IS NULL OR sp.id <> $3::uuid)
      GROUP BY sp.id, sp.supplier_id, sp.amount_cents, sp.payment_date, sp.created_at
     HAVING sp.amount_cents - coalesce(sum(a.amount_cents) FILTER (WHERE p.id IS NOT NULL), 0) > 0
      ORDER BY sp.payment_date, sp.created_at, sp.id`,
    [pharmacyId, supplierId, except],
  );
  return rows.map((r) => ({ paymentId: r.id, supplierId: r.supplier_id, creditCents: Number(r.credit) }));
}

export interface NewPayment {
  supplierId: string;
  supplierName: string;
  amountCents: number;
  date: string;
  method: SupplierPaymentMethod;
  reference: string | null;
  notes: string | null;
  invoiceId: string | null;
  details: AllocationDetails;
}

interface PaymentRow {
  id: string;
  supplier_id: string;
  supplier_name: string;
  amount_cents: string;
  payment_date: string;
  method: SupplierPaymentMethod;
  reference: string | null;
  notes: string | null;
  invoice_id: string | null;
  invoice_number: string | null;
  allocation_details: AllocationDetails;
  credit: string;
  created_at: string;
  updated_at: string;
}

const PAYMENT_SELECT = `
  SELECT sp.id, sp.supplier_id, sp.supplier_name, sp.amount_cents, to_char(sp.payment_date, 'YYYY-MM-DD') AS payment_date, sp.method, sp.reference,
         sp.notes, sp.invoice_id, ip.purchase_number AS invoice_number, sp.allocation_details, sp.created_at, sp.updated_at,
         (sp.amount_cents - coalesce((SELECT sum(a.amount_cents) FROM supplier_payment_allocations a
                                        JOIN purchases p ON p.pharmacy_id = a.pharmacy_id AND p.id = a.purchase_id AND ${LIVE_PURCHASE}
                                       WHERE a.pharmacy_id = sp.pharmacy_id AND a.payment_id = sp.id AND a.removed_at IS NULL), 0))::bigint AS credit
    FROM supplier_payments sp
    LEFT JOIN purchases ip ON ip.pharmacy_id = sp.pharmacy_id AND ip.id = sp.invoice_id`;

const toPayment = (r: PaymentRow): SupplierPayment => ({
  id: r.id,
  supplierId: r.supplier_id,
  supplierName: r.supplier_name,
  amountCents: Number(r.amount_cents),
  date: r.payment_date,
  method: r.method,
  reference: r.reference,
  notes: r.notes,
  invoiceId: r.invoice_id,
  invoiceNumber: r.invoice_number,
  allocationDetails: r.allocation_details,
  creditCents: Number(r.credit),
  createdAt: new Date(r.created_at).toISOString(),
  updatedAt: new Date(r.updated_at).toISOString(),
});

export async function findPayment(q: Queryable, pharmacyId: string, id: string): Promise<SupplierPayment | undefined> {
  const [row] = await q.query<PaymentRow>(`${PAYMENT_SELECT} WHERE sp.pharmacy_id = $1 AND sp.id = $2 AND sp.deleted_at IS NULL`, [pharmacyId, id]);
  return row ? toPayment(row) : undefined;
}

export async function listPayments(q: Queryable, pharmacyId: string, query: { supplierId?: string | undefined; limit: number; offset: number }): Promise<{ items: SupplierPayment[]; total: number }> {
  const params = [pharmacyId, query.supplierId ?? null];
  const where = `sp.pharmacy_id = $1 AND sp.deleted_at IS NULL AND ($2::uuid IS NULL OR sp.supplier_id = $2::uuid)`;
  const [count] = await q.query<{ n: number }>(`SELECT count(*)::int AS n FROM supplier_payments sp WHERE ${where}`, params);
  const rows = await q.query<PaymentRow>(`${PAYMENT_SELECT} WHERE ${where} ORDER BY sp.payment_date DESC, sp.created_at DESC, sp.id LIMIT $3 OFFSET $4`, [...params, query.limit, query.offset]);
  return { items: rows.map(toPayment), total: count?.n ?? 0 };
}

export async function insertPayment(q: Queryable, pharmacyId: string, userId: string, p: NewPayment, at: Date): Promise<string> {
  const [row] = await q.query<{ id: string }>(
    `INSERT INTO supplier_payments (pharmacy_id, supplier_id, supplier_name, amount_cents, payment_date, method, reference, notes, allocation_type, invoice_id,
                                    allocation_details, created_by, updated_by, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11::jsonb, $12, $12, $13, $13) RETURNING id`,
    [pharmacyId, p.supplierId, p.supplierName, p.amountCents, p.date, p.method, p.reference, p.notes, p.details.type, p.invoiceId, JSON.stringify(p.details), userId, at],
  );
  return row!.id;
}

export async function updatePaymentRow(q: Queryable, pharmacyId: string, userId: string, id: string, p: Omit<NewPayment, 'supplierId' | 'supplierName'>, at: Date): Promise<void> {
  await q.query(
    `UPDATE supplier_payments SET amount_cents = $3, payment_date = $4, method = $5, reference = $6, notes = $7, allocation_type = $8, invoice_id = $9,
            allocation_details = $10::jsonb, updated_by = $11, updated_at = $12
      WHERE pharmacy_id = $1 AND id = $2`,
    [pharmacyId, id, p.amountCents, p.date, p.method, p.reference, p.notes, p.details.type, p.invoiceId, JSON.stringify(p.details), userId, at],
  );
}

export async function softDeletePayment(q: Queryable, pharmacyId: string, userId: string, id: string, at: Date): Promise<void> {
  await q.query(`UPDATE supplier_payments SET deleted_at = $3, deleted_by = $4, updated_at = $3 WHERE pharmacy_id = $1 AND id = $2`, [pharmacyId, id, at, userId]);
}

export async function insertAllocations(q: Queryable, pharmacyId: string, rows: { paymentId: string; invoiceId: string; amountCents: number; source: 'payment' | 'credit' }[], at: Date): Promise<void> {
  if (rows.length === 0) return;
  await q.query(
    `INSERT INTO supplier_payment_allocations (pharmacy_id, payment_id, purchase_id, amount_cents, source, created_at)
     SELECT $1, r.payment_id, r.purchase_id, r.amount_cents, r.source, $3
       FROM jsonb_to_recordset($2::jsonb) AS r(payment_id uuid, purchase_id uuid, amount_cents bigint, source text)`,
    [pharmacyId, JSON.stringify(rows.map((r) => ({ payment_id: r.paymentId, purchase_id: r.invoiceId, amount_cents: r.amountCents, source: r.source }))), at],
  );
}

/** Marks a payment's live allocations removed; answers the purchases they were on. */
export async function removeAllocations(q: Queryable, pharmacyId: string, paymentId: string, at: Date): Promise<string[]> {
  const rows = await q.query<{ purchase_id: string }>(
    `UPDATE supplier_payment_allocations SET removed_at = $3 WHERE pharmacy_id = $1 AND payment_id = $2 AND removed_at IS NULL RETURNING purchase_id`,
    [pharmacyId, paymentId, at],
  );
  return rows.map((r) => r.purchase_id);
}

export interface SupplierTotalsRow extends SupplierRef {
  purchases: number;
  purchaseCount: number;
  lastPurchaseDate: string | null;
  returns: number;
  paid: number;
  paymentCount: number;
  lastPaymentDate: string | null;
}

/** Per supplier (by name; a search on the name): live purchases, their returns, live payments (kept in supplier_balances). */
export async function supplierTotals(q: Queryable, pharmacyId: string, search: string | null, supplierId: string | null = null): Promise<SupplierTotalsRow[]> {
  const rows = await q.query<SupplierRow & { purchases: string; purchase_count: number; last_purchase: string | null; returns: string; paid: string; payment_count: number; last_payment: string | null }>(
    `SELECT c.id, c.name, c.phone, c.is_active, c.credit_period_days, c.credit_terms,
            coalesce(sb.purchases_cents, 0)::bigint AS purchases, coalesce(sb.purchase_count, 0)::int AS purchase_count,
            to_char(sb.last_purchase_date, 'YYYY-MM-DD') AS last_purchase, coalesce(sb.returns_cents, 0)::bigint AS returns,
            coalesce(sb.paid_cents, 0)::bigint AS paid, coalesce(sb.payment_count, 0)::int AS payment_count, to_char(sb.last_payment_date, 'YYYY-MM-DD') AS last_payment
       FROM contacts c
       LEFT JOIN supplier_balances sb ON sb.pharmacy_id = c.pharmacy_id AND sb.supplier_id = c.id
      WHERE c.pharmacy_id = $1 AND c.type = 'supplier' AND ($2::text IS NULL OR lower(c.name) LIKE $2::text) AND ($3::uuid IS NULL OR c.id = $3::uuid)
      ORDER BY lower(c.name), c.id`,
    [pharmacyId, search ? `%${likeEscape(search.toLowerCase())}%` : null, supplierId],
  );
  return rows.map((r) => ({
    ...toSupplier(r),
    purchases: Number(r.purchases),
    purchaseCount: r.purchase_count,
    lastPurchaseDate: r.last_purchase,
    returns: Number(r.returns),
    paid: Number(r.paid),
    paymentCount: r.payment_count,
    lastPaymentDate: r.last_payment,
  }));
}

// ------------------------------------------------------------------------------------------- kept balances (0028)

/** Takes the suppliers' contacts rows for the transaction, in one order (id) so two transactions never deadlock. */
export async function lockSuppliers(q: Queryable, pharmacyId: string, supplierIds: readonly string[]): Promise<void> {
  if (supplierIds.length === 0) return;
  await q.query(`SELECT id FROM contacts WHERE pharmacy_id = $1 AND id = ANY($2::uuid[]) ORDER BY id FOR UPDATE`, [pharmacyId, [...new Set(supplierIds)]]);
}

/** One purchase's balance row recomputed from the base tables (returns, live allocations of live payments). */
const PURCHASE_BALANCE_SELECT = `
  SELECT p.pharmacy_id, p.id, p.supplier_id, p.purchase_date, p.purchase_number, p.status, p.deleted_at IS NULL AND p.status <> 'cancelled', p.total_cents,
         coalesce((SELECT sum(r.total_cents) FROM purchase_returns r WHERE r.pharmacy_id = p.pharmacy_id AND r.purchase_id = p.id), 0)::bigint,
         coalesce((SELECT sum(a.amount_cents) FROM supplier_payment_allocations a
                     JOIN supplier_payments sp ON sp.pharmacy_id = a.pharmacy_id AND sp.id = a.payment_id AND sp.deleted_at IS NULL
                    WHERE a.pharmacy_id = p.pharmacy_id AND a.purchase_id = p.id AND a.removed_at IS NULL), 0)::bigint
    FROM purchases p`;

/**
 * Rewrites the balance rows of the given purchases from the base tables; answers the suppliers they belong to now
 * and belonged to before (a purchase moved to another supplier changes both).
 */
export async function syncPurchaseBalances(q: Queryable, pharmacyId: string, purchaseIds: readonly string[]): Promise<string[]> {
  if (purchaseIds.length === 0) return [];
  const rows = await q.query<{ supplier_id: string }>(
    `WITH before AS (SELECT b.supplier_id FROM purchase_balances b JOIN unnest($2::uuid[]) AS t(id) ON t.id = b.purchase_id WHERE b.pharmacy_id = $1),
          written AS (
            INSERT INTO purchase_balances (pharmacy_id, purchase_id, supplier_id, purchase_date, purchase_number, status, is_invoice, total_cents, returned_cents, paid_cents)
            ${PURCHASE_BALANCE_SELECT} JOIN unnest($2::uuid[]) AS t(id) ON t.id = p.id WHERE p.pharmacy_id = $1
            ON CONFLICT (pharmacy_id, purchase_id) DO UPDATE SET supplier_id = EXCLUDED.supplier_id, purchase_date = EXCLUDED.purchase_date,
              purchase_number = EXCLUDED.purchase_number, status = EXCLUDED.status, is_invoice = EXCLUDED.is_invoice, total_cents = EXCLUDED.total_cents,
              returned_cents = EXCLUDED.returned_cents, paid_cents = EXCLUDED.paid_cents
            RETURNING supplier_id)
     SELECT supplier_id FROM written UNION SELECT supplier_id FROM before`,
    [pharmacyId, [...new Set(purchaseIds)]],
  );
  return rows.map((r) => r.supplier_id);
}

/**
 * Rewrites the suppliers' balance rows from their purchases' balance rows and their payments, then gives each
 * supplier's credit to its open invoices, oldest first (purchase_balances.credit_applied_cents, a running sum over
 * the supplier's open invoices, as `allocateCredit` does), changing only the rows whose share moved.
 */
export async function syncSupplierBalances(q: Queryable, pharmacyId: string, supplierIds: readonly string[]): Promise<void> {
  if (supplierIds.length === 0) return;
  const ids = [...new Set(supplierIds)];
  await q.query(
    `INSERT INTO supplier_balances (pharmacy_id, supplier_id, purchases_cents, purchase_count, last_purchase_date, returns_cents, paid_cents, payment_count, last_payment_date, credit_cents)
     SELECT $1, s.id, coalesce(b.total, 0), coalesce(b.n, 0), b.last, coalesce(b.returned, 0), coalesce(pa.total, 0), coalesce(pa.n, 0), pa.last,
            coalesce(pa.total, 0) - coalesce(al.allocated, 0)
       FROM unnest($2::uuid[]) AS s(id)
       CROSS JOIN LATERAL (SELECT sum(total_cents) AS total, count(*) AS n, max(purchase_date) AS last, sum(returned_cents) AS returned
                             FROM purchase_balances WHERE pharmacy_id = $1 AND supplier_id = s.id AND is_invoice) b
       CROSS JOIN LATERAL (SELECT sum(amount_cents) AS total, count(*) AS n, max(payment_date) AS last
                             FROM supplier_payments WHERE pharmacy_id = $1 AND supplier_id = s.id AND deleted_at IS NULL) pa
       CROSS JOIN LATERAL (SELECT sum(a.amount_cents) AS allocated
                             FROM supplier_payments sp
                             JOIN supplier_payment_allocations a ON a.pharmacy_id = sp.pharmacy_id AND a.payment_id = sp.id AND a.removed_at IS NULL
                             JOIN purchases p ON p.pharmacy_id = a.pharmacy_id AND p.id = a.purchase_id AND ${LIVE_PURCHASE}
                            WHERE sp.pharmacy_id = $1 AND sp.supplier_id = s.id AND sp.deleted_at IS NULL) al
      WHERE EXISTS (SELECT 1 FROM contacts c WHERE c.pharmacy_id = $1 AND c.id = s.id)
     ON CONFLICT (pharmacy_id, supplier_id) DO UPDATE SET purchases_cents = EXCLUDED.purchases_cents, purchase_count = EXCLUDED.purchase_count,
       last_purchase_date = EXCLUDED.last_purchase_date, returns_cents = EXCLUDED.returns_cents, paid_cents = EXCLUDED.paid_cents,
       payment_count = EXCLUDED.payment_count, last_payment_date = EXCLUDED.last_payment_date, credit_cents = EXCLUDED.credit_cents`,
    [pharmacyId, ids],
  );
  await q.query(
    `WITH mine AS (SELECT b.purchase_id, b.credit_applied_cents AS was,
                          CASE WHEN b.is_invoice AND b.owed_cents > 0
                               THEN least(b.owed_cents, greatest(0, coalesce(sb.credit_cents, 0)
                                      - (sum(b.owed_cents) FILTER (WHERE b.is_invoice AND b.owed_cents > 0) OVER w - b.owed_cents)))
                               ELSE 0 END AS given
                     FROM purchase_balances b
                     JOIN unnest($2::uuid[]) AS s(id) ON s.id = b.supplier_id
                     LEFT JOIN supplier_balances sb ON sb.pharmacy_id = b.pharmacy_id AND sb.supplier_id = b.supplier_id
                    WHERE b.pharmacy_id = $1
                   WINDOW w AS (PARTITION BY b.supplier_id ORDER BY b.purchase_date, b.purchase_number, b.purchase_id ROWS UNBOUNDED PRECEDING))
     UPDATE purchase_balances b SET credit_applied_cents = mine.given
       FROM mine WHERE b.pharmacy_id = $1 AND b.purchase_id = mine.purchase_id AND mine.given <> mine.was`,
    [pharmacyId, ids],
  );
}

export async function findReportSettings(q: Queryable, pharmacyId: string, userId: string): Promise<unknown> {
  const [row] = await q.query<{ settings: unknown }>(`SELECT settings FROM supplier_report_settings WHERE pharmacy_id = $1 AND user_id = $2`, [pharmacyId, userId]);
  return row?.settings ?? null;
}

export async function saveReportSettings(q: Queryable, pharmacyId: string, userId: string, settings: SupplierReportSettings, at: Date): Promise<void> {
  await q.query(
    `INSERT INTO supplier_report_settings (pharmacy_id, user_id, settings, updated_at) VALUES ($1, $2, $3::jsonb, $4)
     ON CONFLICT (pharmacy_id, user_id) DO UPDATE SET settings = EXCLUDED.settings, updated_at = EXCLUDED.updated_at`,
    [pharmacyId, userId, JSON.stringify(settings), at],
  );
}
