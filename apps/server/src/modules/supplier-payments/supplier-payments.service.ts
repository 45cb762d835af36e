import type { Contact } from '@pharmapoint/domain/contacts';
import { contactCreditDays } from '@pharmapoint/domain/contacts';
import { businessDate } from '@pharmapoint/domain/stock';
import {
  DEFAULT_SUPPLIER_REPORT_SETTINGS,
  PAYMENT_DUE_LISTED,
  PAYMENT_DUE_WINDOW_DAYS,
  isPaymentDue,
  type PaymentDueResponse,
  REFERENCE_REQUIRED_METHODS,
  NO_AGING,
  agingBucketLabels,
  allocateCredit,
  dueDate,
  allocatePayment,
  invoiceAge,
  outstandingCents,
  paymentAllocatedMessage,
  paymentSavedMessage,
  supplierBalanceRow,
  supplierReportSettingsSchema,
  type CreateSupplierPayment,
  type OpenInvoice,
  type SupplierInvoice,
  type SupplierOpenInvoices,
  type SupplierPayment,
  type SupplierPaymentSaved,
  type SupplierReport,
  type SupplierReportQuery,
  type SupplierReportSettings,
  type UpdateSupplierPayment,
} from '@pharmapoint/domain/supplier-payments';
import type { Queryable } from '../../db/database.ts';
import { holds } from '../../platform/access.ts';
import type { RequestContext } from '../../platform/context.ts';
import { AppError } from '../../platform/errors.ts';
import { audit } from '../audit/audit.service.ts';
import { pharmacyTimeZone } from '../settings/settings.service.ts';
import {
  findPayment,
  findReportSettings,
  findSupplier,
  insertAllocations,
  lockSuppliers,
  syncPurchaseBalances,
  syncSupplierBalances,
  insertPayment,
  agedOpenInvoices,
  agingBySupplier,
  dueInvoices,
  listPayments as findPayments,
  paymentCredits,
  removeAllocations,
  saveReportSettings,
  softDeletePayment,
  supplierInvoices,
  supplierTotals,
  updatePaymentRow,
  type InvoiceRow,
  type SupplierRef,
  type SupplierTerms,
  type SupplierTotalsRow,
} from './supplier-payments.repository.ts';

/**
 * Supplier payments (seed 002 sections 3-5, 8, 9; decision 0041): recorded, edited and deleted by people who keep the
 * supplier accounts (supplier:update, supplier:manage or contact:update); each payment is shared among the supplier's
 * open invoices (the chosen one first, then oldest first) in one transaction that first locks the supplier's row,
 * so two payments at once never give one invoice more than it owes. What is left is credit: the next payment's
 * transaction gives earlier credit to the oldest open invoices first (a purchase made since is paid from it), and
 * the report and the contact's page show it applied already.
 */

export function mayPay(ctx: RequestContext): boolean {
  return holds(ctx, 'supplier:update') || holds(ctx, 'supplier:manage') || holds(ctx, 'contact:update');
}

function mayReadPayments(ctx: RequestContext): boolean {
  return holds(ctx, 'supplier:read') || holds(ctx, 'contact:read') || holds(ctx, 'report:financial') || mayPay(ctx);
}

async function today(q: Queryable, ctx: RequestContext): Promise<string> {
  return businessDate(ctx.now, await pharmacyTimeZone(q, ctx.pharmacyId));
}

/** The rules of a payment's fields ('Missing required payment fields' first, seed 002 section 5). */
function checkPayment(input: { amountCents?: number | null; date?: string | null; method: string; reference?: string | null }, supplierId: string | null | undefined, day: string) {
  if (!supplierId || input.amountCents === null || input.amountCents === undefined || input.amountCents === 0 || !input.date) throw new AppError('SUPPLIER_PAYMENT_MISSING_FIELDS');
  if (input.amountCents < 0) throw new AppError('SUPPLIER_PAYMENT_AMOUNT_INVALID');
  if ((REFERENCE_REQUIRED_METHODS as readonly string[]).includes(input.method) && !input.reference?.trim()) {
    throw new AppError('SUPPLIER_PAYMENT_REFERENCE_REQUIRED', { values: { method: input.method } });
  }
  if (input.date > day) throw new AppError('SUPPLIER_PAYMENT_DATE_IN_FUTURE');
}

/**
 * Keeps the supplier balances (migration 0028, decision 0061) true in the transaction of a change: the balance rows of
 * the purchases touched, then of their suppliers (and `supplierIds`), rewritten from the base tables under the
 * suppliers' row locks (taken in id order; a caller that changes a purchase takes them before the purchase's row).
 */
export async function syncSupplierAccounts(q: Queryable, ctx: RequestContext, supplierIds: readonly string[], purchaseIds: readonly string[]): Promise<void> {
  await lockSuppliers(q, ctx.pharmacyId, supplierIds);
  const moved = await syncPurchaseBalances(q, ctx.pharmacyId, purchaseIds);
  const extra = moved.filter((id) => !supplierIds.includes(id));
  if (extra.length > 0) await lockSuppliers(q, ctx.pharmacyId, extra);
  await syncSupplierBalances(q, ctx.pharmacyId, [...supplierIds, ...extra]);
}

/** For the purchases module: the suppliers' rows locked (id order) before it locks a purchase of theirs. */
export async function lockSupplierAccounts(q: Queryable, ctx: RequestContext, supplierIds: readonly string[]): Promise<void> {
  await lockSuppliers(q, ctx.pharmacyId, supplierIds);
}

/**
 * Earlier payments' credit (all but `except`) given to the supplier's open invoices, oldest first; the invoices after.
 * The purchases it paid are added to `touched`.
 */
async function applyCredit(q: Queryable, ctx: RequestContext, supplierId: string, except: string | null, touched: Set<string>): Promise<InvoiceRow[]> {
  let invoices = await supplierInvoices(q, ctx.pharmacyId, supplierId);
  const credits = await paymentCredits(q, ctx.pharmacyId, supplierId, except);
  const given = allocateCredit(credits, invoices);
  if (given.length > 0) {
    await insertAllocations(q, ctx.pharmacyId, given.map((g) => ({ ...g, source: 'credit' as const })), ctx.now);
    for (const g of given) touched.add(g.invoiceId);
    invoices = await supplierInvoices(q, ctx.pharmacyId, supplierId);
  }
  return invoices;
}

async function allocate(q: Queryable, ctx: RequestContext, supplier: SupplierRef, input: UpdateSupplierPayment, paymentId: string | null, touched: Set<string>) {
  const invoices = await applyCredit(q, ctx, supplier.id, paymentId, touched);
  if (input.invoiceId && !invoices.some((i) => i.id === input.invoiceId && outstandingCents(i) > 0)) {
    throw new AppError('SUPPLIER_PAYMENT_INVOICE_UNKNOWN', { details: { invoiceId: input.invoiceId } });
  }
  return allocatePayment(input.amountCents!, invoices, input.invoiceId ?? null);
}

function saved(payment: SupplierPayment): SupplierPaymentSaved {
  return {
    payment,
    message: paymentSavedMessage(payment.amountCents, payment.allocationDetails.invoicesAffected),
    allocationMessage: paymentAllocatedMessage(payment.allocationDetails),
  };
}

/** POST /api/supplier-payments. */
export async function recordPayment(q: Queryable, ctx: RequestContext, input: CreateSupplierPayment): Promise<SupplierPaymentSaved> {
  if (!mayPay(ctx)) throw new AppError('FORBIDDEN');
  checkPayment(input, input.supplierId, await today(q, ctx));
  const supplier = await findSupplier(q, ctx.pharmacyId, input.supplierId!, true);
  if (!supplier) throw new AppError('NOT_FOUND', { details: { supplierId: input.supplierId } });
  const touched = new Set<string>();
  const details = await allocate(q, ctx, supplier, input, null, touched);
  const id = await insertPayment(
    q,
    ctx.pharmacyId,
    ctx.userId,
    {
      supplierId: supplier.id,
      supplierName: supplier.name,
      amountCents: input.amountCents!,
      date: input.date!,
      method: input.method,
      reference: input.reference?.trim() || null,
      notes: input.notes?.trim() || null,
      invoiceId: input.invoiceId ?? null,
      details,
    },
    ctx.now,
  );
  await insertAllocations(q, ctx.pharmacyId, details.allocations.map((a) => ({ paymentId: id, invoiceId: a.invoiceId, amountCents: a.allocationAmount, source: 'payment' as const })), ctx.now);
  await syncSupplierAccounts(q, ctx, [supplier.id], [...touched, ...details.allocations.map((a) => a.invoiceId)]);
  const payment = (await findPayment(q, ctx.pharmacyId, id))!;
  await audit(q, ctx, 'supplier_payment.create', 'supplier_payment', id, null, payment);
  return saved(payment);
}

async function lockPayment(q: Queryable, ctx: RequestContext, id: string): Promise<{ payment: SupplierPayment; supplier: SupplierRef }> {
  const found = await findPayment(q, ctx.pharmacyId, id);
  if (!found) throw new AppError('NOT_FOUND');
  const supplier = await findSupplier(q, ctx.pharmacyId, found.supplierId, true);
  // Read again under the supplier's lock: a concurrent edit or deletion has finished by now.
  const payment = await findPayment(q, ctx.pharmacyId, id);
  if (!supplier || !payment) throw new AppError('NOT_FOUND');
  return { payment, supplier };
}

/** PUT /api/supplier-payments/:id: 'Payment updated successfully'; the payment's allocations are made again. */
export async function updatePayment(q: Queryable, ctx: RequestContext, id: string, input: UpdateSupplierPayment): Promise<SupplierPaymentSaved> {
  if (!mayPay(ctx)) throw new AppError('FORBIDDEN');
  const { payment: before, supplier } = await lockPayment(q, ctx, id);
  checkPayment(input, supplier.id, await today(q, ctx));
  const touched = new Set(await removeAllocations(q, ctx.pharmacyId, id, ctx.now));
  const details = await allocate(q, ctx, supplier, input, id, touched);
  await updatePaymentRow(
    q,
    ctx.pharmacyId,
    ctx.userId,
    id,
    { amountCents: input.amountCents!, date: input.date!, method: input.method, reference: input.reference?.trim() || null, notes: input.notes?.trim() || null, invoiceId: input.invoiceId ?? null, details },
    ctx.now,
  );
  await insertAllocations(q, ctx.pharmacyId, details.allocations.map((a) => ({ paymentId: id, invoiceId: a.invoiceId, amountCents: a.allocationAmount, source: 'payment' as const })), ctx.now);
  await syncSupplierAccounts(q, ctx, [supplier.id], [...touched, ...details.allocations.map((a) => a.invoiceId)]);
  const payment = (await findPayment(q, ctx.pharmacyId, id))!;
  await audit(q, ctx, 'supplier_payment.update', 'supplier_payment', id, before, payment);
  return { ...saved(payment), message: 'Payment updated successfully' };
}

/** DELETE /api/supplier-payments/:id: 'Payment deleted successfully'; its allocations are removed (the invoices owe again). */
export async function deletePayment(q: Queryable, ctx: RequestContext, id: string): Promise<{ message: string }> {
  if (!mayPay(ctx)) throw new AppError('FORBIDDEN');
  const { payment, supplier } = await lockPayment(q, ctx, id);
  const touched = await removeAllocations(q, ctx.pharmacyId, id, ctx.now);
  await softDeletePayment(q, ctx.pharmacyId, ctx.userId, id, ctx.now);
  await syncSupplierAccounts(q, ctx, [supplier.id], touched);
  await audit(q, ctx, 'supplier_payment.delete', 'supplier_payment', id, payment, null);
  return { message: 'Payment deleted successfully' };
}

export async function getPayment(q: Queryable, ctx: RequestContext, id: string): Promise<SupplierPayment> {
  if (!mayReadPayments(ctx)) throw new AppError('FORBIDDEN');
  const payment = await findPayment(q, ctx.pharmacyId, id);
  if (!payment) throw new AppError('NOT_FOUND');
  return payment;
}

export async function listPayments(q: Queryable, ctx: RequestContext, query: { supplierId?: string | undefined; limit: number; offset: number }) {
  if (!mayReadPayments(ctx)) throw new AppError('FORBIDDEN');
  const { items, total } = await findPayments(q, ctx.pharmacyId, query);
  return { items, total, limit: query.limit, offset: query.offset };
}

/** Invoices with their due dates and ages, the supplier's unallocated credit shown as already given (oldest first). */
function withCredit(invoices: readonly InvoiceRow[], creditCents: number, creditDays: number, day: string): SupplierInvoice[] {
  const given = new Map<string, number>();
  if (creditCents > 0) for (const g of allocateCredit([{ paymentId: 'credit', creditCents }], invoices)) given.set(g.invoiceId, (given.get(g.invoiceId) ?? 0) + g.amountCents);
  return invoices.map((invoice) => {
    const extra = given.get(invoice.id) ?? 0;
    const paid = invoice.paidCents + extra;
    return {
      id: invoice.id,
      purchaseNumber: invoice.number,
      date: invoice.date,
      status: invoice.status,
      totalCents: invoice.totalCents,
      returnedCents: invoice.returnedCents,
      paidCents: paid,
      outstandingCents: outstandingCents({ ...invoice, paidCents: paid } as OpenInvoice),
      creditDays,
      ...invoiceAge(invoice.date, creditDays, day),
    };
  });
}

async function userSettings(q: Queryable, ctx: RequestContext): Promise<SupplierReportSettings> {
  const stored = supplierReportSettingsSchema.safeParse((await findReportSettings(q, ctx.pharmacyId, ctx.userId)) ?? {});
  return stored.success ? stored.data : DEFAULT_SUPPLIER_REPORT_SETTINGS;
}

/** A supplier's page: its invoices (newest first), payments and balance = purchases - returns - payments. */
export async function supplierStatement(q: Queryable, ctx: RequestContext, contact: Contact) {
  if (!mayReadPayments(ctx)) {
    return { balance: { totalCents: 0, paidCents: 0, returnsCents: 0, balanceCents: 0 }, purchases: [], payments: [] };
  }
  const day = await today(q, ctx);
  const settings = await userSettings(q, ctx);
  const [totals] = await supplierTotals(q, ctx.pharmacyId, null, contact.id);
  const invoices = await supplierInvoices(q, ctx.pharmacyId, contact.id);
  const credit = (await paymentCredits(q, ctx.pharmacyId, contact.id)).reduce((sum, c) => sum + c.creditCents, 0);
  const payments = await findPayments(q, ctx.pharmacyId, { supplierId: contact.id, limit: 100, offset: 0 });
  const purchases = withCredit(invoices, credit, contactCreditDays(contact, settings.defaultCreditDays), day).reverse();
  const t = totals ?? { purchases: 0, returns: 0, paid: 0 };
  return { balance: { totalCents: t.purchases, paidCents: t.paid, returnsCents: t.returns, balanceCents: t.purchases - t.returns - t.paid }, purchases, payments: payments.items };
}

/** The suppliers' ids with their credit days (their terms, else the user's default credit days, else 30). */
function termsOf(suppliers: readonly SupplierTotalsRow[], settings: SupplierReportSettings): SupplierTerms {
  return { supplierIds: suppliers.map((s) => s.id), creditDays: suppliers.map((s) => contactCreditDays(s, settings.defaultCreditDays)) };
}

/**
 * GET /api/reports/suppliers: one row per supplier with status, aging and how many invoices are open; filters and the
 * user's settings. Set-based: the suppliers' totals and the aging of their open invoices are two aggregate queries
 * (decision 0042); a row's invoices are answered by supplierOpenInvoices when it is opened.
 */
export async function supplierReport(q: Queryable, ctx: RequestContext, query: SupplierReportQuery): Promise<SupplierReport> {
  const day = await today(q, ctx);
  const settings = await userSettings(q, ctx);
  const suppliers = await supplierTotals(q, ctx.pharmacyId, query.search?.trim() || null);
  const terms = termsOf(suppliers, settings);
  const aging = await agingBySupplier(q, ctx.pharmacyId, day, terms, settings.agingPeriods);
  const rows = suppliers
    .map((s, i) => supplierBalanceRow({ ...s, creditDays: terms.creditDays[i]! }, s, aging.get(s.id) ?? NO_AGING, settings.agingPeriods))
    .filter((row) => (query.nonZeroOnly === 'true' || !settings.showZeroBalances ? row.balance !== 0 : true))
    .filter((row) => Math.abs(row.balance) >= query.minBalanceCents);
  const breakdown = { current: 0, days1to30: 0, days31to60: 0, over60: 0 };
  for (const row of rows) for (const key of Object.keys(breakdown) as (keyof typeof breakdown)[]) breakdown[key] += row.agingBreakdown[key];
  return {
    today: day,
    settings,
    bucketLabels: agingBucketLabels(settings.agingPeriods),
    rows,
    totals: {
      totalPurchases: rows.reduce((sum, r) => sum + r.totalPurchases, 0),
      totalPaid: rows.reduce((sum, r) => sum + r.totalPaid, 0),
      totalBalance: rows.reduce((sum, r) => sum + r.balance, 0),
      outstanding: rows.filter((r) => r.balanceStatus === 'Outstanding').length,
      overpaid: rows.filter((r) => r.balanceStatus === 'Overpaid').length,
      settled: rows.filter((r) => r.balanceStatus === 'Settled').length,
      agingBreakdown: breakdown,
    },
  };
}

/**
 * GET /api/reports/suppliers/:supplierId/invoices: the open invoices of a report row, oldest first, with due dates
 * and days overdue, as the row counts them (none while the supplier is owed nothing). 404 for a missing supplier, a
 * customer or another pharmacy's supplier.
 */
export async function supplierOpenInvoices(q: Queryable, ctx: RequestContext, supplierId: string): Promise<SupplierOpenInvoices> {
  const day = await today(q, ctx);
  const settings = await userSettings(q, ctx);
  const [supplier] = await supplierTotals(q, ctx.pharmacyId, null, supplierId);
  if (!supplier) throw new AppError('NOT_FOUND', { details: { supplierId } });
  const owed = supplier.purchases - supplier.returns - supplier.paid > 0;
  const invoices = owed ? await agedOpenInvoices(q, ctx.pharmacyId, day, termsOf([supplier], settings)) : [];
  return { supplierId: supplier.id, supplierName: supplier.name, today: day, invoices: invoices.map(({ supplierId: _, ...invoice }) => invoice) };
}

export async function getSupplierReportSettings(q: Queryable, ctx: RequestContext): Promise<SupplierReportSettings> {
  return userSettings(q, ctx);
}

/** PUT /api/reports/suppliers/settings: kept per user ('Settings saved successfully'). */
export async function putSupplierReportSettings(q: Queryable, ctx: RequestContext, settings: SupplierReportSettings): Promise<SupplierReportSettings> {
  await saveReportSettings(q, ctx.pharmacyId, ctx.userId, settings, ctx.now);
  return settings;
}

/** GET /api/reports/suppliers/payment-due: the dashboard's payment-due alert (open invoices due within 7 days or overdue; the first 20 listed, all counted). */
export async function paymentDue(q: Queryable, ctx: RequestContext): Promise<PaymentDueResponse> {
  const day = await today(q, ctx);
  const settings = await userSettings(q, ctx);
  const owed = (await supplierTotals(q, ctx.pharmacyId, null)).filter((s) => s.purchases - s.returns - s.paid > 0);
  const names = new Map(owed.map((s) => [s.id, s.name]));
  const due = await dueInvoices(q, ctx.pharmacyId, day, termsOf(owed, settings), dueDate(day, PAYMENT_DUE_WINDOW_DAYS), PAYMENT_DUE_LISTED);
  const invoices = due.invoices
    .map((i) => ({ ...i, supplierName: names.get(i.supplierId) ?? '' }))
    .filter((i) => isPaymentDue(i, day))
    .sort((a, b) => a.dueDate.localeCompare(b.dueDate) || a.supplierName.localeCompare(b.supplierName));
  return {
    windowDays: PAYMENT_DUE_WINDOW_DAYS,
    invoiceCount: due.count,
    totalCents: due.totalCents,
    overdueCount: due.overdueCount,
    invoices: invoices.slice(0, PAYMENT_DUE_LISTED),
  };
}

/**
 * For the purchases module, after a purchase of the supplier is saved (in the same transaction): give the supplier's
 * credit (earlier overpayments) to its open invoices now, oldest first, under the supplier's lock (decision 0041),
 * and keep the balances of the supplier and of `purchaseIds` (and of what the credit paid) true.
 */
export async function applySupplierCredit(q: Queryable, ctx: RequestContext, supplierId: string, purchaseIds: readonly string[] = []): Promise<void> {
  const supplier = await findSupplier(q, ctx.pharmacyId, supplierId, true);
  const touched = new Set(purchaseIds);
  if (supplier) await applyCredit(q, ctx, supplier.id, null, touched);
  await syncSupplierAccounts(q, ctx, supplier ? [supplier.id] : [], [...touched]);
}
