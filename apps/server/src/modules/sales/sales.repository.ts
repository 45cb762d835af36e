import type { Prescription, Sale, SaleLine, SaleSummary, UnitMode } from '@pharmapoint/domain/sales';
import { INVOICE_PREFIX, paymentStatus } from '@pharmapoint/domain/sales';
import type { SaleFilterOptionsResponse, SaleHistoryItem, SaleTotals } from '@pharmapoint/domain/sales-history';
import type { Queryable } from '../../db/database.ts';

/**
 * All SQL of sales: the invoice counter, the sale with its lines, batch takes and payments, and the reads of the
 * receipt and the list (the products a cart is priced from are read by cart-pricing.repository.ts).
 */

// ------------------------------------------------------------------------------------------- what a sale reads

/** A sale with this id exists already (in this pharmacy). */
export async function saleExists(q: Queryable, pharmacyId: string, id: string): Promise<boolean> {
  return (await q.query(`SELECT 1 FROM sales WHERE pharmacy_id = $1 AND id = $2`, [pharmacyId, id])).length > 0;
}

/** The signed-in user's name, stamped on the sale as its cashier. */
export async function findUserName(q: Queryable, userId: string): Promise<string | undefined> {
  const [row] = await q.query<{ name: string | null; email: string }>(`SELECT name, email FROM users WHERE id = $1`, [userId]);
  return row ? (row.name ?? row.email) : undefined;
}

/**
 * Takes the tenant's next invoice counter value: the row is created or moved on (and so locked) in the caller's
 * transaction; a rollback gives the number back, so numbers stay unique and without gaps.
 */
export async function takeInvoiceCounter(q: Queryable, pharmacyId: string, scope = 'INV'): Promise<number> {
  const [row] = await q.query<{ value: number }>(
    `INSERT INTO invoice_counters (pharmacy_id, scope, next_value) VALUES ($1, $2, 2)
     ON CONFLICT (pharmacy_id, scope) DO UPDATE SET next_value = invoice_counters.next_value + 1
     RETURNING next_value - 1 AS value`,
    [pharmacyId, scope],
  );
  return row!.value;
}

// ------------------------------------------------------------------------------------------- writes

export interface NewSale {
  id: string;
  branchId: string;
  client: { id: string; name: string; phone: string | null; location: string | null } | null;
  clientName: string;
  cashierId: string;
  saleDate: string;
  isBackdated: boolean;
  backdatedBy: string | null;
  subtotalCents: number;
  discount: { type: 'percent' | 'fixed'; value: number } | null;
  discountCents: number;
  taxCents: number;
  roundingCents: number;
  totalCents: number;
  amountPaidCents: number;
  changeCents: number;
  balanceDueCents: number;
  paymentMethod: string;
  notes: string | null;
  clientTime: string | null;
  /** Completing a resumed suspended sale: its reserved stock was sold (decision 0028). */
  fromReservedStock?: boolean;
  reservationId?: string | null;
  at: Date;
}

export interface NewSaleLine {
  line: number;
  productId: string;
  name: string;
  sku: string | null;
  quantity: number;
  unitMode: UnitMode;
  packageSize: number;
  unitPriceCents: number;
  listPriceCents: number;
  costCents: number;
  grossCents: number;
  discountCents: number;
  taxRateBasisPoints: number;
  taxCents: number;
  totalCents: number;
  lowMargin: boolean;
  isDda: boolean;
  prescription: Prescription | null;
  needsRefill: boolean;
  refillDays: number | null;
  refillDueDate: string | null;
  batches: { batchId: string; batchNumber: string | null; expiryDate: string | null; quantity: number; unitCostCents: number }[];
}

export interface NewSalePayment {
  method: string;
  amountCents: number;
  reference: string | null;
}

/** Statement parameters numbered as they are added: `p(value)` is the placeholder of that value. */
function parameters(): { values: unknown[]; p: (value: unknown) => string } {
  const values: unknown[] = [];
  return { values, p: (value) => `$${values.push(value)}` };
}

/**
 * Writes a completed sale in ONE statement that also takes its invoice number: the tenant's invoice counter is
 * created or moved on (and so locked) by the statement's first part, and the sale row (numbered INV- and the
 * counter zero-padded to 6 digits, as formatInvoiceNumber), its lines, batch takes and payments are inserted
 * with it; the cashier's name is read in the same statement. The counter row stays locked until the transaction
 * ends, so numbers are unique and gap-free (a rollback gives the number back); the caller does this LAST, so the
 * sales of a pharmacy queue on that row only for this statement and the commit, not for the whole sale.
 */
export async function insertNumberedSale(
  q: Queryable,
  pharmacyId: string,
  sale: NewSale,
  lines: readonly NewSaleLine[],
  payments: readonly NewSalePayment[],
): Promise<{ counter: number; invoiceNumber: string; cashierName: string }> {
  const { values, p } = parameters();
  const tenant = p(pharmacyId);
  const saleId = p(sale.id);
  const parts = [
    `counter AS (
       INSERT INTO invoice_counters (pharmacy_id, scope, next_value) VALUES (${tenant}, 'INV', 2)
       ON CONFLICT (pharmacy_id, scope) DO UPDATE SET next_value = invoice_counters.next_value + 1
       RETURNING next_value - 1 AS value)`,
    `sale AS (
       INSERT INTO sales (pharmacy_id, id, invoice_number, branch_id, client_id, client_name, client_phone, client_location,
                          cashier_id, cashier_name, sale_date, is_backdated, backdated_by, subtotal_cents, discount_type,
                          discount_value, discount_cents, tax_cents, rounding_cents, total_cents, amount_paid_cents, change_cents,
                          balance_due_cents, payment_method, status, notes, client_time, created_at, from_reserved_stock, reservation_id)
       VALUES (${tenant}, ${saleId},
               (SELECT ${p(INVOICE_PREFIX)}::text || lpad(value::text, greatest(6, length(value::text)), '0') FROM counter),
               ${[sale.branchId, sale.client?.id ?? null, sale.clientName, sale.client?.phone ?? null, sale.client?.location ?? null, sale.cashierId].map(p).join(', ')},
               coalesce((SELECT coalesce(u.name, u.email) FROM users u WHERE u.id = ${p(sale.cashierId)}), 'Unknown'),
               ${[
                 sale.saleDate,
                 sale.isBackdated,
                 sale.backdatedBy,
                 sale.subtotalCents,
                 sale.discount?.type ?? null,
                 sale.discount?.value ?? null,
                 sale.discountCents,
                 sale.taxCents,
                 sale.roundingCents,
                 sale.totalCents,
                 sale.amountPaidCents,
                 sale.changeCents,
                 sale.balanceDueCents,
                 sale.paymentMethod,
               ]
                 .map(p)
                 .join(', ')},
               'completed', ${[sale.notes, sale.clientTime, sale.at, sale.fromReservedStock ?? false, sale.reservationId ?? null].map(p).join(', ')})
       RETURNING invoice_number, cashier_name)`,
  ];
  if (lines.length > 0) {
    parts.push(`items AS (
       INSERT INTO sale_items (pharmacy_id, sale_id, line, product_id, name, sku, quantity, unit_mode, package_size, unit_price_cents,
                               list_price_cents, cost_cents, gross_cents, discount_cents, tax_rate_basis_points, tax_cents, total_cents,
                               low_margin, is_dda, prescription, needs_refill, refill_days, refill_due_date)
       VALUES ${lines
         .map(
           (l) =>
             `(${tenant}, ${saleId}, ${[
               l.line,
               l.productId,
               l.name,
               l.sku,
               l.quantity,
               l.unitMode,
               l.packageSize,
               l.unitPriceCents,
               l.listPriceCents,
               l.costCents,
               l.grossCents,
               l.discountCents,
               l.taxRateBasisPoints,
               l.taxCents,
               l.totalCents,
               l.lowMargin,
               l.isDda,
               l.prescription === null ? null : JSON.stringify(l.prescription),
               l.needsRefill,
               l.refillDays,
               l.refillDueDate,
             ]
               .map(p)
               .join(', ')})`,
         )
         .join(', ')})`);
  }
  const takes = lines.flatMap((l) => l.batches.map((b) => ({ line: l.line, ...b })));
  if (takes.length > 0) {
    parts.push(`takes AS (
       INSERT INTO sale_item_batches (pharmacy_id, sale_id, line, batch_id, batch_number, expiry_date, quantity, unit_cost_cents)
       VALUES ${takes.map((t) => `(${tenant}, ${saleId}, ${[t.line, t.batchId, t.batchNumber, t.expiryDate, t.quantity, t.unitCostCents].map(p).join(', ')})`).join(', ')})`);
  }
  if (payments.length > 0) {
    const at = p(sale.at);
    parts.push(`payments AS (
       INSERT INTO sale_payments (pharmacy_id, sale_id, position, method, amount_cents, reference, at)
       VALUES ${payments.map((pay, i) => `(${tenant}, ${saleId}, ${[i + 1, pay.method, pay.amountCents, pay.reference].map(p).join(', ')}, ${at})`).join(', ')})`);
  }
  const [row] = await q.query<{ counter: number; invoice_number: string; cashier_name: string }>(
    `WITH ${parts.join(',\n')}
     SELECT (SELECT value FROM counter) AS counter, invoice_number, cashier_name FROM sale`,
    values,
  );
  return { counter: row!.counter, invoiceNumber: row!.invoice_number, cashierName: row!.cashier_name };
}

// ------------------------------------------------------------------------------------------- reads

interface SaleRow {
  id: string;
  invoice_number: string;
  branch_id: string;
  branch_name: string;
  client_id: string | null;
  client_name: string;
  client_phone: string | null;
  client_location: string | null;
  cashier_id: string | null;
  cashier_name: string;
  sale_date: string;
  is_backdated: boolean;
  backdated_by: string | null;
  subtotal_cents: number;
  discount_type: 'percent' | 'fixed' | null;
  discount_value: number | null;
  discount_cents: number;
  tax_cents: number;
  rounding_cents: number;
  total_cents: number;
  amount_paid_cents: number;
  change_cents: number;
  balance_due_cents: number;
  payment_method: string;
  status: Sale['status'];
  notes: string | null;
  client_time: string | null;
  created_at: string;
  item_count: number;
}

const SALE_COLUMNS = `s.id, s.invoice_number, s.branch_id, b.name AS branch_name, s.client_id, s.client_name, s.client_phone, s.client_location,
  s.cashier_id, s.cashier_name, s.sale_date, s.is_backdated, s.backdated_by, s.subtotal_cents, s.discount_type, s.discount_value,
  s.discount_cents, s.tax_cents, s.rounding_cents, s.total_cents, s.amount_paid_cents, s.change_cents, s.balance_due_cents,
  s.payment_method, s.status, s.notes, s.client_time, s.created_at,
  (SELECT count(*)::int FROM sale_items i WHERE i.pharmacy_id = s.pharmacy_id AND i.sale_id = s.id) AS item_count`;

function toSummary(row: SaleRow): SaleSummary {
  return {
    id: row.id,
    invoiceNumber: row.invoice_number,
    branchId: row.branch_id,
    branchName: row.branch_name,
    client: row.client_id ? { id: row.client_id, name: row.client_name, phone: row.client_phone, location: row.client_location } : null,
    clientName: row.client_name,
    cashier: { id: row.cashier_id, name: row.cashier_name },
    saleDate: row.sale_date,
    isBackdated: row.is_backdated,
    backdatedBy: row.backdated_by,
    subtotalCents: row.subtotal_cents,
    discountCents: row.discount_cents,
    taxCents: row.tax_cents,
    roundingCents: row.rounding_cents,
    totalCents: row.total_cents,
    amountPaidCents: row.amount_paid_cents,
    changeCents: row.change_cents,
    balanceDueCents: row.balance_due_cents,
    paymentMethod: row.payment_method,
    paymentStatus: paymentStatus(row.amount_paid_cents, row.total_cents).status,
    status: row.status,
    itemCount: row.item_count,
    createdAt: row.created_at,
  };
}

interface LineRow {
  line: number;
  product_id: string;
  name: string;
  sku: string | null;
  quantity: number;
  unit_mode: UnitMode;
  package_size: number;
  unit_price_cents: number;
  list_price_cents: number;
  cost_cents: number;
  gross_cents: number;
  discount_cents: number;
  tax_rate_basis_points: number;
  tax_cents: number;
  total_cents: number;
  low_margin: boolean;
  is_dda: boolean;
  prescription: Prescription | null;
  needs_refill: boolean;
  refill_days: number | null;
  refill_due_date: string | null;
}

/** One sale with its lines, batch takes and payments; undefined when there is none in the pharmacy. */
export async function findSale(q: Queryable, pharmacyId: string, id: string): Promise<Sale | undefined> {
  const [row] = await q.query<SaleRow>(
    `SELECT ${SALE_COLUMNS} FROM sales s JOIN branches b ON b.pharmacy_id = s.pharmacy_id AND b.id = s.branch_id
      WHERE s.pharmacy_id = $1 AND s.id = $2`,
    [pharmacyId, id],
  );
  if (!row) return undefined;
  // One after another: the queries share the request's one transaction connection.
  const lines = await q.query<LineRow>(
      `SELECT line, product_id, name, sku, quantity, unit_mode, package_size, unit_price_cents, list_price_cents, cost_cents, gross_cents,
              discount_cents, tax_rate_basis_points, tax_cents, total_cents, low_margin, is_dda, prescription, needs_refill, refill_days,
              refill_due_date
         FROM sale_items WHERE pharmacy_id = $1 AND sale_id = $2 ORDER BY line`,
      [pharmacyId, id],
  );
  const batches = await q.query<{ line: number; batch_id: string; batch_number: string | null; expiry_date: string | null; quantity: number }>(
      `SELECT line, batch_id, batch_number, expiry_date, quantity FROM sale_item_batches
        WHERE pharmacy_id = $1 AND sale_id = $2 ORDER BY line, expiry_date NULLS LAST, batch_id`,
      [pharmacyId, id],
  );
  const payments = await q.query<{ method: string; amount_cents: number; reference: string | null }>(
      `SELECT method, amount_cents, reference FROM sale_payments WHERE pharmacy_id = $1 AND sale_id = $2 ORDER BY position`,
      [pharmacyId, id],
  );
  const toLine = (l: LineRow): SaleLine => ({
    line: l.line,
    productId: l.product_id,
    name: l.name,
    sku: l.sku,
    quantity: l.quantity,
    unitMode: l.unit_mode,
    packageSize: l.package_size,
    unitPriceCents: l.unit_price_cents,
    listPriceCents: l.list_price_cents,
    costCents: l.cost_cents,
    grossCents: l.gross_cents,
    discountCents: l.discount_cents,
    taxRateBasisPoints: l.tax_rate_basis_points,
    taxCents: l.tax_cents,
    totalCents: l.total_cents,
    isDda: l.is_dda,
    prescription: l.prescription,
    needsRefill: l.needs_refill,
    refillDays: l.refill_days,
    refillDueDate: l.refill_due_date,
    lowMargin: l.low_margin,
    batches: batches
      .filter((b) => b.line === l.line)
      .map((b) => ({ batchId: b.batch_id, batchNumber: b.batch_number, expiryDate: b.expiry_date, quantity: b.quantity })),
  });
  return {
    ...toSummary(row),
    clientTime: row.client_time,
    discount: row.discount_type && row.discount_value !== null ? { type: row.discount_type, value: row.discount_value } : null,
    notes: row.notes,
    lines: lines.map(toLine),
    payments: payments.map((p) => ({ method: p.method, amountCents: p.amount_cents, reference: p.reference })),
  };
}

/** The client's latest DDA line with a prescription (newest sale first). */
export async function findLastPrescription(
  q: Queryable,
  pharmacyId: string,
  clientId: string,
  branchIds: readonly string[] | null,
): Promise<{ prescription: Prescription; sale_id: string; invoice_number: string; sale_date: string } | undefined> {
  const [row] = await q.query<{ prescription: Prescription; sale_id: string; invoice_number: string; sale_date: string }>(
    `SELECT i.prescription, s.id AS sale_id, s.invoice_number, s.sale_date
       FROM sales s JOIN sale_items i ON i.pharmacy_id = s.pharmacy_id AND i.sale_id = s.id
      WHERE s.pharmacy_id = $1 AND s.client_id = $2 AND i.is_dda AND i.prescription IS NOT NULL
        AND ($3::uuid[] IS NULL OR s.branch_id = ANY ($3::uuid[]))
      ORDER BY s.created_at DESC, s.invoice_number DESC, i.line DESC
      LIMIT 1`,
    [pharmacyId, clientId, branchIds],
  );
  return row;
}

// ------------------------------------------------------------------------------------------- the back office's list

export interface SaleHistoryFilters {
  from?: string;
  to?: string;
  branchId?: string;
  cashierId?: string;
  clientId?: string;
  paymentMethod?: string;
  invoiceNumber?: string;
  status?: Sale['status'];
  limit: number;
  offset: number;
}

/** LIKE's wildcards taken literally. */
function likeEscaped(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * Sales newest first with the back office's filters (issue 10 item 7), one page, with the count and the totals of
 * every sale the filters select; `branchIds` null = every branch. The invoice number matches any part of it.
 */
export async function listSaleHistory(
  q: Queryable,
  pharmacyId: string,
  filters: SaleHistoryFilters,
  branchIds: readonly string[] | null,
): Promise<{ items: SaleHistoryItem[]; total: number; totals: SaleTotals }> {
  const params: unknown[] = [pharmacyId];
  const where = ['s.pharmacy_id = $1'];
  const add = (sql: string, value: unknown) => {
    params.push(value);
    where.push(sql.replaceAll('?', `$${params.length}`));
  };
  if (branchIds) add('s.branch_id = ANY (?::uuid[])', branchIds);
  if (filters.branchId) add('s.branch_id = ?', filters.branchId);
  if (filters.from) add('s.sale_date >= ?', filters.from);
  if (filters.to) add('s.sale_date <= ?', filters.to);
  if (filters.cashierId) add('s.cashier_id = ?', filters.cashierId);
  if (filters.clientId) add('s.client_id = ?', filters.clientId);
  if (filters.status) add('s.status = ?', filters.status);
  if (filters.invoiceNumber) add(`s.invoice_number LIKE '%' || upper(?) || '%'`, likeEscaped(filters.invoiceNumber.trim()));
  if (filters.paymentMethod) {
    add(
      `EXISTS (SELECT 1 FROM sale_payments p WHERE p.pharmacy_id = s.pharmacy_id AND p.sale_id = s.id
                 AND regexp_replace(lower(p.method), '[^a-z]', '', 'g') = regexp_replace(lower(?), '[^a-z]', '', 'g'))`,
      filters.paymentMethod.trim(),
    );
  }
  const whereSql = where.join(' AND ');
  const [sum] = await q.query<{ n: number; total: number; discount: number; tax: number; paid: number; due: number; refunded: number }>(
    `SELECT count(*)::int AS n, coalesce(sum(s.total_cents), 0)::bigint AS total, coalesce(sum(s.discount_cents), 0)::bigint AS discount,
            coalesce(sum(s.tax_cents), 0)::bigint AS tax, coalesce(sum(s.amount_paid_cents - s.change_cents + s.paid_later_cents), 0)::bigint AS paid,
            coalesce(sum(s.balance_due_cents), 0)::bigint AS due, coalesce(sum(s.refunded_cents), 0)::bigint AS refunded
       FROM sales s WHERE ${whereSql}`,
    params,
  );
  const rows = await q.query<SaleRow & { refunded_cents: number; paid_later_cents: number }>(
    `SELECT ${SALE_COLUMNS}, s.refunded_cents, s.paid_later_cents
       FROM sales s JOIN branches b ON b.pharmacy_id = s.pharmacy_id AND b.id = s.branch_id
      WHERE ${whereSql} ORDER BY s.created_at DESC, s.invoice_number DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, filters.limit, filters.offset],
  );
  const n = (v: number | string | undefined) => Number(v ?? 0);
  return {
    items: rows.map((r) => ({ ...toSummary(r), refundedCents: n(r.refunded_cents), paidLaterCents: n(r.paid_later_cents) })),
    total: sum?.n ?? 0,
    totals: {
      count: sum?.n ?? 0,
      totalCents: n(sum?.total),
      discountCents: n(sum?.discount),
      taxCents: n(sum?.tax),
      amountPaidCents: n(sum?.paid),
      balanceDueCents: n(sum?.due),
      refundedCents: n(sum?.refunded),
      netCents: n(sum?.total) - n(sum?.refunded),
    },
  };
}

// ------------------------------------------------------------------------------------------- payment summary

/**
 * Per day and method in a range (issue 10 item 10): what sales took (cash rows net of the sale's change, voided
 * sales left out), what customers paid later, and what refunds paid out; and the credit the sales left owed.
 */
export async function paymentSummary(
  q: Queryable,
  pharmacyId: string,
  range: { from: string; to: string },
  branchId: string | null,
  branchIds: readonly string[] | null,
  timeZone: string,
): Promise<{ rows: { date: string; method: string; sales_count: number; sales_cents: number; collected_cents: number; refunded_cents: number }[]; creditGivenCents: number }> {
  const rows = await q.query<{ date: string; method: string; sales_count: number; sales_cents: number; collected_cents: number; refunded_cents: number }>(
    `WITH scope AS (
       SELECT s.* FROM sales s
        WHERE s.pharmacy_id = $1 AND s.sale_date BETWEEN $2 AND $3 AND s.status <> 'voided'
          AND ($4::uuid IS NULL OR s.branch_id = $4) AND ($5::uuid[] IS NULL OR s.branch_id = ANY ($5::uuid[]))
     ), taken AS (
       SELECT s.sale_date AS date, p.method, count(DISTINCT s.id)::int AS sales_count,
              sum(p.amount_cents - CASE WHEN p.position = (SELECT min(c.position) FROM sale_payments c
                                                            WHERE c.pharmacy_id = p.pharmacy_id AND c.sale_id = p.sale_id AND lower(c.method) = 'cash')
                                        THEN s.change_cents ELSE 0 END)::bigint AS sales_cents
         FROM scope s JOIN sale_payments p ON p.pharmacy_id = s.pharmacy_id AND p.sale_id = s.id
        WHERE lower(p.method) <> 'credit'
        GROUP BY 1, 2
     ), collected AS (
       SELECT (cp.created_at AT TIME ZONE $6)::date AS date, cp.method, sum(cp.amount_cents)::bigint AS collected_cents
         FROM customer_payments cp
        WHERE cp.pharmacy_id = $1 AND (cp.created_at AT TIME ZONE $6)::date BETWEEN $2 AND $3
          AND EXISTS (SELECT 1 FROM customer_payment_allocations a JOIN sales s ON s.pharmacy_id = a.pharmacy_id AND s.id = a.sale_id
                       WHERE a.pharmacy_id = cp.pharmacy_id AND a.payment_id = cp.id
                         AND ($4::uuid IS NULL OR s.branch_id = $4) AND ($5::uuid[] IS NULL OR s.branch_id = ANY ($5::uuid[])))
        GROUP BY 1, 2
     ), refunded AS (
       SELECT (r.created_at AT TIME ZONE $6)::date AS date, r.refund_method AS method, sum(r.refund_cents - r.credit_cents)::bigint AS refunded_cents
         FROM sale_returns r
        WHERE r.pharmacy_id = $1 AND r.kind = 'return' AND r.refund_method IS NOT NULL AND r.refund_cents > r.credit_cents
          AND (r.created_at AT TIME ZONE $6)::date BETWEEN $2 AND $3
          AND ($4::uuid IS NULL OR r.branch_id = $4) AND ($5::uuid[] IS NULL OR r.branch_id = ANY ($5::uuid[]))
        GROUP BY 1, 2
     )
     SELECT to_char(d.date, 'YYYY-MM-DD') AS date, d.method,
            coalesce(t.sales_count, 0) AS sales_count, coalesce(t.sales_cents, 0) AS sales_cents,
            coalesce(c.collected_cents, 0) AS collected_cents, coalesce(r.refunded_cents, 0) AS refunded_cents
       FROM (SELECT date, method FROM taken UNION SELECT date, method FROM collected UNION SELECT date, method FROM refunded) d
       LEFT JOIN taken t ON t.date = d.date AND t.method = d.method
       LEFT JOIN collected c ON c.date = d.date AND c.method = d.method
       LEFT JOIN refunded r ON r.date = d.date AND r.method = d.method
      ORDER BY d.date, d.method`,
    [pharmacyId, range.from, range.to, branchId, branchIds, timeZone],
  );
  const [credit] = await q.query<{ cents: number }>(
    `SELECT coalesce(sum(greatest(0, s.total_cents - (s.amount_paid_cents - s.change_cents))), 0)::bigint AS cents
       FROM sales s
      WHERE s.pharmacy_id = $1 AND s.sale_date BETWEEN $2 AND $3 AND s.status <> 'voided'
        AND ($4::uuid IS NULL OR s.branch_id = $4) AND ($5::uuid[] IS NULL OR s.branch_id = ANY ($5::uuid[]))`,
    [pharmacyId, range.from, range.to, branchId, branchIds],
  );
  return {
    rows: rows.map((r) => ({ ...r, sales_cents: Number(r.sales_cents), collected_cents: Number(r.collected_cents), refunded_cents: Number(r.refunded_cents) })),
    creditGivenCents: Number(credit?.cents ?? 0),
  };
}

// ------------------------------------------------------------------------------------------- credit owed

export interface OwingSaleRow {
  sale_id: string;
  invoice_number: string;
  sale_date: string;
  total_cents: number;
  balance_due_cents: number;
  client_id: string;
  client_name: string;
  client_phone: string | null;
  credit_period_days: number | null;
}

/** Sales that still owe something, per client oldest first; `branchIds` null = every branch. */
export async function findOwingSales(
  q: Queryable,
  pharmacyId: string,
  filters: { branchId?: string; clientId?: string },
  branchIds: readonly string[] | null,
): Promise<OwingSaleRow[]> {
  const rows = await q.query<OwingSaleRow>(
    `SELECT s.id AS sale_id, s.invoice_number, to_char(s.sale_date, 'YYYY-MM-DD') AS sale_date, s.total_cents, s.balance_due_cents,
            c.id AS client_id, c.name AS client_name, c.phone AS client_phone, c.credit_period_days
       FROM sales s JOIN contacts c ON c.pharmacy_id = s.pharmacy_id AND c.id = s.client_id
      WHERE s.pharmacy_id = $1 AND s.balance_due_cents > 0 AND s.status <> 'voided'
        AND ($2::uuid IS NULL OR s.branch_id = $2) AND ($3::uuid IS NULL OR s.client_id = $3)
        AND ($4::uuid[] IS NULL OR s.branch_id = ANY ($4::uuid[]))
      ORDER BY c.id, s.sale_date, s.created_at, s.invoice_number`,
    [pharmacyId, filters.branchId ?? null, filters.clientId ?? null, branchIds],
  );
  return rows.map((r) => ({ ...r, total_cents: Number(r.total_cents), balance_due_cents: Number(r.balance_due_cents) }));
}

/** The cashiers and clients of the sales in a range and branch, by name (the all-sales filters' choices). */
export async function findSaleFilterOptions(
  q: Queryable,
  pharmacyId: string,
  filters: { from?: string; to?: string; branchId?: string },
  branchIds: readonly string[] | null,
  max: number,
): Promise<SaleFilterOptionsResponse> {
  const params = [pharmacyId, filters.from ?? null, filters.to ?? null, filters.branchId ?? null, branchIds, max];
  const where = `s.pharmacy_id = $1 AND ($2::date IS NULL OR s.sale_date >= $2) AND ($3::date IS NULL OR s.sale_date <= $3)
    AND ($4::uuid IS NULL OR s.branch_id = $4) AND ($5::uuid[] IS NULL OR s.branch_id = ANY ($5::uuid[]))`;
  const cashiers = await q.query<{ id: string; name: string }>(
    `SELECT s.cashier_id AS id, max(s.cashier_name) AS name FROM sales s WHERE ${where} AND s.cashier_id IS NOT NULL
      GROUP BY s.cashier_id ORDER BY 2, 1 LIMIT $6`,
    params,
  );
  const clients = await q.query<{ id: string; name: string; phone: string | null }>(
    `SELECT s.client_id AS id, max(s.client_name) AS name, max(s.client_phone) AS phone FROM sales s WHERE ${where} AND s.client_id IS NOT NULL
      GROUP BY s.client_id ORDER BY 2, 1 LIMIT $6`,
    params,
  );
  return { cashiers, clients };
}
