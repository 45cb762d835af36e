import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './app.ts';
import { testDatabaseKinds } from './database.ts';
import { createPharmacyWithStaff, FIXTURE_PASSWORD, type PharmacyFixture } from './fixtures.ts';
import type { TestClient } from './http.ts';
import { loginAs, tenantSnapshot } from './platform-helpers.ts';

interface OutboxEmail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

const NEW_PASSWORD = 'Invited#2026pw';

describe.each(testDatabaseKinds())('users and staff on %s', (kind) => {
  let t: TestApp;
  let ph: PharmacyFixture;
  let other: PharmacyFixture;
  let owner: TestClient;
  let admin: TestClient;
  let cashier: TestClient;

  beforeAll(async () => {
    t = await createTestApp(kind);
    ph = await createPharmacyWithStaff(t.db, { id: 'usr_ph', name: 'Uhuru Pharmacy', plan: 'standard', roles: ['owner', 'admin', 'manager', 'cashier', 'staff'] });
    other = await createPharmacyWithStaff(t.db, { id: 'usr_other', plan: 'standard', roles: ['owner', 'cashier'] });
    owner = await loginAs(t, ph.users.owner!.email);
    admin = await loginAs(t, ph.users.admin!.email);
    cashier = await loginAs(t, ph.users.cashier!.email);
  });
  afterAll(async () => t?.close());

  async function emailsTo(address: string): Promise<OutboxEmail[]> {
    const rows = await t.db.owner.query<{ payload: OutboxEmail }>(
      `SELECT payload FROM outbox WHERE kind = 'email' AND payload->>'to' = $1 ORDER BY created_at`,
      [address],
    );
    return rows.map((r) => r.payload);
  }

  function inviteToken(email: OutboxEmail): string {
    const match = /\/accept-invite\?token=([^\s"&]+)/.exec(email.text);
    if (!match) throw new Error(`no invitation link in ${email.text}`);
    return decodeURIComponent(match[1]!);
  }

  const userIdOf = async (email: string) =>
    (await t.db.owner.query<{ id: string }>(`SELECT id FROM users WHERE email = $1`, [email]))[0]!.id;

  it('lists the members of the pharmacy and never another pharmacy\'s', async () => {
    const res = await owner.get('/api/users');
    expect(res.status).toBe(200);
    const emails = res.body.users.map((u: { email: string }) => u.email).sort();
    expect(emails).toEqual(['admin', 'cashier', 'manager', 'owner', 'staff'].map((r) => `${r}@usr_ph.test`).sort());
    expect(res.body.users[0]).toMatchObject({ email: 'owner@usr_ph.test', role: 'owner', isOwner: true, isActive: true, invitePending: false });
  });

  it('invites staff by email through the outbox; the link sets their password and signs them in', async () => {
    const branchId = ph.branches[1]!.id;
    const res = await owner.post('/api/users/invite', {
      email: 'Wanjiku.Kamau@Example.test',
      name: 'Wanjiku Kamau',
      role: 'cashier',
      permissions: null,
      allowedBranchIds: [branchId],
      hasPosAccess: true,
    });
    expect(res.status).toBe(201);
    expect(res.body.message).toBe('Invitation sent to wanjiku.kamau@example.test');
    expect(res.body.user).toMatchObject({
      email: 'wanjiku.kamau@example.test',
      name: 'Wanjiku Kamau',
      role: 'cashier',
      permissions: null,
      allowedBranchIds: [branchId],
      hasPosAccess: true,
      isActive: true,
      invitePending: true,
    });

    const [mail, ...more] = await emailsTo('wanjiku.kamau@example.test');
    expect(more).toHaveLength(0);
    expect(mail!.subject).toBe('You are invited to Uhuru Pharmacy on PharmaPoint');
    expect(mail!.text).toContain('http://localhost:3000/accept-invite?token=');
    const [outboxRow] = await t.db.owner.query<{ pharmacy_id: string }>(
      `SELECT pharmacy_id FROM outbox WHERE payload->>'to' = 'wanjiku.kamau@example.test'`,
    );
    expect(outboxRow?.pharmacy_id).toBe(ph.pharmacyId);

    // No password yet: signing in is refused until the invitation is accepted.
    const early = await t.client().post('/api/auth/login', { email: 'wanjiku.kamau@example.test', password: NEW_PASSWORD });
    expect(early.status).toBe(401);

    const invited = t.client();
    const accepted = await invited.post('/api/auth/accept-invite', { token: inviteToken(mail!), password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
    expect(accepted.status).toBe(200);
    const me = await invited.get('/api/me');
    expect(me.body.pharmacy.id).toBe(ph.pharmacyId);
    expect(me.body.membership).toMatchObject({ role: 'cashier', hasPosAccess: true });
    expect(me.body.allowedBranches.map((b: { id: string }) => b.id)).toEqual([branchId]);

    const list = await owner.get('/api/users');
    const member = list.body.users.find((u: { email: string }) => u.email === 'wanjiku.kamau@example.test');
    expect(member.invitePending).toBe(false);
    const again = await owner.post(`/api/users/${member.id}/resend-invite`);
    expect(again.status).toBe(409);
  });

  it('resends an invitation: a new link, and the earlier one stops working', async () => {
    const res = await admin.post('/api/users/invite', { email: 'resend@example.test', name: 'Resend Me', role: 'staff', hasPosAccess: false });
    expect(res.status).toBe(201);
    const resent = await admin.post(`/api/users/${res.body.user.id}/resend-invite`);
    expect(resent.status).toBe(200);
    expect(resent.body.message).toBe('Invitation sent to resend@example.test');
    const mails = await emailsTo('resend@example.test');
    expect(mails).toHaveLength(2);
    const first = inviteToken(mails[0]!);
    const second = inviteToken(mails[1]!);
    expect(first).not.toBe(second);
    const stale = await t.client().post('/api/auth/accept-invite', { token: first, password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
    expect(stale.status).toBe(400);
    const fresh = await t.client().post('/api/auth/accept-invite', { token: second, password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
    expect(fresh.status).toBe(200);
  });

  it('refuses a duplicate member, bad input and another tenant\'s branches, writing nothing', async () => {
    const before = await tenantSnapshot(t.db, ph.pharmacyId);
    // Wanjiku was invited above: inviting her again (any letter case) is a conflict.
    const duplicate = await owner.post('/api/users/invite', { email: 'WANJIKU.kamau@example.test', name: 'Again', role: 'cashier', hasPosAccess: true });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.error.message).toBe('This person is already a member of this pharmacy.');
    for (const body of [
      { email: 'not-an-email', name: 'X', role: 'cashier', hasPosAccess: true },
      { email: 'x@example.test', name: '', role: 'cashier', hasPosAccess: true },
      { email: 'x@example.test', name: 'X', role: 'owner', hasPosAccess: true },
      { email: 'x@example.test', name: 'X', role: 'demo', hasPosAccess: true },
      { email: 'x@example.test', name: 'X', role: 'cashier', hasPosAccess: true, permissions: ['saas:admin'] },
      { email: 'x@example.test', name: 'X', role: 'cashier', hasPosAccess: true, permissions: ['made:up'] },
      { email: 'x@example.test', name: 'X', role: 'cashier', hasPosAccess: 'yes' },
      { email: 'x@example.test', name: 'X', role: 'cashier', hasPosAccess: true, isOwner: true },
      { email: 'x@example.test', name: 'X'.repeat(121), role: 'cashier', hasPosAccess: true },
    ]) {
      const res = await owner.post('/api/users/invite', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
    }
    const foreignBranch = await owner.post('/api/users/invite', {
      email: 'x@example.test',
      name: 'X',
      role: 'cashier',
      hasPosAccess: true,
      allowedBranchIds: [other.branches[0]!.id],
    });
    expect(foreignBranch.status).toBe(400);
    expect(foreignBranch.body.error.message).toBe('allowedBranchIds: Unknown branch');
    expect(await tenantSnapshot(t.db, ph.pharmacyId)).toEqual(before);
  });

  it('a cashier cannot invite, list or edit staff (403) and nothing is written', async () => {
    const before = await tenantSnapshot(t.db, ph.pharmacyId);
    const invite = await cashier.post('/api/users/invite', { email: 'sneaky@example.test', name: 'Sneaky', role: 'admin', hasPosAccess: true });
    expect(invite.status).toBe(403);
    expect(invite.body.error).toEqual({ code: 'FORBIDDEN', message: "You don't have permission to access this page." });
    expect((await cashier.get('/api/users')).status).toBe(403);
    const promote = await cashier.patch(`/api/users/${ph.users.cashier!.id}`, { role: 'admin' });
    expect(promote.status).toBe(403);
    expect(await tenantSnapshot(t.db, ph.pharmacyId)).toEqual(before);
    expect(await emailsTo('sneaky@example.test')).toHaveLength(0);
  });

  it('edits a membership: role, branches and POS access; the change shows in their session', async () => {
    const staffId = ph.users.staff!.id;
    const res = await owner.patch(`/api/users/${staffId}`, {
      role: 'inventory',
      allowedBranchIds: [ph.branches[0]!.id],
      hasPosAccess: true,
    });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({
      id: staffId,
      name: 'staff usr_ph',
      role: 'inventory',
      allowedBranchIds: [ph.branches[0]!.id],
      hasPosAccess: true,
    });
    const staff = await loginAs(t, ph.users.staff!.email);
    const me = await staff.get('/api/me');
    expect(me.body.membership.role).toBe('inventory');
    expect(me.body.user.name).toBe('staff usr_ph');
    expect(me.body.permissions).toContain('inventory:adjust');
    const [audit] = await t.db.owner.query<{ action: string }>(
      `SELECT action FROM audit_log WHERE pharmacy_id = $1 AND entity = 'user' AND entity_id = $2 ORDER BY at DESC LIMIT 1`,
      [ph.pharmacyId, staffId],
    );
    expect(audit?.action).toBe('update');
  });

  it('honours an explicit permission list over the role defaults, and null restores the defaults', async () => {
    const cashierId = ph.users.cashier!.id;
    // A cashier cannot list staff by default; with an explicit list holding user:read (and user:create) they can.
    const list = ['dashboard:view', 'product:read', 'sales:read', 'inventory:read', 'user:read', 'user:create'];
    const granted = await owner.patch(`/api/users/${cashierId}`, { permissions: list });
    expect(granted.status).toBe(200);
    expect(granted.body.user.permissions).toEqual(list);
    const withList = await loginAs(t, ph.users.cashier!.email);
    expect((await withList.get('/api/users')).status).toBe(200);
    const me = await withList.get('/api/me');
    // The explicit list replaces the defaults: sales:create (a cashier default) is gone; POS access comes with hasPosAccess.
    expect(me.body.permissions).not.toContain('sales:create');
    expect(me.body.permissions).toContain('pos:access');
    const invited = await withList.post('/api/users/invite', { email: 'by.cashier@example.test', name: 'By Cashier', role: 'staff', hasPosAccess: false });
    expect(invited.status).toBe(201);
    // user:update is not in their list.
    expect((await withList.patch(`/api/users/${invited.body.user.id}`, { hasPosAccess: false })).status).toBe(403);

    const reset = await owner.patch(`/api/users/${cashierId}`, { permissions: null });
    expect(reset.body.user.permissions).toBeNull();
    const defaults = await loginAs(t, ph.users.cashier!.email);
    expect((await defaults.get('/api/users')).status).toBe(403);
    expect((await defaults.get('/api/me')).body.permissions).toContain('sales:create');
  });

  it('nobody gives more access than they hold, or changes roles without user:manage_roles', async () => {
    const managerId = ph.users.manager!.id;
    // A manager allowed to invite and edit staff, within a limited set of their own.
    const own = ['dashboard:view', 'product:read', 'sales:read', 'inventory:read', 'user:read', 'user:create', 'user:update'];
    expect((await owner.patch(`/api/users/${managerId}`, { permissions: own })).status).toBe(200);
    const limited = await loginAs(t, ph.users.manager!.email);
    const before = await tenantSnapshot(t.db, ph.pharmacyId);
    for (const body of [
      { email: 'new.admin@example.test', name: 'New Admin', role: 'admin', hasPosAccess: true },
      { email: 'new.cashier@example.test', name: 'New Cashier', role: 'cashier', hasPosAccess: true },
      { email: 'custom@example.test', name: 'Custom', role: 'staff', hasPosAccess: false, permissions: ['user:delete'] },
      { email: 'pos@example.test', name: 'With POS', role: 'staff', hasPosAccess: true },
    ]) {
      const res = await limited.post('/api/users/invite', body);
      expect(res.status, body.email).toBe(403);
      expect(res.body.error).toMatchObject({ code: 'GRANT_EXCEEDS_OWN', message: 'You cannot give a member more access than you have yourself.' });
    }
    // Changing someone's role is role management; changing an administrator is beyond a limited member.
    const staffId = ph.users.staff!.id;
    const promote = await limited.patch(`/api/users/${staffId}`, { role: 'user' });
    expect(promote.status).toBe(403);
    const adminEdit = await limited.patch(`/api/users/${ph.users.admin!.id}`, { hasPosAccess: false });
    expect(adminEdit.status).toBe(403);
    expect(adminEdit.body.error.code).toBe('MEMBER_OUTRANKS');
    // Nor can they raise their own access.
    const self = await limited.patch(`/api/users/${managerId}`, { permissions: [...own, 'user:delete'] });
    expect(self.status).toBe(403);
    expect(await tenantSnapshot(t.db, ph.pharmacyId)).toEqual(before);
    expect((await owner.patch(`/api/users/${managerId}`, { permissions: null })).status).toBe(200);
  });

  it('deactivation needs user:delete, never applies to oneself, and only the owner edits the owner', async () => {
    const managerId = ph.users.manager!.id;
    // A member allowed to edit but not to remove staff (holding at least what the cashier holds).
    const cashierAccess = ['dashboard:view', 'product:read', 'sales:create', 'sales:read', 'pos:access', 'inventory:read'];
    await owner.patch(`/api/users/${managerId}`, { permissions: [...cashierAccess, 'user:read', 'user:update'] });
    const editor = await loginAs(t, ph.users.manager!.email);
    const edit = await editor.patch(`/api/users/${ph.users.cashier!.id}`, { allowedBranchIds: null });
    expect(edit.status).toBe(200);
    const deactivate = await editor.patch(`/api/users/${ph.users.cashier!.id}`, { isActive: false });
    expect(deactivate.status).toBe(403);

    const self = await owner.patch(`/api/users/${ph.users.owner!.id}`, { isActive: false });
    expect(self.status).toBe(403);
    expect(self.body.error.message).toBe('You cannot deactivate your own account.');
    const ownerByAdmin = await admin.patch(`/api/users/${ph.users.owner!.id}`, { allowedBranchIds: [ph.branches[0]!.id] });
    expect(ownerByAdmin.status).toBe(403);
    const ownerRole = await owner.patch(`/api/users/${ph.users.owner!.id}`, { role: 'admin' });
    expect(ownerRole.status).toBe(409);
    const [ownerRow] = await t.db.owner.query<{ role: string; is_active: boolean }>(
      `SELECT role, is_active FROM memberships WHERE pharmacy_id = $1 AND user_id = $2`,
      [ph.pharmacyId, ph.users.owner!.id],
    );
    expect(ownerRow).toEqual({ role: 'owner', is_active: true });
    await owner.patch(`/api/users/${managerId}`, { permissions: null });
  });

  it('a deactivated member is signed out at once and cannot sign in again; reactivated, they can', async () => {
    const cashierEmail = ph.users.cashier!.email;
    const session = await loginAs(t, cashierEmail);
    expect((await session.get('/api/me')).status).toBe(200);
    const res = await admin.patch(`/api/users/${ph.users.cashier!.id}`, { isActive: false });
    expect(res.status).toBe(200);
    expect(res.body.user.isActive).toBe(false);
    const [audit] = await t.db.owner.query<{ action: string }>(
      `SELECT action FROM audit_log WHERE pharmacy_id = $1 AND entity_id = $2 ORDER BY at DESC LIMIT 1`,
      [ph.pharmacyId, ph.users.cashier!.id],
    );
    expect(audit?.action).toBe('deactivate');

    expect((await session.get('/api/me')).status).toBe(401);
    const login = await t.client().post('/api/auth/login', { email: cashierEmail, password: FIXTURE_PASSWORD });
    expect(login.status).toBe(403);
    expect(login.body.error.message).toBe('Your account has been deactivated. Contact your administrator.');

    expect((await admin.patch(`/api/users/${ph.users.cashier!.id}`, { isActive: true })).status).toBe(200);
    expect((await loginAs(t, cashierEmail)).cookies.has('pp_session')).toBe(true);
  });

  it('a platform operator whose only membership was deactivated still signs in (to the admin area)', async () => {
    const cashier = ph.users.cashier!;
    await t.db.owner.query(`UPDATE users SET is_platform_operator = true WHERE id = $1`, [cashier.id]);
    try {
      expect((await admin.patch(`/api/users/${cashier.id}`, { isActive: false })).status).toBe(200);
      const login = await t.client().post('/api/auth/login', { email: cashier.email, password: FIXTURE_PASSWORD });
      expect(login.status).toBe(200);
    } finally {
      await t.db.owner.query(`UPDATE users SET is_platform_operator = false WHERE id = $1`, [cashier.id]);
      expect((await admin.patch(`/api/users/${cashier.id}`, { isActive: true })).status).toBe(200);
    }
  });

  it("answers 404 for another pharmacy's member and leaves them untouched", async () => {
    const foreignId = other.users.cashier!.id;
    const patch = await owner.patch(`/api/users/${foreignId}`, { role: 'user', isActive: false });
    expect(patch.status).toBe(404);
    const resend = await owner.post(`/api/users/${foreignId}/resend-invite`);
    expect(resend.status).toBe(404);
    const [row] = await t.db.owner.query<{ name: string; is_active: boolean }>(
      `SELECT u.name, m.is_active FROM users u JOIN memberships m ON m.user_id = u.id WHERE u.id = $1`,
      [foreignId],
    );
    expect(row).toEqual({ name: 'cashier usr_other', is_active: true });
    expect((await owner.patch('/api/users/not-a-uuid', { role: 'user' })).status).toBe(400);
    expect(await userIdOf('cashier@usr_other.test')).toBe(foreignId);
  });
});
