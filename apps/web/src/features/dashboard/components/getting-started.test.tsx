import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import type { GettingStartedResponse } from '@pharmapoint/domain/getting-started';
import { GettingStarted } from '@/features/dashboard/components/getting-started';
import { renderScreen, server } from '@/test/render-screen';

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const steps = { branches: false, suppliers: true, products: true, openingStock: false, users: false, receiptSettings: false, firstSale: false };

describe('the getting-started checklist on the dashboard', () => {
  it('lists the steps as links, ticks the done ones, and hides for good when dismissed', async () => {
    let dismissals = 0;
    server.use(
      http.get('/api/dashboard/getting-started', () => HttpResponse.json({ show: dismissals === 0, dismissed: dismissals > 0, steps } satisfies GettingStartedResponse)),
      http.post('/api/dashboard/getting-started/dismiss', () => {
        dismissals += 1;
        return HttpResponse.json({ show: false, dismissed: true, steps } satisfies GettingStartedResponse);
      }),
    );
    const user = userEvent.setup();
    renderScreen(<GettingStarted />, { path: '/app/dashboard' });
    const card = await screen.findByRole('region', { name: 'Getting started' });
    expect(within(card).getByText('2 of 7 steps done. Each step ticks itself as you do it.')).toBeTruthy();
    const items = within(card).getAllByRole('listitem');
    expect(items.map((li) => li.querySelector('a')!.textContent)).toEqual([
      'Set up your branches',
      'Add your suppliers',
      'Add your products',
      'Enter your opening stock',
      'Invite your staff',
      'Set up your receipts',
      'Make your first sale',
    ]);
    expect(items[2]!.textContent).toContain('(done)');
    expect(items[3]!.textContent).toContain('(to do)');
    expect(within(card).getByRole('link', { name: 'Add your products' }).getAttribute('href')).toBe('/app/products/add');
    expect(within(card).getByRole('link', { name: 'Or import them from a CSV file.' }).getAttribute('href')).toBe('/app/products/bulk-import');
    expect(within(card).getByRole('link', { name: 'Make your first sale' }).getAttribute('href')).toBe('/pos');

    await user.click(within(card).getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Getting started' })).toBeNull());
    expect(dismissals).toBe(1);
  });

  it('shows nothing once the pharmacy has made its first sale', async () => {
    let served = 0;
    server.use(
      http.get('/api/dashboard/getting-started', () => {
        served += 1;
        return HttpResponse.json({ show: false, dismissed: false, steps: { ...steps, firstSale: true } });
      }),
    );
    renderScreen(<GettingStarted />, { path: '/app/dashboard' });
    await waitFor(() => expect(served).toBe(1));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('region', { name: 'Getting started' })).toBeNull();
  });
});
