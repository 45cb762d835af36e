import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import type { SuspendedSale, SuspendedSaleSummary } from '@pharmapoint/domain/suspended-sales';
import SuspendedSalesPage from '@/features/sales/routes/suspended-sales-page';
import { RESUME_HANDOFF_KEY } from '@/features/pos/hooks/resume-handoff';
import { setSessionHint } from '@/lib/session-hint';
import { MAIN_BRANCH, renderScreen, server } from '@/test/render-screen';

beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  setSessionHint(true);
});
afterEach(() => {
  server.resetHandlers();
  sessionStorage.clear();
});
afterAll(() => server.close());

const summary: SuspendedSaleSummary = {
  id: '55555555-5555-4555-8555-555555555555',
  reservationId: 'RES-1764000000000-ABCDEF',
  branchId: MAIN_BRANCH.id,
  branchName: MAIN_BRANCH.name,
  client: { id: '66666666-6666-4666-8666-666666666666', name: 'Akinyi Odhiambo', phone: '254712345678', location: null },
  clientName: 'Akinyi Odhiambo',
  clientPhone: '254712345678',
  totalCents: 15_000,
  paymentMethod: 'Cash',
  amountPaidCents: 5000,
  paymentStatus: 'partial',
  notes: 'Back after the clinic',
  status: 'suspended',
  cartItemCount: 1,
  suspendedAt: new Date().toISOString(),
  suspendedBy: { id: null, name: 'John Kamau', email: null },
};
const full: SuspendedSale = {
  ...summary,
  version: '2.0',
  stockReserved: true,
  subtotalCents: 15_000,
  discount: null,
  discountCents: 0,
  taxCents: 0,
  lines: [
    {
      line: 1,
      productId: '77777777-7777-4777-8777-777777777777',
      name: 'Ventolin Inhaler',
      sku: null,
      quantity: 3,
      unitMode: 'P',
      packageSize: 1,
      unitPriceCents: 5000,
      listPriceCents: 5000,
      totalCents: 15_000,
      isDda: false,
      prescription: null,
      needsRefill: false,
      refillDays: null,
      lowMargin: false,
    },
  ],
  reservations: [],
};
const list = (items: SuspendedSaleSummary[]) => HttpResponse.json({ items, total: items.length, limit: 50, offset: 0 });

describe('the suspended sales screen', () => {
  it('shows the empty state', async () => {
    server.use(http.get('/api/suspended-sales', () => list([])));
    renderScreen(<SuspendedSalesPage />, { path: '/app/suspended-sales' });
    expect(await screen.findByText('No suspended sales')).toBeTruthy();
  });

  it('shows the error state with Try Again', async () => {
    server.use(http.get('/api/suspended-sales', () => HttpResponse.json({ error: { code: 'INTERNAL', message: 'An unexpected error occurred.' } }, { status: 500 })));
    renderScreen(<SuspendedSalesPage />, { path: '/app/suspended-sales' });
    expect(await screen.findByText(/Failed to load suspended sales/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try Again' })).toBeTruthy();
  });

  it('filters by age through the query, resumes through the handoff to /pos, and cancels after a confirmation', async () => {
    const user = userEvent.setup();
    const queries: string[] = [];
    const cancelled: string[] = [];
    server.use(
      http.get('/api/suspended-sales', ({ request }) => {
        queries.push(new URL(request.url).search);
        return list([summary]);
      }),
      http.get(`/api/suspended-sales/${summary.id}`, () => HttpResponse.json(full)),
      http.post(`/api/suspended-sales/${summary.id}/cancel`, () => {
        cancelled.push(summary.id);
        return HttpResponse.json({ id: summary.id, reservationId: summary.reservationId, released: [] });
      }),
    );
    renderScreen(<SuspendedSalesPage />, { path: '/app/suspended-sales', routes: { '/pos': 'The till' } });
    const table = await screen.findByRole('table', { name: 'Suspended sales' });
    const row = (await within(table).findByText('Akinyi Odhiambo')).closest('tr')!;
    expect(row.textContent).toContain('RES-1764000000000-ABCDEF');
    expect(row.textContent).toContain('Partial');

    await user.selectOptions(screen.getByLabelText('Age'), 'over7');
    await waitFor(() => expect(queries.some((q) => q.includes('minAgeDays=7'))).toBe(true));

    await user.click(within(row).getByRole('button', { name: /^Cancel the sale of Akinyi Odhiambo/ }));
    const dialog = await screen.findByRole('alertdialog').catch(() => screen.findByRole('dialog'));
    await user.click(within(dialog).getByRole('button', { name: 'Cancel sale and release stock' }));
    await waitFor(() => expect(cancelled).toEqual([summary.id]));

    await user.click(within(row).getByRole('button', { name: /^Resume the sale of Akinyi Odhiambo/ }));
    expect(await screen.findByText('The till')).toBeTruthy();
    expect(JSON.parse(sessionStorage.getItem(RESUME_HANDOFF_KEY)!)).toMatchObject({ isResumed: true, sale: { id: summary.id } });
  });
});
