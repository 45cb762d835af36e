import { formatMoney } from '@pharmapoint/domain/money';
import { canonicalPaymentMethod, paymentKind, tillPaymentMethods } from '@pharmapoint/domain/sales';
import { allocateOldestFirst, type CustomerPayment, type CustomerPaymentBody, type CustomerPaymentListResponse } from '@pharmapoint/domain/sales-history';
import type { Queryable } from '../../db/database.ts';
import type { RequestContext } from '../../platform/context.ts';
import { AppError } from '../../platform/errors.ts';
import { audit } from '../audit/audit.service.ts';
import { loadSettings } from '../settings/settings.service.ts';
import { customerBalance, findCustomerPayments, insertCustomerPayment, lockCustomer, lockOwingSales, paymentExists } from './customer-payments.repository.ts';
import { findUserName } from './sales.repository.ts';

/**
 * A customer's later payment of credit sales (issue 10 item 10, decision 0039), in the request's one transaction:
 * the customer's row locked (two payments of one customer queue up), their owing sales locked oldest first, the
 * payment allocated oldest first, each sale's balance lowered. A payment above what they owe, of nothing owed, or on
 * Credit is refused; nothing is written then.
 */

async function onePayment(q: Queryable, ctx: RequestContext, id: string): Promise<CustomerPayment> {
  const { items } = await findCustomerPayments(q, ctx.pharmacyId, { ids: [id], limit: 1, offset: 0 });
  const payment = items[0]!;
  return { ...payment, balanceAfterCents: await customerBalance(q, ctx.pharmacyId, payment.clientId) };
}

/** POST /api/customer-payments. */
export async function recordCustomerPayment(q: Queryable, ctx: RequestContext, input: CustomerPaymentBody): Promise<CustomerPayment> {
  if (await paymentExists(q, ctx.pharmacyId, input.id)) return onePayment(q, ctx, input.id);
  const client = await lockCustomer(q, ctx.pharmacyId, input.clientId);
  if (!client) throw new AppError('NOT_FOUND', { details: { clientId: input.clientId } });
  const { settings } = await loadSettings(q, ctx.pharmacyId);
  const method = canonicalPaymentMethod(tillPaymentMethods(settings.paymentMethods), input.method);
  if (method && paymentKind(method) === 'credit') throw new AppError('CUSTOMER_PAYMENT_ON_CREDIT');
  if (!method) throw new AppError('SALE_PAYMENT_METHOD_UNKNOWN', { values: { method: input.method } });
  const owing = await lockOwingSales(q, ctx.pharmacyId, client.id, ctx.visibleBranchIds);
  const owed = owing.reduce((a, s) => a + s.balanceCents, 0);
  const money = (cents: number) => formatMoney(cents, { currencySymbol: settings.currencySymbol, decimalPlaces: settings.decimalPlaces, thousandsSeparator: settings.thousandsSeparator, decimalSeparator: settings.decimalSeparator });
  if (owed === 0) throw new AppError('CUSTOMER_PAYMENT_NOTHING_OWED', { values: { client: client.name } });
  if (input.amountCents > owed) throw new AppError('CUSTOMER_PAYMENT_ABOVE_BALANCE', { values: { amount: money(input.amountCents), client: client.name, balance: money(owed) }, details: { owedCents: owed } });
  const { allocations } = allocateOldestFirst(owing, input.amountCents);
  await insertCustomerPayment(q, ctx.pharmacyId, {
    id: input.id,
    clientId: client.id,
    amountCents: input.amountCents,
    method,
    reference: input.reference?.trim() ? input.reference.trim() : null,
    notes: input.notes?.trim() ? input.notes.trim() : null,
    createdBy: ctx.userId,
    createdByName: (await findUserName(q, ctx.userId)) ?? 'Unknown',
    at: ctx.now,
    allocations: allocations.map((a) => ({ saleId: a.invoice.id, amountCents: a.amountCents, balanceAfterCents: a.invoice.balanceCents - a.amountCents })),
  });
  await audit(q, ctx, 'customer_payment.record', 'contact', client.id, { owedCents: owed }, { paymentId: input.id, amountCents: input.amountCents, method, sales: allocations.length });
  return onePayment(q, ctx, input.id);
}

/** GET /api/customer-payments: newest first, one customer's or everyone's. */
export async function listCustomerPayments(q: Queryable, ctx: RequestContext, query: { clientId?: string; limit: number; offset: number }): Promise<CustomerPaymentListResponse> {
  const { items, total } = await findCustomerPayments(q, ctx.pharmacyId, query);
  const balances = new Map<string, number>();
  for (const p of items) if (!balances.has(p.clientId)) balances.set(p.clientId, await customerBalance(q, ctx.pharmacyId, p.clientId));
  return { items: items.map((p) => ({ ...p, balanceAfterCents: balances.get(p.clientId)! })), total };
}
