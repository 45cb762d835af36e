import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import type { TillMpesaRequest } from '@pharmapoint/domain/till-mpesa';
import { ResolveMpesaDialog } from '@/features/sales/components/resolve-mpesa-dialog';
import { setSessionHint } from '@/lib/session-hint';
import { MAIN_BRANCH, renderScreen, server } from '@/test/render-screen';

beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  setSessionHint(true);
});
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const PAYMENT: TillMpesaRequest = {
  id: '77777777-7777-4777-8777-777777777777',
  saleId: '88888888-8888-4888-8888-888888888888',
  status: 'unmatched',
  amountCents: 30_000,
  phoneNumber: '254 712 345 678',
  mpesaReceipt: 'SKL4H7QX2P',
  paidCents: 30_000,
  failureReason: null,
  attention: 'sale_already_completed',
  completedSaleId: null,
  saleRecorded: true,
  requestedBy: { id: '99999999-9999-4999-8999-999999999999', name: 'Brian Otieno' },
  branch: MAIN_BRANCH,
  sale: { id: '88888888-8888-4888-8888-888888888888', invoiceNumber: 'INV-000042' },
  resolution: null,
  createdAt: '2026-11-24T09:15:00.000Z',
  finishedAt: '2026-11-24T09:16:00.000Z',
};

function resolved(body: Record<string, unknown>): TillMpesaRequest {
  return {
    ...PAYMENT,
    status: 'resolved',
    resolution: {
      kind: body.resolution as 'refunded' | 'applied',
      reference: (body.reference as string | undefined) ?? null,
      note: (body.note as string | undefined) ?? '',
      sale: body.resolution === 'applied' ? { id: PAYMENT.saleId, invoiceNumber: 'INV-000042' } : null,
      resolvedBy: { id: '33333333-3333-4333-8333-333333333333', name: 'Grace Wanjiku' },
      resolvedAt: '2026-11-25T10:00:00.000Z',
    },
  };
}

describe('the Reconcile M-Pesa payment dialog', () => {
  it('asks for the reference and a note before refunding, then sends them once with an Idempotency-Key and closes', async () => {
    const posted: { body: Record<string, unknown>; key: string | null; url: string }[] = [];
    server.use(
      http.post('/api/till-payments/:id/resolve', async ({ request }) => {
        const body = (await request.json()) as Record<string, unknown>;
        posted.push({ body, key: request.headers.get('idempotency-key'), url: new URL(request.url).pathname });
        return HttpResponse.json({ request: resolved(body) });
      }),
    );
    const onOpenChange = vi.fn();
    renderScreen(<ResolveMpesaDialog payment={PAYMENT} onOpenChange={onOpenChange} />, { path: '/' });
    const user = userEvent.setup();

    const dialog = await screen.findByRole('dialog', { name: 'Reconcile M-Pesa payment' });
    expect(dialog.textContent).toContain('SKL4H7QX2P');
    expect(dialog.textContent).toContain('The customer paid after the sale had been completed another way.');
    expect((screen.getByRole('radio', { name: /Refunded to customer/ }) as HTMLInputElement).checked).toBe(true);

    await user.click(screen.getByRole('button', { name: 'Mark as reconciled' }));
    expect(await screen.findByText('Enter the reference of the reversal or refund.')).toBeTruthy();
    expect(screen.getByText('Write a note: how and when the customer was refunded.')).toBeTruthy();
    expect(posted).toHaveLength(0);

    await user.type(screen.getByLabelText(/Reference of the reversal or refund/), 'RVS-881');
    await user.type(screen.getByLabelText(/^Note/), 'Reversed through Kopo Kopo.');
    await user.click(screen.getByRole('button', { name: 'Mark as reconciled' }));
    await waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false));
    expect(posted).toHaveLength(1);
    expect(posted[0]!.url).toBe(`/api/till-payments/${PAYMENT.id}/resolve`);
    expect(posted[0]!.body).toEqual({ resolution: 'refunded', reference: 'RVS-881', note: 'Reversed through Kopo Kopo.' });
    expect(posted[0]!.key).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('applies to a sale by invoice number (the till’s sale prefilled, the note optional) and shows the server’s refusal, keeping the same key on retry', async () => {
    const posted: { body: Record<string, unknown>; key: string | null }[] = [];
    server.use(
      http.post('/api/till-payments/:id/resolve', async ({ request }) => {
        const body = (await request.json()) as Record<string, unknown>;
        posted.push({ body, key: request.headers.get('idempotency-key') });
        if (body.invoiceNumber === 'INV-000999') {
          return HttpResponse.json({ error: { code: 'NOT_FOUND', message: 'There is no sale with invoice number INV-000999.' } }, { status: 404 });
        }
        return HttpResponse.json({ request: resolved(body) });
      }),
    );
    const onOpenChange = vi.fn();
    renderScreen(<ResolveMpesaDialog payment={PAYMENT} onOpenChange={onOpenChange} />, { path: '/' });
    const user = userEvent.setup();

    await user.click(await screen.findByRole('radio', { name: /Applied to a sale/ }));
    const invoice = screen.getByLabelText(/Invoice number of the sale/);
    expect((invoice as HTMLInputElement).value).toBe('INV-000042');
    expect(screen.queryByLabelText(/Reference of the reversal/)).toBeNull();
    await user.clear(invoice);
    await user.type(invoice, 'INV-000999');
    await user.click(screen.getByRole('button', { name: 'Mark as reconciled' }));
    expect((await screen.findByRole('alert')).textContent).toContain('There is no sale with invoice number INV-000999.');
    expect(onOpenChange).not.toHaveBeenCalledWith(false);

    await user.clear(invoice);
    await user.type(invoice, '42');
    await user.click(screen.getByRole('button', { name: 'Mark as reconciled' }));
    await waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false));
    expect(posted.map((p) => p.body)).toEqual([
      { resolution: 'applied', invoiceNumber: 'INV-000999', note: '' },
      { resolution: 'applied', invoiceNumber: '42', note: '' },
    ]);
    // One dialog, one key: a refused attempt stored nothing (its transaction rolled back), and a lost answer is replayed.
    expect(posted[0]!.key).toBe(posted[1]!.key);
  });
});
