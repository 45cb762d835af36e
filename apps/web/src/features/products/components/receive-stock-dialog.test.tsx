import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import type { ProductDetailResponse } from '@pharmapoint/domain/products';
import { pharmacyToday } from '@/lib/format';
import { ReceiveStockDialog } from '@/features/products/components/receive-stock-dialog';
import { setSessionHint } from '@/lib/session-hint';
import { MAIN_BRANCH, renderScreen, server } from '@/test/render-screen';

beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  setSessionHint(true);
});
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const PRODUCT_ID = '77777777-7777-4777-8777-777777777777';
const detail = {
  product: { id: PRODUCT_ID, name: 'Amoxicillin 250mg Suspension' },
  branches: [{ branchId: MAIN_BRANCH.id, branchName: MAIN_BRANCH.name, purchasePriceCents: 15_000, quantity: 0 }],
  batches: [],
  priceChanges: [],
} as unknown as ProductDetailResponse;

const day = (offset: number) => new Date(Date.parse(`${pharmacyToday()}T00:00:00Z`) + offset * 86_400_000).toISOString().slice(0, 10);

describe('the Receive Stock dialog', () => {
  it('warns as soon as an expired date is chosen and sends nothing', async () => {
    const user = userEvent.setup();
    const posted: unknown[] = [];
    server.use(http.post(`/api/products/${PRODUCT_ID}/batches`, async ({ request }) => (posted.push(await request.json()), HttpResponse.json({}, { status: 201 }))));
    renderScreen(<ReceiveStockDialog open onOpenChange={() => undefined} detail={detail} defaultBranchId={MAIN_BRANCH.id} />, { path: '/app/products/history/x' });
    await user.type(await screen.findByLabelText('Batch number', { exact: false }), 'AMX-OLD');
    fireEvent.change(screen.getByLabelText('Expiry date', { exact: false }), { target: { value: day(-1) } });
    expect(await screen.findByText(/This batch expired on .*Expired stock cannot be received as sellable stock/)).toBeTruthy();
    await user.type(screen.getByLabelText('Quantity (pieces)', { exact: false }), '10');
    const submit = screen.getByRole('button', { name: 'Receive Stock' }) as HTMLButtonElement;
    expect(submit.disabled).toBe(true);
    fireEvent.submit(screen.getByLabelText('Batch number', { exact: false }).closest('form')!);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(posted).toEqual([]);
  });

  it('receives a batch in cents with sentences for bad fields', async () => {
    const user = userEvent.setup();
    const posted: unknown[] = [];
    server.use(
      http.post(`/api/products/${PRODUCT_ID}/batches`, async ({ request }) => {
        posted.push(await request.json());
        return HttpResponse.json({ batch: {}, quantity: 10, reservedQuantity: 0 }, { status: 201 });
      }),
    );
    renderScreen(<ReceiveStockDialog open onOpenChange={() => undefined} detail={detail} defaultBranchId={MAIN_BRANCH.id} />, { path: '/app/products/history/x' });
    await user.click(await screen.findByRole('button', { name: 'Receive Stock' }));
    expect(await screen.findByText('Batch number is required.')).toBeTruthy();
    expect(screen.getByText('Quantity is required.')).toBeTruthy();
    await user.type(screen.getByLabelText('Batch number', { exact: false }), 'AMX-1');
    fireEvent.change(screen.getByLabelText('Expiry date', { exact: false }), { target: { value: day(0) } });
    await user.type(screen.getByLabelText('Quantity (pieces)', { exact: false }), '10');
    await user.click(screen.getByRole('button', { name: 'Receive Stock' }));
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]).toEqual({ branchId: MAIN_BRANCH.id, batchNumber: 'AMX-1', expiryDate: day(0), quantity: 10, unitCostCents: 15_000, reason: null });
  });
});
