import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { seedDemoData } from '../src/db/seed.ts';
import { createTestDatabase, testDatabaseKinds } from './database.ts';
import { createPharmacyWithStaff } from './fixtures.ts';

describe.each(testDatabaseKinds())('createPharmacy and the seed on %s', (kind) => {
  let db: Database;
  beforeAll(async () => {
    db = await createTestDatabase(kind);
  });
  afterAll(async () => db?.close());

  it('creates a pharmacy with a default Main Branch, settings, a subscription and the owner membership', async () => {
    const fixture = await createPharmacyWithStaff(db, { id: 'pharm_fixture', plan: 'trial', roles: ['owner', 'cashier'], branchNames: ['Main Branch'] });
    const [branch] = await db.owner.query<{ name: string; is_default: boolean }>(`SELECT name, is_default FROM branches WHERE pharmacy_id = $1`, [fixture.pharmacyId]);
    expect(branch).toEqual({ name: 'Main Branch', is_default: true });
    const [sub] = await db.owner.query<{ plan_id: string; max_users: number }>(`SELECT plan_id, max_users FROM subscriptions WHERE pharmacy_id = $1`, [fixture.pharmacyId]);
    expect(sub).toEqual({ plan_id: 'trial', max_users: 1 });
    const [settings] = await db.owner.query<{ document: { defaultBranch: string } }>(`SELECT document FROM settings WHERE pharmacy_id = $1`, [fixture.pharmacyId]);
    expect(settings?.document.defaultBranch).toBe('Main Branch');
    const members = await db.owner.query<{ role: string; is_owner: boolean }>(`SELECT role, is_owner FROM memberships WHERE pharmacy_id = $1 ORDER BY role`, [fixture.pharmacyId]);
    expect(members).toEqual([{ role: 'cashier', is_owner: false }, { role: 'owner', is_owner: true }]);
  });

  it('seeds the demo data once', async () => {
    expect(await seedDemoData(db)).toBe(true);
    expect(await seedDemoData(db)).toBe(false);
    const branches = await db.owner.query<{ name: string }>(`SELECT name FROM branches WHERE pharmacy_id = 'demo_pharmacy_shared' ORDER BY name`);
    expect(branches.map((b) => b.name)).toEqual(['Main Branch', 'Westlands Branch']);
  });
});
