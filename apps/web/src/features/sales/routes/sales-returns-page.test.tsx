import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import type { SaleReturn } from '@pharmapoint/domain/sale-returns';
import type { Sale } from '@pharmapoint/domain/sales';
import { DEFAULT_SETTINGS } from '@pharmapoint/domain/settings';
import SalesReturnsPage from '@/features/sales/routes/sales-returns-page';
import { setSessionHint } from '@/lib/session-hint';
import { MAIN_BRANCH, renderScreen, server } from '@/test/render-screen';

beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  setSessionHint(true);
});
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const SALE_ID = '55555555-5555-4555-8555-555555555555';
const sale: Sale = {
  id: SALE_ID,
  invoiceNumber: 'INV-000042',
  branchId: MAIN_BRANCH.id,
  branchName: MAIN_BRANCH.name,
  client: { id: '66666666-6666-4666-8666-666666666666', name: 'Akinyi Odhiambo', phone: '254712345678', location: null },
  clientName: 'Akinyi Odhiambo',
  cashier: { id: null, name: 'John Kamau' },
  saleDate: '2026-11-20',
  isBackdated: false,
  backdatedBy: null,
  subtotalCents: 30_000,
  discountCents: 0,
  taxCents: 0,
  roundingCents: 0,
  totalCents: 30_000,
  amountPaidCents: 10_000,
  changeCents: 0,
  balanceDueCents: 20_000,
  paymentMethod: 'Cash',
  paymentStatus: 'partial',
  status: 'partially_returned',
  itemCount: 1,
  createdAt: '2026-11-20T08:00:00.000Z',
  clientTime: null,
  discount: null,
  notes: null,
  lines: [
    {
      line: 1,
      productId: '77777777-7777-4777-8777-777777777777',
      name: 'Ventolin Inhaler',
      sku: null,
      quantity: 3,
      unitMode: 'P',
      packageSize: 1,
      unitPriceCents: 10_000,
      listPriceCents: 10_000,
      costCents: 5000,
      grossCents: 30_000,
      discountCents: 0,
      taxRateBasisPoints: 0,
      taxCents: 0,
      totalCents: 30_000,
      isDda: false,
      prescription: null,
      needsRefill: false,
      refillDays: null,
      refillDueDate: null,
      lowMargin: false,
      batches: [{ batchId: '88888888-8888-4888-8888-888888888888', batchNumber: 'VEN1', expiryDate: '2027-06-30', quantity: 3 }],
    },
  ],
  payments: [{ method: 'Cash', amountCents: 10_000, reference: null }, { method: 'Credit', amountCents: 0, reference: null }],
};
const earlier: SaleReturn = {
  id: '99999999-9999-4999-8999-999999999999',
  returnNumber: 'RET-000001',
  saleId: SALE_ID,
  invoiceNumber: 'INV-000042',
  kind: 'return',
  reason: 'Customer return',
  refundCents: 10_000,
  creditCents: 10_000,
  paidOutCents: 0,
  refundMethod: null,
  refundReference: null,
  createdBy: { id: null, name: 'Grace' },
  createdAt: '2026-11-21T08:00:00.000Z',
  items: [{ line: 1, productId: sale.lines[0]!.productId, name: 'Ventolin Inhaler', quantity: 1, condition: 'restock', refundCents: 10_000, batches: [] }],
  saleStatus: 'partially_returned',
};

function handlers(onPost: (body: unknown, key: string | null) => void) {
  server.use(
    http.get('/api/settings', () => HttpResponse.json({ settings: DEFAULT_SETTINGS, updatedAt: null })),
    http.get(`/api/sales/${SALE_ID}`, () => HttpResponse.json(sale)),
    http.get(`/api/sales/${SALE_ID}/returns`, () => HttpResponse.json({ items: [earlier] })),
    http.post(`/api/sales/${SALE_ID}/returns`, async ({ request }) => {
      const body = await request.json();
      onPost(body, request.headers.get('Idempotency-Key'));
      return HttpResponse.json({ ...earlier, id: (body as { id: string }).id, returnNumber: 'RET-000002', refundCents: 10_000, creditCents: 10_000 }, { status: 201 });
    }),
  );
}

describe('the sales returns screen', () => {
  it('shows what can still come back, and refuses more beside the field without sending anything', async () => {
    const posted: unknown[] = [];
    handlers((body) => posted.push(body));
    renderScreen(<SalesReturnsPage />, { path: `/app/sales/returns?sale=${SALE_ID}`, pattern: '/app/sales/returns' });
    expect(await screen.findByText('Sold 3, returned 1, can return 2 · KSh 300.00')).toBeTruthy();
    await userEvent.type(screen.getByLabelText('Quantity to return of Ventolin Inhaler'), '3');
    await userEvent.click(screen.getByRole('button', { name: 'Record return' }));
    expect(await screen.findByText('At most 2 pieces can be returned.')).toBeTruthy();
    expect(posted).toEqual([]);
  });

  it('sends the lines with their condition and the browser-made id as Idempotency-Key; a refund on credit needs no method', async () => {
    const posted: { body: { id: string; refundMethod?: string }; key: string | null }[] = [];
    handlers((body, key) => posted.push({ body: body as { id: string; refundMethod?: string }, key }));
    renderScreen(<SalesReturnsPage />, { path: `/app/sales/returns?sale=${SALE_ID}`, pattern: '/app/sales/returns' });
    const quantity = await screen.findByLabelText('Quantity to return of Ventolin Inhaler');
    await userEvent.type(quantity, '1');
    await userEvent.selectOptions(screen.getByLabelText('Condition of Ventolin Inhaler'), 'damaged');
    // 100.00 of the 200.00 still owed: all of it comes off the balance, nothing is paid out.
    expect(screen.getByText(/Refund: KSh 100\.00\. KSh 100\.00 comes off what the client owes\./)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Record return' }));
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]!.body).toMatchObject({ lines: [{ line: 1, quantity: 1, condition: 'damaged' }] });
    expect(posted[0]!.body.refundMethod).toBeUndefined();
    expect(posted[0]!.key).toBe(posted[0]!.body.id);
  });
});
