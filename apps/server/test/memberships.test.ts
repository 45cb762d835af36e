import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './app.ts';
import { testDatabaseKinds } from './database.ts';
import { createPharmacyWithStaff, createUser, FIXTURE_PASSWORD, type PharmacyFixture } from './fixtures.ts';
import type { TestClient } from './http.ts';
import { loginAs, tenantSnapshot, usageCountersAndRows } from './platform-helpers.ts';

/**
 * People and memberships (issue 7 item 2, decision 0015): an invitation is a pending membership that reveals nothing
 * about an existing account and gives no access until the invited person accepts it in their own session; a
 * pharmacy edits only its membership, never the person; a person with several pharmacies switches between them,
 * and the server checks the membership on every switch.
 */

interface Email {
  to: string;
  subject: string;
  text: string;
}

describe.each(testDatabaseKinds())('people and memberships on %s', (kind) => {
  let t: TestApp;
  let a: PharmacyFixture;
  let b: PharmacyFixture;
  let c: PharmacyFixture;
  let ownerA: TestClient;

  beforeAll(async () => {
    t = await createTestApp(kind);
    a = await createPharmacyWithStaff(t.db, { id: 'memalpha', name: 'Alpha Chemists', plan: 'standard', roles: ['owner', 'cashier'] });
    b = await createPharmacyWithStaff(t.db, { id: 'membravo', name: 'Bravo Pharmacy', plan: 'standard', roles: ['owner', 'cashier', 'staff', 'manager'] });
    c = await createPharmacyWithStaff(t.db, { id: 'memcharlie', name: 'Charlie Pharmacy', plan: 'standard', roles: ['owner'] });
    ownerA = await loginAs(t, a.users.owner!.email);
  });
  afterAll(async () => t?.close());

  async function emailsTo(address: string): Promise<Email[]> {
    const rows = await t.db.owner.query<{ payload: Email }>(
      `SELECT payload FROM outbox WHERE kind = 'email' AND payload->>'to' = $1 ORDER BY created_at`,
      [address],
    );
    return rows.map((r) => r.payload);
  }

  function tokenOf(email: Email): string {
    const match = /\/accept-invite\?token=([^\s"&]+)/.exec(email.text);
    if (!match) throw new Error(`no invitation link in ${email.text}`);
    return decodeURIComponent(match[1]!);
  }

  async function membership(pharmacyId: string, userId: string) {
    const [row] = await t.db.owner.query<{ role: string; is_active: boolean; accepted: boolean }>(
      `SELECT role, is_active, accepted_at IS NOT NULL AS accepted FROM memberships WHERE pharmacy_id = $1 AND user_id = $2`,
      [pharmacyId, userId],
    );
    return row;
  }

  /** What a pharmacy sees of an invitation, without the parts that differ by nature (the id, the email typed). */
  const comparable = (member: Record<string, unknown>) => {
    const { id: _id, email: _email, createdAt: _createdAt, ...rest } = member;
    return rest;
  };

  it('an invitation of a person with an account elsewhere reveals nothing and gives no access until they accept', async () => {
    const person = b.users.staff!;
    // The person uses PharmaPoint at Bravo: they have a name, a last sign-in and a password there.
    const own = await loginAs(t, person.email);
    expect((await own.get('/api/me')).body.pharmacy.id).toBe(b.pharmacyId);

    const body = { name: 'Wafula Invited', role: 'staff', hasPosAccess: false };
    const existing = await ownerA.post('/api/users/invite', { ...body, email: person.email.toUpperCase() });
    const fresh = await ownerA.post('/api/users/invite', { ...body, email: 'nobody.yet@mem.test' });
    expect(existing.status).toBe(201);
    expect(fresh.status).toBe(201);
    // The same answer either way: the name the pharmacy typed, no last sign-in, 'Invited'.
    expect(existing.body.message).toBe(`Invitation sent to ${person.email}`);
    expect(comparable(existing.body.user)).toEqual(comparable(fresh.body.user));
    expect(existing.body.user).toMatchObject({ name: 'Wafula Invited', lastLoginAt: null, invitePending: true, status: 'invited', isActive: true });
    expect(JSON.stringify(existing.body)).not.toContain('staff membravo');

    // The same row in the members list.
    const list = (await ownerA.get('/api/users')).body.users as Record<string, unknown>[];
    const rowOf = (email: string) => list.find((u) => u.email === email)!;
    expect(comparable(rowOf(person.email))).toEqual(comparable(rowOf('nobody.yet@mem.test')));
    expect(JSON.stringify(list)).not.toContain('staff membravo');

    // The same email, apart from the address and the link.
    const [toPerson] = await emailsTo(person.email);
    const [toNobody] = await emailsTo('nobody.yet@mem.test');
    const withoutLink = (e: Email) => e.text.replace(/token=[^\s]+/, 'token=…');
    expect(toPerson!.subject).toBe('You are invited to Alpha Chemists on PharmaPoint');
    expect(withoutLink(toPerson!)).toBe(withoutLink(toNobody!));

    // No access: the membership is pending; the session cannot work there; sign-in still starts at Bravo.
    expect(await membership(a.pharmacyId, person.id)).toEqual({ role: 'staff', is_active: true, accepted: false });
    const refused = await own.post('/api/me/pharmacy', { pharmacyId: a.pharmacyId });
    expect(refused.status).toBe(404);
    expect((await own.get('/api/me')).body.pharmacy.id).toBe(b.pharmacyId);
    const again = await loginAs(t, person.email);
    expect((await again.get('/api/me')).body.pharmacy.id).toBe(b.pharmacyId);

    // The link cannot join the existing account without its owner signing in; the password is untouched.
    const token = tokenOf(toPerson!);
    const details = await t.client().get(`/api/auth/invite/${encodeURIComponent(token)}`);
    expect(details.body).toMatchObject({ email: person.email, pharmacyName: 'Alpha Chemists', pharmacyId: a.pharmacyId, hasAccount: true });
    const hijack = await t.client().post('/api/auth/accept-invite', { token, password: 'Hijack#2026x', confirmPassword: 'Hijack#2026x' });
    expect(hijack.status).toBe(409);
    expect(hijack.body.error.message).toBe(`You already have a PharmaPoint account. Sign in as ${person.email} to accept this invitation.`);
    expect(await membership(a.pharmacyId, person.id)).toMatchObject({ accepted: false });
    expect((await t.client().post('/api/auth/login', { email: person.email, password: 'Hijack#2026x' })).status).toBe(401);
    await loginAs(t, person.email, FIXTURE_PASSWORD);

    // The invitation waits in the person's own session.
    const mine = await own.get('/api/me/pharmacies');
    expect(mine.status).toBe(200);
    expect(mine.body.pharmacies).toEqual([{ id: b.pharmacyId, name: 'Bravo Pharmacy', role: 'staff', isOwner: false, current: true }]);
    expect(mine.body.invitations).toEqual([expect.objectContaining({ pharmacyId: a.pharmacyId, pharmacyName: 'Alpha Chemists', role: 'staff' })]);
  });

  it('the invited person accepts in their own session, then switches between their pharmacies', async () => {
    const person = b.users.staff!;
    const own = await loginAs(t, person.email);
    // Nobody else can answer for them: another person's session has no such invitation.
    const other = await loginAs(t, b.users.cashier!.email);
    expect((await other.post('/api/me/invitations/accept', { pharmacyId: a.pharmacyId })).status).toBe(404);
    expect(await membership(a.pharmacyId, b.users.cashier!.id)).toBeUndefined();

    const accepted = await own.post('/api/me/invitations/accept', { pharmacyId: a.pharmacyId });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toEqual({ pharmacy: { id: a.pharmacyId, name: 'Alpha Chemists' }, message: 'You joined Alpha Chemists' });
    expect(await membership(a.pharmacyId, person.id)).toEqual({ role: 'staff', is_active: true, accepted: true });
    // The link is used up with the answer.
    const [mail] = await emailsTo(person.email);
    expect((await t.client().get(`/api/auth/invite/${encodeURIComponent(tokenOf(mail!))}`)).body.error.code).toBe('VERIFY_LINK_USED');
    expect((await own.post('/api/me/invitations/accept', { pharmacyId: a.pharmacyId })).status).toBe(404);

    const switched = await own.post('/api/me/pharmacy', { pharmacyId: a.pharmacyId });
    expect(switched.status).toBe(200);
    expect(switched.body.pharmacy).toEqual({ id: a.pharmacyId, name: 'Alpha Chemists' });
    const me = (await own.get('/api/me')).body;
    expect(me.pharmacy.id).toBe(a.pharmacyId);
    expect(me.membership.role).toBe('staff');
    expect(me.branch.id).toBe(a.branches[0]!.id);
    // Now that they accepted, Alpha sees the person as they are.
    const row = (await ownerA.get('/api/users')).body.users.find((u: { email: string }) => u.email === person.email);
    expect(row).toMatchObject({ name: 'staff membravo', invitePending: false, status: 'active' });

    expect((await own.post('/api/me/pharmacy', { pharmacyId: b.pharmacyId })).status).toBe(200);
    expect((await own.get('/api/me')).body.pharmacy.id).toBe(b.pharmacyId);
    // A new sign-in starts where they worked last.
    expect((await (await loginAs(t, person.email)).get('/api/me')).body.pharmacy.id).toBe(b.pharmacyId);
  });

  it('a new person accepts through the emailed link with their own name and password', async () => {
    const [mail] = await emailsTo('nobody.yet@mem.test');
    const token = tokenOf(mail!);
    const c1 = t.client();
    const details = await c1.get(`/api/auth/invite/${encodeURIComponent(token)}`);
    expect(details.body).toEqual({ email: 'nobody.yet@mem.test', name: 'Wafula Invited', pharmacyName: 'Alpha Chemists', pharmacyId: a.pharmacyId, hasAccount: false });
    const accepted = await c1.post('/api/auth/accept-invite', { token, name: 'Wafula Wekesa', password: 'Wafula#2026x', confirmPassword: 'Wafula#2026x' });
    expect(accepted.status).toBe(200);
    expect(accepted.body.pharmacy.id).toBe(a.pharmacyId);
    expect(accepted.body.user.name).toBe('Wafula Wekesa');
    expect(accepted.body.membership.role).toBe('staff');
  });

  it('a person declines: the pharmacy sees Declined, the plan place is free, and no access comes of it', async () => {
    const person = c.users.owner!;
    const invited = await ownerA.post('/api/users/invite', { email: person.email, name: 'Charlie Owner', role: 'cashier', hasPosAccess: true });
    expect(invited.status).toBe(201);
    const own = await loginAs(t, person.email);
    const declined = await own.post('/api/me/invitations/decline', { pharmacyId: a.pharmacyId });
    expect(declined.status).toBe(200);
    expect(declined.body.message).toBe('You declined the invitation to Alpha Chemists');
    const row = (await ownerA.get('/api/users')).body.users.find((u: { email: string }) => u.email === person.email);
    expect(row).toMatchObject({ status: 'declined', isActive: false, invitePending: true, name: 'Charlie Owner' });
    const usage = await usageCountersAndRows(t.db, a.pharmacyId);
    expect(usage.counters.users).toBe(usage.rows.users);
    expect((await own.post('/api/me/pharmacy', { pharmacyId: a.pharmacyId })).status).toBe(404);
    expect((await own.get('/api/me/pharmacies')).body.invitations).toEqual([]);
    // Reactivating is not a way around the answer; asking again is.
    expect((await ownerA.patch(`/api/users/${invited.body.user.id}`, { isActive: true })).status).toBe(409);
    const asked = await ownerA.post(`/api/users/${invited.body.user.id}/resend-invite`);
    expect(asked.status).toBe(200);
    expect(asked.body.user.status).toBe('invited');
    expect((await own.get('/api/me/pharmacies')).body.invitations).toHaveLength(1);
  });

  it('a pharmacy cannot rename a person; the person renames themselves', async () => {
    const cashier = a.users.cashier!;
    const before = await tenantSnapshot(t.db, a.pharmacyId);
    const rename = await ownerA.patch(`/api/users/${cashier.id}`, { name: 'Renamed By Owner' });
    expect(rename.status).toBe(400);
    expect(rename.body.error.code).toBe('VALIDATION_FAILED');
    for (const field of [{ email: 'taken@mem.test' }, { password: 'Taken#2026x' }]) {
      expect((await ownerA.patch(`/api/users/${cashier.id}`, field)).status).toBe(400);
    }
    expect(await tenantSnapshot(t.db, a.pharmacyId)).toEqual(before);
    const [row] = await t.db.owner.query<{ name: string; email: string }>(`SELECT name, email FROM users WHERE id = $1`, [cashier.id]);
    expect(row).toEqual({ name: 'cashier memalpha', email: cashier.email });

    const self = await loginAs(t, cashier.email);
    const renamed = await self.patch('/api/me', { name: '  Achieng Otieno ' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.user.name).toBe('Achieng Otieno');
    expect((await self.patch('/api/me', { name: '' })).status).toBe(400);
    expect((await self.patch('/api/me', { name: 'x', email: 'other@mem.test' })).status).toBe(400);
    const listed = (await ownerA.get('/api/users')).body.users.find((u: { id: string }) => u.id === cashier.id);
    expect(listed.name).toBe('Achieng Otieno');
  });

  it('switching to a pharmacy the person is not an active member of is 404 and changes nothing', async () => {
    const person = b.users.manager!;
    const own = await loginAs(t, person.email);
    // Pending at Alpha, deactivated at Charlie, nothing at all anywhere else.
    expect((await ownerA.post('/api/users/invite', { email: person.email, name: 'Manager', role: 'staff', hasPosAccess: false })).status).toBe(201);
    await t.db.owner.query(`INSERT INTO memberships (pharmacy_id, user_id, role, is_active) VALUES ($1, $2, 'cashier', false)`, [c.pharmacyId, person.id]);
    const sessionRow = () =>
      t.db.owner.query(`SELECT pharmacy_id, branch_id, revoked_at FROM sessions WHERE user_id = $1 AND revoked_at IS NULL ORDER BY created_at DESC LIMIT 1`, [person.id]);
    const before = await sessionRow();
    for (const pharmacyId of [a.pharmacyId, c.pharmacyId, 'no_such_pharmacy', 'demo_pharmacy_shared']) {
      const res = await own.post('/api/me/pharmacy', { pharmacyId });
      expect(res.status, pharmacyId).toBe(404);
      expect(res.body.error.message).toBe('Pharmacy not found');
    }
    for (const body of [{ pharmacyId: 'Not An Id!' }, {}, { pharmacyId: b.pharmacyId, userId: a.users.owner!.id }]) {
      expect((await own.post('/api/me/pharmacy', body)).status, JSON.stringify(body)).toBe(400);
    }
    expect(await sessionRow()).toEqual(before);
    const me = (await own.get('/api/me')).body;
    expect(me.pharmacy.id).toBe(b.pharmacyId);
    expect(me.membership.role).toBe('manager');
    expect((await t.client().post('/api/me/pharmacy', { pharmacyId: b.pharmacyId })).status).toBe(401);
  });

  it('a cashier may create a pharmacy and keeps their place at their employer', async () => {
    const cashier = b.users.cashier!;
    const own = await loginAs(t, cashier.email);
    const before = await tenantSnapshot(t.db, b.pharmacyId);
    const created = await own.post('/api/pharmacies', { name: 'Cashier Own Chemist' });
    expect(created.status).toBe(201);
    const newId = created.body.pharmacy.id as string;
    expect((await own.get('/api/me')).body.pharmacy.id).toBe(newId);
    expect(await tenantSnapshot(t.db, b.pharmacyId)).toEqual(before);
    const mine = (await own.get('/api/me/pharmacies')).body.pharmacies as { id: string; role: string; current: boolean }[];
    expect(mine.map((p) => [p.id, p.role, p.current]).sort()).toEqual(
      [
        [b.pharmacyId, 'cashier', false],
        [newId, 'owner', true],
      ].sort(),
    );
    expect((await own.post('/api/me/pharmacy', { pharmacyId: b.pharmacyId })).status).toBe(200);
    const me = (await own.get('/api/me')).body;
    expect(me.pharmacy.id).toBe(b.pharmacyId);
    expect(me.membership.role).toBe('cashier');
    expect(me.permissions).not.toContain('*');
  });

  it('someone with several pharmacies and no last one chooses after sign-in', async () => {
    const person = await createUser(t.db, { email: 'two.jobs@mem.test', name: 'Two Jobs' });
    for (const ph of [a, c]) {
      await t.db.owner.query(`INSERT INTO memberships (pharmacy_id, user_id, role) VALUES ($1, $2, 'staff')`, [ph.pharmacyId, person.id]);
    }
    const first = await loginAs(t, person.email);
    const me = (await first.get('/api/me')).body;
    expect(me.pharmacy).toBeNull();
    expect(me.permissions).toEqual([]);
    expect((await first.get('/api/products')).status).toBe(400);
    const choices = (await first.get('/api/me/pharmacies')).body.pharmacies.map((p: { id: string }) => p.id).sort();
    expect(choices).toEqual([a.pharmacyId, c.pharmacyId].sort());
    expect((await first.post('/api/me/pharmacy', { pharmacyId: c.pharmacyId })).status).toBe(200);
    // From then on the last one is the obvious one.
    expect((await (await loginAs(t, person.email)).get('/api/me')).body.pharmacy.id).toBe(c.pharmacyId);
  });
});
