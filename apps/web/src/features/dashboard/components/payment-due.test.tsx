import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import type { PaymentDueResponse } from '@pharmapoint/domain/supplier-payments';
import { PaymentDueAlert } from '@/features/dashboard/components/payment-due';
import { renderScreen, server } from '@/test/render-screen';

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

function invoice(n: number, daysOverdue: number, outstandingCents: number): PaymentDueResponse['invoices'][number] {
  return {
    id: `00000000-0000-4000-8000-00000000000${n}`,
    purchaseNumber: `PO-170000000000${n}`,
    date: '2026-10-01',
    status: 'received',
    totalCents: outstandingCents,
    returnedCents: 0,
    paidCents: 0,
    outstandingCents,
    dueDate: daysOverdue > 0 ? '2026-11-20' : '2026-11-28',
    creditDays: 30,
    daysOld: 54,
    daysOverdue,
    supplierId: `supplier-${n}`,
    supplierName: `Supplier ${n} Ltd`,
  };
}

describe('the payment-due alert on the dashboard', () => {
  it('lists the invoices due within the window or overdue, flags the overdue ones and leads to the report', async () => {
    const due: PaymentDueResponse = { windowDays: 7, totalCents: 450_000, overdueCount: 1, invoiceCount: 2, invoices: [invoice(1, 4, 300_000), invoice(2, 0, 150_000)] };
    server.use(http.get('/api/reports/suppliers/payment-due', () => HttpResponse.json(due)));
    renderScreen(<PaymentDueAlert />, { path: '/app/dashboard', routes: { '/app/reports/suppliers': 'Supplier balances report' } });
    const card = (await screen.findByRole('heading', { name: 'Supplier payments due' })).closest('section')!;
    within(card).getByText('2 supplier invoices due within 7 days or overdue: KSh 4,500.00');
    expect(within(card).getByRole('alert').textContent).toBe('1 invoice is overdue');
    const first = within(card).getByText('Supplier 1 Ltd').closest('li')!;
    expect(first.textContent).toContain('PO-1700000000001');
    expect(first.textContent).toContain('KSh 3,000.00');
    expect(first.textContent).toContain('4 days overdue');
    expect(within(card).getByText('Supplier 2 Ltd').closest('li')!.textContent).toContain('Due soon');
    await userEvent.click(within(card).getByRole('link', { name: 'Supplier balances' }));
    await screen.findByText('Supplier balances report');
  });

  it('shows nothing while nothing is due', async () => {
    let asked = false;
    server.use(
      http.get('/api/reports/suppliers/payment-due', () => {
        asked = true;
        return HttpResponse.json({ windowDays: 7, totalCents: 0, overdueCount: 0, invoiceCount: 0, invoices: [] } satisfies PaymentDueResponse);
      }),
    );
    const { container } = renderScreen(<PaymentDueAlert />, { path: '/app/dashboard' });
    await waitFor(() => expect(asked).toBe(true));
    await waitFor(() => expect(container.innerHTML).toBe(''));
  });
});
