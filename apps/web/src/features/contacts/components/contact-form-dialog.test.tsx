import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { renderScreen, server } from '@/test/render-screen';
import { ContactFormDialog } from './contact-form-dialog';

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

describe('the contact form', () => {
  it('shows the days a supplier’s credit terms give, refuses unknown terms, and sends the normalised phone with an Idempotency-Key', async () => {
    const user = userEvent.setup();
    const sent: { body: unknown; key: string | null }[] = [];
    server.use(
      http.post('/api/contacts', async ({ request }) => {
        const body = (await request.json()) as Record<string, unknown>;
        sent.push({ body, key: request.headers.get('idempotency-key') });
        return HttpResponse.json({ ...body, id: 'c1', email: null, location: null, address: null, notes: null, creditPeriodDays: 60, branchId: null, isActive: true, createdAt: '', updatedAt: '', createdBy: null, updatedBy: null }, { status: 201 });
      }),
    );
    renderScreen(<ContactFormDialog open onOpenChange={() => undefined} defaultType="supplier" />, { path: '/app/contacts' });
    const dialog = await screen.findByRole('dialog', { name: 'Add Contact' });
    await user.type(within(dialog).getByLabelText(/^Name/), 'Dawa Ltd');
    await user.type(within(dialog).getByLabelText(/^Phone/), '0722 111 222');
    await user.type(within(dialog).getByLabelText('Credit terms'), 'soon');
    await user.click(within(dialog).getByRole('button', { name: 'Save Contact' }));
    expect(await within(dialog).findByText(/Credit terms must read like/)).toBeTruthy();
    expect(sent).toHaveLength(0);
    await user.clear(within(dialog).getByLabelText('Credit terms'));
    await user.type(within(dialog).getByLabelText('Credit terms'), '2 months');
    expect(within(dialog).getByText('Payment due 60 days after the invoice')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Save Contact' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]!.body).toMatchObject({ type: 'supplier', name: 'Dawa Ltd', phone: '254722111222', creditTerms: '2 months', email: null });
    expect(sent[0]!.key).toMatch(/^[0-9a-f-]{36}$/);
  });
});
