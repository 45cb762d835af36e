import { randomUUID } from 'node:crypto';
import type { CompleteSale } from '@pharmapoint/domain/sales';
import { dateRangeOf } from '@pharmapoint/domain/sales-history';
import { businessDate } from '@pharmapoint/domain/stock';
import {
  canMoveTillPayment,
  formatMpesaPhone,
  isMpesaMethod,
  TILL_MPESA_CANCEL_TEXT,
  TILL_MPESA_ONE_PAYMENT_TEXT,
  tillCredentialsProblem,
  tillMpesaAmountProblem,
  tillMpesaNotResolvableText,
  type TillMpesaAttention,
  type TillMpesaCancel,
  type TillMpesaListQuery,
  type TillMpesaListResponse,
  type TillMpesaRequest,
  type TillMpesaResolve,
  type TillMpesaStart,
  type TillMpesaStatus,
} from '@pharmapoint/domain/till-mpesa';
import type { Config } from '../../config.ts';
import type { Database, Queryable } from '../../db/database.ts';
import { canSeeBranch, type RequestContext } from '../../platform/context.ts';
import { AppError } from '../../platform/errors.ts';
import { enqueueJob } from '../../platform/jobs.ts';
import { audit } from '../audit/audit.service.ts';
import { checkSale, completeSale, isSaleRecorded } from '../sales/sales.service.ts';
import { loadSettings, pharmacyTimeZone } from '../settings/settings.service.ts';
import { tillKopoKopoConfig, type KopoKopoConfig } from './k2-config.ts';
import type { K2Result } from './k2.client.ts';
import {
  findPendingForSale,
  findSaleByInvoice,
  findTillPayment,
  findTillPaymentByK2Id,
  flagTillPayment,
  insertTillPayment,
  insertTillPaymentEvent,
  listTillPayments,
  moveTillPayment,
  resolveTillPaymentRow,
  type TillPaymentRow,
} from './till-payments.repository.ts';
import { RECONCILE } from './payments.service.ts';

/**
 * M-Pesa at the till (issue 11 item 7, decision 0058). The cashier asks for the sale's exact total (priced here,
 * never the browser's figure) by STK push through the pharmacy's own Kopo Kopo K2 till; the push goes out through
 * the job runner; the signed callback (or the status query that reconciles a lost one) completes the sale in its own
 * transaction, as the cashier, through the sales module's completeSale with the M-Pesa receipt as the payment's
 * reference. Money that completes no sale is kept as 'unmatched' for the owner to reconcile.
 */

export interface TillDeps {
  db: Database;
  config: Config;
}

export const TILL_STK_PUSH_JOB = 'k2_till_stk_push';
export const TILL_STATUS_QUERY_JOB = 'k2_till_status_query';

/** The failure shown when K2 gave no reason. */
const DEFAULT_FAILURE = 'The M-Pesa payment was not completed.';

/** The cashier's rights when asking: the callback completes the sale as them (see requesterContext). */
interface RequesterSnapshot {
  branchId: string | null;
  permissions: readonly string[];
  subject: RequestContext['subject'];
  membership: RequestContext['membership'];
  visibleBranchIds: readonly string[] | null;
}

/** The K2 of this pharmacy's till (its own credentials, or the simulator's on npm start), or undefined. */
export async function tillK2(q: Queryable, config: Config, pharmacyId: string): Promise<{ k2: KopoKopoConfig | undefined; problem: string | null }> {
  const { settings } = await loadSettings(q, pharmacyId);
  const own = settings.integrations.kopokopo;
  const k2 = tillKopoKopoConfig(config.kopokopo, own, config.publicUrl, pharmacyId);
  return { k2, problem: k2 ? null : tillCredentialsProblem(own) };
}

export function toTillRequest(row: TillPaymentRow): TillMpesaRequest {
  return {
    id: row.id,
    saleId: row.saleId,
    status: row.status,
    amountCents: row.amountCents,
    phoneNumber: formatMpesaPhone(row.phone),
    mpesaReceipt: row.mpesaReceipt,
    paidCents: row.paidCents,
    failureReason: row.failureReason,
    attention: row.attention,
    completedSaleId: row.completedSaleId,
    saleRecorded: row.saleRecorded,
    requestedBy: { id: row.requestedBy, name: row.requestedByName },
    branch: { id: row.branchId, name: row.branchName },
    sale: row.saleRecorded && row.saleInvoiceNumber ? { id: row.saleId, invoiceNumber: row.saleInvoiceNumber } : null,
    resolution:
      row.resolution && row.resolvedBy && row.resolvedAt
        ? {
            kind: row.resolution,
            reference: row.resolutionReference,
            note: row.resolutionNote ?? '',
            sale: row.resolvedSaleId && row.resolvedSaleInvoiceNumber ? { id: row.resolvedSaleId, invoiceNumber: row.resolvedSaleInvoiceNumber } : null,
            resolvedBy: { id: row.resolvedBy, name: row.resolvedByName ?? '' },
            resolvedAt: new Date(row.resolvedAt).toISOString(),
          }
        : null,
    createdAt: new Date(row.createdAt).toISOString(),
    finishedAt: row.finishedAt === null ? null : new Date(row.finishedAt).toISOString(),
  };
}

/**
 * POST /api/till-payments: before any phone rings, the sale is checked by the sales module's checkSale, the load and
 * decide completing it runs (the customer, the resumed sale and its reservation, the branch, stock under the rows'
 * locks, the branch's prices and the total the till showed, the payment rules, the sale date), so it is refused with
 * the same code and message POST /api/sales would answer, and nothing is written or queued. Then the rules of M-Pesa at
 * the till: one M-Pesa payment of the whole total, in whole shillings; a sale already recorded or already waiting for
 * the customer is refused. Records the pending request for the server's total and queues the STK push.
 */
export async function startTillPayment(q: Queryable, ctx: RequestContext, config: Config, input: TillMpesaStart): Promise<{ request: TillMpesaRequest }> {
  const sale = input.sale;
  if (await isSaleRecorded(q, ctx.pharmacyId, sale.id)) throw new AppError('SALE_ID_TAKEN', { details: { id: sale.id } });
  const { k2, problem } = await tillK2(q, config, ctx.pharmacyId);
  if (!k2) throw new AppError('PAYMENT_SERVICE_MISCONFIGURED', { message: problem ?? undefined });
  // Exactly the checks completing this sale runs, in its order (decision 0069); the callback completes it with the
  // payment checked here, the M-Pesa receipt as its reference.
  const { branch, cart, payments } = await checkSale(q, ctx, sale);
  const payment = payments.length === 1 ? payments[0]! : null;
  if (!payment || !isMpesaMethod(payment.method)) throw new AppError('VALIDATION_FAILED', { message: TILL_MPESA_ONE_PAYMENT_TEXT, details: { totalCents: cart.totalCents } });
  const amountProblem = tillMpesaAmountProblem(cart.totalCents);
  if (amountProblem) throw new AppError('VALIDATION_FAILED', { message: amountProblem, details: { totalCents: cart.totalCents } });
  const method = payment.method;

  if (await findPendingForSale(q, ctx.pharmacyId, sale.id)) {
    throw new AppError('CONFLICT', { message: 'A payment request for this sale is already waiting for the customer. Wait for the answer or cancel it first.' });
  }
  const id = randomUUID();
  const requester: RequesterSnapshot = {
    branchId: ctx.branchId,
    permissions: ctx.permissions,
    subject: ctx.subject,
    membership: ctx.membership,
    visibleBranchIds: ctx.visibleBranchIds,
  };
  const saleInput: CompleteSale = { ...sale, branchId: branch.id, payments: [{ method, amountCents: cart.totalCents, reference: null }] };
  await insertTillPayment(q, {
    pharmacyId: ctx.pharmacyId,
    id,
    saleId: sale.id,
    branchId: branch.id,
    requestedBy: ctx.userId,
    requester,
    saleInput,
    amountCents: cart.totalCents,
    phone: input.phoneNumber,
    at: ctx.now,
  });
  await enqueueJob(q, { kind: TILL_STK_PUSH_JOB, payload: { pharmacyId: ctx.pharmacyId, requestId: id }, pharmacyId: ctx.pharmacyId, maxAttempts: 6 });
  await audit(q, ctx, 'till_payment.request', 'till_payment', id, null, { saleId: sale.id, amountCents: cart.totalCents, phone: formatMpesaPhone(input.phoneNumber) });
  const row = await findTillPayment(q, ctx.pharmacyId, id);
  if (!row) throw new Error('till payment vanished');
  return { request: toTillRequest(row) };
}

/** GET /api/till-payments/:id (the till polls it). */
export async function getTillPayment(q: Queryable, ctx: RequestContext, id: string): Promise<{ request: TillMpesaRequest }> {
  const row = await findTillPayment(q, ctx.pharmacyId, id);
  if (!row) throw new AppError('PAYMENT_NOT_FOUND');
  return { request: toTillRequest(row) };
}

/**
 * GET /api/till-payments: the owner's list, newest first, one page and the count; status=unmatched (or attention) is
 * what the owner reconciles. Only the branches the user may see; the date filter on the pharmacy's days.
 */
export async function listTillPaymentRequests(q: Queryable, ctx: RequestContext, query: TillMpesaListQuery): Promise<TillMpesaListResponse> {
  if (query.branchId && !canSeeBranch(ctx, query.branchId)) throw new AppError('BRANCH_NOT_ALLOWED');
  const timeZone = await pharmacyTimeZone(q, ctx.pharmacyId);
  const range = query.preset ? dateRangeOf(query.preset, businessDate(ctx.now, timeZone), { from: query.from, to: query.to }) : { from: query.from, to: query.to };
  const { rows, total } = await listTillPayments(q, {
    pharmacyId: ctx.pharmacyId,
    ...(query.status ? { status: query.status } : {}),
    ...(query.branchId ? { branchId: query.branchId } : {}),
    ...(range.from ? { from: range.from } : {}),
    ...(range.to ? { to: range.to } : {}),
    timeZone,
    visibleBranchIds: ctx.visibleBranchIds,
    limit: query.limit,
    offset: query.offset,
  });
  return { items: rows.map(toTillRequest), total, limit: query.limit, offset: query.offset };
}

/**
 * POST /api/till-payments/:id/resolve (decision 0068): the owner reconciles unmatched money, refunded to the customer
 * (the reversal's or refund's reference and a note) or applied to a sale of theirs chosen by invoice number (the
 * sale is not changed; the link is kept). The request's row is locked: only an unmatched request moves, once, to
 * resolved (409 otherwise, in words). Another pharmacy's request or sale, or one of a branch the user cannot see, is
 * 404. Audited with who did it.
 */
export async function resolveTillPayment(q: Queryable, ctx: RequestContext, id: string, input: TillMpesaResolve): Promise<{ request: TillMpesaRequest }> {
  const row = await findTillPayment(q, ctx.pharmacyId, id, { forUpdate: true });
  if (!row || !canSeeBranch(ctx, row.branchId)) throw new AppError('PAYMENT_NOT_FOUND');
  if (row.status !== 'unmatched') throw new AppError('CONFLICT', { message: tillMpesaNotResolvableText(row.status), details: { status: row.status } });
  let sale: { id: string; invoiceNumber: string } | null = null;
  if (input.resolution === 'applied') {
    const found = await findSaleByInvoice(q, ctx.pharmacyId, input.invoiceNumber);
    if (!found || !canSeeBranch(ctx, found.branchId)) throw new AppError('NOT_FOUND', { message: `There is no sale with invoice number ${input.invoiceNumber}.` });
    if (found.status === 'voided') throw new AppError('CONFLICT', { message: `Sale ${found.invoiceNumber} was voided: choose the sale this money paid.` });
    sale = { id: found.id, invoiceNumber: found.invoiceNumber };
  }
  const reference = input.resolution === 'refunded' ? input.reference : null;
  const moved = await resolveTillPaymentRow(q, ctx.pharmacyId, id, { resolution: input.resolution, reference, note: input.note, saleId: sale?.id ?? null, by: ctx.userId, at: ctx.now });
  if (!moved) throw new AppError('CONFLICT', { message: tillMpesaNotResolvableText('resolved') });
  await audit(q, ctx, 'till_payment.resolve', 'till_payment', id, { status: 'unmatched', attention: row.attention, receipt: row.mpesaReceipt, paidCents: row.paidCents }, {
    status: 'resolved',
    resolution: input.resolution,
    ...(reference ? { reference } : {}),
    ...(sale ? { saleId: sale.id, invoiceNumber: sale.invoiceNumber } : {}),
    note: input.note,
  });
  return getTillPayment(q, ctx, id);
}

/**
 * POST /api/till-payments/:id/cancel: the cashier stops waiting (or the till's wait ran out). K2 cannot take a
 * prompt back: if the customer pays anyway, the money is kept as unmatched for the owner. A request already
 * answered is returned as it is (a completed one: the till shows its receipt).
 */
export async function cancelTillPayment(q: Queryable, ctx: RequestContext, id: string, input: TillMpesaCancel): Promise<{ request: TillMpesaRequest }> {
  const row = await findTillPayment(q, ctx.pharmacyId, id, { forUpdate: true });
  if (!row) throw new AppError('PAYMENT_NOT_FOUND');
  if (row.status === 'pending') {
    await moveTillPayment(q, ctx.pharmacyId, id, 'pending', 'cancelled', { at: ctx.now, failureReason: TILL_MPESA_CANCEL_TEXT[input.reason] });
    await audit(q, ctx, 'till_payment.cancel', 'till_payment', id, { status: 'pending' }, { status: 'cancelled', reason: input.reason });
  }
  return getTillPayment(q, ctx, id);
}

/** The cashier who asked, as the callback's transaction completes the sale (their rights when they asked). */
function requesterContext(row: TillPaymentRow, now: Date): RequestContext {
  const snapshot = row.requester as RequesterSnapshot;
  return {
    pharmacyId: row.pharmacyId,
    branchId: snapshot.branchId,
    userId: row.requestedBy,
    permissions: snapshot.permissions,
    subject: snapshot.subject,
    membership: snapshot.membership,
    isDemo: false,
    visibleBranchIds: snapshot.visibleBranchIds,
    now,
  };
}

/** Our request named by the result: its metadata's till_request_id, else the K2 id at the end of its location. */
async function requestOf(q: Queryable, pharmacyId: string, result: K2Result, knownId: string | null): Promise<TillPaymentRow | undefined> {
  const named = knownId ?? (typeof result.metadata?.till_request_id === 'string' ? result.metadata.till_request_id : null);
  const row = named && /^[0-9a-f-]{36}$/i.test(named) ? await findTillPayment(q, pharmacyId, named, { forUpdate: true }) : undefined;
  if (row) {
    // Another incoming payment's result with our id in its metadata changes nothing.
    return !row.k2Location || !result.id || row.k2Location.endsWith(`/${result.id}`) ? row : undefined;
  }
  return result.id ? findTillPaymentByK2Id(q, pharmacyId, result.id, { forUpdate: true }) : undefined;
}

async function unmatched(q: Queryable, row: TillPaymentRow, attention: TillMpesaAttention, values: { receipt: string | null; paidCents: number | null; reason?: string }, now: Date): Promise<TillMpesaStatus> {
  const moved = await moveTillPayment(q, row.pharmacyId, row.id, row.status, 'unmatched', {
    at: now,
    receipt: values.receipt,
    paidCents: values.paidCents,
    attention,
    failureReason: values.reason ?? null,
  });
  if (moved) {
    await audit(q, { pharmacyId: row.pharmacyId, userId: null }, 'till_payment.unmatched', 'till_payment', row.id, { status: row.status }, {
      status: 'unmatched',
      attention,
      saleId: row.saleId,
      receipt: values.receipt,
      paidCents: values.paidCents,
      amountCents: row.amountCents,
      ...(values.reason ? { reason: values.reason } : {}),
    });
  }
  return moved ? 'unmatched' : row.status;
}

export interface TillOutcome {
  requestId: string | null;
  status: TillMpesaStatus | null;
}

/**
 * Applies what K2 said about a till payment (a verified callback or a status answer), once, in the caller's
 * transaction (tenant: the pharmacy): the raw body is kept, the request row locked, and it moves only forward. Success
 * on a pending request completes the sale in this transaction with the receipt as reference; five copies at once
 * complete it once (the row lock). A payment whose sale exists already, whose request was cancelled or failed, or
 * that is short, is kept as unmatched. When the sale could not be completed (stock sold meanwhile, a price changed),
 * that transaction rolls back as a whole and the edge (till-payments.jobs.ts recordTillResult) runs this again in a
 * second one with `completion: { allowed: false, failure }`: the money is recorded as unmatched with the reason.
 */
export async function applyTillResult(
  q: Queryable,
  pharmacyId: string,
  result: K2Result,
  raw: { body: string; source: 'callback' | 'status_query'; requestId?: string },
  completion: { allowed: boolean; failure?: string },
  now = new Date(),
): Promise<TillOutcome> {
  const allowCompletion = completion.allowed;
  const failure = completion.failure;
  const row = await requestOf(q, pharmacyId, result, raw.requestId ?? null);
  await insertTillPaymentEvent(q, { pharmacyId, requestId: row?.id ?? null, source: raw.source, k2Id: result.id, k2Status: result.status, rawBody: raw.body, at: now });
  if (!row) return { requestId: null, status: null };
  const receipt = result.reference;
  const paidCents = result.amount === null || !Number.isFinite(result.amount) ? null : Math.round(result.amount * 100);
  if (result.status === 'Success') {
    if (row.status === 'completed' || row.status === 'unmatched') {
      // The same result again: applied once. Another receipt for the same request is a second payment.
      if (receipt && row.mpesaReceipt && receipt !== row.mpesaReceipt) await flagTillPayment(q, pharmacyId, row.id, 'duplicate_payment', now);
      return { requestId: row.id, status: row.status };
    }
    // The sale was completed another way meanwhile (the cashier cancelled and took cash): the money is reconciled.
    if (await isSaleRecorded(q, pharmacyId, row.saleId)) return { requestId: row.id, status: await unmatched(q, row, 'sale_already_completed', { receipt, paidCents }, now) };
    if (row.status === 'cancelled') return { requestId: row.id, status: await unmatched(q, row, 'paid_after_cancel', { receipt, paidCents }, now) };
    if (row.status === 'failed') return { requestId: row.id, status: await unmatched(q, row, 'paid_after_failure', { receipt, paidCents }, now) };
    // pending
    if (paidCents !== null && paidCents < row.amountCents) return { requestId: row.id, status: await unmatched(q, row, 'amount_mismatch', { receipt, paidCents }, now) };
    if (!allowCompletion) return { requestId: row.id, status: await unmatched(q, row, 'sale_not_completed', { receipt, paidCents, reason: failure }, now) };
    const ctx = requesterContext(row, now);
    const input = row.saleInput as CompleteSale;
    const sale = await completeSale(q, ctx, {
      ...input,
      payments: input.payments.map((p) => ({ ...p, amountCents: row.amountCents, reference: receipt ? receipt.slice(0, 60) : null })),
    });
    await moveTillPayment(q, pharmacyId, row.id, 'pending', 'completed', { at: now, receipt, paidCents: paidCents ?? row.amountCents, saleId: sale.id });
    await audit(q, ctx, 'till_payment.complete', 'till_payment', row.id, { status: 'pending' }, { status: 'completed', saleId: sale.id, invoiceNumber: sale.invoiceNumber, receipt });
    return { requestId: row.id, status: 'completed' };
  }
  if (result.status === 'Failed' && canMoveTillPayment(row.status, 'failed')) {
    await moveTillPayment(q, pharmacyId, row.id, 'pending', 'failed', { at: now, failureReason: result.errors ?? DEFAULT_FAILURE });
    return { requestId: row.id, status: 'failed' };
  }
  return { requestId: row.id, status: row.status };
}

/** Queues the next status query of a till request (reconciliation of a lost callback). */
export async function queueTillStatusQuery(q: Queryable, pharmacyId: string, requestId: string, delayMs: number, now = new Date()): Promise<void> {
  await enqueueJob(q, { kind: TILL_STATUS_QUERY_JOB, payload: { pharmacyId, requestId }, pharmacyId, runAt: new Date(now.getTime() + delayMs), maxAttempts: 5 });
}

export { RECONCILE };
