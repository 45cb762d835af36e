import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { DEFAULT_SETTINGS, type Settings } from '@pharmapoint/domain/settings';
import SettingsPage from '@/features/settings/routes/settings-page';
import { setSessionHint } from '@/lib/session-hint';
import { renderScreen, server } from '@/test/render-screen';

beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  // The screens live under /app, but jsdom's location is '/': the hint lets the shell ask GET /api/me.
  setSessionHint(true);
});
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

function serveSettings(initial: Settings = DEFAULT_SETTINGS) {
  let stored = initial;
  const puts: Settings[] = [];
  server.use(
    http.get('/api/settings', () => HttpResponse.json({ settings: stored, updatedAt: '2026-11-20T08:00:00.000Z' })),
    http.put('/api/settings', async ({ request }) => {
      stored = (await request.json()) as Settings;
      puts.push(stored);
      return HttpResponse.json({ settings: stored, message: 'Settings saved successfully' });
    }),
  );
  return puts;
}

describe('the settings screen', () => {
  it('saves an edited section as numbers of the shared settings document', async () => {
    const user = userEvent.setup();
    const puts = serveSettings();
    renderScreen(<SettingsPage />, { path: '/app/settings' });
    const tabs = await screen.findByRole('tablist', { name: 'Settings sections' });
    await user.click(within(tabs).getByRole('tab', { name: 'Pricing' }));
    expect((screen.getByLabelText('Default minimum margin (%)') as HTMLInputElement).value).toBe('22');
    await user.clear(screen.getByLabelText('Maximum discount (%)'));
    await user.type(screen.getByLabelText('Maximum discount (%)'), '12.5');
    expect(screen.getByText('You have unsaved changes.', { exact: false })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Save Settings' }));
    // Saved: the screen reloads the document and has nothing unsaved any more.
    await waitFor(() => expect(screen.queryByText('You have unsaved changes.')).toBeNull());
    expect(puts).toHaveLength(1);
    expect(puts[0]!.maxDiscount).toBe(12.5);
    expect(puts[0]!.defaultMinMargin).toBe(22);
  });

  it('keeps invalid values in the browser: marks the fields, counts them on their tab and sends nothing', async () => {
    const user = userEvent.setup();
    const puts = serveSettings();
    renderScreen(<SettingsPage />, { path: '/app/settings' });
    await user.click(await screen.findByRole('tab', { name: 'Pricing' }));
    await user.clear(screen.getByLabelText('Maximum discount (%)'));
    await user.type(screen.getByLabelText('Maximum discount (%)'), '150');
    await user.click(screen.getByRole('tab', { name: 'Business' }));
    await user.clear(screen.getByLabelText('Email'));
    await user.type(screen.getByLabelText('Email'), 'not-an-email');
    await user.click(screen.getByRole('button', { name: 'Save Settings' }));
    expect(await screen.findByText('Some fields need attention before the settings can be saved.')).toBeTruthy();
    expect(screen.getByLabelText('Email').getAttribute('aria-invalid')).toBe('true');
    await user.click(screen.getByRole('tab', { name: 'Pricing (1)' }));
    expect(screen.getByLabelText('Maximum discount (%)').getAttribute('aria-invalid')).toBe('true');
    expect(puts).toHaveLength(0);
  });

  it("shows the server's message when saving fails", async () => {
    const user = userEvent.setup();
    serveSettings();
    server.use(http.put('/api/settings', () => HttpResponse.json({ error: { code: 'FORBIDDEN', message: 'You do not have permission to do this.' } }, { status: 403 })));
    renderScreen(<SettingsPage />, { path: '/app/settings' });
    await user.type(await screen.findByLabelText('Tagline'), ' today');
    await user.click(screen.getByRole('button', { name: 'Save Settings' }));
    const alerts = await screen.findAllByRole('alert');
    expect(alerts.map((alert) => alert.textContent)).toContain('You do not have permission to do this.');
  });

  it('keeps the user on the tab they saved', async () => {
    const user = userEvent.setup();
    const puts = serveSettings();
    renderScreen(<SettingsPage />, { path: '/app/settings' });
    await user.click(await screen.findByRole('tab', { name: 'Stock' }));
    await user.clear(screen.getByLabelText('Expiry alert (days before)'));
    await user.type(screen.getByLabelText('Expiry alert (days before)'), '45');
    await user.click(screen.getByRole('button', { name: 'Save Settings' }));
    await waitFor(() => expect(puts).toHaveLength(1));
    // The document is reloaded and the editor drawn again: still on Stock.
    await waitFor(() => expect(screen.queryByText('You have unsaved changes.')).toBeNull());
    expect(screen.getByRole('tab', { name: 'Stock' }).getAttribute('aria-selected')).toBe('true');
    expect((screen.getByLabelText('Expiry alert (days before)') as HTMLInputElement).value).toBe('45');
  });

  it('offers the time zone from the IANA list and checks phones as Kenyan numbers, with sentences', async () => {
    const user = userEvent.setup();
    const puts = serveSettings();
    renderScreen(<SettingsPage />, { path: '/app/settings?tab=taxAndMoney', pattern: '/app/settings' });
    const zone = (await screen.findByLabelText('Time zone')) as HTMLSelectElement;
    expect(zone.tagName).toBe('SELECT');
    expect(zone.value).toBe('Africa/Nairobi');
    const zones = [...zone.options].map((o) => o.value);
    expect(zones).toEqual(expect.arrayContaining(['Africa/Nairobi', 'Africa/Kampala', 'Europe/London', 'UTC']));
    await user.clear(screen.getByLabelText('Tax rate (%)'));
    await user.type(screen.getByLabelText('Tax rate (%)'), '120');
    await user.click(screen.getByRole('tab', { name: 'Business' }));
    await user.type(screen.getByLabelText('Phone'), '12345');
    await user.click(screen.getByRole('button', { name: 'Save Settings' }));
    expect(await screen.findByText('Phone must be a Kenyan number: +254 or 0, then 7 or 1, then 8 digits (e.g. 0712 345 678).')).toBeTruthy();
    await user.click(screen.getByRole('tab', { name: 'Tax & money (1)' }));
    expect(screen.getByText('Tax rate must be between 0 and 100 %.')).toBeTruthy();
    expect(puts).toHaveLength(0);
  });
});
