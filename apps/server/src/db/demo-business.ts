import { randomUUID } from 'node:crypto';
import { createContactSchema, type CreateContactInput } from '@pharmapoint/domain/contacts';
import { effectivePermissions } from '@pharmapoint/domain/permissions';
import { createPurchaseReturnSchema, savePurchaseSchema, type SavePurchaseInput } from '@pharmapoint/domain/purchases';
import { createSaleReturnSchema } from '@pharmapoint/domain/sale-returns';
import { completeSaleSchema, type CompleteSaleInput } from '@pharmapoint/domain/sales';
import { customerPaymentInputSchema } from '@pharmapoint/domain/sales-history';
import { businessDate } from '@pharmapoint/domain/stock';
import { createSupplierPaymentSchema, type CreateSupplierPaymentInput } from '@pharmapoint/domain/supplier-payments';
import type { Queryable } from './database.ts';
import type { SeededIds } from './seed.ts';
import type { RequestContext } from '../platform/context.ts';
import { createContact } from '../modules/contacts/contacts.service.ts';
import { createPurchase, createPurchaseReturn } from '../modules/purchases/purchases.service.ts';
import { recordCustomerPayment } from '../modules/sales/customer-payments.service.ts';
import { createSaleReturn } from '../modules/sales/sale-returns.service.ts';
import { completeSale } from '../modules/sales/sales.service.ts';
import { recordPayment } from '../modules/supplier-payments/supplier-payments.service.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const MINUTE_MS = 60 * 1000;
const TIME_ZONE = 'Africa/Nairobi';

/** What the back-office seed wrote (for tests and the start-up log). */
export interface DemoBusinessSummary {
  suppliers: number;
  customers: number;
  purchases: number;
  supplierPayments: number;
  purchaseReturns: number;
  sales: number;
  saleReturns: number;
}

interface StockedProduct {
  id: string;
  name: string;
  sellingPriceCents: number;
  purchasePriceCents: number;
}

/**
 * The demo pharmacy's back office (issue 10): so that a newcomer's purchases, contacts, supplier report, all sales,
 * payment summary and dashboard cards are not empty. Everything goes through the use cases, as the routes call them
 * (one open transaction, a request context: the owner for the back office, the cashier at the till), inside the
 * seed's one transaction (so a crash leaves nothing and the next start seeds it all again):
 * - suppliers (with credit terms) and customers;
 * - purchases: two received and paid in part or in full, one received long ago and overdue, one pending order; a
 *   purchase return of two pieces; supplier payments (M-Pesa, bank transfer);
 * - four days of sales at the Main Branch's till (cash, M-Pesa, a credit sale to a customer), a partial refund and a
 *   customer's later payment of part of their credit.
 * Deterministic (no randomness); the products are the first by name of those well in stock
 * and priced KES 50 to 3,000.
 */
export async function seedDemoBusiness(q: Queryable, ids: SeededIds, now: Date): Promise<DemoBusinessSummary> {
  const main = ids.branches[0]!;
  const owner = ids.users.owner!;
  const cashier = ids.users.cashier!;
  const at = (daysAgo: number, minutesAgo = 0) => new Date(now.getTime() - daysAgo * DAY_MS - minutesAgo * MINUTE_MS);
  const ownerCtx = (when: Date): RequestContext => ({
    pharmacyId: ids.pharmacyId,
    branchId: main.id,
    userId: owner.id,
    permissions: ['*'],
    subject: { role: 'owner', isOwner: true },
    membership: { role: 'owner', permissions: null, allowedBranchIds: null, defaultBranchId: main.id, hasPosAccess: true, isOwner: true },
    isDemo: false,
    visibleBranchIds: null,
    now: when,
  });
  const cashierCtx = (when: Date): RequestContext => ({
    pharmacyId: ids.pharmacyId,
    branchId: main.id,
    userId: cashier.id,
    permissions: effectivePermissions({ role: 'cashier', isOwner: false }),
    subject: { role: 'cashier', isOwner: false },
    membership: { role: 'cashier', permissions: null, allowedBranchIds: [main.id], defaultBranchId: main.id, hasPosAccess: true, isOwner: false },
    isDemo: false,
    visibleBranchIds: [main.id],
    now: when,
  });
  const day = (daysAgo: number) => businessDate(at(daysAgo), TIME_ZONE);

  // Products well in stock at the Main Branch (not controlled): the purchases and the till's sales use them.
  const stocked = (
    await q.query<{ id: string; name: string; selling_price_cents: string; purchase_price_cents: string }>(
      `SELECT p.id, p.name, bp.selling_price_cents, bp.purchase_price_cents
         FROM products p JOIN branch_products bp ON bp.pharmacy_id = p.pharmacy_id AND bp.product_id = p.id
        WHERE p.pharmacy_id = $1 AND bp.branch_id = $2 AND p.is_active AND NOT p.is_dda AND bp.quantity >= 25
          AND bp.selling_price_cents BETWEEN 5000 AND 300000 AND bp.selling_price_cents > bp.purchase_price_cents AND bp.purchase_price_cents > 0
        ORDER BY p.name, p.id LIMIT 8`,
      [ids.pharmacyId, main.id],
    )
  ).map((r): StockedProduct => ({ id: r.id, name: r.name, sellingPriceCents: Number(r.selling_price_cents), purchasePriceCents: Number(r.purchase_price_cents) }));
  if (stocked.length < 6) throw new Error(`the demo back office needs 6 products in stock at ${main.name}; the catalogue has ${stocked.length}`);
  const product = (i: number) => stocked[i % stocked.length]!;

  // ----------------------------------------------------------------------------------------- contacts
  const contact = async (input: CreateContactInput) => (await createContact(q, ownerCtx(at(30)), createContactSchema.parse(input))).id;
  const harleys = await contact({ type: 'supplier', name: 'Harleys Limited', phone: '0722 410 100', email: 'orders@harleys.test', location: 'Industrial Area, Nairobi', creditTerms: '30 days' });
  const dawa = await contact({ type: 'supplier', name: 'Dawa Distributors', phone: '0733 220 330', location: 'Mombasa Road, Nairobi', creditTerms: 'net 15' });
  const kemsa = await contact({ type: 'supplier', name: 'Kenya Medical Supplies', phone: '0711 900 900', location: 'Embakasi, Nairobi', creditTerms: '2 months' });
  const wanjiru = await contact({ type: 'customer', name: 'Wanjiru Kamau', phone: '0712 345 678', location: 'Westlands' });
  await contact({ type: 'customer', name: 'Otieno Odhiambo', phone: '0798 765 432', location: 'Kilimani' });
  await contact({ type: 'customer', name: 'Amina Hassan', phone: '0701 222 333', location: 'South B' });

  // ----------------------------------------------------------------------------------------- purchases
  const expiry = businessDate(new Date(now.getTime() + 540 * DAY_MS), TIME_ZONE);
  const line = (p: StockedProduct, quantity: number, batch: string) => ({
    productId: p.id,
    quantity,
    purchasePriceCents: p.purchasePriceCents,
    sellingPriceCents: p.sellingPriceCents,
    expiryDate: expiry,
    batchNumber: batch,
    applyTax: false,
  });
  const purchase = async (daysAgo: number, input: Omit<SavePurchaseInput, 'date' | 'branchId'>) =>
    (await createPurchase(q, ownerCtx(at(daysAgo, 30)), savePurchaseSchema.parse({ ...input, date: day(daysAgo), branchId: main.id }))).purchase;
  // Received 50 days ago on 30 days' credit: paid in full by bank transfer.
  const paid = await purchase(50, { supplierId: harleys, reference: 'HL-20418', status: 'received', items: [line(product(0), 24, 'HL-A1'), line(product(1), 12, 'HL-B7')] });
  // Received 40 days ago on 15 days' credit and never paid: overdue on the supplier report and the dashboard.
  await purchase(40, { supplierId: dawa, reference: 'DD-7781', status: 'received', items: [line(product(2), 30, 'DD-C3')] });
  // Received 12 days ago: paid in part by M-Pesa; two pieces went back to the supplier.
  const partly = await purchase(12, { supplierId: harleys, reference: 'HL-20577', status: 'received', items: [line(product(3), 20, 'HL-D2'), line(product(4), 10, 'HL-E5')] });
  // A pending order, nothing received yet.
  await purchase(1, { supplierId: kemsa, reference: 'KEMSA-PO-311', status: 'pending', notes: 'Monthly order', items: [line(product(5), 50, 'KM-F9')] });

  const pay = (daysAgo: number, input: CreateSupplierPaymentInput) => recordPayment(q, ownerCtx(at(daysAgo, 10)), createSupplierPaymentSchema.parse({ ...input, date: day(daysAgo) }));
  await pay(20, { supplierId: harleys, amountCents: paid.totalCents, method: 'Bank Transfer', reference: 'EFT-558120', invoiceId: paid.id });
  await pay(5, { supplierId: harleys, amountCents: Math.round(partly.totalCents / 2 / 100) * 100, method: 'M-Pesa', reference: 'QJK4H7T2LM', invoiceId: partly.id });
  await createPurchaseReturn(
    q,
    ownerCtx(at(4)),
    createPurchaseReturnSchema.parse({ purchaseId: partly.id, reason: 'Damaged packaging on delivery', date: day(4), items: [{ purchaseItemId: partly.items[1]!.id, quantity: 2 }] }),
  );

  // ----------------------------------------------------------------------------------------- sales
  let sales = 0;
  const sell = async (daysAgo: number, minutesAgo: number, lines: [StockedProduct, number][], how: 'cash' | 'mpesa' | 'credit', clientId: string | null = null) => {
    const total = lines.reduce((sum, [p, quantity]) => sum + p.sellingPriceCents * quantity, 0);
    const payments =
      how === 'cash'
        ? [{ method: 'Cash', amountCents: Math.ceil(total / 10_000) * 10_000 }]
        : how === 'mpesa'
          ? [{ method: 'MPESA', amountCents: total, reference: `QD${String(100_000 + sales * 7919).slice(-6)}XZ` }]
          : [{ method: 'Credit', amountCents: 0 }];
    const id = randomUUID();
    const input: CompleteSaleInput = { id, branchId: main.id, clientId, lines: lines.map(([p, quantity]) => ({ productId: p.id, quantity })), payments };
    sales += 1;
    return completeSale(q, cashierCtx(at(daysAgo, minutesAgo)), completeSaleSchema.parse(input));
  };
  // Four days at the till, oldest first (invoice numbers follow the days).
  const refunded = await sell(3, 300, [[product(0), 2], [product(2), 1]], 'cash');
  await sell(3, 200, [[product(1), 1]], 'mpesa');
  await sell(3, 90, [[product(3), 3]], 'cash');
  await sell(2, 320, [[product(4), 1], [product(5), 2]], 'mpesa');
  const credit = await sell(2, 240, [[product(0), 3], [product(3), 2]], 'credit', wanjiru);
  await sell(2, 60, [[product(2), 2]], 'cash');
  await sell(1, 280, [[product(5), 1]], 'cash');
  await sell(1, 150, [[product(1), 2], [product(4), 2]], 'mpesa');
  await sell(0, 45, [[product(0), 1], [product(1), 1]], 'cash');
  await sell(0, 20, [[product(3), 1]], 'mpesa');

  // A customer brought one piece back the next day (restocked, refunded in cash); the credit customer paid part.
  await createSaleReturn(q, ownerCtx(at(2, 400)), refunded.id, createSaleReturnSchema.parse({ id: randomUUID(), lines: [{ line: 1, quantity: 1 }], refundMethod: 'Cash', reason: 'Customer changed their mind' }));
  await recordCustomerPayment(
    q,
    ownerCtx(at(1, 100)),
    customerPaymentInputSchema.parse({ id: randomUUID(), clientId: wanjiru, amountCents: Math.round(credit.totalCents / 2 / 100) * 100, method: 'M-Pesa', reference: 'QF8K2L0PZA' }),
  );

  return { suppliers: 3, customers: 3, purchases: 4, supplierPayments: 2, purchaseReturns: 1, sales, saleReturns: 1 };
}
