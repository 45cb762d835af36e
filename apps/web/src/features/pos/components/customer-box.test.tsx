import { useState } from 'react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import type { Contact } from '@pharmapoint/domain/contacts';
import { CustomerBox } from '@/features/pos/components/customer-box';
import { renderScreen, server } from '@/test/render-screen';

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

function contact(id: string, name: string, phone: string, extra: Partial<Contact> = {}): Contact {
  return {
    id,
    type: 'customer',
    name,
    phone,
    email: null,
    location: null,
    address: null,
    notes: null,
    creditPeriodDays: null,
    creditTerms: null,
    isActive: true,
    branchId: null,
    createdAt: '2026-11-20T08:00:00.000Z',
    updatedAt: '2026-11-20T08:00:00.000Z',
    createdBy: null,
    updatedBy: null,
    ...extra,
  };
}

const CLIENTS = [
  contact('aaaaaaaa-0000-4000-8000-000000000001', 'Amina Otieno', '254712345678', { location: 'Kisumu' }),
  contact('aaaaaaaa-0000-4000-8000-000000000002', 'Brian Kamau', '254722000111'),
];

function Till({ ddaInCart = false, onChange }: { ddaInCart?: boolean; onChange?: (c: Contact | null) => void }) {
  const [client, setClient] = useState<Contact | null>(null);
  return (
    <>
      <CustomerBox
        value={client}
        ddaInCart={ddaInCart}
        onChange={(c) => {
          setClient(c);
          onChange?.(c);
        }}
      />
      <p data-testid="chosen">{client ? client.name : 'none'}</p>
    </>
  );
}

describe('the customer box', () => {
  it('shows Walk-in Customer, asks the server for at most 5 suggestions by name or phone, and goes back to Walk-in', async () => {
    const user = userEvent.setup();
    const asked: URLSearchParams[] = [];
    server.use(
      http.get('/api/contacts', ({ request }) => {
        const query = new URL(request.url).searchParams;
        asked.push(query);
        const search = (query.get('search') ?? '').toLowerCase();
        const items = CLIENTS.filter((c) => c.name.toLowerCase().includes(search) || (c.phone ?? '').includes(search.replace(/^0/, '')));
        return HttpResponse.json({ items, total: items.length, limit: 5, offset: 0 });
      }),
    );
    renderScreen(<Till />, { path: '/pos' });
    const box = screen.getByRole('combobox', { name: 'Customer' });
    expect(box.textContent).toContain('Walk-in Customer');
    expect(screen.queryByRole('button', { name: 'Back to Walk-in Customer' })).toBeNull();

    await user.click(box);
    await user.type(screen.getByRole('combobox', { name: 'Search clients by name or phone' }), '0712');
    await waitFor(() => expect(asked.some((q) => q.get('search') === '0712')).toBe(true));
    const last = asked.at(-1)!;
    expect(last.get('type')).toBe('customer');
    expect(last.get('limit')).toBe('5');
    const option = await screen.findByRole('option', { name: /Amina Otieno/ });
    expect(option.textContent).toContain('+254712345678');
    await waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(1));
    await user.click(option);
    expect(screen.getByTestId('chosen').textContent).toBe('Amina Otieno');
    expect(screen.getByRole('combobox', { name: 'Customer' }).textContent).toContain('Amina Otieno');

    await user.click(screen.getByRole('button', { name: 'Back to Walk-in Customer' }));
    expect(screen.getByTestId('chosen').textContent).toBe('none');
    expect(screen.getByRole('combobox', { name: 'Customer' }).textContent).toContain('Walk-in Customer');
  });

  it('adds a new client: the specification’s messages, the phone normalised, one Idempotency-Key, selected at once', async () => {
    const user = userEvent.setup();
    const posted: { body: Record<string, unknown>; key: string | null }[] = [];
    server.use(
      http.get('/api/contacts', () => HttpResponse.json({ items: [], total: 0, limit: 5, offset: 0 })),
      http.post('/api/contacts', async ({ request }) => {
        const body = (await request.json()) as Record<string, unknown>;
        posted.push({ body, key: request.headers.get('Idempotency-Key') });
        return HttpResponse.json(contact('aaaaaaaa-0000-4000-8000-000000000009', String(body.name), String(body.phone)), { status: 201 });
      }),
    );
    renderScreen(<Till />, { path: '/pos' });
    await user.click(screen.getByRole('button', { name: 'Add New Client' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add New Client' });
    await user.click(within(dialog).getByRole('button', { name: 'Save Client' }));
    expect(await within(dialog).findByText('Client name is required')).toBeTruthy();
    expect(within(dialog).getByText('Phone number is required')).toBeTruthy();
    expect(posted).toHaveLength(0);

    await user.type(within(dialog).getByLabelText(/Client name/), 'Wanjiru Mwangi');
    await user.type(within(dialog).getByLabelText(/Phone number/), '0712 345 678');
    await user.click(within(dialog).getByRole('button', { name: 'Save Client' }));
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]!.body).toMatchObject({ type: 'customer', name: 'Wanjiru Mwangi', phone: '254712345678', forDda: false, location: null, address: null });
    expect(posted[0]!.key).toMatch(/^[0-9a-f-]{36}$/);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByTestId('chosen').textContent).toBe('Wanjiru Mwangi');
  });

  it('asks location and full address for a DDA cart, and shows the server refusal as Failed to save client', async () => {
    const user = userEvent.setup();
    const keys: (string | null)[] = [];
    server.use(
      http.get('/api/contacts', () => HttpResponse.json({ items: [], total: 0, limit: 5, offset: 0 })),
      http.post('/api/contacts', ({ request }) => {
        keys.push(request.headers.get('Idempotency-Key'));
        return HttpResponse.json({ error: { code: 'FORBIDDEN', message: "You don't have permission to access this page." } }, { status: 403 });
      }),
    );
    renderScreen(<Till ddaInCart />, { path: '/pos' });
    await user.click(screen.getByRole('button', { name: 'Add New Client' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add New Client' });
    await user.type(within(dialog).getByLabelText(/Client name/), 'Otieno Ouma');
    await user.type(within(dialog).getByLabelText(/Phone number/), '0722000111');
    await user.click(within(dialog).getByRole('button', { name: 'Save Client' }));
    expect(await within(dialog).findByText('Location is required for DDA products')).toBeTruthy();
    expect(within(dialog).getByText('Full address is required for DDA products')).toBeTruthy();
    expect(keys).toHaveLength(0);

    await user.type(within(dialog).getByLabelText(/Location/), 'Kisumu');
    await user.type(within(dialog).getByLabelText(/Full address/), 'Oginga Odinga St, Kisumu');
    await user.click(within(dialog).getByRole('button', { name: 'Save Client' }));
    expect(await within(dialog).findByText("Failed to save client: You don't have permission to access this page.")).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Save Client' }));
    await waitFor(() => expect(keys).toHaveLength(2));
    // The same dialog opening sends the same key: a retry is the same request.
    expect(keys[0]).toBe(keys[1]);
    expect(screen.getByTestId('chosen').textContent).toBe('none');
  });
});
