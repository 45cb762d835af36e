import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './app.ts';
import { testDatabaseKinds } from './database.ts';
import { createPharmacyWithStaff, type PharmacyFixture } from './fixtures.ts';
import type { TestClient } from './http.ts';
import { loginAs, tenantSnapshot } from './platform-helpers.ts';

interface BranchBody {
  id: string;
  name: string;
  address: string | null;
  phone: string | null;
  isDefault: boolean;
  isActive: boolean;
}

describe.each(testDatabaseKinds())('branches on %s', (kind) => {
  let t: TestApp;
  let ph: PharmacyFixture;
  let other: PharmacyFixture;
  let owner: TestClient;
  let admin: TestClient;
  let manager: TestClient;
  let main: string;
  let westlands: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    ph = await createPharmacyWithStaff(t.db, {
      id: 'br_ph',
      plan: 'standard',
      roles: ['owner', 'admin', 'manager', 'cashier'],
      branchNames: ['Main Branch', 'Westlands Branch'],
    });
    other = await createPharmacyWithStaff(t.db, { id: 'br_other', plan: 'standard', roles: ['owner'] });
    main = ph.branches[0]!.id;
    westlands = ph.branches[1]!.id;
    owner = await loginAs(t, ph.users.owner!.email);
    admin = await loginAs(t, ph.users.admin!.email);
    manager = await loginAs(t, ph.users.manager!.email);
  });
  afterAll(async () => t?.close());

  const settingsBranches = async () =>
    (await t.db.owner.query<{ document: { branches: string[]; defaultBranch: string } }>(`SELECT document FROM settings WHERE pharmacy_id = $1`, [
      ph.pharmacyId,
    ]))[0]!.document;

  it('the owner creates a branch; it shows in the list and in the settings branch list', async () => {
    const res = await owner.post('/api/branches', { name: 'Karen Branch', address: 'Karen Road, Nairobi', phone: '0712345678' });
    expect(res.status).toBe(201);
    expect(res.body.branch).toMatchObject({ name: 'Karen Branch', address: 'Karen Road, Nairobi', phone: '0712345678', isDefault: false, isActive: true });
    const list = await owner.get('/api/branches');
    expect(list.body.branches.map((b: BranchBody) => b.name)).toEqual(['Main Branch', 'Karen Branch', 'Westlands Branch']);
    expect((await settingsBranches()).branches).toEqual(['Main Branch', 'Karen Branch', 'Westlands Branch']);
    const [audit] = await t.db.owner.query<{ action: string; entity_id: string }>(
      `SELECT action, entity_id FROM audit_log WHERE pharmacy_id = $1 AND entity = 'branch' ORDER BY at DESC LIMIT 1`,
      [ph.pharmacyId],
    );
    expect(audit).toEqual({ action: 'create', entity_id: res.body.branch.id });
  });

  it('an admin edits a branch; names stay unique (any letter case)', async () => {
    const karen = (await owner.get('/api/branches')).body.branches.find((b: BranchBody) => b.name === 'Karen Branch') as BranchBody;
    const res = await admin.patch(`/api/branches/${karen.id}`, { name: 'Karen Hub', address: null });
    expect(res.status).toBe(200);
    expect(res.body.branch).toMatchObject({ id: karen.id, name: 'Karen Hub', address: null, phone: '0712345678' });
    const taken = await admin.patch(`/api/branches/${karen.id}`, { name: 'westlands branch' });
    expect(taken.status).toBe(409);
    expect(taken.body.error.message).toBe('A branch with this name already exists.');
    const duplicate = await owner.post('/api/branches', { name: 'MAIN BRANCH' });
    expect(duplicate.status).toBe(409);
  });

  it('moves the default flag, keeps exactly one default and at least one active branch', async () => {
    const moved = await owner.patch(`/api/branches/${westlands}`, { isDefault: true });
    expect(moved.status).toBe(200);
    const branches = (await owner.get('/api/branches')).body.branches as BranchBody[];
    expect(branches.filter((b) => b.isDefault).map((b) => b.id)).toEqual([westlands]);
    expect((await settingsBranches()).defaultBranch).toBe('Westlands Branch');
    const unset = await owner.patch(`/api/branches/${westlands}`, { isDefault: false });
    expect(unset.status).toBe(409);
    // Deactivating the default hands the flag to another active branch.
    const closed = await owner.patch(`/api/branches/${westlands}`, { isActive: false });
    expect(closed.status).toBe(200);
    expect(closed.body.branch).toMatchObject({ isActive: false, isDefault: false });
    const after = (await owner.get('/api/branches')).body.branches as BranchBody[];
    expect(after.filter((b) => b.isDefault)).toHaveLength(1);
    expect((await settingsBranches()).branches).not.toContain('Westlands Branch');
    expect((await owner.patch(`/api/branches/${westlands}`, { isActive: true })).status).toBe(200);
  });

  it('refuses bad input, members without settings:system and other tenants, writing nothing', async () => {
    const before = await tenantSnapshot(t.db, ph.pharmacyId);
    for (const body of [{}, { name: '' }, { name: '   ' }, { name: 'x'.repeat(81) }, { name: 'Ok', phone: 12 }, { name: 'Ok', region: 'Coast' }]) {
      const res = await owner.post('/api/branches', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const byManager = await manager.post('/api/branches', { name: 'Manager Branch' });
    expect(byManager.status).toBe(403);
    expect((await manager.patch(`/api/branches/${main}`, { name: 'Renamed By Manager' })).status).toBe(403);
    const foreign = await owner.patch(`/api/branches/${other.branches[0]!.id}`, { name: 'Hijacked' });
    expect(foreign.status).toBe(404);
    expect((await owner.patch('/api/branches/not-a-uuid', { name: 'X' })).status).toBe(400);
    expect(await tenantSnapshot(t.db, ph.pharmacyId)).toEqual(before);
    const [foreignRow] = await t.db.owner.query<{ name: string }>(`SELECT name FROM branches WHERE id = $1`, [other.branches[0]!.id]);
    expect(foreignRow?.name).toBe('Main Branch');
  });

  it('a user sees and switches only to allowed, active branches; the choice is remembered in the session', async () => {
    await owner.patch(`/api/users/${ph.users.cashier!.id}`, { allowedBranchIds: [main] });
    const cashier = await loginAs(t, ph.users.cashier!.email);
    const visible = (await cashier.get('/api/branches')).body.branches as BranchBody[];
    expect(visible.map((b) => b.id)).toEqual([main]);
    const me = await cashier.get('/api/me');
    expect(me.body.allowedBranches.map((b: { id: string }) => b.id)).toEqual([main]);

    const refused = await cashier.post('/api/me/branch', { branchId: westlands });
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe('You are not allowed to work in this branch.');
    expect((await cashier.post('/api/me/branch', { branchId: other.branches[0]!.id })).status).toBe(404);
    const ok = await cashier.post('/api/me/branch', { branchId: main });
    expect(ok.status).toBe(200);
    expect(ok.body.branch.id).toBe(main);

    // With every branch allowed, the switch sticks for the session.
    await owner.patch(`/api/users/${ph.users.cashier!.id}`, { allowedBranchIds: null });
    const everywhere = await loginAs(t, ph.users.cashier!.email);
    const switched = await everywhere.post('/api/me/branch', { branchId: westlands });
    expect(switched.status).toBe(200);
    expect((await everywhere.get('/api/me')).body.branch.id).toBe(westlands);
  });

  it('moves a session off a branch the user may no longer work in (restricted or closed)', async () => {
    const cashier = await loginAs(t, ph.users.cashier!.email);
    expect((await cashier.post('/api/me/branch', { branchId: westlands })).status).toBe(200);
    const sessionBranch = async () =>
      (await t.db.owner.query<{ branch_id: string | null }>(
        `SELECT branch_id FROM sessions WHERE user_id = $1 AND revoked_at IS NULL ORDER BY created_at DESC LIMIT 1`,
        [ph.users.cashier!.id],
      ))[0]!.branch_id;
    expect(await sessionBranch()).toBe(westlands);

    expect((await owner.patch(`/api/users/${ph.users.cashier!.id}`, { allowedBranchIds: [main] })).status).toBe(200);
    expect(await sessionBranch()).toBe(main);
    expect((await cashier.get('/api/me')).body.branch.id).toBe(main);

    expect((await owner.patch(`/api/users/${ph.users.cashier!.id}`, { allowedBranchIds: null })).status).toBe(200);
    expect((await cashier.post('/api/me/branch', { branchId: westlands })).status).toBe(200);
    expect((await owner.patch(`/api/branches/${westlands}`, { isActive: false })).status).toBe(200);
    const moved = await sessionBranch();
    expect(moved).not.toBe(westlands);
    expect((await cashier.get('/api/me')).body.branch.id).toBe(moved);
    expect((await owner.patch(`/api/branches/${westlands}`, { isActive: true })).status).toBe(200);
  });

  it('nobody switches to a closed branch', async () => {
    const created = await owner.post('/api/branches', { name: 'Short-lived Branch' });
    const id = created.body.branch.id as string;
    expect((await owner.patch(`/api/branches/${id}`, { isActive: false })).status).toBe(200);
    const res = await admin.post('/api/me/branch', { branchId: id });
    expect(res.status).toBe(403);
    const cashier = await loginAs(t, ph.users.cashier!.email);
    const list = (await cashier.get('/api/branches')).body.branches as BranchBody[];
    expect(list.map((b) => b.id)).not.toContain(id);
  });
});
