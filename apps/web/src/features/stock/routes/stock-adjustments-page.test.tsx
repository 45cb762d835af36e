import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import type { CreateAdjustmentInput } from '@pharmapoint/domain/stock';
import StockAdjustmentsPage from '@/features/stock/routes/stock-adjustments-page';
import { confirmStock } from '@/lib/live-stock/live-stock';
import { setSessionHint } from '@/lib/session-hint';
import { MAIN_BRANCH, renderScreen, server, WESTLANDS_BRANCH } from '@/test/render-screen';

beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  setSessionHint(true);
});
afterEach(() => {
  server.resetHandlers();
  // A saved adjustment shows its stock at once until the server's event confirms it: no test sees another's.
  confirmStock(PRODUCT.id, MAIN_BRANCH.id);
});
afterAll(() => server.close());

const PRODUCT = { id: '88888888-8888-4888-8888-888888888888', name: 'Paracetamol Syrup 100ml' };
const BATCH_ID = '99999999-9999-4999-8999-999999999999';

/** The product (20 pieces in Main Branch, 12 of them in batch PAR-1), the recent adjustments, and the POST. */
function serveProduct(answer?: () => Response, keys: (string | null)[] = []) {
  const posted: CreateAdjustmentInput[] = [];
  server.use(
    http.get('/api/products', () => HttpResponse.json({ items: [{ ...PRODUCT, sku: null, quantity: 20 }], total: 1, limit: 25, offset: 0, branchId: MAIN_BRANCH.id })),
    http.get(`/api/products/${PRODUCT.id}`, () =>
      HttpResponse.json({
        product: PRODUCT,
        branches: [
          { branchId: MAIN_BRANCH.id, branchName: MAIN_BRANCH.name, quantity: 20, reservedQuantity: 0 },
          { branchId: WESTLANDS_BRANCH.id, branchName: WESTLANDS_BRANCH.name, quantity: 0, reservedQuantity: 0 },
        ],
        batches: [{ id: BATCH_ID, branchId: MAIN_BRANCH.id, batchNumber: 'PAR-1', expiryDate: '2028-06-30', quantity: 12, reservedQuantity: 0, isExpired: false }],
        priceChanges: [],
      }),
    ),
    http.get('/api/stock/adjustments', () => HttpResponse.json({ items: [], total: 0, limit: 10, offset: 0 })),
    http.post('/api/stock/adjustments', async ({ request }) => {
      posted.push((await request.json()) as CreateAdjustmentInput);
      keys.push(request.headers.get('idempotency-key'));
      return answer ? answer() : HttpResponse.json({}, { status: 201 });
    }),
  );
  return posted;
}

async function renderPage() {
  renderScreen(<StockAdjustmentsPage />, { path: `/app/stock-adjustments?productId=${PRODUCT.id}`, pattern: '/app/stock-adjustments' });
  const form = await screen.findByRole('form', { name: 'New adjustment' });
  await waitFor(() => expect(within(form).getByTestId('current-stock').textContent).toBe('20'));
  return form;
}

describe('the stock adjustment form (react-hook-form over the domain schema)', () => {
  it('refuses what the domain refuses, beside each field, and sends nothing', async () => {
    const user = userEvent.setup();
    const posted = serveProduct();
    const form = await renderPage();
    await user.click(within(form).getByRole('button', { name: 'Save Adjustment' }));
    expect(await within(form).findByText('Enter a whole number of pieces, e.g. 5 or -3.')).toBeTruthy();
    expect(within(form).getByText('Enter a reason for the adjustment.')).toBeTruthy();
    await user.type(within(form).getByLabelText(/^Change \(pieces\)/), '-25');
    await user.type(within(form).getByRole('textbox', { name: /^Reason/ }), 'Broken');
    await user.click(within(form).getByRole('button', { name: 'Save Adjustment' }));
    expect(await within(form).findByText('The adjustment would make stock negative. Available: 20.')).toBeTruthy();
    // A positive change into a new batch needs both its number and its expiry.
    await user.clear(within(form).getByLabelText(/^Change \(pieces\)/));
    await user.type(within(form).getByLabelText(/^Change \(pieces\)/), '5');
    await user.type(within(form).getByLabelText(/^New batch number/), 'NEW-1');
    await user.click(within(form).getByRole('button', { name: 'Save Adjustment' }));
    expect(await within(form).findByText('Enter both the batch number and its expiry date, or neither.')).toBeTruthy();
    expect(posted).toHaveLength(0);
  });

  it('sends a counted quantity as the change from the batch on hand, then clears what was typed', async () => {
    const user = userEvent.setup();
    const posted = serveProduct();
    const form = await renderPage();
    await user.selectOptions(within(form).getByLabelText(/^Adjustment type/), 'damage');
    await user.selectOptions(within(form).getByLabelText('Batch', { exact: true }), BATCH_ID);
    await user.selectOptions(within(form).getByLabelText('Enter', { exact: true }), 'counted');
    await user.type(within(form).getByLabelText(/^Counted quantity \(pieces\)/), '9');
    expect(within(form).getByText('Change:').textContent).toContain('-3');
    await user.type(within(form).getByRole('textbox', { name: /^Reason/ }), '  Broken bottles ');
    await user.click(within(form).getByRole('button', { name: 'Save Adjustment' }));
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]).toEqual({
      branchId: MAIN_BRANCH.id,
      reason: 'Broken bottles',
      items: [{ productId: PRODUCT.id, delta: -3, reasonType: 'damage', note: null, batchId: BATCH_ID }],
    });
    await waitFor(() => expect((within(form).getByRole('textbox', { name: /^Reason/ }) as HTMLTextAreaElement).value).toBe(''));
    expect((within(form).getByLabelText(/^Adjustment type/) as HTMLSelectElement).value).toBe('damage');
  });

  it("puts the server's refusal beside its field", async () => {
    const user = userEvent.setup();
    serveProduct(() =>
      HttpResponse.json(
        { error: { code: 'VALIDATION_FAILED', message: 'The batch has already expired.', details: { issues: [{ path: 'items.0.expiryDate', message: 'The batch has already expired.' }] } } },
        { status: 422 },
      ),
    );
    const form = await renderPage();
    await user.type(within(form).getByLabelText(/^Change \(pieces\)/), '5');
    await user.type(within(form).getByLabelText(/^New batch number/), 'OLD-1');
    await user.type(within(form).getByLabelText(/^New batch expiry/), '2020-01-31');
    await user.type(within(form).getByRole('textbox', { name: /^Reason/ }), 'Found');
    await user.click(within(form).getByRole('button', { name: 'Save Adjustment' }));
    expect(await within(form).findAllByText('The batch has already expired.')).not.toHaveLength(0);
    expect(within(form).getByLabelText(/^New batch number/).getAttribute('aria-invalid')).toBe('true');
  });

  it('sends an Idempotency-Key: the same one when a lost answer makes the person press Save again, a new one for the next adjustment', async () => {
    const user = userEvent.setup();
    const keys: (string | null)[] = [];
    let lose = true;
    // The first request reaches the server but its answer is lost (the network fails): the form keeps what was typed.
    const posted = serveProduct(() => (lose ? HttpResponse.error() : HttpResponse.json({}, { status: 201 })), keys);
    const form = await renderPage();
    await user.type(within(form).getByLabelText(/^Change \(pieces\)/), '2');
    await user.type(within(form).getByRole('textbox', { name: /^Reason/ }), 'Found in the store room');
    await user.click(within(form).getByRole('button', { name: 'Save Adjustment' }));
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(await within(form).findByRole('alert')).toBeTruthy();
    lose = false;
    await user.click(within(form).getByRole('button', { name: 'Save Adjustment' }));
    await waitFor(() => expect(posted).toHaveLength(2));
    await waitFor(() => expect((within(form).getByRole('textbox', { name: /^Reason/ }) as HTMLTextAreaElement).value).toBe(''));
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    // The same change again, on purpose: a new request with a new key.
    await user.type(within(form).getByLabelText(/^Change \(pieces\)/), '2');
    await user.type(within(form).getByRole('textbox', { name: /^Reason/ }), 'Found in the store room');
    await user.click(within(form).getByRole('button', { name: 'Save Adjustment' }));
    await waitFor(() => expect(posted).toHaveLength(3));
    expect(posted[2]).toEqual(posted[1]);
    expect(keys[2]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[2]).not.toBe(keys[1]);
  });
});
