import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './app.ts';
import { testDatabaseKinds } from './database.ts';
import { createPharmacyWithStaff } from './fixtures.ts';
import type { TestClient } from './http.ts';
import { countRows, loginAs, syncUsageCounters, usageCountersAndRows } from './platform-helpers.ts';

/**
 * Plan limits under concurrency (issue 6 item 7): the usage counters are taken by one conditional UPDATE, so
 * twenty simultaneous creations stop exactly at the limit, with no lock on the subscription, and the counters
 * equal the rows afterwards. On PostgreSQL the requests really run at once (a pool of connections); on PGlite
 * they interleave on its one connection.
 */
describe.each(testDatabaseKinds())('plan limits under concurrency on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => t?.close());

  const CONCURRENT = 20;
  const limitMessage = (limit: number, usage: number) => `Limit exceeded. Plan allows ${limit}, current usage: ${usage}`;

  async function trialOwner(id: string): Promise<{ pharmacyId: string; owner: TestClient }> {
    const ph = await createPharmacyWithStaff(t.db, { id, plan: 'trial', roles: ['owner'], branchNames: ['Main Branch'] });
    return { pharmacyId: ph.pharmacyId, owner: await loginAs(t, ph.users.owner!.email) };
  }

  /** Fires all requests at once and returns their statuses, the 402 answers' messages and the 201 count. */
  async function race(requests: (() => Promise<{ status: number; body: { error?: { message: string } } }>)[]) {
    const results = await Promise.all(requests.map((send) => send()));
    const statuses = results.map((r) => r.status);
    expect(statuses.every((s) => s === 201 || s === 402), JSON.stringify(results.filter((r) => r.status !== 201 && r.status !== 402).map((r) => r.body))).toBe(true);
    return { created: statuses.filter((s) => s === 201).length, refused: results.filter((r) => r.status === 402) };
  }

  it('20 simultaneous product creations on a trial at 45 of 50 products stop at exactly 50', async () => {
    const { pharmacyId, owner } = await trialOwner('plc_products');
    await t.db.owner.query(`INSERT INTO products (pharmacy_id, name) SELECT $1, 'Stocked ' || g FROM generate_series(1, 45) g`, [pharmacyId]);
    await syncUsageCounters(t.db, pharmacyId);
    expect((await owner.get('/api/subscription')).body.usage.products).toBe(45);

    const { created, refused } = await race(
      Array.from({ length: CONCURRENT }, (_, i) => () => owner.post('/api/products', { name: `Concurrent product ${i}` })),
    );
    expect(created).toBe(5);
    expect(refused).toHaveLength(CONCURRENT - 5);
    for (const r of refused) expect(r.body.error?.message).toBe(limitMessage(50, 50));
    expect(await countRows(t.db, 'products', pharmacyId)).toBe(50);
    const { counters, rows } = await usageCountersAndRows(t.db, pharmacyId);
    expect(counters).toEqual(rows);
    expect((await owner.get('/api/subscription')).body.usage.products).toBe(50);
  });

  it('4 simultaneous CSV imports of 30 products each on a trial (50 products): one gets in, the others are refused whole', async () => {
    const { pharmacyId, owner } = await trialOwner('plc_imports');
    const csv = (round: number) =>
      ['Name,SKU,Selling Price (KSh),Purchase Price (KSh),Opening Quantity', ...Array.from({ length: 30 }, (_, i) => `Imported ${round}-${i},IMP-${round}-${i},10,5,3`)].join('\n');
    const results = await Promise.all(
      [1, 2, 3, 4].map((round) => owner.request('POST', '/api/products/import?mode=all-or-nothing', csv(round), { 'content-type': 'text/csv' })),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.every((s) => s === 200 || s === 402), JSON.stringify(results.map((r) => r.body))).toBe(true);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    for (const r of results.filter((x) => x.status === 402)) expect(r.body.error?.message).toBe(limitMessage(50, 30));
    expect(await countRows(t.db, 'products', pharmacyId)).toBe(30);
    const { counters, rows } = await usageCountersAndRows(t.db, pharmacyId);
    expect(counters).toEqual(rows);

    // 4 imports of 5 at 45 of 50 after they were refused: every one fits but the last, whichever it is.
    await t.db.owner.query(`INSERT INTO products (pharmacy_id, name) SELECT $1, 'Stocked ' || g FROM generate_series(1, 15) g`, [pharmacyId]);
    await syncUsageCounters(t.db, pharmacyId);
    const small = (round: number) => ['Name,Opening Quantity', ...Array.from({ length: 2 }, (_, i) => `Small ${round}-${i},1`)].join('\n');
    const second = await Promise.all(
      [1, 2, 3, 4].map((round) => owner.request('POST', '/api/products/import?mode=valid-only', small(round), { 'content-type': 'text/csv' })),
    );
    expect(second.map((r) => r.status).sort()).toEqual([200, 200, 402, 402]);
    expect(await countRows(t.db, 'products', pharmacyId)).toBe(49);
    const after = await usageCountersAndRows(t.db, pharmacyId);
    expect(after.counters).toEqual(after.rows);
  });

  it('20 simultaneous invitations on a trial (1 user, the owner) are all refused; with 6 places, exactly 5 get in', async () => {
    const { pharmacyId, owner } = await trialOwner('plc_users');
    const invite = (i: number, round: string) => () =>
      owner.post('/api/users/invite', { email: `staff${i}.${round}@plc-users.test`, name: `Staff ${i}`, role: 'cashier', hasPosAccess: true });

    const atLimit = await race(Array.from({ length: CONCURRENT }, (_, i) => invite(i, 'a')));
    expect(atLimit.created).toBe(0);
    for (const r of atLimit.refused) expect(r.body.error?.message).toBe(limitMessage(1, 1));
    expect(await countRows(t.db, 'memberships', pharmacyId)).toBe(1);

    // A trial whose user limit was raised to 6: the owner and five of the twenty.
    await t.db.owner.query(`UPDATE subscriptions SET max_users = 6 WHERE pharmacy_id = $1`, [pharmacyId]);
    const raised = await race(Array.from({ length: CONCURRENT }, (_, i) => invite(i, 'b')));
    expect(raised.created).toBe(5);
    for (const r of raised.refused) expect(r.body.error?.message).toBe(limitMessage(6, 6));
    expect(await countRows(t.db, 'memberships', pharmacyId)).toBe(6);
    const { counters, rows } = await usageCountersAndRows(t.db, pharmacyId);
    expect(counters).toEqual(rows);
    expect(counters.users).toBe(6);
  });

  it('20 simultaneous branch openings on a trial (1 branch) are all refused; with 6 places, exactly 5 open', async () => {
    const { pharmacyId, owner } = await trialOwner('plc_branches');
    const open = (i: number, round: string) => () => owner.post('/api/branches', { name: `Branch ${round}${i}` });

    const atLimit = await race(Array.from({ length: CONCURRENT }, (_, i) => open(i, 'a')));
    expect(atLimit.created).toBe(0);
    for (const r of atLimit.refused) expect(r.body.error?.message).toBe(limitMessage(1, 1));

    await t.db.owner.query(`UPDATE subscriptions SET max_branches = 6 WHERE pharmacy_id = $1`, [pharmacyId]);
    const raised = await race(Array.from({ length: CONCURRENT }, (_, i) => open(i, 'b')));
    expect(raised.created).toBe(5);
    for (const r of raised.refused) expect(r.body.error?.message).toBe(limitMessage(6, 6));
    expect(await countRows(t.db, 'branches', pharmacyId)).toBe(6);
    const { counters, rows } = await usageCountersAndRows(t.db, pharmacyId);
    expect(counters).toEqual(rows);
  });

  it('deactivating gives places back and reactivating takes them again; the counters follow the rows', async () => {
    const ph = await createPharmacyWithStaff(t.db, { id: 'plc_release', plan: 'trial', roles: ['owner', 'cashier'], branchNames: ['Main Branch', 'Second'] });
    await t.db.owner.query(`UPDATE subscriptions SET max_users = 2, max_branches = 2 WHERE pharmacy_id = $1`, [ph.pharmacyId]);
    const owner = await loginAs(t, ph.users.owner!.email);
    const second = ph.branches[1]!.id;
    const cashier = ph.users.cashier!.id;

    expect((await owner.patch(`/api/branches/${second}`, { isActive: false })).status).toBe(200);
    expect((await owner.patch(`/api/users/${cashier}`, { isActive: false })).status).toBe(200);
    expect((await owner.get('/api/subscription')).body.usage).toMatchObject({ users: 1, branches: 1 });
    // The freed places can be taken by someone else...
    expect((await owner.post('/api/branches', { name: 'Third' })).status).toBe(201);
    // ...and then the old branch cannot come back.
    const reopen = await owner.patch(`/api/branches/${second}`, { isActive: true });
    expect(reopen.status).toBe(402);
    expect(reopen.body.error.message).toBe(limitMessage(2, 2));
    expect((await owner.patch(`/api/users/${cashier}`, { isActive: true })).status).toBe(200);
    const { counters, rows } = await usageCountersAndRows(t.db, ph.pharmacyId);
    expect(counters).toEqual(rows);
    expect(counters).toMatchObject({ users: 2, branches: 2 });
  });

  it('a change that fails after taking a place gives it back (the transaction rolls back)', async () => {
    const { pharmacyId, owner } = await trialOwner('plc_rollback');
    await t.db.owner.query(`UPDATE subscriptions SET max_branches = 3 WHERE pharmacy_id = $1`, [pharmacyId]);
    expect((await owner.post('/api/branches', { name: 'Westlands' })).status).toBe(201);
    // The name is taken: refused after the place was taken, and the place comes back with the rollback.
    const duplicate = await owner.post('/api/branches', { name: 'westlands' });
    expect(duplicate.status).toBe(409);
    const { counters, rows } = await usageCountersAndRows(t.db, pharmacyId);
    expect(counters).toEqual(rows);
    expect(counters.branches).toBe(2);
  });
});
