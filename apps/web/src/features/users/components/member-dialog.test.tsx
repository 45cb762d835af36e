import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import type { Member } from '@pharmapoint/domain/users';
import type { Branch } from '@/features/branches/api/branches';
import { MemberDialog } from '@/features/users/components/member-dialog';
import { setSessionHint } from '@/lib/session-hint';
import { MAIN_BRANCH, renderScreen, server, WESTLANDS_BRANCH } from '@/test/render-screen';

/** The member dialog on react-hook-form with the domain's schemas (issue 6 item 9), editing the membership only (decision 0015). */

beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  setSessionHint(true);
});
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const branch = (b: { id: string; name: string }, isDefault: boolean): Branch =>
  ({ ...b, address: null, phone: null, isDefault, isActive: true, createdAt: '2026-11-01T08:00:00.000Z', updatedAt: '2026-11-01T08:00:00.000Z' }) as Branch;
const BRANCHES = [branch(MAIN_BRANCH, true), branch(WESTLANDS_BRANCH, false)];

const member: Member = {
  id: '55555555-5555-4555-8555-555555555555',
  email: 'wanjiru@afyabora.test',
  name: 'Wanjiru Kamau',
  role: 'cashier',
  permissions: null,
  allowedBranchIds: null,
  defaultBranchId: null,
  hasPosAccess: true,
  isOwner: false,
  isActive: true,
  invitePending: false,
  status: 'active',
  lastLoginAt: null,
  createdAt: '2026-11-01T08:00:00.000Z',
};

describe('the member dialog', () => {
  it('checks an invitation with the domain schema and sends exactly the request', async () => {
    const sent: unknown[] = [];
    server.use(
      http.post('/api/users/invite', async ({ request }) => {
        sent.push(await request.json());
        return HttpResponse.json({ user: member, message: 'Invitation sent to amina@afyabora.test' }, { status: 201 });
      }),
    );
    const user = userEvent.setup();
    renderScreen(<MemberDialog open onOpenChange={() => undefined} branches={BRANCHES} />, { path: '/app/users' });
    const dialog = await screen.findByRole('dialog', { name: 'Invite staff' });
    await user.type(within(dialog).getByLabelText('Email', { exact: false }), 'not-an-email');
    await user.click(within(dialog).getByRole('button', { name: 'Send invitation' }));
    expect(await within(dialog).findByText('Enter a valid email address')).toBeTruthy();
    expect(within(dialog).getByText('Enter a name')).toBeTruthy();
    expect(sent).toHaveLength(0);

    await user.clear(within(dialog).getByLabelText('Email', { exact: false }));
    await user.type(within(dialog).getByLabelText('Email', { exact: false }), 'Amina@AfyaBora.test');
    await user.type(within(dialog).getByLabelText('Name', { exact: false }), 'Amina Hassan');
    await user.click(within(dialog).getByLabelText('Only these branches'));
    await user.click(within(dialog).getByRole('button', { name: 'Send invitation' }));
    expect(await within(dialog).findByText('Choose at least one branch')).toBeTruthy();
    await user.click(within(dialog).getByLabelText('Westlands Branch'));
    await user.click(within(dialog).getByRole('button', { name: 'Send invitation' }));
    await expect.poll(() => sent.length).toBe(1);
    expect(sent[0]).toEqual({
      email: 'amina@afyabora.test',
      name: 'Amina Hassan',
      role: 'cashier',
      permissions: null,
      allowedBranchIds: [WESTLANDS_BRANCH.id],
      hasPosAccess: true,
    });
  });

  it('edits the membership only: no name or email, and the patch holds none', async () => {
    const patches: unknown[] = [];
    server.use(
      http.patch(`/api/users/${member.id}`, async ({ request }) => {
        patches.push(await request.json());
        return HttpResponse.json({ user: { ...member, role: 'inventory' } });
      }),
    );
    const user = userEvent.setup();
    renderScreen(<MemberDialog open onOpenChange={() => undefined} member={member} branches={BRANCHES} />, { path: '/app/users' });
    const dialog = await screen.findByRole('dialog', { name: 'Edit Wanjiru Kamau' });
    expect(within(dialog).queryByRole('textbox', { name: /Email|Name/ })).toBeNull();
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Role' }), 'inventory');
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    await expect.poll(() => patches.length).toBe(1);
    expect(patches[0]).toEqual({ role: 'inventory', permissions: null, allowedBranchIds: null, hasPosAccess: true });
  });
});
