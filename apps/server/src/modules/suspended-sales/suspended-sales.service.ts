import { firstSuspensionProblem } from '@pharmapoint/domain/sale-checks';
import { canonicalPaymentMethod } from '@pharmapoint/domain/sales';
import { businessDate } from '@pharmapoint/domain/stock';
import {
  newReservationId,
  suspendPaymentMethods,
  suspendReason,
  type CancelSuspendedSaleResponse,
  type Reservation,
  type SuspendSale,
  type SuspendedSale,
  type SuspendedSaleLine,
  type SuspendedSaleListQuery,
  type SuspendedSaleListResponse,
} from '@pharmapoint/domain/suspended-sales';
import type { Queryable } from '../../db/database.ts';
import { canSeeBranch, type RequestContext } from '../../platform/context.ts';
import { AppError } from '../../platform/errors.ts';
import { audit } from '../audit/audit.service.ts';
import { findCustomer } from '../contacts/contacts.service.ts';
import { priceCart, refuse, saleCheckLines, toDiscount } from '../sales/cart-pricing.service.ts';
import { loadSettings, pharmacyToday, settingsTimeZone } from '../settings/settings.service.ts';
import { applyStockChanges, lockStockRows, resolveBranch, sellableStock, type StockChange } from '../stock/stock.service.ts';
import {
  closeSuspendedSale,
  findBatchExpiries,
  findSuspendedSale,
  findUser,
  insertSuspendedSale,
  listSuspendedSales as findSuspendedSales,
  suspendedSaleExists,
} from './suspended-sales.repository.ts';

/**
 * Suspended sales with reserved stock (issue 9 item 7, seed 001 sections 3-5, decision 0028). Each use case runs in
 * the request's one transaction:
 * - suspending: the specification's checks with its messages, the cart priced from the branch's own prices, the
 *   branch rows locked in the ledger's order, the pieces moved from sellable to reserved batch by batch (FEFO, never
 *   expired batches) by 'reserve' movements, and the suspended sale saved with the batches it holds;
 * - cancelling: the suspension's row locked, its reserved pieces released back to the same batches ('release'),
 *   the row closed as cancelled;
 * - completing (from POST /api/sales with suspendedSaleId, modules/sales): takeSuspendedSale locks and hands the
 *   reservation over, the sale converts it ('reserved_sold'), completeSuspendedSale closes the row.
 * Refused or failing, nothing is left: the transaction rolls back as a whole. The ledger's live stock events go out
 * once, right before COMMIT.
 */

/** POST /api/suspended-sales. */
export async function suspendSale(q: Queryable, ctx: RequestContext, input: SuspendSale): Promise<SuspendedSale> {
  if (await suspendedSaleExists(q, ctx.pharmacyId, input.id)) throw new AppError('SUSPENDED_ID_TAKEN', { details: { id: input.id } });
  if (input.lines.length === 0) refuse({ code: 'SALE_CART_EMPTY' });
  // A resumed sale suspended again: its earlier suspension is locked first (before any stock row, as every closing),
  // released and closed; its pieces are then sellable to the new reservation.
  const replaced = input.replacesSuspendedSaleId ? await lockOpen(q, ctx, input.replacesSuspendedSaleId) : null;
  const branch = await resolveBranch(q, ctx, input.branchId ?? replaced?.branchId);
  if (replaced && replaced.branchId !== branch.id) {
    throw new AppError('SUSPENDED_SALE_OTHER_BRANCH', { values: { branch: replaced.branchName }, details: { branchId: replaced.branchId } });
  }
  // The walk-in customer (no id) is refused by the ordered checks below, after pricing (decision 0069).
  const client = input.clientId ? await findCustomer(q, ctx, input.clientId) : null;
  const { settings } = await loadSettings(q, ctx.pharmacyId);
  const today = businessDate(ctx.now, settingsTimeZone(settings));

  // Lock the branch rows in the ledger's global order, then read stock and prices under the locks; the ledger is
  // handed the locked rows and their batches and neither locks nor reads them again (decision 0069).
  const productIds = [...new Set(input.lines.map((l) => l.productId))];
  const lockIds = replaced ? [...new Set([...productIds, ...replaced.reservations.map((r) => r.productId)])] : productIds;
  const locked = await lockStockRows(q, ctx, lockIds.map((productId) => ({ branchId: branch.id, productId })));
  if (replaced) {
    await applyStockChanges(q, { ...ctx, today }, releaseChanges(replaced, `Released: ${replaced.reservationId}`), locked);
    await closeSuspendedSale(q, ctx.pharmacyId, replaced.id, { status: 'cancelled', saleId: null, userId: ctx.userId, at: ctx.now });
    await audit(q, ctx, 'suspended_sale.replace', 'suspended_sale', replaced.id, null, { reservationId: replaced.reservationId, by: input.id });
  }
  const sellable = await sellableStock(q, locked, today);
  const { priced, cart, rules } = await priceCart(q, ctx, settings, {
    branchId: branch.id,
    lines: input.lines,
    discount: input.discount,
    expectedTotalCents: input.expectedTotalCents,
    notFound: (productId) => refuse({ code: 'SUSPEND_PRODUCT_NOT_FOUND', values: { product: productId } }, { productId }),
    // As for a sale (decision 0023) only a price changed at the till counts as Low Margin, judged below with the
    // suspension's own setting (allowSuspendWithLowMargin), as the discount rules are.
  });
  const method = canonicalPaymentMethod(suspendPaymentMethods(settings.paymentMethods), input.paymentMethod);
  if (!method) refuse({ code: 'SALE_PAYMENT_METHOD_UNKNOWN', values: { method: input.paymentMethod } });

  // Every check of seed 001 section 5 in the one order the till uses too (sale-checks.ts, decision 0069), the
  // reservation's own input check last.
  const problem = firstSuspensionProblem({
    lines: saleCheckLines(priced, (productId) => sellable.get(productId) ?? 0),
    clientId: client?.id ?? null,
    subtotalCents: cart.subtotalCents,
    discountCents: cart.discountCents,
    totalCents: cart.totalCents,
    rules,
    amountPaidCents: input.amountPaidCents,
  });
  if (problem) refuse(problem, problem.code === 'INSUFFICIENT_STOCK' ? { items: [problem.values] } : undefined);
  if (!client) throw new Error('suspendSale: the checks passed without a client');

  // The reservation: per product, its pieces from sellable to reserved, FEFO, never from expired batches.
  const reservationId = newReservationId(ctx.now);
  const needed = new Map<string, number>();
  for (const p of priced) needed.set(p.product.id, (needed.get(p.product.id) ?? 0) + p.line.quantity);
  const results = await applyStockChanges(
    q,
    { ...ctx, today },
    [...needed].map(([productId, quantity]) => ({
      kind: 'reserve' as const,
      branchId: branch.id,
      productId,
      quantity,
      reason: `Reserved: ${reservationId}`,
      reference: { type: 'suspended_sale', id: input.id },
    })),
    locked,
  );
  const reservations: Reservation[] = results.map((r) => ({
    productId: r.productId,
    name: priced.find((p) => p.product.id === r.productId)!.product.name,
    quantity: needed.get(r.productId)!,
    batches: r.batches.map((b) => ({ batchId: b.batchId, batchNumber: b.batchNumber, expiryDate: b.expiryDate, quantity: b.quantity })),
  }));
  const lines: SuspendedSaleLine[] = priced.map((p, i) => ({
    line: i + 1,
    productId: p.product.id,
    name: p.product.name,
    sku: p.product.sku,
    quantity: p.line.quantity,
    unitMode: p.line.unitMode,
    packageSize: p.packageSize,
    unitPriceCents: p.unitPrice,
    listPriceCents: p.listPrice,
    totalCents: cart.lines[i]!.totalCents,
    isDda: p.product.is_dda,
    prescription: p.line.prescription ?? null,
    needsRefill: p.line.needsRefill,
    refillDays: p.line.needsRefill ? (p.line.refillDays ?? null) : null,
    lowMargin: p.lowMargin,
  }));
  const user = await findUser(q, ctx.userId);
  await insertSuspendedSale(q, ctx.pharmacyId, {
    id: input.id,
    reservationId,
    branchId: branch.id,
    client: { id: client.id, name: client.name, phone: client.phone, location: client.location },
    lines,
    reservations,
    discount: toDiscount(input.discount),
    subtotalCents: cart.subtotalCents,
    discountCents: cart.discountCents,
    taxCents: cart.taxCents,
    totalCents: cart.totalCents,
    paymentMethod: method,
    amountPaidCents: input.amountPaidCents,
    notes: suspendReason(input.reason),
    suspendedBy: { id: ctx.userId, name: user?.name ?? 'Unknown', email: user?.email ?? null },
    at: ctx.now,
  });
  await audit(q, ctx, 'suspended_sale.create', 'suspended_sale', input.id, null, { reservationId, totalCents: cart.totalCents, branchId: branch.id, lines: lines.length });
  const stored = await findSuspendedSale(q, ctx.pharmacyId, input.id);
  if (!stored) throw new Error(`suspended sale ${input.id} vanished in its own transaction`);
  return stored.sale;
}

/** GET /api/suspended-sales: open suspensions, newest first, in the branches the user may see. */
export async function listSuspendedSales(q: Queryable, ctx: RequestContext, query: SuspendedSaleListQuery): Promise<SuspendedSaleListResponse> {
  if (query.branchId && !canSeeBranch(ctx, query.branchId)) throw new AppError('BRANCH_NOT_ALLOWED');
  const { items, total } = await findSuspendedSales(q, ctx.pharmacyId, query, ctx.visibleBranchIds, ctx.now);
  return { items, total, limit: query.limit, offset: query.offset };
}

/** GET /api/suspended-sales/:id: an open suspension (404 when unknown, closed, another tenant's or an unseen branch's). */
export async function getSuspendedSale(q: Queryable, ctx: RequestContext, id: string): Promise<SuspendedSale> {
  const stored = await findSuspendedSale(q, ctx.pharmacyId, id);
  if (!stored || stored.status !== 'suspended' || !canSeeBranch(ctx, stored.sale.branchId)) throw new AppError('NOT_FOUND');
  return stored.sale;
}

/**
 * Locks an open suspension for closing: 404 when there is none (or the user may not see its branch), 409
 * SUSPENDED_SALE_GONE when it was already completed or cancelled (a second till waited on the lock, then found it
 * closed).
 */
async function lockOpen(q: Queryable, ctx: RequestContext, id: string): Promise<SuspendedSale> {
  const stored = await findSuspendedSale(q, ctx.pharmacyId, id, true);
  if (!stored || !canSeeBranch(ctx, stored.sale.branchId)) throw new AppError('NOT_FOUND', { details: { suspendedSaleId: id } });
  if (stored.status !== 'suspended') throw new AppError('SUSPENDED_SALE_GONE', { details: { suspendedSaleId: id, status: stored.status, saleId: stored.saleId } });
  return stored.sale;
}

function releaseChanges(sale: SuspendedSale, reason: string): StockChange[] {
  return sale.reservations.flatMap((r) =>
    r.batches.map((b) => ({
      kind: 'release' as const,
      branchId: sale.branchId,
      productId: r.productId,
      quantity: b.quantity,
      batch: { batchId: b.batchId },
      reason,
      reference: { type: 'suspended_sale', id: sale.id },
    })),
  );
}

/** POST /api/suspended-sales/:id/cancel: the reserved pieces go back to the same batches; the suspension is closed. */
export async function cancelSuspendedSale(q: Queryable, ctx: RequestContext, id: string): Promise<CancelSuspendedSaleResponse> {
  const sale = await lockOpen(q, ctx, id);
  await applyStockChanges(q, { ...ctx, today: await pharmacyToday(q, ctx) }, releaseChanges(sale, `Released: ${sale.reservationId}`));
  await closeSuspendedSale(q, ctx.pharmacyId, id, { status: 'cancelled', saleId: null, userId: ctx.userId, at: ctx.now });
  await audit(q, ctx, 'suspended_sale.cancel', 'suspended_sale', id, null, { reservationId: sale.reservationId });
  return { id, reservationId: sale.reservationId, released: sale.reservations.map((r) => ({ productId: r.productId, quantity: r.quantity })) };
}

/** What completing a resumed sale takes over: the branch and, per product, the batches holding its reserved pieces. */
export interface HeldReservation {
  id: string;
  reservationId: string;
  branchId: string;
  branchName: string;
  /** Per product: [batchId, pieces] in the FEFO order they were reserved in. */
  batches: Map<string, { batchId: string; quantity: number; expiryDate: string | null }[]>;
  /** The unit prices the customer was given at suspension, by `${productId}:${unitMode}`: kept when the sale completes. */
  prices: Map<string, number>;
}

/**
 * For completing a resumed sale (modules/sales): locks the open suspension (before any stock row, the one order
 * every closing takes) and answers its reservation. 404 / 409 as lockOpen.
 */
export async function takeSuspendedSale(q: Queryable, ctx: RequestContext, id: string): Promise<HeldReservation> {
  const sale = await lockOpen(q, ctx, id);
  const expiries = await findBatchExpiries(q, ctx.pharmacyId, sale.reservations.flatMap((r) => r.batches.map((b) => b.batchId)));
  return {
    id: sale.id,
    reservationId: sale.reservationId,
    branchId: sale.branchId,
    branchName: sale.branchName,
    batches: new Map(sale.reservations.map((r) => [r.productId, r.batches.map((b) => ({ batchId: b.batchId, quantity: b.quantity, expiryDate: expiries.get(b.batchId) ?? b.expiryDate }))])),
    prices: new Map(sale.lines.map((l) => [`${l.productId}:${l.unitMode}`, l.unitPriceCents])),
  };
}

/** Closes the suspension a sale completed (in the sale's transaction, after its stock and rows are written). */
export async function completeSuspendedSale(q: Queryable, ctx: RequestContext, id: string, saleId: string): Promise<void> {
  await closeSuspendedSale(q, ctx.pharmacyId, id, { status: 'completed', saleId, userId: ctx.userId, at: ctx.now });
  await audit(q, ctx, 'suspended_sale.complete', 'suspended_sale', id, null, { saleId });
}
