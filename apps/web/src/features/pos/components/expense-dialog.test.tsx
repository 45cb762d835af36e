import { useState } from 'react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { EXPENSE_CATEGORIES } from '@pharmapoint/domain/expenses';
import { RecordExpenseDialog } from '@/features/pos/components/expense-dialog';
import { MAIN_BRANCH, renderScreen, server } from '@/test/render-screen';

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

function Till() {
  const [open, setOpen] = useState(true);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Open expense
      </button>
      <RecordExpenseDialog open={open} onOpenChange={setOpen} branchId={MAIN_BRANCH.id} />
    </>
  );
}

describe('the Record Expense dialog', () => {
  it('offers the 29 categories and the 7 payment methods (Cash first), and keeps Record Expense disabled until description, category and amount', async () => {
    const user = userEvent.setup();
    renderScreen(<Till />, { path: '/pos' });
    const dialog = await screen.findByRole('dialog', { name: 'Record Expense' });
    const category = within(dialog).getByLabelText(/Category/) as HTMLSelectElement;
    expect([...category.options].slice(1).map((o) => o.value)).toEqual([...EXPENSE_CATEGORIES]);
    expect(EXPENSE_CATEGORIES).toHaveLength(29);
    const method = within(dialog).getByLabelText('Payment method') as HTMLSelectElement;
    expect(method.value).toBe('Cash');
    expect([...method.options].map((o) => o.value)).toEqual(['Cash', 'M-Pesa', 'Bank Transfer', 'Cheque', 'Credit Card', 'Debit Card', 'Petty Cash']);
    const save = within(dialog).getByRole('button', { name: 'Record Expense' }) as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    await user.type(within(dialog).getByLabelText(/Description/), 'Printer paper');
    await user.selectOptions(category, 'Office Supplies');
    expect(save.disabled).toBe(true);
    await user.type(within(dialog).getByLabelText(/Amount/), '0');
    expect(save.disabled).toBe(false);
    await user.click(save);
    expect(await within(dialog).findByText('Valid amount is required')).toBeTruthy();
    expect(within(dialog).queryByRole('group', { name: 'Transport and travel' })).toBeNull();
  });

  it('shows the transport section for a transport category: destination and reason required, the total, a Kenyan phone; then saves once and resets on the next opening', async () => {
    const user = userEvent.setup();
    const posted: { body: Record<string, unknown>; key: string | null }[] = [];
    server.use(
      http.post('/api/expenses', async ({ request }) => {
        posted.push({ body: (await request.json()) as Record<string, unknown>, key: request.headers.get('Idempotency-Key') });
        return HttpResponse.json({ id: 'e1' }, { status: 201 });
      }),
    );
    renderScreen(<Till />, { path: '/pos' });
    const dialog = await screen.findByRole('dialog', { name: 'Record Expense' });
    await user.type(within(dialog).getByLabelText(/Description/), 'Delivery to Westlands');
    await user.selectOptions(within(dialog).getByLabelText(/Category/), 'Transport - Taxi');
    await user.type(within(dialog).getByLabelText(/Amount/), '1,200');
    const section = within(dialog).getByRole('group', { name: 'Transport and travel' });
    expect((within(section).getByLabelText('Transport type') as HTMLSelectElement).options).toHaveLength(8);
    await user.type(within(section).getByLabelText('Fuel (KSh)'), '300');
    await user.type(within(section).getByLabelText('Tolls (KSh)'), '50.50');
    await user.type(within(section).getByLabelText('Parking (KSh)'), '100');
    await user.type(within(section).getByLabelText('Meal allowance (KSh)'), '250');
    expect(within(section).getByRole('status').textContent).toBe('KSh 1,900.50');
    await user.type(within(section).getByLabelText('Contact phone'), '0812345678');
    await user.click(within(dialog).getByRole('button', { name: 'Record Expense' }));
    expect(await within(section).findByText('Destination is required for transport and travel expenses')).toBeTruthy();
    expect(within(section).getByText('Reason is required for transport and travel expenses')).toBeTruthy();
    expect(within(section).getByText('Please enter a valid phone number')).toBeTruthy();
    expect(posted).toHaveLength(0);

    await user.type(within(section).getByLabelText(/Destination/), 'Westlands');
    await user.type(within(section).getByLabelText(/Reason/), 'Urgent delivery to a client');
    await user.selectOptions(within(section).getByLabelText('Transport type'), 'Boda Boda');
    await user.type(within(section).getByLabelText('Distance (km)'), '12.5');
    await user.clear(within(section).getByLabelText('Contact phone'));
    await user.type(within(section).getByLabelText('Contact phone'), '0712 345 678');
    await user.click(within(dialog).getByRole('button', { name: 'Record Expense' }));
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]!.body).toEqual({
      branchId: '11111111-1111-4111-8111-111111111111',
      description: 'Delivery to Westlands',
      category: 'Transport - Taxi',
      amountCents: 120_000,
      paymentMethod: 'Cash',
      receiptNumber: null,
      notes: null,
      contactPhone: '0712 345 678',
      transport: {
        destination: 'Westlands',
        reason: 'Urgent delivery to a client',
        transportType: 'Boda Boda',
        distanceKm: 12.5,
        fuelCents: 30_000,
        tollCents: 5_050,
        parkingCents: 10_000,
        mealAllowanceCents: 25_000,
      },
    });
    expect(posted[0]!.key).toMatch(/^[0-9a-f-]{36}$/);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await user.click(screen.getByRole('button', { name: 'Open expense' }));
    const again = await screen.findByRole('dialog', { name: 'Record Expense' });
    expect((within(again).getByLabelText(/Description/) as HTMLInputElement).value).toBe('');
    expect((within(again).getByLabelText('Payment method') as HTMLSelectElement).value).toBe('Cash');
  });

  it('says Failed to save expense with the server’s sentence', async () => {
    const user = userEvent.setup();
    server.use(http.post('/api/expenses', () => HttpResponse.json({ error: { code: 'DEMO_READ_ONLY', message: 'Demo mode: Changes are not saved' } }, { status: 403 })));
    renderScreen(<Till />, { path: '/pos' });
    const dialog = await screen.findByRole('dialog', { name: 'Record Expense' });
    await user.type(within(dialog).getByLabelText(/Description/), 'Tea');
    await user.selectOptions(within(dialog).getByLabelText(/Category/), 'Miscellaneous');
    await user.type(within(dialog).getByLabelText(/Amount/), '150');
    await user.click(within(dialog).getByRole('button', { name: 'Record Expense' }));
    expect(await within(dialog).findByText('Failed to save expense: Demo mode: Changes are not saved')).toBeTruthy();
  });
});
