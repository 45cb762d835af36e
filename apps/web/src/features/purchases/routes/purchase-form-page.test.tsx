import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import PurchaseFormPage from '@/features/purchases/routes/purchase-form-page';
import { setSessionHint } from '@/lib/session-hint';
import { MAIN_BRANCH, renderScreen, server } from '@/test/render-screen';

beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  setSessionHint(true);
});
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

function serve() {
  const posted: unknown[] = [];
  server.use(
    http.get('/api/purchases/defaults', () => HttpResponse.json({ minMarginBasisPoints: 2500, taxRateBasisPoints: 1600, branchId: MAIN_BRANCH.id, today: '2026-11-24' })),
    http.get('/api/contacts', () => HttpResponse.json({ items: [], total: 0, limit: 100, offset: 0 })),
    http.get('/api/products', () => HttpResponse.json({ items: [], total: 0, limit: 25, offset: 0, branchId: MAIN_BRANCH.id })),
    http.post('/api/purchases', async ({ request }) => {
      posted.push(await request.json());
      return HttpResponse.json({}, { status: 201 });
    }),
  );
  return posted;
}

describe('the purchase form', () => {
  it("computes subtotal, tax and total as typed, starts lines with the settings' margin, and refuses a purchase without supplier or product", async () => {
    const user = userEvent.setup();
    const posted = serve();
    renderScreen(<PurchaseFormPage />, { path: '/app/purchases/new' });
    const form = await screen.findByRole('form', { name: 'New Purchase' });
    const line = within(form).getByRole('listitem', { name: 'Item 1' });
    await waitFor(() => expect((within(line).getByLabelText('Minimum margin (%)') as HTMLInputElement).value).toBe('25'));
    expect((within(form).getByLabelText(/^Date/) as HTMLInputElement).value).toBe('2026-11-24');
    await user.clear(within(line).getByLabelText(/^Quantity/));
    await user.type(within(line).getByLabelText(/^Quantity/), '3');
    await user.type(within(line).getByLabelText(/^Purchase price/), '3.33');
    await user.click(within(line).getByRole('checkbox', { name: 'Apply tax' }));
    expect(screen.getByTestId('purchase-subtotal').textContent).toBe('KSh 9.99');
    expect(screen.getByTestId('purchase-tax').textContent).toBe('KSh 1.60');
    expect(screen.getByTestId('purchase-total').textContent).toBe('KSh 11.59');
    await user.type(within(line).getByLabelText(/^Quantity/), '.5');
    await user.click(within(form).getByRole('button', { name: 'Create Purchase' }));
    expect(await within(form).findByText('Supplier is required')).toBeTruthy();
    expect(within(form).getByText('Product is required')).toBeTruthy();
    expect(within(form).getByText('Quantity must be a whole number.')).toBeTruthy();
    expect(within(form).getByText('Selling price must be an amount in KSh of 0 or more with at most 2 decimals.')).toBeTruthy();
    expect(posted).toEqual([]);
  });
});
