import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { MeResponse } from '@pharmapoint/domain/auth';
import { RequireOperator, RequirePermission } from '@/app/guards';
import { Sidebar } from '@/app/layout/sidebar';
import { subjectFromMe } from '@/features/auth/hooks/use-permissions';
import { useMe } from '@/features/auth/api/get-me';
import { ownerMe, renderScreen, server } from '@/test/render-screen';

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

/**
 * GET /api/me of a platform operator who is also a cashier of Afya Bora Pharmacy: the server answers the
 * membership's permissions, and judges every pharmacy request by them (issue 7).
 */
function operatorCashierMe(): MeResponse {
  const owner = ownerMe();
  return ownerMe({
    user: { ...owner.user, email: 'ops@pharmapoint.test', name: 'Platform Ops', displayName: 'Ops', isPlatformOperator: true },
    membership: { role: 'cashier', isOwner: false, hasPosAccess: true, explicitPermissions: null },
    permissions: ['dashboard:view', 'product:read', 'sales:create', 'sales:read', 'pos:access', 'inventory:read'],
  });
}

const useOperatorCashier = () => server.use(http.get('/api/me', () => HttpResponse.json(operatorCashierMe())));

/** Says when GET /api/me has answered, so a guard is judged on the signed-in user, not while it loads. */
function MeLoaded() {
  const { data } = useMe();
  return data ? <p>Signed in as {data.user.email}</p> : null;
}

describe('a platform operator in a pharmacy is judged by their membership, as the server judges them', () => {
  it('is refused a pharmacy screen their membership does not allow', async () => {
    useOperatorCashier();
    renderScreen(
      <>
        <MeLoaded />
        <RequirePermission any={['user:read']}>
          <p>Users screen</p>
        </RequirePermission>
      </>,
      { path: '/app/users' },
    );
    await screen.findByText('Signed in as ops@pharmapoint.test');
    expect(await screen.findByRole('heading', { name: 'Access Denied' })).toBeTruthy();
    expect(screen.queryByText('Users screen')).toBeNull();
  });

  it('passes a screen the membership allows', async () => {
    useOperatorCashier();
    renderScreen(
      <RequirePermission any={['sales:read']}>
        <p>All sales screen</p>
      </RequirePermission>,
      { path: '/app/allsales' },
    );
    expect(await screen.findByText('All sales screen')).toBeTruthy();
  });

  it("keeps the operator's own area open to them", async () => {
    useOperatorCashier();
    renderScreen(
      <RequireOperator>
        <p>SaaS dashboard</p>
      </RequireOperator>,
      { path: '/app/admin/saas-dashboard' },
    );
    expect(await screen.findByText('SaaS dashboard')).toBeTruthy();
  });

  it("shows a cashier's menus in the sidebar, plus the link to the admin area", async () => {
    server.use(http.get('/api/me/pharmacies', () => HttpResponse.json({ pharmacies: [{ id: '44444444-4444-4444-8444-444444444444', name: 'Afya Bora Pharmacy', role: 'cashier', isOwner: false, current: true }], invitations: [] })));
    const me = operatorCashierMe();
    renderScreen(<Sidebar me={me} subject={subjectFromMe(me)!} onLogout={() => undefined} />, { path: '/app/dashboard' });
    const nav = await screen.findByRole('navigation');
    const groups = within(nav)
      .getAllByRole('button')
      .map((button) => button.textContent);
    expect(groups).toEqual(['Products', 'Sales']);
    expect(within(nav).queryByText('Settings')).toBeNull();
    expect(within(nav).queryByText('Reports')).toBeNull();
    expect(within(nav).getByRole('link', { name: 'Admin Area' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Open POS' })).toBeTruthy();
  });
});
