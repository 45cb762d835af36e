import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import type { CreditOutstandingResponse, PaymentSummaryResponse } from '@pharmapoint/domain/sales-history';
import { DEFAULT_SETTINGS } from '@pharmapoint/domain/settings';
import PaymentSummaryPage from '@/features/sales/routes/payment-summary-page';
import { setSessionHint } from '@/lib/session-hint';
import { renderScreen, server } from '@/test/render-screen';

beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  setSessionHint(true);
});
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const CLIENT = '66666666-6666-4666-8666-666666666666';
const summary: PaymentSummaryResponse = {
  from: '2026-11-01',
  to: '2026-11-24',
  branchId: null,
  methods: ['Cash', 'MPESA'],
  rows: [
    { date: '2026-11-23', method: 'Cash', salesCount: 2, salesCents: 15_000, collectedCents: 0, refundedCents: 5000, netCents: 10_000 },
    { date: '2026-11-24', method: 'MPESA', salesCount: 1, salesCents: 8000, collectedCents: 2000, refundedCents: 0, netCents: 10_000 },
  ],
  totals: [
    { method: 'Cash', salesCount: 2, salesCents: 15_000, collectedCents: 0, refundedCents: 5000, netCents: 10_000 },
    { method: 'MPESA', salesCount: 1, salesCents: 8000, collectedCents: 2000, refundedCents: 0, netCents: 10_000 },
  ],
  creditGivenCents: 5000,
  netCents: 20_000,
};
const credit: CreditOutstandingResponse = {
  asOf: '2026-11-24',
  customers: [
    {
      clientId: CLIENT,
      name: 'Wanjiru Kamau',
      phone: '254712345678',
      balanceCents: 5000,
      creditDays: 30,
      oldestSaleDate: '2026-09-01',
      daysOverdue: 54,
      buckets: { current: 0, days1to30: 0, days31to60: 5000, days60plus: 0 },
      invoices: [{ saleId: 'x', invoiceNumber: 'INV-000007', saleDate: '2026-09-01', dueDate: '2026-10-01', daysOverdue: 54, bucket: 'days31to60', totalCents: 5000, balanceCents: 5000 }],
    },
  ],
  totals: { balanceCents: 5000, current: 0, days1to30: 0, days31to60: 5000, days60plus: 0 },
};

describe('the payment summary screen', () => {
  it('shows the money per day and method, the credit aging, and records a later payment once, refusing more than is owed', async () => {
    const posted: { body: { id: string; amountCents: number; method: string; clientId: string }; key: string | null }[] = [];
    server.use(
      http.get('/api/settings', () => HttpResponse.json({ settings: DEFAULT_SETTINGS, updatedAt: null })),
      http.get('/api/sales/payment-summary', () => HttpResponse.json(summary)),
      http.get('/api/sales/credit-outstanding', () => HttpResponse.json(credit)),
      http.get('/api/till-payments', () => HttpResponse.json({ items: [], total: 0, limit: 1, offset: 0 })),
      http.post('/api/customer-payments', async ({ request }) => {
        const body = (await request.json()) as { id: string; amountCents: number; method: string; clientId: string };
        posted.push({ body, key: request.headers.get('Idempotency-Key') });
        return HttpResponse.json(
          { id: body.id, clientId: CLIENT, clientName: 'Wanjiru Kamau', amountCents: body.amountCents, method: body.method, reference: null, notes: null, recordedBy: { id: null, name: 'Grace' }, createdAt: '2026-11-24T08:00:00.000Z', allocations: [{ saleId: 'x', invoiceNumber: 'INV-000007', saleDate: '2026-09-01', amountCents: body.amountCents, balanceAfterCents: 5000 - body.amountCents }], balanceAfterCents: 5000 - body.amountCents },
          { status: 201 },
        );
      }),
    );
    renderScreen(<PaymentSummaryPage />, { path: '/app/sales/payment-summary' });
    const days = await screen.findByRole('table', { name: 'Payments per day and method' });
    expect(within(days).getByRole('columnheader', { name: 'MPESA' })).toBeTruthy();
    expect(within(days).getAllByText('KSh 100.00').length).toBeGreaterThanOrEqual(2);
    const owed = screen.getByRole('table', { name: 'Credit owed per customer' });
    const row = within(owed).getByRole('row', { name: /Wanjiru Kamau/ });
    expect(within(row).getAllByText('KSh 50.00').length).toBe(2);

    await userEvent.click(within(row).getByRole('button', { name: 'Record a payment from Wanjiru Kamau' }));
    const dialog = await screen.findByRole('dialog', { name: 'Payment from Wanjiru Kamau' });
    // Credit is never offered as the method of a later payment.
    expect(within(dialog).getByRole('option', { name: 'Cash' })).toBeTruthy();
    expect(within(dialog).queryByRole('option', { name: 'Credit' })).toBeNull();
    await userEvent.type(within(dialog).getByLabelText(/Amount \(KSh\)/), '60');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save payment' }));
    expect(await within(dialog).findByText('The amount cannot be more than what is owed (KSh 50.00).')).toBeTruthy();
    expect(posted).toEqual([]);

    const amount = within(dialog).getByLabelText(/Amount \(KSh\)/);
    await userEvent.clear(amount);
    await userEvent.type(amount, '20.50');
    await userEvent.selectOptions(within(dialog).getByLabelText('Payment method'), 'MPESA');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save payment' }));
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]!.body).toMatchObject({ clientId: CLIENT, amountCents: 2050, method: 'MPESA' });
    expect(posted[0]!.key).toBe(posted[0]!.body.id);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('says how many M-Pesa payments need reconciling, with a link to them, to whoever may reconcile them', async () => {
    const asked: string[] = [];
    server.use(
      http.get('/api/settings', () => HttpResponse.json({ settings: DEFAULT_SETTINGS, updatedAt: null })),
      http.get('/api/sales/payment-summary', () => HttpResponse.json(summary)),
      http.get('/api/sales/credit-outstanding', () => HttpResponse.json(credit)),
      http.get('/api/till-payments', ({ request }) => {
        asked.push(new URL(request.url).search);
        return HttpResponse.json({ items: [], total: 2, limit: 1, offset: 0 });
      }),
    );
    renderScreen(<PaymentSummaryPage />, { path: '/app/sales/payment-summary' });
    const notice = await screen.findByText('2 M-Pesa payments need reconciling');
    expect(within(notice.closest('[role="status"]') as HTMLElement).getByRole('link', { name: 'Reconcile now' }).getAttribute('href')).toBe('/app/sales/mpesa-payments?status=unmatched');
    expect(screen.getByRole('link', { name: 'M-Pesa payments' }).getAttribute('href')).toBe('/app/sales/mpesa-payments');
    expect(asked).toEqual(['?status=unmatched&limit=1']);
  });
});
