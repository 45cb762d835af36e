import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import '@/i18n';
import { useLogout } from '@/features/auth/hooks/use-logout';
import { renderScreen, server } from '@/test/render-screen';

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

function SignOut() {
  const logout = useLogout();
  return (
    <>
      <button type="button" onClick={() => void logout()}>
        Logout
      </button>
      <button type="button" onClick={() => void logout({ sessionLost: true })}>
        Session lost
      </button>
    </>
  );
}

/** Renders the buttons and counts the sign-out requests the server receives. */
function renderCounting() {
  const calls = { logout: 0 };
  server.use(
    http.post('/api/auth/logout', () => {
      calls.logout += 1;
      return HttpResponse.json({ ok: true });
    }),
  );
  renderScreen(<SignOut />, { path: '/app/dashboard', routes: { '/login': 'Sign-in page' } });
  return calls;
}

describe('useLogout', () => {
  it('signs the session out on the server, then opens the sign-in page', async () => {
    const calls = renderCounting();
    fireEvent.click(screen.getByRole('button', { name: 'Logout' }));
    expect(await screen.findByText('Sign-in page')).toBeTruthy();
    expect(calls.logout).toBe(1);
  });

  it('after a 401 sends nothing: a sign-out now would end a session signed in meanwhile elsewhere', async () => {
    const calls = renderCounting();
    fireEvent.click(screen.getByRole('button', { name: 'Session lost' }));
    expect(await screen.findByText('Sign-in page')).toBeTruthy();
    expect(calls.logout).toBe(0);
  });
});
