import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import type { DashboardSalesResponse } from '@pharmapoint/domain/dashboard';
import { SalesOverview } from '@/features/dashboard/components/sales-overview';
import { MAIN_BRANCH, renderScreen, server, WESTLANDS_BRANCH } from '@/test/render-screen';

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

function answer(revenue: number, cost: number, preset: DashboardSalesResponse['range']['preset'] = 'today'): DashboardSalesResponse {
  const profit = revenue - cost;
  const margin = revenue === 0 ? 0 : Math.round((profit / revenue) * 1000) / 10;
  return {
    today: '2026-11-26',
    range: { preset, start: '2026-11-26', end: '2026-11-26', granularity: 'day', label: 'Today' },
    branchId: null,
    paymentMethod: null,
    totals: {
      totalRevenue: revenue,
      totalCost: cost,
      totalProfit: profit,
      profitMargin: margin,
      status: profit > 0 ? 'Profitable' : profit < 0 ? 'Loss' : 'Break Even',
      saleCount: 2,
      discountCents: 0,
      taxCents: 0,
      returnedCents: 0,
      estimatedCostCents: 0,
      costEstimated: false,
      expensesCents: 0,
      netProfit: profit,
      netMargin: margin,
      highExpense: false,
    },
    series: [{ period: '2026-11-26', revenueCents: revenue, costCents: cost, profitCents: profit, saleCount: 2 }],
    yearly: [],
    topExpenseCategories: [],
    paymentMethods: ['Cash', 'M-Pesa'],
  };
}

const card = (label: string) => screen.getByText(label).closest('div')!.parentElement!;

describe('the sales overview on the dashboard', () => {
  it('shows the four cards with Profitable / Loss / Break Even in green, red and grey, and asks again when a filter changes', async () => {
    const asked: string[] = [];
    server.use(
      http.get('/api/dashboard/sales', ({ request }) => {
        const url = new URL(request.url);
        asked.push(url.search);
        const preset = url.searchParams.get('dateFilter');
        if (url.searchParams.get('branchId')) return HttpResponse.json(answer(0, 0));
        if (preset === 'thisMonth') return HttpResponse.json(answer(100_000, 120_000, 'thisMonth'));
        return HttpResponse.json(answer(150_000, 100_000));
      }),
    );
    renderScreen(<SalesOverview branches={[MAIN_BRANCH, WESTLANDS_BRANCH]} />, { path: '/app/dashboard' });
    await waitFor(() => expect(within(card('Total Sales')).getByText('KSh 1,500.00')).toBeTruthy());
    expect(screen.getByRole('heading', { name: 'Sales Filters' })).toBeTruthy();
    expect(within(card('Purchase Cost')).getByText('KSh 1,000.00')).toBeTruthy();
    const profit = within(card('Total Profit')).getByText('KSh 500.00');
    expect(profit.className).toContain('text-emerald-700');
    expect(within(card('Total Profit')).getByText('Profitable')).toBeTruthy();
    expect(within(card('Profit Margin')).getByText('33.3%')).toBeTruthy();

    await userEvent.selectOptions(screen.getByLabelText('Date Range'), 'This Month');
    await waitFor(() => expect(within(card('Total Profit')).getByText('-KSh 200.00').className).toContain('text-red-700'));
    expect(within(card('Profit Margin')).getByText('Loss')).toBeTruthy();
    expect(asked.at(-1)).toContain('dateFilter=thisMonth');

    await userEvent.selectOptions(screen.getByLabelText('Branch'), 'Westlands Branch');
    await waitFor(() => expect(within(card('Total Profit')).getByText('Break Even')).toBeTruthy());
    expect(within(card('Total Profit')).getByText('KSh 0.00').className).toContain('text-slate-900');
    expect(asked.at(-1)).toContain(`branchId=${WESTLANDS_BRANCH.id}`);

    // Custom Range: the end before the start is said at the field, and nothing is asked.
    const before = asked.length;
    await userEvent.selectOptions(screen.getByLabelText('Date Range'), 'Custom Range');
    await userEvent.type(screen.getByLabelText('Start Date'), '2026-11-20');
    await userEvent.type(screen.getByLabelText('End Date'), '2026-11-10');
    await screen.findByText('The end date must be on or after the start date.');
    expect(asked.length).toBe(before);

    await userEvent.click(screen.getByRole('button', { name: 'Reset Filters' }));
    await waitFor(() => expect(within(card('Total Profit')).getByText('KSh 500.00')).toBeTruthy());
  });

  it('says Error Loading Sales Data with Try Again, which asks again', async () => {
    let calls = 0;
    server.use(
      http.get('/api/dashboard/sales', () => {
        calls += 1;
        return calls === 1 ? HttpResponse.json({ error: { code: 'INTERNAL', message: 'Database unavailable' } }, { status: 503 }) : HttpResponse.json(answer(0, 0));
      }),
    );
    renderScreen(<SalesOverview branches={[MAIN_BRANCH]} />, { path: '/app/dashboard' });
    await screen.findByText('Error Loading Sales Data');
    await userEvent.click(screen.getByRole('button', { name: 'Try Again' }));
    await waitFor(() => expect(within(card('Total Profit')).getByText('Break Even')).toBeTruthy());
  });
});
