import {
  ageInvoice,
  dateRangeOf,
  DEFAULT_CUSTOMER_CREDIT_DAYS,
  netOf,
  type CreditCustomer,
  type CreditOutstandingResponse,
  type PaymentSummaryResponse,
  SALE_FILTER_OPTIONS_MAX,
  type SaleFilterOptionsResponse,
  type SaleHistoryQuery,
  type SaleHistoryResponse,
} from '@pharmapoint/domain/sales-history';
import { businessDate } from '@pharmapoint/domain/stock';
import type { Queryable } from '../../db/database.ts';
import { canSeeBranch, type RequestContext } from '../../platform/context.ts';
import { AppError } from '../../platform/errors.ts';
import { pharmacyTimeZone } from '../settings/settings.service.ts';
import { findOwingSales, findSaleFilterOptions, listSaleHistory, paymentSummary as findPaymentSummary } from './sales.repository.ts';

/**
 * The back office's reads of sales (issue 10 items 7 and 10, decisions 0037 and 0039): the all-sales list with the
 * date filter values of seed 002 section 4 resolved on the pharmacy's business date, the payment summary per method
 * and day, and the credit owed per customer with aging. Only the branches the user may see.
 */

async function todayOf(q: Queryable, ctx: RequestContext): Promise<{ today: string; timeZone: string }> {
  const timeZone = await pharmacyTimeZone(q, ctx.pharmacyId);
  return { today: businessDate(ctx.now, timeZone), timeZone };
}

function checkBranch(ctx: RequestContext, branchId: string | undefined): void {
  if (branchId && !canSeeBranch(ctx, branchId)) throw new AppError('BRANCH_NOT_ALLOWED');
}

/** GET /api/sales: the filtered page, its count and the totals of every sale the filters select. */
export async function listSalesHistory(q: Queryable, ctx: RequestContext, query: SaleHistoryQuery): Promise<SaleHistoryResponse> {
  checkBranch(ctx, query.branchId);
  let range: { from?: string; to?: string } = { from: query.from, to: query.to };
  if (query.preset) range = dateRangeOf(query.preset, (await todayOf(q, ctx)).today, { from: query.from, to: query.to });
  const { items, total, totals } = await listSaleHistory(q, ctx.pharmacyId, { ...query, ...range }, ctx.visibleBranchIds);
  return { items, total, totals, limit: query.limit, offset: query.offset, range: { from: range.from ?? null, to: range.to ?? null } };
}

/** GET /api/sales/filter-options: the cashiers and clients of the sales in the range and branch. */
export async function getSaleFilterOptions(q: Queryable, ctx: RequestContext, query: { preset?: string; from?: string; to?: string; branchId?: string }): Promise<SaleFilterOptionsResponse> {
  checkBranch(ctx, query.branchId);
  const range = query.preset ? dateRangeOf(query.preset, (await todayOf(q, ctx)).today, query) : { from: query.from, to: query.to };
  return findSaleFilterOptions(q, ctx.pharmacyId, { ...range, branchId: query.branchId }, ctx.visibleBranchIds, SALE_FILTER_OPTIONS_MAX);
}

/** GET /api/sales/payment-summary: per method and day over a range (default: this month). */
export async function getPaymentSummary(
  q: Queryable,
  ctx: RequestContext,
  query: { preset?: string; from?: string; to?: string; branchId?: string },
): Promise<PaymentSummaryResponse> {
  checkBranch(ctx, query.branchId);
  const { today, timeZone } = await todayOf(q, ctx);
  const asked = query.preset ? dateRangeOf(query.preset, today, query) : query.from || query.to ? { from: query.from, to: query.to } : dateRangeOf('thisMonth', today);
  const range = { from: asked.from ?? asked.to ?? today, to: asked.to ?? today };
  if (range.from > range.to) throw new AppError('VALIDATION_FAILED', { message: 'The start date must be on or before the end date.' });
  const { rows, creditGivenCents } = await findPaymentSummary(q, ctx.pharmacyId, range, query.branchId ?? null, ctx.visibleBranchIds, timeZone);
  const out = rows.map((r) => ({
    date: r.date,
    method: r.method,
    salesCount: r.sales_count,
    salesCents: r.sales_cents,
    collectedCents: r.collected_cents,
    refundedCents: r.refunded_cents,
    netCents: netOf({ salesCents: r.sales_cents, collectedCents: r.collected_cents, refundedCents: r.refunded_cents }),
  }));
  const methods = [...new Set(out.map((r) => r.method))].sort((a, b) => a.localeCompare(b));
  const totals = methods.map((method) => {
    const mine = out.filter((r) => r.method === method);
    const sum = (key: 'salesCount' | 'salesCents' | 'collectedCents' | 'refundedCents' | 'netCents') => mine.reduce((a, r) => a + r[key], 0);
    return { method, salesCount: sum('salesCount'), salesCents: sum('salesCents'), collectedCents: sum('collectedCents'), refundedCents: sum('refundedCents'), netCents: sum('netCents') };
  });
  return { ...range, branchId: query.branchId ?? null, methods, rows: out, totals, creditGivenCents, netCents: totals.reduce((a, t) => a + t.netCents, 0) };
}

/** GET /api/sales/credit-outstanding: what each customer owes on credit sales, with due dates and aging. */
export async function getCreditOutstanding(q: Queryable, ctx: RequestContext, query: { branchId?: string; clientId?: string }): Promise<CreditOutstandingResponse> {
  checkBranch(ctx, query.branchId);
  const { today } = await todayOf(q, ctx);
  const rows = await findOwingSales(q, ctx.pharmacyId, query, ctx.visibleBranchIds);
  const customers = new Map<string, CreditCustomer>();
  for (const r of rows) {
    const creditDays = r.credit_period_days ?? DEFAULT_CUSTOMER_CREDIT_DAYS;
    let c = customers.get(r.client_id);
    if (!c) {
      c = { clientId: r.client_id, name: r.client_name, phone: r.client_phone, balanceCents: 0, creditDays, oldestSaleDate: r.sale_date, daysOverdue: 0, buckets: { current: 0, days1to30: 0, days31to60: 0, days60plus: 0 }, invoices: [] };
      customers.set(r.client_id, c);
    }
    const aged = ageInvoice(r.sale_date, creditDays, today);
    c.invoices.push({ saleId: r.sale_id, invoiceNumber: r.invoice_number, saleDate: r.sale_date, totalCents: r.total_cents, balanceCents: r.balance_due_cents, ...aged });
    c.balanceCents += r.balance_due_cents;
    c.buckets[aged.bucket] += r.balance_due_cents;
    c.daysOverdue = Math.max(c.daysOverdue, aged.daysOverdue);
  }
  const list = [...customers.values()].sort((a, b) => b.balanceCents - a.balanceCents || a.name.localeCompare(b.name));
  const totals = { balanceCents: 0, current: 0, days1to30: 0, days31to60: 0, days60plus: 0 };
  for (const c of list) {
    totals.balanceCents += c.balanceCents;
    for (const key of ['current', 'days1to30', 'days31to60', 'days60plus'] as const) totals[key] += c.buckets[key];
  }
  return { asOf: today, customers: list, totals };
}
