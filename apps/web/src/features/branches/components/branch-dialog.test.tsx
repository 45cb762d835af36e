import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { BranchDialog } from '@/features/branches/components/branch-dialog';
import { setSessionHint } from '@/lib/session-hint';
import { renderScreen, server } from '@/test/render-screen';

beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  setSessionHint(true);
});
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

describe('the branch dialog', () => {
  it('takes a Kenyan phone or none, with a sentence, and sends empty fields as null', async () => {
    const user = userEvent.setup();
    const posted: unknown[] = [];
    server.use(
      http.post('/api/branches', async ({ request }) => {
        posted.push(await request.json());
        return HttpResponse.json({ branch: {} }, { status: 201 });
      }),
      http.get('/api/branches', () => HttpResponse.json({ branches: [] })),
      http.get('/api/settings', () => HttpResponse.json({})),
      http.get('/api/subscription', () => HttpResponse.json({})),
    );
    renderScreen(<BranchDialog open onOpenChange={() => undefined} />, { path: '/app/branches' });
    await user.click(await screen.findByRole('button', { name: 'Save Branch' }));
    expect(await screen.findByText('Enter a branch name')).toBeTruthy();
    await user.type(screen.getByLabelText('Branch name', { exact: false }), 'Kisumu Branch');
    await user.type(screen.getByLabelText('Phone'), '020 123 4567');
    await user.click(screen.getByRole('button', { name: 'Save Branch' }));
    expect(await screen.findByText('Phone must be a Kenyan number: +254 or 0, then 7 or 1, then 8 digits (e.g. 0712 345 678).')).toBeTruthy();
    expect(posted).toHaveLength(0);
    await user.clear(screen.getByLabelText('Phone'));
    await user.type(screen.getByLabelText('Phone'), '0712 345 678');
    await user.click(screen.getByRole('button', { name: 'Save Branch' }));
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]).toEqual({ name: 'Kisumu Branch', address: null, phone: '0712 345 678', isDefault: false });
  });
});
