import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import type { MeResponse } from '@pharmapoint/domain/auth';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes } from 'react-router';
import { AppLayout } from '@/app/layout/app-layout';
import ProfilePage from '@/features/auth/routes/profile-page';
import { ownerMe, server } from '@/test/render-screen';

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

/** GET /api/me of someone signed in without a pharmacy (a platform operator unless told otherwise). */
function withoutPharmacyMe(isPlatformOperator = true): MeResponse {
  const owner = ownerMe();
  return ownerMe({
    user: { ...owner.user, email: 'ops@pharmapoint.test', name: 'Platform Ops', displayName: 'Ops', isPlatformOperator },
    pharmacy: null,
    membership: null,
    permissions: [],
    branch: null,
    allowedBranches: [],
  } as Partial<MeResponse>);
}

const invitation = { pharmacyId: '55555555-5555-4555-8555-555555555555', pharmacyName: 'Uzima Chemists', role: 'manager', invitedAt: '2026-11-20T08:00:00.000Z' };

function renderApp(path: string) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/app" element={<AppLayout />}>
            <Route path="profile" element={<ProfilePage />} />
            <Route path="dashboard" element={<p>Dashboard screen</p>} />
          </Route>
          <Route path="/choose-pharmacy" element={<p>Choose a pharmacy screen</p>} />
          <Route path="/app/admin" element={<p>Admin area</p>} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('/app/profile for someone signed in without a pharmacy', () => {
  it('lets an operator without a pharmacy open their profile and accept an invitation there', async () => {
    let accepted: unknown = null;
    server.use(
      http.get('/api/me', () => HttpResponse.json(withoutPharmacyMe())),
      http.get('/api/me/pharmacies', () => HttpResponse.json({ pharmacies: [], invitations: accepted ? [] : [invitation] })),
      http.post('/api/me/invitations/accept', async ({ request }) => {
        accepted = await request.json();
        return HttpResponse.json({ pharmacy: { id: invitation.pharmacyId, name: 'Uzima Chemists' }, message: 'You joined Uzima Chemists' });
      }),
    );
    renderApp('/app/profile');
    expect(await screen.findByRole('heading', { level: 1, name: 'My Profile' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'No pharmacy yet' })).toBeNull();
    const header = screen.getByRole('navigation', { name: 'My Profile' });
    expect(within(header).getByRole('link', { name: 'Go to Admin Area' })).toBeTruthy();
    expect(within(header).getByRole('link', { name: 'Choose a pharmacy' })).toBeTruthy();

    await userEvent.click(await screen.findByRole('button', { name: 'Accept the invitation to Uzima Chemists' }));
    // Answered: the lists are read again and the invitation is gone.
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Accept the invitation to Uzima Chemists' })).toBeNull());
    expect(accepted).toEqual({ pharmacyId: invitation.pharmacyId });
  });

  it('keeps the pharmacy screens closed without a pharmacy: the No pharmacy yet page, with the way to the profile', async () => {
    server.use(
      http.get('/api/me', () => HttpResponse.json(withoutPharmacyMe())),
      http.get('/api/me/pharmacies', () => HttpResponse.json({ pharmacies: [], invitations: [] })),
    );
    renderApp('/app/dashboard');
    expect(await screen.findByRole('heading', { name: 'No pharmacy yet' })).toBeTruthy();
    expect(screen.queryByText('Dashboard screen')).toBeNull();
    await userEvent.click(screen.getByRole('link', { name: 'My Profile' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'My Profile' })).toBeTruthy();
  });

  it('opens the profile for a member who has not chosen a pharmacy too (elsewhere they choose one first)', async () => {
    server.use(
      http.get('/api/me', () => HttpResponse.json(withoutPharmacyMe(false))),
      http.get('/api/me/pharmacies', () => HttpResponse.json({ pharmacies: [], invitations: [invitation] })),
    );
    renderApp('/app/profile');
    expect(await screen.findByRole('heading', { level: 1, name: 'My Profile' })).toBeTruthy();
    expect(await screen.findByRole('button', { name: 'Accept the invitation to Uzima Chemists' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Go to Admin Area' })).toBeNull();
  });
});
