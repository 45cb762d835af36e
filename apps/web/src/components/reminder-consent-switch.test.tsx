import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { ReminderConsentSwitch } from '@/components/reminder-consent-switch';
import { renderScreen, server } from '@/test/render-screen';

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const CLIENT = 'aaaaaaaa-0000-4000-8000-000000000001';

describe('the consent to refill reminders', () => {
  it('shows the consent recorded and withdraws it where the client asks (the till), saying an opt-out', async () => {
    const user = userEvent.setup();
    const sent: unknown[] = [];
    let state = { contactId: CLIENT, consent: true as boolean | null, source: 'contact', changedAt: '2026-11-20T08:00:00.000Z', smsOptedOut: true };
    server.use(
      http.get(`/api/contacts/${CLIENT}/reminder-consent`, () => HttpResponse.json(state)),
      http.put(`/api/contacts/${CLIENT}/reminder-consent`, async ({ request }) => {
        const body = (await request.json()) as { consent: boolean; source: string };
        sent.push(body);
        state = { ...state, consent: body.consent, source: body.source, changedAt: '2026-11-28T08:00:00.000Z' };
        return HttpResponse.json(state);
      }),
    );
    renderScreen(<ReminderConsentSwitch contactId={CLIENT} source="till" />, { path: '/pos' });
    const toggle = await screen.findByRole('switch', { name: 'Refill reminders by SMS' });
    expect(toggle.getAttribute('aria-checked')).toBe('true');
    expect(screen.getByText('This number replied STOP: no SMS goes to it.')).toBeTruthy();
    await user.click(toggle);
    await waitFor(() => expect(sent).toEqual([{ consent: false, source: 'till' }]));
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Refill reminders by SMS' }).getAttribute('aria-checked')).toBe('false'));
  });
});
