import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../src/app.ts';
import { openPostgres, type Database, type Queryable } from '../src/db/database.ts';
import { createMailer } from '../src/platform/mailer.ts';
import { SessionCache } from '../src/platform/session-cache.ts';
import { createTestApp, type TestApp } from './app.ts';
import { testDatabaseKinds } from './database.ts';
import { createPharmacyWithStaff, type PharmacyFixture } from './fixtures.ts';
import { TestClient } from './http.ts';
import { clientsOf, daysFromToday, stockTestPharmacy } from './stock-helpers.ts';
import { ADJUSTMENT_REASON_TYPES } from '@pharmapoint/domain/stock';

const REASON = ADJUSTMENT_REASON_TYPES[0];

/** How long another instance may still let a changed session through (decision 0062): the notification's delivery. */
const NOTIFY_BOUND_MS = 1_000;

async function until<T>(probe: () => Promise<T>, done: (value: T) => boolean, limitMs: number): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  for (;;) {
    const value = await probe();
    const ms = performance.now() - started;
    if (done(value) || ms > limitMs) return { value, ms };
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** The same browser (its cookies) talking to another instance. */
function sameBrowserOn(app: App, client: TestClient): TestClient {
  const other = new TestClient(app);
  for (const [k, v] of client.cookies) other.cookies.set(k, v);
  return other;
}

describe('the session cache on its own', () => {
  it('never stores a load that started before an invalidation (a session read before a sign-out committed)', () => {
    const cache = new SessionCache<string>(5_000);
    const epoch = cache.epoch;
    cache.apply('s:abc'); // the sign-out's notification arrives while the load is on its way
    cache.store('abc', 'stale', { userId: 'u1', pharmacyId: 'p1' }, epoch);
    expect(cache.get('abc')).toBeUndefined();
    cache.store('abc', 'fresh', { userId: 'u1', pharmacyId: 'p1' }, cache.epoch);
    expect(cache.get('abc')).toBe('fresh');
  });

  it('drops by session, user and pharmacy, clears on anything it does not know, and forgets after its TTL', () => {
    let now = 0;
    const cache = new SessionCache<string>(1_000, () => now);
    const put = (hash: string, userId: string, pharmacyId: string | null) => cache.store(hash, hash, { userId, pharmacyId }, cache.epoch);
    put('a', 'u1', 'p1');
    put('b', 'u2', 'p1');
    put('c', 'u3', 'p2');
    put('d', 'u1', null);
    cache.apply('u:u1');
    expect([cache.get('a'), cache.get('d'), cache.get('b')]).toEqual([undefined, undefined, 'b']);
    cache.apply('p:p1');
    expect([cache.get('b'), cache.get('c')]).toEqual([undefined, 'c']);
    cache.apply('sync:other-instance:1'); // another instance's barrier changes nothing here
    expect(cache.get('c')).toBe('c');
    now = 999;
    expect(cache.get('c')).toBe('c');
    now = 1_000;
    expect(cache.get('c')).toBeUndefined();
    put('e', 'u4', 'p3');
    cache.apply('something new');
    expect(cache.size).toBe(0);
  });
});

for (const kind of testDatabaseKinds()) {
  describe(`the session cache of one instance on ${kind}`, () => {
    let t: TestApp;
    let ph: PharmacyFixture;
    const counts = { owner: 0, transactions: 0 };

    beforeAll(async () => {
      // Count the round trips the app makes: its database is wrapped before the app is built.
      t = await createTestApp(kind);
      ph = await createPharmacyWithStaff(t.db, { id: `cache_one_${kind}`, roles: ['owner', 'cashier'], branchNames: ['Main', 'Westlands'] });
    });
    afterAll(async () => t?.close());

    it('GET /api/me reads the session and its branches in one query, then none while cached; no transaction', async () => {
      const db = t.db;
      const counted: Database = {
        ...db,
        owner: { query: (sql, params) => ((counts.owner += /FROM sessions s/.test(sql) ? 1 : 0), db.owner.query(sql, params)) } satisfies Queryable,
        transaction: (scope, work) => ((counts.transactions += 1), db.transaction(scope, work)),
      };
      const app = await buildApp({ db: counted, config: t.config, mailer: createMailer({ db: counted, config: t.config }) });
      try {
        const owner = sameBrowserOn(app, await t.client().login(ph.users.owner!.email, ph.users.owner!.password));
        counts.owner = 0;
        counts.transactions = 0;
        const first = await owner.get('/api/me');
        expect(first.status).toBe(200);
        expect(first.body.allowedBranches.map((b: { name: string }) => b.name)).toEqual(['Main', 'Westlands']);
        expect(counts).toEqual({ owner: 1, transactions: 0 });
        for (let i = 0; i < 5; i++) expect((await owner.get('/api/me')).body).toEqual(first.body);
        expect(counts).toEqual({ owner: 1, transactions: 0 });
      } finally {
        await app.close();
      }
    });

    it('what a request changes shows on the same instance at once: sign-out, lock, a role, a branch', async () => {
      const owner = await t.client().login(ph.users.owner!.email, ph.users.owner!.password);
      const cashier = await t.client().login(ph.users.cashier!.email, ph.users.cashier!.password);
      expect((await cashier.get('/api/me')).body.membership.role).toBe('cashier');
      expect((await owner.patch(`/api/users/${ph.users.cashier!.id}`, { role: 'inventory' })).status).toBe(200);
      expect((await cashier.get('/api/me')).body.membership.role).toBe('inventory');
      const westlands = ph.branches.find((b) => b.name === 'Westlands')!;
      expect((await owner.patch(`/api/branches/${westlands.id}`, { name: 'Westlands Hub' })).status).toBe(200);
      expect((await cashier.get('/api/me')).body.allowedBranches.map((b: { name: string }) => b.name)).toContain('Westlands Hub');
      expect((await cashier.post('/api/auth/lock')).status).toBe(200);
      expect((await cashier.get('/api/products')).body.error.code).toBe('SESSION_LOCKED');
      const copy = sameBrowserOn(t.app, cashier);
      expect((await cashier.post('/api/auth/logout')).status).toBe(200);
      expect((await copy.get('/api/me')).status).toBe(401);
      expect((await owner.patch(`/api/users/${ph.users.cashier!.id}`, { role: 'cashier' })).status).toBe(200);
    });
  });
}

for (const kind of testDatabaseKinds()) {
  describe(`what a write drops from the session cache of its own instance on ${kind} (decision 0073)`, () => {
    let t: TestApp;
    let app: App;
    const loads = { sessions: 0 };
    const clients: Record<string, TestClient> = {};
    let users: Record<string, string>;
    let product: string;
    let sales = 0;

    beforeAll(async () => {
      t = await createTestApp(kind);
      const ph = await stockTestPharmacy(t.db, `cache_writes_${kind}`, ['owner', 'cashier']);
      users = ph.users as Record<string, string>;
      const db = t.db;
      // Session loads counted; on PostgreSQL this instance hears no notification at all (its LISTEN delivers
      // nothing), so what it drops comes from its own transactions only. (PGlite's listener hears a transaction's
      // notifications before its COMMIT returns: that is its way.)
      const counted: Database = {
        ...db,
        owner: { query: (sql, params) => ((loads.sessions += /FROM sessions s/.test(sql) ? 1 : 0), db.owner.query(sql, params)) } satisfies Queryable,
        ...(kind === 'postgres' ? { listen: async () => async () => undefined } : {}),
      };
      app = await buildApp({ db: counted, config: t.config, mailer: createMailer({ db: counted, config: t.config }) });
      for (const [role, client] of Object.entries(await clientsOf(t, ph))) clients[role] = sameBrowserOn(app, client);
      const created = await clients.owner!.post('/api/products', { name: 'Paracetamol 500mg', sku: 'PARA', sellingPriceCents: 1000, purchasePriceCents: 500 });
      expect(created.status).toBe(201);
      product = created.body.product.id;
      const batch = { batchNumber: 'A', expiryDate: daysFromToday(300), quantity: 50, unitCostCents: 500 };
      expect((await clients.owner!.post(`/api/products/${product}/batches`, batch)).status).toBe(201);
    });
    afterAll(async () => {
      await app?.close();
      await t?.close();
    });

    const sell = async (who: TestClient) => {
      sales += 1;
      const id = `5e55ca5e-0000-4000-8000-${String(sales).padStart(12, '0')}`;
      const sale = { id, lines: [{ productId: product, quantity: 1 }], payments: [{ method: 'Cash', amountCents: 1000 }], expectedTotalCents: 1000 };
      const res = await who.request('POST', '/api/sales', sale, { 'idempotency-key': id });
      expect(res.status).toBe(201);
    };

    it('a sale and a stock adjustment drop no session: the till and its pharmacy stay cached', async () => {
      const cashier = clients.cashier!;
      const owner = clients.owner!;
      expect((await cashier.get('/api/me')).status).toBe(200);
      expect((await owner.get('/api/me')).status).toBe(200);
      loads.sessions = 0;
      for (let i = 0; i < 3; i++) {
        await sell(cashier);
        expect((await cashier.get('/api/me')).status).toBe(200);
      }
      const adjustment = await owner.post('/api/stock/adjustments', { reason: 'Shelf count', items: [{ productId: product, delta: -1, reasonType: REASON }] });
      expect(adjustment.status, JSON.stringify(adjustment.body)).toBeLessThan(300);
      expect((await owner.get('/api/me')).status).toBe(200);
      expect((await cashier.get('/api/me')).status).toBe(200);
      expect(loads.sessions).toBe(0);
    });

    it('a role and permission change, a branch renamed, a lock and a sign-out show at once on the next request', async () => {
      const cashier = clients.cashier!;
      const owner = clients.owner!;
      const before = (await cashier.get('/api/me')).body;
      expect(before.membership.role).toBe('cashier');
      expect((await owner.patch(`/api/users/${users.cashier}`, { role: 'inventory' })).status).toBe(200);
      const after = (await cashier.get('/api/me')).body;
      expect(after.membership.role).toBe('inventory');
      expect(after.permissions).not.toEqual(before.permissions);
      expect((await cashier.get('/api/stock/adjustments')).status).not.toBe(403);
      expect((await owner.patch(`/api/users/${users.cashier}`, { role: 'cashier' })).status).toBe(200);
      expect((await cashier.get('/api/me')).body.membership.role).toBe('cashier');
      // The owner changed only the cashier: the owner's own session was not dropped.
      loads.sessions = 0;
      expect((await owner.get('/api/me')).status).toBe(200);
      expect(loads.sessions).toBe(0);
      const branch = before.allowedBranches[1] as { id: string; name: string };
      expect((await owner.patch(`/api/branches/${branch.id}`, { name: `${branch.name} Hub` })).status).toBe(200);
      expect((await cashier.get('/api/me')).body.allowedBranches.map((b: { name: string }) => b.name)).toContain(`${branch.name} Hub`);
      expect((await cashier.post('/api/auth/lock')).status).toBe(200);
      expect((await cashier.get('/api/products')).body.error.code).toBe('SESSION_LOCKED');
      const copy = sameBrowserOn(app, cashier);
      expect((await cashier.post('/api/auth/logout')).status).toBe(200);
      expect((await copy.get('/api/me')).status).toBe(401);
    });
  });
}

describe.runIf(process.env.TEST_DATABASE_URL)('the session cache with two server instances on one PostgreSQL', () => {
  let a: TestApp;
  let dbB: Database;
  let appB: App;
  let ph: PharmacyFixture;

  beforeAll(async () => {
    a = await createTestApp('postgres');
    const [row] = await a.db.owner.query<{ name: string }>(`SELECT current_database() AS name`);
    const name = row!.name;
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = `/${name}`;
    dbB = await openPostgres(url.toString(), { max: 3 });
    appB = await buildApp({ db: dbB, config: a.config, mailer: createMailer({ db: dbB, config: a.config }) });
    await appB.ready();
    ph = await createPharmacyWithStaff(a.db, { id: 'cache_two', roles: ['owner', 'cashier', 'manager'], branchNames: ['Main', 'Karen'] });
  });
  afterAll(async () => {
    await appB?.close();
    await dbB?.close();
    await a?.close();
  });

  /** Signs in on A; the same browser then asks B, which caches the session. */
  async function cachedOnB(email: string): Promise<{ onA: TestClient; onB: TestClient }> {
    const onA = await a.client().login(email, 'Fixture#2026pw');
    const onB = sameBrowserOn(appB, onA);
    expect((await onB.get('/api/me')).status).toBe(200);
    expect((await onB.get('/api/me')).status).toBe(200);
    return { onA, onB };
  }

  it(`a sign-out on A: B refuses the session within ${NOTIFY_BOUND_MS} ms (the notification)`, async () => {
    const { onA, onB } = await cachedOnB(ph.users.cashier!.email);
    expect(appB.sessionCache.size).toBeGreaterThan(0);
    expect((await onA.post('/api/auth/logout')).status).toBe(200);
    const { value, ms } = await until(() => onB.get('/api/me'), (r) => r.status === 401, NOTIFY_BOUND_MS);
    expect(value.status).toBe(401);
    expect(ms).toBeLessThan(NOTIFY_BOUND_MS);
    if (process.env.SESSION_CACHE_TIMING) console.info(`B refused the signed-out session ${ms.toFixed(1)} ms after A's sign-out answered`);
  });

  it('a member deactivated on A is refused by B at once after the notification; a role change shows there too', async () => {
    const owner = await a.client().login(ph.users.owner!.email, 'Fixture#2026pw');
    const { onB } = await cachedOnB(ph.users.manager!.email);
    expect((await owner.patch(`/api/users/${ph.users.manager!.id}`, { role: 'inventory' })).status).toBe(200);
    const changed = await until(() => onB.get('/api/me'), (r) => r.body?.membership?.role === 'inventory', NOTIFY_BOUND_MS);
    expect(changed.value.body.membership.role).toBe('inventory');
    expect((await owner.patch(`/api/users/${ph.users.manager!.id}`, { isActive: false })).status).toBe(200);
    const refused = await until(() => onB.get('/api/products'), (r) => r.status === 401 || r.status === 403, NOTIFY_BOUND_MS);
    expect([401, 403]).toContain(refused.value.status);
    expect(refused.ms).toBeLessThan(NOTIFY_BOUND_MS);
    expect((await owner.patch(`/api/users/${ph.users.manager!.id}`, { isActive: true, role: 'manager' })).status).toBe(200);
  });

  it('a branch renamed on A shows in GET /api/me on B', async () => {
    const owner = await a.client().login(ph.users.owner!.email, 'Fixture#2026pw');
    const { onB } = await cachedOnB(ph.users.cashier!.email);
    const karen = ph.branches.find((b) => b.name === 'Karen')!;
    expect((await owner.patch(`/api/branches/${karen.id}`, { name: 'Karen Junction' })).status).toBe(200);
    const names = (r: { body: { allowedBranches?: { name: string }[] } }) => (r.body.allowedBranches ?? []).map((b) => b.name);
    const { value } = await until(() => onB.get('/api/me'), (r) => names(r).includes('Karen Junction'), NOTIFY_BOUND_MS);
    expect(names(value)).toContain('Karen Junction');
  });

  it('a change made by SQL outside any instance is heard too (the trigger), and sync() waits for it', async () => {
    const { onB } = await cachedOnB(ph.users.cashier!.email);
    await a.db.owner.query(`UPDATE users SET is_disabled = true WHERE id = $1`, [ph.users.cashier!.id]);
    try {
      await appB.sessionCache.sync();
      expect((await onB.get('/api/me')).status).toBe(401);
    } finally {
      await a.db.owner.query(`UPDATE users SET is_disabled = false WHERE id = $1`, [ph.users.cashier!.id]);
    }
  });

  it('when a notification is lost, a cached session lives at most the TTL', async () => {
    const { onB } = await cachedOnB(ph.users.cashier!.email);
    const ttl = appB.sessionCache.ttlMs;
    appB.sessionCache.ttlMs = 400;
    // A lost notification: the trigger is off while the session is revoked.
    await a.db.owner.query(`ALTER TABLE sessions DISABLE TRIGGER sessions_session_cache`);
    try {
      const started = performance.now();
      await a.db.owner.query(`UPDATE sessions SET revoked_at = now() WHERE user_id = $1`, [ph.users.cashier!.id]);
      // B has not heard of it: the cached session still answers (this is what the TTL bounds)...
      expect((await onB.get('/api/me')).status).toBe(200);
      // ...until its entry is older than the TTL.
      const { value } = await until(() => onB.get('/api/me'), (r) => r.status === 401, 2_000);
      expect(value.status).toBe(401);
      expect(performance.now() - started).toBeLessThan(400 + 300);
    } finally {
      await a.db.owner.query(`ALTER TABLE sessions ENABLE TRIGGER sessions_session_cache`);
      appB.sessionCache.ttlMs = ttl;
    }
  });
});
