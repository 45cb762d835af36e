import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import type { SuspendedSale } from '@pharmapoint/domain/suspended-sales';
import { SuspendSaleDialog } from '@/features/pos/components/suspend-dialog';
import { setSessionHint } from '@/lib/session-hint';
import { renderScreen, server } from '@/test/render-screen';

beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  setSessionHint(true);
});
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const PRODUCT = '77777777-7777-4777-8777-777777777777';
const CLIENT = '66666666-6666-4666-8666-666666666666';
const request = { clientId: CLIENT, lines: [{ productId: PRODUCT, quantity: 3 }], expectedTotalCents: 15_000 };
const items = [
  { name: 'Ventolin Inhaler', quantity: 3 },
  { name: 'ORS Sachet', quantity: 2 },
  { name: 'Zinc 20mg', quantity: 1 },
  { name: 'Panadol Extra', quantity: 4 },
];

describe('the Suspend and reserve stock dialog', () => {
  it('shows at most 3 items, refuses more than the total, and posts once with its UUID as id and Idempotency-Key', async () => {
    const user = userEvent.setup();
    const posted: { body: Record<string, unknown>; key: string | null }[] = [];
    server.use(
      http.post('/api/suspended-sales', async ({ request: r }) => {
        const body = (await r.json()) as Record<string, unknown>;
        posted.push({ body, key: r.headers.get('idempotency-key') });
        return HttpResponse.json({ id: body.id, reservationId: 'RES-1764000000000-ABCDEF' }, { status: 201 });
      }),
    );
    const suspended: SuspendedSale[] = [];
    let open = true;
    renderScreen(
      <SuspendSaleDialog
        open
        onOpenChange={(next) => (open = next)}
        request={request}
        totalCents={15_000}
        clientName="Akinyi Odhiambo"
        items={items}
        onSuspended={(sale) => suspended.push(sale)}
      />,
      { path: '/pos' },
    );
    const dialog = await screen.findByRole('dialog', { name: 'Suspend and reserve stock' });
    expect(dialog.textContent).toContain('3 × Ventolin Inhaler');
    expect(dialog.textContent).toContain('1 × Zinc 20mg');
    expect(dialog.textContent).not.toContain('Panadol Extra');
    expect(dialog.textContent).toContain('and 1 more item');
    expect([...(screen.getByLabelText('Payment method', { exact: false }) as HTMLSelectElement).options].map((o) => o.value)).toEqual(['Cash', 'MPESA', 'Card', 'Bank Transfer', 'Credit']);

    await user.type(screen.getByLabelText('Amount paid', { exact: false }), '150.01');
    await user.click(screen.getByRole('button', { name: 'Suspend Sale' }));
    expect(await screen.findByText('Amount paid cannot exceed total')).toBeTruthy();
    expect(posted).toEqual([]);

    await user.clear(screen.getByLabelText('Amount paid', { exact: false }));
    await user.type(screen.getByLabelText('Amount paid', { exact: false }), '50');
    await user.selectOptions(screen.getByLabelText('Payment method', { exact: false }), 'MPESA');
    await user.click(screen.getByRole('button', { name: 'Suspend Sale' }));
    await waitFor(() => expect(suspended).toHaveLength(1));
    expect(posted).toHaveLength(1);
    const [sent] = posted;
    expect(sent!.body).toEqual({ ...request, id: sent!.key, paymentMethod: 'MPESA', amountPaidCents: 5000, reason: 'Customer requested suspension' });
    expect(sent!.key).toMatch(/^[0-9a-f-]{36}$/);
    expect(open).toBe(false);
  });

  it("shows the server's refusal in the dialog", async () => {
    const user = userEvent.setup();
    server.use(
      http.post('/api/suspended-sales', () =>
        HttpResponse.json({ error: { code: 'INSUFFICIENT_STOCK', message: 'Insufficient stock for Ventolin Inhaler. Available: 2, Requested: 3', values: { product: 'Ventolin Inhaler', available: 2, requested: 3 } } }, { status: 409 }),
      ),
    );
    renderScreen(<SuspendSaleDialog open onOpenChange={() => undefined} request={request} totalCents={15_000} clientName="Akinyi Odhiambo" onSuspended={() => undefined} />, { path: '/pos' });
    await user.click(await screen.findByRole('button', { name: 'Suspend Sale' }));
    expect((await screen.findAllByText('Insufficient stock for Ventolin Inhaler. Available: 2, Requested: 3', { exact: false })).length).toBeGreaterThan(0);
  });
});
