import {
  DEFAULT_RETURN_REASON,
  formatReturnNumber,
  lineRefundCents,
  returnableQuantity,
  returnBatches,
  returnRefundCents,
  splitRefund,
  statusAfterReturns,
  type CreateSaleReturn,
  type ReturnCondition,
  type SaleReturn,
  type SaleReturnListResponse,
} from '@pharmapoint/domain/sale-returns';
import { canonicalPaymentMethod, paymentKind, tillPaymentMethods } from '@pharmapoint/domain/sales';
import { businessDate } from '@pharmapoint/domain/stock';
import type { Queryable } from '../../db/database.ts';
import { canSeeBranch, type RequestContext } from '../../platform/context.ts';
import { AppError } from '../../platform/errors.ts';
import { audit } from '../audit/audit.service.ts';
import { loadSettings, pharmacyTimeZone, pharmacyToday } from '../settings/settings.service.ts';
import { applyStockChanges, type StockChange } from '../stock/stock.service.ts';
import {
  findReturnableLines,
  findReturnSaleId,
  findSaleReturns,
  insertSaleReturn,
  lockSale,
  updateSaleAfterReturn,
  type LockedSale,
  type NewSaleReturn,
  type ReturnBatchRow,
} from './sale-returns.repository.ts';
import { findSale, findUserName, takeInvoiceCounter } from './sales.repository.ts';

/**
 * Returns and refunds of a sale, and voiding a sale the same day (issue 10 item 8, decision 0038), each in the
 * request's one transaction: the sale's row locked first (so concurrent returns of one sale queue up and each reads
 * what the others returned), the quantities checked against what was sold less earlier returns, the pieces put back
 * into the batches they came from through the ledger ('sale_return'), damaged pieces written off from the same
 * batch at once ('adjustment'), the refund computed from the line totals to the cent (it first lowers what the
 * client still owes, the rest is paid out in the chosen method), the return recorded with its number (RET-, the
 * tenant's counter), and the sale's status and figures moved on. Anything refused leaves nothing.
 */

async function lockVisibleSale(q: Queryable, ctx: RequestContext, saleId: string): Promise<LockedSale> {
  const sale = await lockSale(q, ctx.pharmacyId, saleId);
  if (!sale || !canSeeBranch(ctx, sale.branch_id)) throw new AppError('NOT_FOUND');
  return sale;
}

/** An id used before answers that return (a retry without the Idempotency-Key); another sale's id is a conflict. */
async function earlierReturn(q: Queryable, ctx: RequestContext, id: string, saleId: string): Promise<SaleReturn | undefined> {
  const owner = await findReturnSaleId(q, ctx.pharmacyId, id);
  if (owner === undefined) return undefined;
  if (owner !== saleId) throw new AppError('VALIDATION_FAILED', { message: 'This return id belongs to another sale.' });
  return (await findSaleReturns(q, ctx.pharmacyId, { returnId: id }))[0];
}

/** The method a refund is paid out in: one of the till's methods, never Credit. */
async function refundMethodOf(q: Queryable, ctx: RequestContext, requested: string | undefined): Promise<string> {
  if (!requested?.trim()) throw new AppError('SALE_REFUND_METHOD_REQUIRED');
  const { settings } = await loadSettings(q, ctx.pharmacyId);
  const method = canonicalPaymentMethod(tillPaymentMethods(settings.paymentMethods), requested);
  if (!method || paymentKind(method) === 'credit') throw new AppError('SALE_PAYMENT_METHOD_UNKNOWN', { values: { method: requested.trim() } });
  return method;
}

function stockBack(
  sale: LockedSale,
  productId: string,
  batch: ReturnBatchRow,
  quantity: number,
  condition: ReturnCondition,
  reason: string,
  reference: { type: string; id: string },
): StockChange[] {
  const back: StockChange = { kind: 'sale_return', branchId: sale.branch_id, productId, delta: quantity, batch: { batchId: batch.batch_id }, reason, reference };
  if (condition === 'restock') return [back];
  // Damaged: it came back (the ledger says so) and leaves again at once from the same batch, written off.
  return [back, { kind: 'adjustment', branchId: sale.branch_id, productId, delta: -quantity, batch: { batchId: batch.batch_id }, reason: `${reason} (damaged, written off)`, reference, includeExpired: true }];
}

/** POST /api/sales/:id/returns. */
export async function createSaleReturn(q: Queryable, ctx: RequestContext, saleId: string, input: CreateSaleReturn): Promise<SaleReturn> {
  const known = await earlierReturn(q, ctx, input.id, saleId);
  if (known) return known;
  const sale = await lockVisibleSale(q, ctx, saleId);
  if (sale.status === 'voided' || sale.status === 'returned') throw new AppError('SALE_NOT_RETURNABLE', { values: { status: sale.status === 'voided' ? 'voided' : 'returned' } });
  const { lines, batches } = await findReturnableLines(q, ctx.pharmacyId, saleId);

  // Each requested line (a line may come twice: part restocked, part damaged), checked against what is left.
  const asked = new Map<number, number>();
  for (const l of input.lines) {
    const line = lines.find((x) => x.line === l.line);
    if (!line) throw new AppError('SALE_RETURN_LINE_UNKNOWN', { values: { line: l.line }, details: { line: l.line } });
    asked.set(l.line, (asked.get(l.line) ?? 0) + l.quantity);
    const available = returnableQuantity(line.quantity, line.returned);
    if (asked.get(l.line)! > available) {
      throw new AppError('SALE_RETURN_TOO_MANY', {
        values: { available, product: line.name, sold: line.quantity, returned: line.returned },
        details: { line: l.line, available, requested: asked.get(l.line) },
      });
    }
  }

  const returnNumber = formatReturnNumber(await takeInvoiceCounter(q, ctx.pharmacyId, 'RET'));
  const reason = input.reason?.trim() ? input.reason.trim() : DEFAULT_RETURN_REASON;
  const reference = { type: 'sale_return', id: input.id };
  const ledgerReason = `Return: ${returnNumber} (${sale.invoice_number})`;
  const changes: StockChange[] = [];
  const items: NewSaleReturn['items'] = [];
  const refunds: number[] = [];
  const returnedSoFar = new Map(lines.map((l) => [l.line, l.returned]));
  for (const l of input.lines) {
    const line = lines.find((x) => x.line === l.line)!;
    const takes = batches.filter((b) => b.line === l.line);
    const into = returnBatches(takes.map((b) => ({ ...b, batchId: b.batch_id, expiryDate: b.expiry_date })), l.quantity);
    if (!into) throw new AppError('SALE_RETURN_TOO_MANY', { values: { available: 0, product: line.name, sold: line.quantity, returned: line.returned } });
    const before = returnedSoFar.get(l.line)!;
    const refund = lineRefundCents(line.total_cents, line.quantity, before, l.quantity);
    returnedSoFar.set(l.line, before + l.quantity);
    refunds.push(refund);
    into.forEach(({ batch, quantity }, k) => {
      batch.returned += quantity; // a second entry of the same line fills what is left
      const source = takes.find((t) => t.batch_id === batch.batch_id)!;
      source.returned = batch.returned;
      changes.push(...stockBack(sale, line.product_id, batch, quantity, l.condition, ledgerReason, reference));
      const same = items.find((i) => i.line === l.line && i.batchId === batch.batch_id && i.condition === l.condition);
      if (same) {
        same.quantity += quantity;
        if (k === 0) same.refundCents += refund;
      } else {
        items.push({ line: l.line, batchId: batch.batch_id, quantity, condition: l.condition, refundCents: k === 0 ? refund : 0 });
      }
    });
  }
  const status = statusAfterReturns(lines.map((l) => ({ sold: l.quantity, returned: returnedSoFar.get(l.line)! })));
  const refundCents = Math.min(returnRefundCents(refunds, status === 'returned', sale.rounding_cents), sale.total_cents - sale.refunded_cents);
  const { creditCents, paidOutCents } = splitRefund(refundCents, sale.balance_due_cents);
  const refundMethod = paidOutCents > 0 ? await refundMethodOf(q, ctx, input.refundMethod) : null;

  await applyStockChanges(q, { ...ctx, today: await pharmacyToday(q, ctx) }, changes);
  await insertSaleReturn(q, ctx.pharmacyId, {
    id: input.id,
    returnNumber,
    saleId,
    branchId: sale.branch_id,
    kind: 'return',
    reason,
    refundCents,
    creditCents,
    refundMethod,
    refundReference: refundMethod && input.refundReference?.trim() ? input.refundReference.trim() : null,
    createdBy: ctx.userId,
    createdByName: (await findUserName(q, ctx.userId)) ?? 'Unknown',
    at: ctx.now,
    items,
  });
  await updateSaleAfterReturn(q, ctx.pharmacyId, saleId, {
    status,
    balanceDueCents: sale.balance_due_cents - creditCents,
    refundedCents: sale.refunded_cents + refundCents,
  });
  await audit(q, ctx, 'sale.return', 'sale', saleId, { status: sale.status }, { returnNumber, status, refundCents, creditCents, refundMethod });
  const [created] = await findSaleReturns(q, ctx.pharmacyId, { returnId: input.id });
  return created!;
}

/** POST /api/sales/:id/void: a sale of today without returns or later payments, reversed completely. */
export async function voidSale(q: Queryable, ctx: RequestContext, saleId: string, input: { id: string; reason?: string; refundMethod?: string }): Promise<SaleReturn> {
  const known = await earlierReturn(q, ctx, input.id, saleId);
  if (known) return known;
  const sale = await lockVisibleSale(q, ctx, saleId);
  if (sale.status === 'voided') throw new AppError('SALE_ALREADY_VOIDED');
  if (sale.status !== 'completed' || sale.paid_later_cents > 0) throw new AppError('SALE_VOID_NOT_ALLOWED');
  const timeZone = await pharmacyTimeZone(q, ctx.pharmacyId);
  const today = businessDate(ctx.now, timeZone);
  if (sale.sale_date !== today || businessDate(new Date(sale.created_at), timeZone) !== today) throw new AppError('SALE_VOID_NOT_TODAY');

  const { lines, batches } = await findReturnableLines(q, ctx.pharmacyId, saleId);
  const refundCents = sale.total_cents;
  const { creditCents, paidOutCents } = splitRefund(refundCents, sale.balance_due_cents);
  // The money goes back the way it came unless another method is named.
  const refundMethod = paidOutCents > 0 ? await refundMethodOf(q, ctx, input.refundMethod ?? (paymentKind(sale.payment_method) === 'credit' ? 'Cash' : sale.payment_method)) : null;
  const returnNumber = formatReturnNumber(await takeInvoiceCounter(q, ctx.pharmacyId, 'RET'));
  const reference = { type: 'sale_return', id: input.id };
  const changes: StockChange[] = [];
  const items: NewSaleReturn['items'] = [];
  for (const line of lines) {
    const takes = batches.filter((b) => b.line === line.line);
    takes.forEach((b, k) => {
      changes.push(...stockBack(sale, line.product_id, b, b.quantity, 'restock', `Void: ${sale.invoice_number}`, reference));
      items.push({ line: line.line, batchId: b.batch_id, quantity: b.quantity, condition: 'restock', refundCents: k === 0 ? line.total_cents : 0 });
    });
  }
  await applyStockChanges(q, { ...ctx, today }, changes);
  await insertSaleReturn(q, ctx.pharmacyId, {
    id: input.id,
    returnNumber,
    saleId,
    branchId: sale.branch_id,
    kind: 'void',
    reason: input.reason?.trim() ? input.reason.trim() : 'Sale voided',
    refundCents,
    creditCents,
    refundMethod,
    refundReference: null,
    createdBy: ctx.userId,
    createdByName: (await findUserName(q, ctx.userId)) ?? 'Unknown',
    at: ctx.now,
    items,
  });
  await updateSaleAfterReturn(q, ctx.pharmacyId, saleId, { status: 'voided', balanceDueCents: 0, refundedCents: refundCents, voidedBy: ctx.userId, voidedAt: ctx.now });
  await audit(q, ctx, 'sale.void', 'sale', saleId, { status: sale.status }, { returnNumber, refundCents, creditCents, refundMethod });
  const [created] = await findSaleReturns(q, ctx.pharmacyId, { returnId: input.id });
  return created!;
}

/** GET /api/sales/:id/returns: the sale's returns and void, oldest first. */
export async function listSaleReturns(q: Queryable, ctx: RequestContext, saleId: string): Promise<SaleReturnListResponse> {
  const sale = await findSale(q, ctx.pharmacyId, saleId);
  if (!sale || !canSeeBranch(ctx, sale.branchId)) throw new AppError('NOT_FOUND');
  return { items: await findSaleReturns(q, ctx.pharmacyId, { saleId }) };
}
