import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { DEFAULT_SETTINGS } from '@pharmapoint/domain/settings';
import type { CreateProductInput } from '@pharmapoint/domain/products';
import ProductFormPage from '@/features/products/routes/product-form-page';
import { setSessionHint } from '@/lib/session-hint';
import { MAIN_BRANCH, renderScreen, server, WESTLANDS_BRANCH } from '@/test/render-screen';

beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  // The screens live under /app, but jsdom's location is '/': the hint lets the shell ask GET /api/me.
  setSessionHint(true);
});
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const NEW_ID = '55555555-5555-4555-8555-555555555555';
const OTHER_ID = '66666666-6666-4666-8666-666666666666';

/** A row of GET /api/products (only the name and id matter here). */
const listItem = {
  id: OTHER_ID,
  name: '',
  sku: null,
  barcodes: [],
  category: null,
  packageSize: 1,
  packageType: 'pieces',
  unit: 'piece',
  isDda: false,
  taxApplied: false,
  taxRateBasisPoints: 1600,
  isActive: true,
  branchId: MAIN_BRANCH.id,
  isAvailable: true,
  sellingPriceCents: 0,
  purchasePriceCents: 0,
  minMarginBasisPoints: 2200,
  minimumSellingPriceCents: 0,
  marginPercent: null,
  markupPercent: null,
  quantity: 0,
  reservedQuantity: 0,
  expiredQuantity: 0,
  lowStockThreshold: 5,
  reorderLevel: 2,
  status: 'out',
  nearestExpiry: null,
};

/** The add screen's API: branches, settings (22 % default margin) and POST /api/products, whose bodies are kept. */
function serveAddScreen(existing: { id: string; name: string }[] = []) {
  const posted: CreateProductInput[] = [];
  const branch = (b: { id: string; name: string }, isDefault: boolean) => ({
    ...b,
    address: null,
    phone: null,
    isDefault,
    isActive: true,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  });
  server.use(
    http.get('/api/branches', () => HttpResponse.json({ branches: [branch(MAIN_BRANCH, true), branch(WESTLANDS_BRANCH, false)] })),
    http.get('/api/settings', () => HttpResponse.json({ settings: { ...DEFAULT_SETTINGS, categories: ['Medicine', 'Equipment'] }, updatedAt: null })),
    // The duplicate-name check searches the catalogue as the name is typed.
    http.get('/api/products', ({ request }) => {
      const q = new URL(request.url).searchParams.get('q') ?? '';
      const items = existing.filter((p) => p.name.toLowerCase().includes(q.toLowerCase())).map((p) => ({ ...listItem, ...p }));
      return HttpResponse.json({ items, total: items.length, limit: 10, offset: 0, branchId: MAIN_BRANCH.id });
    }),
    http.post('/api/products', async ({ request }) => {
      const body = (await request.json()) as CreateProductInput;
      posted.push(body);
      return HttpResponse.json({ product: { id: NEW_ID, name: body.name }, branches: [], batches: [], priceChanges: [] }, { status: 201 });
    }),
  );
  return posted;
}

/** The add screen, once the user's permissions have arrived (prices are locked until then). */
async function renderAddScreen() {
  renderScreen(<ProductFormPage />, { path: '/app/products/add', routes: { '/app/products/history/:id': 'Product history' } });
  const price = await screen.findByLabelText('Selling price (KSh), Main Branch');
  await waitFor(() => expect((price as HTMLInputElement).disabled).toBe(false));
}

describe('the product form', () => {
  it('shows the minimum selling price as prices are typed and creates the product in cents', async () => {
    const user = userEvent.setup();
    const posted = serveAddScreen();
    await renderAddScreen();
    await user.type(await screen.findByLabelText('Product name', { exact: false }), 'Amoxicillin 500mg Capsules');
    await user.selectOptions(screen.getByLabelText('Category'), 'Medicine');
    await user.click(screen.getByRole('checkbox', { name: /Controlled medicine \(DDA\)/ }));
    await user.type(screen.getByLabelText('Selling price (KSh), Main Branch'), '150');
    await user.type(screen.getByLabelText('Purchase price (KSh), Main Branch'), '100');
    // 100 / (1 - 22 %) = 128.205..., rounded up to the cent.
    expect(screen.getByLabelText('Minimum selling price, Main Branch').textContent).toBe('KSh 128.21');
    await user.click(screen.getByLabelText('Offered in Westlands Branch'));

    await user.click(screen.getByRole('button', { name: 'Save Product' }));
    expect(await screen.findByText('Product history')).toBeTruthy();
    expect(posted).toHaveLength(1);
    expect(posted[0]).toMatchObject({
      name: 'Amoxicillin 500mg Capsules',
      category: 'Medicine',
      isDda: true,
      sellingPriceCents: 15000,
      purchasePriceCents: 10000,
      restrictedBranchIds: [MAIN_BRANCH.id],
      branches: [{ branchId: MAIN_BRANCH.id, sellingPriceCents: 15000, purchasePriceCents: 10000 }],
    });
    // No opening stock typed: none sent.
    expect(posted[0]!.openingStock).toBeUndefined();
  });

  it('sends the opening stock typed in its section, in pieces and cents', async () => {
    const user = userEvent.setup();
    const posted = serveAddScreen();
    await renderAddScreen();
    const section = screen.getByRole('region', { name: 'Opening stock' });
    await user.type(await screen.findByLabelText('Product name', { exact: false }), 'Cetirizine 10mg Tablets');
    await user.selectOptions(within(section).getByLabelText('Branch'), WESTLANDS_BRANCH.id);
    await user.type(within(section).getByLabelText('Quantity (pieces)'), '24');
    await user.type(within(section).getByLabelText('Batch number'), 'CTZ-01');
    await user.type(within(section).getByLabelText('Expiry date'), '2099-06-30');
    await user.type(within(section).getByLabelText('Unit cost (KSh)'), '3.50');
    await user.click(screen.getByRole('button', { name: 'Save Product' }));
    expect(await screen.findByText('Product history')).toBeTruthy();
    expect(posted[0]!.openingStock).toEqual({ branchId: WESTLANDS_BRANCH.id, quantity: 24, batchNumber: 'CTZ-01', expiryDate: '2099-06-30', unitCostCents: 350 });
  });

  it('refuses an opening stock that is incomplete or already expired, and sends nothing', async () => {
    const user = userEvent.setup();
    const posted = serveAddScreen();
    await renderAddScreen();
    const section = screen.getByRole('region', { name: 'Opening stock' });
    await user.type(await screen.findByLabelText('Product name', { exact: false }), 'Half-typed stock');
    await user.type(within(section).getByLabelText('Quantity (pieces)'), '0');
    await user.click(screen.getByRole('button', { name: 'Save Product' }));
    expect(await within(section).findByText('Batch number is required.')).toBeTruthy();
    expect(within(section).getByText('Quantity must be between 1 and 100,000,000.')).toBeTruthy();
    expect(within(section).getByLabelText('Quantity (pieces)').getAttribute('aria-invalid')).toBe('true');

    await user.clear(within(section).getByLabelText('Quantity (pieces)'));
    await user.type(within(section).getByLabelText('Quantity (pieces)'), '10');
    await user.type(within(section).getByLabelText('Batch number'), 'OLD-1');
    await user.type(within(section).getByLabelText('Expiry date'), '2020-01-31');
    expect(within(section).getByRole('alert').textContent).toMatch(/^This batch expired on .*Expired stock cannot be received as sellable stock/);
    await user.click(screen.getByRole('button', { name: 'Save Product' }));
    await waitFor(() => expect(within(section).getByLabelText('Expiry date').getAttribute('aria-invalid')).toBe('true'));
    expect(posted).toHaveLength(0);
  });

  it('marks unreadable fields with sentences and sends nothing', async () => {
    const user = userEvent.setup();
    const posted = serveAddScreen();
    await renderAddScreen();
    await user.type(await screen.findByLabelText('Selling price (KSh), Main Branch'), '-5');
    await user.clear(screen.getByLabelText('Package size', { exact: false }));
    await user.click(screen.getByRole('button', { name: 'Save Product' }));

    expect(await screen.findByText('Some fields need attention before the product can be saved.')).toBeTruthy();
    const name = screen.getByLabelText('Product name', { exact: false });
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('Product name is required.')).toBeTruthy();
    expect(screen.getByText('Package size is required.')).toBeTruthy();
    expect(screen.getByLabelText('Selling price (KSh), Main Branch').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('Selling price must be an amount in KSh of 0 or more with at most 2 decimals.', { exact: false })).toBeTruthy();
    expect(posted).toHaveLength(0);
  });

  it("puts the server's validation message beside the field it concerns", async () => {
    const user = userEvent.setup();
    serveAddScreen();
    server.use(
      http.post('/api/products', () =>
        HttpResponse.json(
          { error: { code: 'VALIDATION_FAILED', message: 'A product with this SKU already exists.', details: { issues: [{ path: 'sku', message: 'A product with this SKU already exists.' }] } } },
          { status: 400 },
        ),
      ),
    );
    await renderAddScreen();
    await user.type(await screen.findByLabelText('Product name', { exact: false }), 'Paracetamol 500mg');
    await user.type(screen.getByLabelText('SKU'), 'PCM-500');
    await user.click(screen.getByRole('button', { name: 'Save Product' }));
    await waitFor(() => expect(screen.getByLabelText('SKU').getAttribute('aria-invalid')).toBe('true'));
    expect(screen.getAllByText('A product with this SKU already exists.').length).toBeGreaterThanOrEqual(1);
    expect(screen.queryByText('Product history')).toBeNull();
  });

  it('shows the name limit as the name is typed, and holds to it', async () => {
    const user = userEvent.setup();
    serveAddScreen();
    await renderAddScreen();
    const name = await screen.findByLabelText('Product name', { exact: false });
    expect(name.getAttribute('maxLength')).toBe('120');
    expect(screen.getByText('Up to 120 characters: 0 / 120')).toBeTruthy();
    await user.type(name, 'Zinc 20mg');
    expect(screen.getByText('Up to 120 characters: 9 / 120')).toBeTruthy();
  });

  it('warns of another product with the same name and still saves', async () => {
    const user = userEvent.setup();
    const posted = serveAddScreen([{ id: OTHER_ID, name: 'Paracetamol 500mg Tablets' }]);
    await renderAddScreen();
    await user.type(await screen.findByLabelText('Product name', { exact: false }), 'paracetamol  500mg tablets');
    expect(await screen.findByText('A product named “Paracetamol 500mg Tablets” already exists.', { exact: false })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Save Product' }));
    expect(await screen.findByText('Product history')).toBeTruthy();
    expect(posted).toHaveLength(1);
  });

  it("puts a server issue about a branch's price beside that branch's control, with the sentence alone", async () => {
    const user = userEvent.setup();
    serveAddScreen();
    server.use(
      http.post('/api/products', () =>
        HttpResponse.json(
          {
            error: {
              code: 'VALIDATION_FAILED',
              message: 'branches.0.sellingPriceCents: Selling price must be at most 1,000,000,000,000.',
              details: { issues: [{ path: 'branches.0.sellingPriceCents', message: 'Selling price must be at most 1,000,000,000,000.' }] },
            },
          },
          { status: 400 },
        ),
      ),
    );
    await renderAddScreen();
    await user.type(await screen.findByLabelText('Product name', { exact: false }), 'Costly thing');
    // Main Branch is not offered: the request's branches[0] is Westlands, the form's second row.
    await user.click(screen.getByLabelText('Offered in Main Branch'));
    await user.click(screen.getByRole('button', { name: 'Save Product' }));
    await waitFor(() => expect(screen.getByLabelText('Selling price (KSh), Westlands Branch').getAttribute('aria-invalid')).toBe('true'));
    expect(screen.getByLabelText('Selling price (KSh), Main Branch').getAttribute('aria-invalid')).toBe('false');
    expect(screen.queryByText(/branches\.0/)).toBeNull();
  });
});
