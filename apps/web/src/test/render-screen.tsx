import type { ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes } from 'react-router';
import { render } from '@testing-library/react';
import { setupServer } from 'msw/node';
import { http, HttpResponse } from 'msw';
import type { MeResponse } from '@pharmapoint/domain/auth';

export const MAIN_BRANCH = { id: '11111111-1111-4111-8111-111111111111', name: 'Main Branch' };
export const WESTLANDS_BRANCH = { id: '22222222-2222-4222-8222-222222222222', name: 'Westlands Branch' };

/** GET /api/me of a signed-in owner of Afya Bora Pharmacy ('*': every permission). */
export function ownerMe(overrides: Partial<MeResponse> = {}): MeResponse {
  return {
    user: {
      id: '33333333-3333-4333-8333-333333333333',
      email: 'owner@afyabora.test',
      name: 'Grace Wanjiku',
      displayName: 'Grace',
      emailVerified: true,
      hasPin: false,
      isPlatformOperator: false,
      lastLoginAt: null,
    },
    pharmacy: { id: '44444444-4444-4444-8444-444444444444', name: 'Afya Bora Pharmacy', isDemo: false, theme: {} },
    membership: { role: 'owner', isOwner: true, hasPosAccess: true, explicitPermissions: null },
    permissions: ['*'],
    branch: MAIN_BRANCH,
    allowedBranches: [MAIN_BRANCH, WESTLANDS_BRANCH],
    isDemo: false,
    session: { locked: false, lockAfterMinutes: 0, autoLogoutMinutes: 0 },
    ...overrides,
  } as MeResponse;
}

/** The API of a screen test: MSW answers the browser's fetch calls; add per-test handlers with server.use(...). */
export const server = setupServer(
  http.get('/api/me', () => HttpResponse.json(ownerMe())),
  // The api client primes the CSRF cookie with this call before its first write.
  http.get('/api/auth/providers', () => HttpResponse.json({ google: false }, { headers: { 'Set-Cookie': 'pp_csrf=test-csrf-token; Path=/' } })),
);

/**
 * Renders one screen at `path` inside the app's providers (a fresh React Query cache, a memory router).
 * `routes` maps other paths to placeholders, so a test can see where the screen navigates.
 */
export function renderScreen(screen: ReactNode, { path, pattern = path, routes = {} }: { path: string; pattern?: string; routes?: Record<string, string> }) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path={pattern} element={screen} />
          {Object.entries(routes).map(([route, text]) => (
            <Route key={route} path={route} element={<p>{text}</p>} />
          ))}
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}
