import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import type { CreateTransferInput } from '@pharmapoint/domain/stock';
import { TransferForm } from '@/features/stock/components/transfer-form';
import { setSessionHint } from '@/lib/session-hint';
import { MAIN_BRANCH, renderScreen, server, WESTLANDS_BRANCH } from '@/test/render-screen';

beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  setSessionHint(true);
});
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const PRODUCT = { id: '88888888-8888-4888-8888-888888888888', name: 'Metformin 500mg Tablets' };
const BATCH_ID = '99999999-9999-4999-8999-999999999999';

/** The picker's search and the product's detail: 12 pieces in Main Branch, 10 of them in batch MET-1. */
function serveProduct() {
  const posted: CreateTransferInput[] = [];
  server.use(
    http.get('/api/products', () =>
      HttpResponse.json({ items: [{ ...PRODUCT, sku: null, quantity: 12 }], total: 1, limit: 25, offset: 0, branchId: MAIN_BRANCH.id }),
    ),
    http.get(`/api/products/${PRODUCT.id}`, () =>
      HttpResponse.json({
        product: PRODUCT,
        branches: [
          { branchId: MAIN_BRANCH.id, branchName: MAIN_BRANCH.name, quantity: 12 },
          { branchId: WESTLANDS_BRANCH.id, branchName: WESTLANDS_BRANCH.name, quantity: 0 },
        ],
        batches: [{ id: BATCH_ID, branchId: MAIN_BRANCH.id, batchNumber: 'MET-1', expiryDate: '2028-06-30', quantity: 10, isExpired: false }],
        priceChanges: [],
      }),
    ),
    http.post('/api/stock/transfers', async ({ request }) => {
      posted.push((await request.json()) as CreateTransferInput);
      return HttpResponse.json({}, { status: 201 });
    }),
  );
  return posted;
}

async function renderForm() {
  renderScreen(<TransferForm branches={[MAIN_BRANCH, WESTLANDS_BRANCH]} />, { path: '/app/stock-transfers' });
  const form = await screen.findByRole('form', { name: 'New transfer' });
  await waitFor(() => expect((within(form).getByLabelText('From branch', { exact: false }) as HTMLSelectElement).value).toBe(MAIN_BRANCH.id));
  await within(form).findByRole('option', { name: /Metformin 500mg Tablets/ });
  await userEvent.selectOptions(within(form).getByLabelText(/^Product/), PRODUCT.id);
  await within(form).findByText('12 in stock in the source branch');
  return form;
}

describe('the transfer form', () => {
  it('checks the quantity against the stock shown as it is typed', async () => {
    const user = userEvent.setup();
    serveProduct();
    const form = await renderForm();
    const quantity = within(form).getByRole('textbox', { name: /^Quantity/ });
    await user.type(quantity, '13');
    expect(within(form).getByText('Only 12 pieces are in stock in the source branch.')).toBeTruthy();
    expect(quantity.getAttribute('aria-invalid')).toBe('true');
    expect((within(form).getByRole('button', { name: 'Add Item' }) as HTMLButtonElement).disabled).toBe(true);
    // A batch holds fewer.
    await user.selectOptions(within(form).getByLabelText('Batch', { exact: true }), BATCH_ID);
    await user.clear(quantity);
    await user.type(quantity, '11');
    expect(within(form).getByText('Only 10 pieces are in stock in the source branch.')).toBeTruthy();
    await user.clear(quantity);
    await user.type(quantity, '10');
    expect(within(form).queryByText(/^Only /)).toBeNull();
    await user.click(within(form).getByRole('button', { name: 'Add Item' }));
    expect(within(form).getByRole('table', { name: 'Products to transfer' }).textContent).toContain(PRODUCT.name);
    // What the lines already take is not free any more.
    await user.selectOptions(within(form).getByLabelText(/^Product/), PRODUCT.id);
    await user.type(within(form).getByRole('textbox', { name: /^Quantity/ }), '3');
    expect(within(form).getByText('Only 2 pieces are in stock in the source branch.')).toBeTruthy();
  });

  it('refuses the same branch on both sides and sends the lines in pieces', async () => {
    const user = userEvent.setup();
    const posted = serveProduct();
    const form = await renderForm();
    await user.type(within(form).getByRole('textbox', { name: /^Quantity/ }), '8');
    await user.click(within(form).getByRole('button', { name: 'Add Item' }));
    await user.selectOptions(within(form).getByLabelText('To branch', { exact: false }), MAIN_BRANCH.id);
    await user.click(within(form).getByRole('button', { name: 'Create Transfer' }));
    expect(await within(form).findByText('Choose a different destination branch.')).toBeTruthy();
    expect(posted).toHaveLength(0);
    await user.selectOptions(within(form).getByLabelText('To branch', { exact: false }), WESTLANDS_BRANCH.id);
    await user.click(within(form).getByRole('button', { name: 'Create Transfer' }));
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]).toEqual({ fromBranchId: MAIN_BRANCH.id, toBranchId: WESTLANDS_BRANCH.id, note: null, items: [{ productId: PRODUCT.id, quantity: 8 }] });
  });

  it('asks for at least one product with a sentence', async () => {
    const user = userEvent.setup();
    serveProduct();
    const form = await renderForm();
    await user.click(within(form).getByRole('button', { name: 'Create Transfer' }));
    expect(await within(form).findByText('Add at least one product.')).toBeTruthy();
  });
});
