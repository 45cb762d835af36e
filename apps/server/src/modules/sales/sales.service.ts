import { checkSaleCompletion } from '@pharmapoint/domain/sale-checks';
import {
  canonicalPaymentMethod,
  DEFAULT_REFILL_DAYS,
  formatInvoiceNumber,
  isSaleProblem,
  paymentStatus,
  refillDueDate,
  taxRateBasisPointsOf,
  tillPaymentMethods,
  WALK_IN_CUSTOMER,
  type CartFigures,
  type CompleteSale,
  type LastPrescriptionResponse,
  type PaymentOutcome,
  type Prescription,
  type Sale,
} from '@pharmapoint/domain/sales';
import type { Contact } from '@pharmapoint/domain/contacts';
import type { Settings } from '@pharmapoint/domain/settings';
import { businessDate, isExpired } from '@pharmapoint/domain/stock';
import { together, type Queryable } from '../../db/database.ts';
import { canSeeBranch, type RequestContext } from '../../platform/context.ts';
import { AppError, isDatabaseError } from '../../platform/errors.ts';
import { audit } from '../audit/audit.service.ts';
import { findCustomer } from '../contacts/contacts.service.ts';
import { loadSettings, settingsTimeZone } from '../settings/settings.service.ts';
import { applyStockChanges, lockStockRows, resolveBranch, restampReason, sellableStock, type LockedStock, type StockChange, type StockChangeResult } from '../stock/stock.service.ts';
import { completeSuspendedSale, takeSuspendedSale, type HeldReservation } from '../suspended-sales/suspended-sales.service.ts';
import { assertWithinPlanLimit } from '../subscription/subscription.service.ts';
import { priceCart, readCart, refuse, saleCheckLines, type CartBranch, type CartProductRow, type PricedLine } from './cart-pricing.service.ts';
import {
  findLastPrescription,
  findSale,
  insertNumberedSale,
  saleExists,
  type NewSale,
  type NewSaleLine,
  type NewSalePayment,
} from './sales.repository.ts';

/**
 * Completing a sale at the till (issue 9, seed 001 section 5, decision 0023), in the request's one transaction:
 * the branch's stock rows locked in the ledger's order, every price and total recomputed from the branch's own
 * prices (the browser's numbers are checked, never trusted), the specification's checks with its messages, a place
 * of the plan's transactions, stock out batch by batch (FEFO, expired batches never sold) through the ledger, the
 * audit row, and LAST the invoice number from the tenant's counter in the one statement writing the sale with its
 * lines, batch takes and payments (the counter row is locked from there to COMMIT: keep that stretch short).
 * Anything refused or failing leaves nothing: the transaction rolls back as a whole.
 */

/** The pieces each product of the sale needs (a product may be on several lines). */
function piecesByProduct(lines: CompleteSale['lines']): Map<string, number> {
  const needed = new Map<string, number>();
  for (const l of lines) needed.set(l.productId, (needed.get(l.productId) ?? 0) + l.quantity);
  return needed;
}

/** Is there a sale with this id? (M-Pesa at the till: a payment for a sale completed another way is reconciled.) */
export async function isSaleRecorded(q: Queryable, pharmacyId: string, saleId: string): Promise<boolean> {
  return saleExists(q, pharmacyId, saleId);
}

/**
 * What completing a sale loaded and decided before it writes anything (checkSale): the resumed sale's reservation, the
 * branch and the client as checked, the locked stock rows, the priced cart, the payments with their canonical methods
 * and the payment outcome of the ordered checks.
 */
export interface CheckedSale {
  held: HeldReservation | null;
  branch: CartBranch;
  client: Contact | null;
  locked: LockedStock;
  settings: Settings;
  today: string;
  saleDate: string;
  priced: PricedLine<CompleteSale['lines'][number]>[];
  cart: CartFigures;
  payments: CompleteSale['payments'];
  outcome: PaymentOutcome;
}

/**
 * The load and decide of completing a sale, without its writes: the resumed sale locked and its reservation read, the
 * branch and the client checked, the branch's stock rows locked in the ledger's order, the cart priced from the
 * branch's own prices and every check of seed 001 section 5 in the till's one order (decision 0069), each refusal
 * with its code and message. completeSale writes what this decided; M-Pesa at the till runs it before it asks the
 * customer's phone, so a request is refused exactly as completing its sale would be, and nothing is written here
 * (the locks it takes end with the caller's transaction).
 */
export async function checkSale(q: Queryable, ctx: RequestContext, input: CompleteSale): Promise<CheckedSale> {
  if (input.lines.length === 0) refuse({ code: 'SALE_CART_EMPTY' });
  // A resumed sale (decision 0028): its suspension is locked first (before any stock row) and its reservation held.
  const held = input.suspendedSaleId ? await takeSuspendedSale(q, ctx, input.suspendedSaleId) : null;
  // The branch, by resolveBranch's rules: the one asked for (or the resumed sale's), else the session's, else the
  // default. 404 for none of the pharmacy's, 403 for one the user may not see, then the resumed sale's branch and the
  // client, in that order. With its id known (the till always sends it), the branch is read in the cart's statement
  // and checked there, before any line is priced (decision 0080): no statement of its own. Until then only the stock
  // rows of that id are locked and read, which a refusal rolls back.
  const checked: { branch?: CartBranch; client?: Contact | null } = {};
  const acceptBranch = async (found: CartBranch | null, id: string) => {
    if (!found) throw new AppError('NOT_FOUND', { details: { branchId: id } });
    if (!canSeeBranch(ctx, found.id)) throw new AppError('BRANCH_NOT_ALLOWED');
    if (held && held.branchId !== found.id) throw new AppError('SUSPENDED_SALE_OTHER_BRANCH', { values: { branch: held.branchName }, details: { branchId: held.branchId } });
    checked.branch = found;
    checked.client = input.clientId ? await findCustomer(q, ctx, input.clientId) : null;
  };
  const askedBranchId = input.branchId ?? held?.branchId ?? ctx.branchId;
  if (!askedBranchId) {
    const resolved = await resolveBranch(q, ctx, null);
    await acceptBranch(resolved, resolved.id);
  }
  const branchId = askedBranchId ?? checked.branch!.id;

  // Lock the branch's stock rows first (the ledger's one global order), then read stock and prices under the locks.
  // The ledger is handed the locked rows and their batches: it neither locks nor reads them again (decision 0069).
  const needed = piecesByProduct(input.lines);
  const productIds = [...needed.keys()];
  // A resumed sale also locks the products it reserved and no longer sells (they are released below).
  const lockIds = held ? [...new Set([...productIds, ...held.batches.keys()])] : productIds;
  const checkBranch = askedBranchId ? (found: CartBranch | null) => acceptBranch(found, askedBranchId) : undefined;
  // The settings, the lock of the stock rows with their batches, and the cart's products with the branch: four
  // statements none of which needs another's answer, sent together in one round trip (decision 0086), in this order —
  // the batches and the products are read by statements of their own after the lock's, so under its locks. A refusal
  // is the first one in this order, as when they were sent one by one.
  const [{ settings }, locked, products] = await together(
    loadSettings(q, ctx.pharmacyId),
    lockStockRows(q, ctx, lockIds.map((productId) => ({ branchId, productId })), { batches: true }),
    readCart(q, ctx, { branchId, lines: input.lines, checkBranch }),
  );
  const today = businessDate(ctx.now, settingsTimeZone(settings));
  const saleDate = input.saleDate ?? today;
  const sellable = await sellableStock(q, locked, today);
  const { priced, cart, money, rules } = await priceCart(q, ctx, settings, {
    branchId,
    products,
    lines: input.lines,
    discount: input.discount,
    expectedTotalCents: input.expectedTotalCents,
    // A resumed sale keeps the price the customer was given at suspension (decision 0028).
    keptPrice: held ? (productId, unitMode) => held.prices.get(`${productId}:${unitMode}`) : undefined,
    notFound: (productId, index) => {
      throw new AppError('NOT_FOUND', { details: { productId, line: index + 1 } });
    },
  });
  const { branch, client } = checked;
  if (!branch || client === undefined) throw new Error('checkSale: the branch was not checked');

  const methods = tillPaymentMethods(settings.paymentMethods);
  const payments = input.payments.map((p) => ({ ...p, method: canonicalPaymentMethod(methods, p.method) ?? p.method.trim() }));
  for (const p of payments) {
    if (p.method !== '' && !methods.includes(p.method)) refuse({ code: 'SALE_PAYMENT_METHOD_UNKNOWN', values: { method: p.method } });
  }

  // Every check of seed 001 section 5 in the one order the till uses too (sale-checks.ts, decision 0069).
  const available = (productId: string) => (sellable.get(productId) ?? 0) + reservedPieces(held, productId, today);
  const outcome = checkSaleCompletion({
    lines: saleCheckLines(priced, available),
    clientId: client?.id ?? null,
    subtotalCents: cart.subtotalCents,
    discountCents: cart.discountCents,
    totalCents: cart.totalCents,
    rules,
    formatTotal: money,
    payments,
    saleDate,
    today,
  });
  if (isSaleProblem(outcome)) {
    const details =
      outcome.code === 'SALE_STOCK_EXCEEDED'
        ? { items: shortages(priced.map((p) => p.product), needed, available) }
        : outcome.code === 'SALE_LOW_MARGIN'
          ? { items: priced.filter((p) => p.lowMarginOverride).map((p) => ({ productId: p.product.id, product: p.product.name, minimumAllowedCents: p.minimumAllowedCents })) }
          : undefined;
    refuse(outcome, details);
  }
  return { held, branch, client, locked, settings, today, saleDate, priced, cart, payments, outcome };
}

/** POST /api/sales: checkSale's load and decide, then the writes. */
export async function completeSale(q: Queryable, ctx: RequestContext, input: CompleteSale): Promise<Sale> {
  // The same id without the Idempotency-Key (or with another key) is never a second sale: the sale's primary key
  // refuses it when the sale is written (below), and the whole transaction rolls back (decision 0075).
  const { held, branch, client, locked, settings, today, saleDate, priced, cart, payments, outcome } = await checkSale(q, ctx, input);

  // The writes: a place of the plan (taken at commit), the stock, then LAST the sale with its invoice number. The
  // number is taken in the statement that writes the sale, and the counter row it locks is held until COMMIT (numbers
  // stay unique and gap-free), so the sales of a pharmacy queue on it only for the end of the sale, not for all of it.
  // The stock changes are written before the number exists: their movements carry the reason 'Sale' and the sale by
  // reference; the branch rows' last-update reason and the live events get 'Sale: INV-…' once it is known.
  await assertWithinPlanLimit(q, ctx, 'transactions', 1);
  const plan = stockPlan(
    priced.map((p) => ({ productId: p.product.id, quantity: p.line.quantity })),
    branch.id,
    held,
    today,
    SALE_STOCK_REASON,
    { type: 'sale', id: input.id },
  );
  let taken: StockChangeResult[];
  try {
    taken = await applyStockChanges(q, { ...ctx, today }, plan.changes, locked);
  } catch (error) {
    // Stock the counter showed but the batches cannot give (expired batches are never sold).
    if (error instanceof AppError && error.code === 'INSUFFICIENT_STOCK') throw new AppError('SALE_STOCK_EXCEEDED', { details: { items: [error.details] } });
    throw error;
  }

  const isBackdated = saleDate !== today;
  const record: NewSale = {
    id: input.id,
    branchId: branch.id,
    client: client ? { id: client.id, name: client.name, phone: client.phone, location: client.location } : null,
    clientName: client?.name ?? WALK_IN_CUSTOMER,
    cashierId: ctx.userId,
    saleDate,
    isBackdated,
    backdatedBy: isBackdated ? ctx.userId : null,
    subtotalCents: cart.subtotalCents,
    discount: input.discount ? { type: input.discount.type, value: input.discount.type === 'percent' ? input.discount.basisPoints : input.discount.cents } : null,
    discountCents: cart.discountCents,
    taxCents: cart.taxCents,
    roundingCents: cart.roundingCents,
    totalCents: cart.totalCents,
    amountPaidCents: outcome.amountPaidCents,
    changeCents: outcome.changeCents,
    balanceDueCents: outcome.balanceDueCents,
    paymentMethod: outcome.method,
    notes: input.notes?.trim() ? input.notes.trim() : null,
    clientTime: input.clientTime ?? null,
    fromReservedStock: held !== null,
    reservationId: held?.reservationId ?? null,
    at: ctx.now,
  };
  const lines: NewSaleLine[] = priced.map((p, i) => {
    const figures = cart.lines[i]!;
    const refillDays = p.line.needsRefill ? (p.line.refillDays ?? DEFAULT_REFILL_DAYS) : null;
    return {
      line: i + 1,
      productId: p.product.id,
      name: p.product.name,
      sku: p.product.sku,
      quantity: p.line.quantity,
      unitMode: p.line.unitMode,
      packageSize: p.packageSize,
      unitPriceCents: p.unitPrice,
      listPriceCents: p.listPrice,
      costCents: p.product.purchase_price_cents ?? 0,
      grossCents: figures.grossCents,
      discountCents: figures.discountCents,
      taxRateBasisPoints: taxRateBasisPointsOf({ taxApplied: p.product.tax_applied, taxRateBasisPoints: p.product.tax_rate_basis_points }, settings.taxRate),
      taxCents: figures.taxCents,
      totalCents: figures.totalCents,
      lowMargin: p.lowMargin,
      isDda: p.product.is_dda,
      prescription: p.product.is_dda || p.line.prescription ? (p.line.prescription ?? null) : null,
      needsRefill: p.line.needsRefill,
      refillDays,
      refillDueDate: refillDays !== null ? refillDueDate(saleDate, refillDays) : null,
      batches: batchesOfLine(taken, plan.lineOf, i),
    };
  });
  const salePayments: NewSalePayment[] = payments.map((p) => ({ method: p.method, amountCents: p.amountCents, reference: p.reference?.trim() ? p.reference.trim() : null }));

  // The audit row before the number is taken: it names the sale by id (its entity), whose row holds the number.
  await audit(q, ctx, 'sale.complete', 'sale', input.id, null, { totalCents: record.totalCents, branchId: branch.id, lines: lines.length });

  // From here to COMMIT the pharmacy's invoice counter is locked: as few statements as possible.
  let written: Awaited<ReturnType<typeof insertNumberedSale>>;
  try {
    written = await insertNumberedSale(q, ctx.pharmacyId, record, lines, salePayments);
  } catch (error) {
    if (isDatabaseError(error) && error.code === '23505' && error.constraint === 'sales_pkey') throw new AppError('SALE_ID_TAKEN', { details: { id: input.id } });
    throw error;
  }
  const invoiceNumber = written.invoiceNumber;
  if (invoiceNumber !== formatInvoiceNumber(written.counter)) throw new Error(`invoice number ${invoiceNumber} does not match counter ${written.counter}`);
  restampReason(q, plan.changes.map((c) => ({ branchId: c.branchId, productId: c.productId })), SALE_STOCK_REASON, `Sale: ${invoiceNumber}`);
  // A resumed sale's suspension names the sale (a foreign key): closed once the sale row exists.
  if (held) await completeSuspendedSale(q, ctx, held.id, input.id);
  return writtenSale(record, lines, salePayments, { invoiceNumber, cashierName: written.cashierName, branchName: branch.name });
}

/** The provisional reason of a sale's stock changes (the movements keep it; see completeSale). */
const SALE_STOCK_REASON = 'Sale';

/**
 * The sale as GET /api/sales/:id reads it back (findSale), built from what was just written instead of read again:
 * the same fields, the lines' batches in the same order (expiry first, no expiry last, then batch id).
 */
function writtenSale(
  sale: NewSale,
  lines: readonly NewSaleLine[],
  payments: readonly NewSalePayment[],
  written: { invoiceNumber: string; cashierName: string; branchName: string },
): Sale {
  const byExpiry = (a: { expiryDate: string | null; batchId: string }, b: { expiryDate: string | null; batchId: string }) =>
    a.expiryDate === b.expiryDate
      ? (a.batchId < b.batchId ? -1 : a.batchId > b.batchId ? 1 : 0)
      : a.expiryDate === null
        ? 1
        : b.expiryDate === null
          ? -1
          : a.expiryDate < b.expiryDate
            ? -1
            : 1;
  return {
    id: sale.id,
    invoiceNumber: written.invoiceNumber,
    branchId: sale.branchId,
    branchName: written.branchName,
    client: sale.client,
    clientName: sale.clientName,
    cashier: { id: sale.cashierId, name: written.cashierName },
    saleDate: sale.saleDate,
    isBackdated: sale.isBackdated,
    backdatedBy: sale.backdatedBy,
    subtotalCents: sale.subtotalCents,
    discountCents: sale.discountCents,
    taxCents: sale.taxCents,
    roundingCents: sale.roundingCents,
    totalCents: sale.totalCents,
    amountPaidCents: sale.amountPaidCents,
    changeCents: sale.changeCents,
    balanceDueCents: sale.balanceDueCents,
    paymentMethod: sale.paymentMethod,
    paymentStatus: paymentStatus(sale.amountPaidCents, sale.totalCents).status,
    status: 'completed',
    itemCount: lines.length,
    createdAt: sale.at.toISOString(),
    clientTime: sale.clientTime === null ? null : new Date(sale.clientTime).toISOString(),
    discount: sale.discount,
    notes: sale.notes,
    lines: lines.map((l) => ({
      line: l.line,
      productId: l.productId,
      name: l.name,
      sku: l.sku,
      quantity: l.quantity,
      unitMode: l.unitMode,
      packageSize: l.packageSize,
      unitPriceCents: l.unitPriceCents,
      listPriceCents: l.listPriceCents,
      costCents: l.costCents,
      grossCents: l.grossCents,
      discountCents: l.discountCents,
      taxRateBasisPoints: l.taxRateBasisPoints,
      taxCents: l.taxCents,
      totalCents: l.totalCents,
      isDda: l.isDda,
      // As stored (jsonb) and read back.
      prescription: l.prescription === null ? null : (JSON.parse(JSON.stringify(l.prescription)) as Prescription),
      needsRefill: l.needsRefill,
      refillDays: l.refillDays,
      refillDueDate: l.refillDueDate,
      lowMargin: l.lowMargin,
      batches: [...l.batches].sort(byExpiry).map((b) => ({ batchId: b.batchId, batchNumber: b.batchNumber, expiryDate: b.expiryDate, quantity: b.quantity })),
    })),
    payments: payments.map((p) => ({ method: p.method, amountCents: p.amountCents, reference: p.reference })),
  };
}

/** The pieces a held reservation keeps for a product that may still be sold (not in batches expired since; 0 without one). */
function reservedPieces(held: HeldReservation | null, productId: string, today: string): number {
  return (held?.batches.get(productId) ?? []).filter((b) => !isExpired(b.expiryDate, today)).reduce((a, b) => a + b.quantity, 0);
}

/**
 * The stock changes of a sale, in line order, and the line each belongs to (-1: none). Without a reservation, one
 * 'sale' change per line (FEFO over sellable batches). Completing a resumed sale (decision 0028): each line takes
 * first from its product's reserved pieces, batch by batch as they were reserved ('reserved_sold' from that batch),
 * then any rest from sellable stock ('sale'); reserved pieces the sale no longer needs (the cart changed after
 * resuming) go back to their batches ('release'). Pieces reserved in a batch that has expired since are never sold:
 * they are released (the batch then holds them as expired stock) and the line takes sellable stock instead.
 */
function stockPlan(
  lines: readonly { productId: string; quantity: number }[],
  branchId: string,
  held: HeldReservation | null,
  today: string,
  reason: string,
  reference: { type: string; id: string },
): { changes: StockChange[]; lineOf: number[] } {
  const changes: StockChange[] = [];
  const lineOf: number[] = [];
  const left = new Map([...(held?.batches ?? [])].map(([productId, batches]) => [productId, batches.map((b) => ({ ...b }))]));
  lines.forEach((line, i) => {
    let rest = line.quantity;
    for (const b of left.get(line.productId) ?? []) {
      if (isExpired(b.expiryDate, today)) continue;
      const n = Math.min(rest, b.quantity);
      if (n <= 0) continue;
      b.quantity -= n;
      rest -= n;
      changes.push({ kind: 'reserved_sold', branchId, productId: line.productId, delta: -n, batch: { batchId: b.batchId }, reason, reference });
      lineOf.push(i);
    }
    if (rest > 0) {
      changes.push({ kind: 'sale', branchId, productId: line.productId, delta: -rest, reason, reference });
      lineOf.push(i);
    }
  });
  for (const [productId, batches] of left) {
    for (const b of batches) {
      if (b.quantity <= 0) continue;
      changes.push({ kind: 'release', branchId, productId, quantity: b.quantity, batch: { batchId: b.batchId }, reason: `Released: ${held!.reservationId}`, reference: { type: 'suspended_sale', id: held!.id } });
      lineOf.push(-1);
    }
  }
  return { changes, lineOf };
}

/** The batches a line took over its changes, one entry per batch (a batch reserved and also sold from is summed). */
function batchesOfLine(taken: readonly StockChangeResult[], lineOf: readonly number[], line: number): NewSaleLine['batches'] {
  const byBatch = new Map<string, NewSaleLine['batches'][number]>();
  taken.forEach((result, k) => {
    if (lineOf[k] !== line) return;
    for (const b of result.batches) {
      const known = byBatch.get(b.batchId);
      if (known) known.quantity += b.quantity;
      else byBatch.set(b.batchId, { batchId: b.batchId, batchNumber: b.batchNumber, expiryDate: b.expiryDate, quantity: b.quantity, unitCostCents: b.unitCostCents });
    }
  });
  return [...byBatch.values()];
}

function shortages(products: readonly CartProductRow[], needed: Map<string, number>, available: (productId: string) => number) {
  const seen = new Set<string>();
  return products
    .filter((p) => (needed.get(p.id) ?? 0) > available(p.id) && !seen.has(p.id) && seen.add(p.id))
    .map((p) => ({ productId: p.id, product: p.name, available: available(p.id), requested: needed.get(p.id) ?? 0 }));
}

/** GET /api/sales/:id: the receipt (404 for an unknown id, another tenant's, or a branch the user may not see). */
export async function getSale(q: Queryable, ctx: RequestContext, id: string): Promise<Sale> {
  const sale = await findSale(q, ctx.pharmacyId, id);
  if (!sale || !canSeeBranch(ctx, sale.branchId)) throw new AppError('NOT_FOUND');
  return sale;
}

/** GET /api/sales/last-prescription: the client's latest DDA prescription, to prefill the DDA modal (404 for an unknown client). */
export async function lastPrescription(q: Queryable, ctx: RequestContext, clientId: string): Promise<LastPrescriptionResponse> {
  await findCustomer(q, ctx, clientId);
  const row = await findLastPrescription(q, ctx.pharmacyId, clientId, ctx.visibleBranchIds);
  return row
    ? { prescription: row.prescription, saleId: row.sale_id, invoiceNumber: row.invoice_number, saleDate: row.sale_date }
    : { prescription: null, saleId: null, invoiceNumber: null, saleDate: null };
}
