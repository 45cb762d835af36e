import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { createTestApp, type TestApp } from './app.ts';
import { testDatabaseKinds } from './database.ts';
import { otherTenantIds } from './fixtures.ts';
import type { TestClient, TestResponse } from './http.ts';
import type { StockPharmacy } from './import-helpers.ts';
import { apiRoutes, fillPath, pathParams, routeName } from './security-helpers.ts';
import { clientsOf, daysFromToday, stockTestPharmacy } from './stock-helpers.ts';

/**
 * Tenant isolation (issue 2 item 7): signed in as the owner of pharmacy A (every permission), every route with a
 * path parameter is called with every id of pharmacy B, for reads and writes; ids of B in query strings and
 * bodies are tried too. The answer is 404 (400 for an id of the wrong shape), never B's data, and B's rows are
 * the same afterwards.
 */

const A = 'iso_alpha';
const B = 'iso_bravo';
/** Text only B's data holds: its id (in its emails and name), its product and branch names. */
const B_MARKERS = [B, 'Bravo'];

/** A plausible body for each write route with a path parameter; a new one must be added here (the test says so). */
const WRITE_BODIES: Record<string, unknown> = {
  'PATCH /api/branches/:id': { name: 'Hijacked Branch', address: 'Taken', isActive: false },
  'POST /api/users/:id/resend-invite': {},
  'POST /api/suspended-sales/:id/cancel': {},
  'POST /api/till-payments/:id/cancel': { reason: 'cashier' },
  'POST /api/till-payments/:id/resolve': { resolution: 'refunded', reference: 'HIJACK-1', note: 'hijack' },
  'POST /api/sales/:id/returns': { id: randomUUID(), lines: [{ line: 1, quantity: 1 }], refundMethod: 'Cash' },
  'POST /api/sales/:id/void': { id: randomUUID() },
  'PATCH /api/contacts/:id': { name: 'Hijacked Contact', isActive: false },
  'PUT /api/supplier-payments/:id': { amountCents: 100, date: '2026-01-01', method: 'Cash' },
  'PUT /api/expenses/:id': { description: 'Hijacked', category: 'Rent', amountCents: 100 },
  'POST /api/expenses/:id/void': { reason: 'Hijacked' },
  'DELETE /api/supplier-payments/:id': undefined,
  'PATCH /api/users/:id': { role: 'user', isActive: false },
  'PATCH /api/products/:id': { name: 'Hijacked Product', sellingPriceCents: 1, isActive: false },
  'DELETE /api/products/:id': undefined,
  'PUT /api/products/:id/branches/:branchId': { sellingPriceCents: 1, purchasePriceCents: 1, isAvailable: false },
  'POST /api/products/:id/batches': { batchNumber: 'HIJACK', expiryDate: daysFromToday(100), quantity: 5, unitCostCents: 100 },
  'POST /api/stock/transfers/:id/approve': { note: 'hijack' },
  'POST /api/stock/transfers/:id/dispatch': { note: 'hijack' },
  'POST /api/stock/transfers/:id/receive': {},
  'POST /api/stock/transfers/:id/cancel': { note: 'hijack' },
  'PUT /api/purchases/:id': { supplierId: randomUUID(), date: '2026-01-01', status: 'received', items: [{ productId: randomUUID(), quantity: 1, purchasePriceCents: 1, sellingPriceCents: 1 }] },
  'POST /api/purchases/:id/receive': {},
  'DELETE /api/purchases/:id': undefined,
  'POST /api/refill-reminders/:saleId/:line/complete': {},
  'POST /api/refill-reminders/:saleId/:line/sms': {},
  'PUT /api/contacts/:id/reminder-consent': { consent: false, source: 'contact' },
};

/** Path parameters that are not ids (a sale's line number): filled with a plausible value, never an id of B. */
const NOT_ID_PARAMS: Record<string, string> = { line: '1' };

/** Reads that need more than the id under test in their query (a register's period). */
const BASE_QUERY: Record<string, string> = { '/api/reports/dda': 'from=2026-01-01&to=2026-12-31' };

/** Routes with a path parameter that take no tenant id, and why. */
const NOT_TENANT_PARAMS: Record<string, string> = {
  'GET /api/docs/static/*': 'the documentation UI files (public, no data)',
  'GET /api/auth/invite/:token': 'a secret invitation token, not an id: an unknown one answers the link message (tested below)',
};

/** Every row of every table of the pharmacy, its pharmacy row and its members' user rows, read as the owner (no RLS). */
async function tenantRows(db: Database, pharmacyId: string): Promise<Record<string, unknown[]>> {
  const tables = await db.owner.query<{ table_name: string }>(
    `SELECT DISTINCT table_name FROM information_schema.columns
      WHERE table_schema = 'public' AND column_name = 'pharmacy_id' ORDER BY table_name`,
  );
  const rows: Record<string, unknown[]> = {};
  for (const { table_name } of tables) {
    rows[table_name] = await db.owner.query(
      `SELECT to_jsonb(t)::text AS row FROM "${table_name}" t WHERE pharmacy_id = $1 ORDER BY 1`,
      [pharmacyId],
    );
  }
  rows.pharmacy = await db.owner.query(`SELECT to_jsonb(p)::text AS row FROM pharmacies p WHERE id = $1`, [pharmacyId]);
  rows.users = await db.owner.query(
    `SELECT to_jsonb(u)::text AS row FROM users u WHERE id IN (SELECT user_id FROM memberships WHERE pharmacy_id = $1) ORDER BY 1`,
    [pharmacyId],
  );
  return rows;
}

/**
 * The ids and marker texts of B found in a response body (empty when it shows nothing of B). An id the request
 * itself carried may be named back (details: { productId }): the caller sent it, so it tells them nothing.
 */
function leaks(res: TestResponse, secrets: readonly string[], request = ''): string[] {
  const text = (typeof res.body === 'string' ? res.body : JSON.stringify(res.body ?? '')).toLowerCase();
  return secrets.filter((s) => !request.toLowerCase().includes(s.toLowerCase()) && text.includes(s.toLowerCase()));
}

/** The answer with an id replaced, to compare the answer for B's id with the one for an id that exists nowhere. */
function shape(res: TestResponse, id: string): string {
  return `${res.status} ${(typeof res.body === 'string' ? res.body : JSON.stringify(res.body ?? '')).split(id).join('<id>')}`;
}

describe.each(testDatabaseKinds())('tenant isolation on %s', (kind) => {
  let t: TestApp;
  let a: StockPharmacy;
  let b: StockPharmacy;
  let ownerA: TestClient;
  let idsB: Record<string, string[]>;
  let allIdsB: string[];
  let secretsB: string[];
  let before: Record<string, unknown[]>;
  /** A's own ids, for the control calls (the same route with A's id works). */
  const own: Record<string, string> = {};

  async function stockUp(owner: TestClient, ph: StockPharmacy, label: string): Promise<Record<string, string>> {
    const [main, second] = [ph.branches[0]!.id, ph.branches[1]!.id];
    const ok = (res: TestResponse, what: string) => {
      if (res.status >= 300) throw new Error(`${label} ${what}: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body;
    };
    const branch = ok(await owner.post('/api/branches', { name: `${label} Kisumu Branch`, address: `${label} Road 1` }), 'branch').branch;
    const drug = ok(
      await owner.post('/api/products', {
        name: `${label} Paracetamol 500mg`,
        sku: `${label.toUpperCase()}-PCM`,
        barcodes: [`${label}-0001`],
        sellingPriceCents: 5_000,
        purchasePriceCents: 3_000,
      }),
      'product',
    ).product;
    const other = ok(await owner.post('/api/products', { name: `${label} Insulin Pen`, sellingPriceCents: 90_000 }), 'product 2').product;
    const batch = ok(
      await owner.post(`/api/products/${drug.id}/batches`, { batchNumber: `${label}-B1`, expiryDate: daysFromToday(300), quantity: 40, unitCostCents: 3_000 }),
      'batch',
    ).batch;
    ok(await owner.post(`/api/products/${other.id}/batches`, { branchId: second, batchNumber: `${label}-B2`, expiryDate: daysFromToday(200), quantity: 10, unitCostCents: 60_000 }), 'batch 2');
    ok(await owner.put(`/api/products/${drug.id}/branches/${second}`, { sellingPriceCents: 5_500, reason: `${label} price rise` }), 'prices');
    const adjustment = ok(
      await owner.post('/api/stock/adjustments', { reason: `${label} count`, items: [{ productId: drug.id, delta: -2, reasonType: 'count_correction' }] }),
      'adjustment',
    );
    const requested = ok(await owner.post('/api/stock/transfers', { fromBranchId: main, toBranchId: second, items: [{ productId: drug.id, quantity: 3 }] }), 'transfer');
    const dispatched = ok(await owner.post('/api/stock/transfers', { fromBranchId: main, toBranchId: second, note: `${label} note`, items: [{ productId: drug.id, quantity: 4 }] }), 'transfer 2');
    ok(await owner.post(`/api/stock/transfers/${dispatched.id}/approve`, {}), 'approve');
    ok(await owner.post(`/api/stock/transfers/${dispatched.id}/dispatch`, {}), 'dispatch');
    ok(
      await owner.post('/api/expenses', { description: `${label} taxi to the bank`, category: 'Transport - Taxi', amountCents: 1_000, transport: { destination: `${label} town`, reason: `${label} deposit` } }),
      'expense',
    );
    const invited = ok(
      await owner.post('/api/users/invite', { email: `invited@${label.toLowerCase()}.test`, name: `${label} Invitee`, role: 'cashier', hasPosAccess: true }),
      'invite',
    ).user;
    return { branch: branch.id, product: drug.id, product2: other.id, batch: batch.id, adjustment: adjustment.id, requested: requested.id, dispatched: dispatched.id, invited: invited.id ?? invited.userId };
  }

  beforeAll(async () => {
    t = await createTestApp(kind);
    a = await stockTestPharmacy(t.db, A, ['owner', 'manager', 'cashier']);
    b = await stockTestPharmacy(t.db, B, ['owner', 'manager', 'cashier']);
    ownerA = (await clientsOf(t, { ...a, users: { owner: a.users.owner! } })).owner!;
    const ownerB = (await clientsOf(t, { ...b, users: { owner: b.users.owner! } })).owner!;
    Object.assign(own, await stockUp(ownerA, a, 'Alpha'));
    own.member = a.users.cashier!;
    own.branchMain = a.branches[0]!.id;
    const madeB = await stockUp(ownerB, b, 'Bravo');
    expect(madeB.product).toBeTruthy();
    idsB = await otherTenantIds(t.db, B);
    allIdsB = [...new Set(Object.values(idsB).flat())];
    secretsB = [...B_MARKERS, ...allIdsB];
    before = await tenantRows(t.db, B);
    // Some of every kind, so the walk below means something.
    for (const table of ['branches', 'products', 'batches', 'stock_movements', 'stock_adjustments', 'stock_transfers', 'memberships']) {
      expect(idsB[table]?.length ?? 0, table).toBeGreaterThan(0);
    }
  });
  afterAll(async () => t?.close());

  // Operator routes work across tenants by design (the platform's own screens): not tenant-scoped ids.
  const paramRoutes = () =>
    apiRoutes(t.app).filter((r) => pathParams(r.url).length > 0 && !NOT_TENANT_PARAMS[routeName(r)] && r.config.access !== 'operator');

  it('the same routes work with A’s own ids (so a 404 below means something)', async () => {
    const controls = [
      `/api/products/${own.product}`,
      `/api/products/${own.product}/movements`,
      `/api/stock/adjustments/${own.adjustment}`,
      `/api/stock/transfers/${own.dispatched}`,
    ];
    for (const url of controls) {
      const res = await ownerA.get(url);
      expect(res.status, url).toBe(200);
      expect(leaks(res, secretsB), url).toEqual([]);
    }
    expect(paramRoutes().length).toBeGreaterThan(12);
  });

  it('every route with a path parameter answers 404 to every id of B, and shows nothing of B', async () => {
    const problems: string[] = [];
    let calls = 0;
    for (const route of paramRoutes()) {
      const name = routeName(route);
      const isWrite = route.method !== 'GET';
      if (isWrite && !(name in WRITE_BODIES)) {
        problems.push(`${name}: no plausible body in WRITE_BODIES`);
        continue;
      }
      const body = isWrite ? WRITE_BODIES[name] : undefined;
      const params = pathParams(route.url);
      for (const id of allIdsB) {
        // Every parameter B's, then (with two parameters) one of B's beside A's own of the other.
        const variants: Record<string, string>[] = [Object.fromEntries(params.map((p) => [p, NOT_ID_PARAMS[p] ?? id]))];
        if (params.includes('branchId') && params.includes('id')) {
          variants.push({ id, branchId: own.branchMain! }, { id: own.product!, branchId: id });
        }
        for (const values of variants) {
          const url = fillPath(route.url, id, values);
          const res = await ownerA.request(route.method, url, body);
          calls += 1;
          if (res.status !== 404) problems.push(`${route.method} ${url}: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
          const leaked = leaks(res, secretsB, url);
          if (leaked.length) problems.push(`${route.method} ${url} shows ${leaked.join(', ')}`);
          // And exactly as for an id that exists nowhere: no way to tell that B's id exists.
          const nowhere = randomUUID();
          const control = await ownerA.request(route.method, url.split(id).join(nowhere), body);
          if (shape(control, nowhere) !== shape(res, id)) problems.push(`${route.method} ${url}: ${shape(res, id)} but for an unknown id ${shape(control, nowhere)}`);
        }
      }
    }
    expect(problems).toEqual([]);
    expect(calls).toBeGreaterThan(paramRoutes().length * 10);
    expect(await tenantRows(t.db, B)).toEqual(before);
    // Two requests per route, id of B and variant, one after another: 32 s alone on PGlite with the back office's
    // routes, past the project's 60 s beside other files on a loaded machine. Not a timing test: it only needs room.
  }, 300_000);

  it('an invitation link of B read by A shows nothing of B (tokens are secrets, ids are not tokens)', async () => {
    for (const id of allIdsB) {
      const res = await ownerA.get(`/api/auth/invite/${id}`);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VERIFY_LINK_USED');
      expect(leaks(res, secretsB, id)).toEqual([]);
    }
  });

  it('an id of the wrong shape (B’s pharmacy id, any text) answers 400', async () => {
    const problems: string[] = [];
    for (const route of paramRoutes()) {
      if (route.url.includes(':token')) continue; // a token is text: an unknown one is 404 (tested above)
      const body = route.method === 'GET' ? undefined : WRITE_BODIES[routeName(route)];
      for (const bad of [B, 'not-a-uuid', `${allIdsB[0]}x`]) {
        const res = await ownerA.request(route.method, fillPath(route.url, bad), body);
        if (res.status !== 400 || res.body?.error?.code !== 'VALIDATION_FAILED') problems.push(`${route.method} ${route.url} with ${bad}: ${res.status}`);
      }
    }
    expect(problems).toEqual([]);
    expect(await tenantRows(t.db, B)).toEqual(before);
  });

  it('ids of B in query strings (?branchId=, ?productId=) show nothing of B', async () => {
    const problems: string[] = [];
    const routes = apiRoutes(t.app).filter((r) => r.method === 'GET' && r.queryKeys.some((k) => k.endsWith('Id')));
    expect(routes.map(routeName)).toEqual(
      expect.arrayContaining(['GET /api/products', 'GET /api/products/export', 'GET /api/stock/adjustments', 'GET /api/stock/transfers', 'GET /api/products/:id/movements', 'GET /api/events', 'GET /api/pos/catalogue']),
    );
    for (const route of routes) {
      for (const key of route.queryKeys.filter((k) => k.endsWith('Id'))) {
        for (const id of allIdsB) {
          const base = BASE_QUERY[route.url];
          const url = `${fillPath(route.url, own.product!)}?${base ? `${base}&` : ''}${key}=${id}`;
          const res = await Promise.race([
            ownerA.get(url),
            new Promise<TestResponse>((resolve) => setTimeout(() => resolve({ status: -1, body: 'no answer (a stream was opened)', headers: {} }), 5_000)),
          ]);
          // A branch or product of another pharmacy is treated as one that exists nowhere (404, or an empty list for a filter).
          const nowhere = randomUUID();
          const control = await ownerA.get(url.split(id).join(nowhere));
          if (shape(control, nowhere) !== shape(res, id)) problems.push(`${url}: ${shape(res, id)} but for an unknown id ${shape(control, nowhere)}`);
          if (![404, 200].includes(res.status)) problems.push(`${url}: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
          const leaked = leaks(res, secretsB, url);
          if (leaked.length) problems.push(`${url} shows ${leaked.join(', ')}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('ids of B inside request bodies are refused and write nothing anywhere', async () => {
    const beforeA = await tenantRows(t.db, A);
    const bBranch = idsB.branches![0]!;
    const bProduct = idsB.products![0]!;
    const bBatch = idsB.batches![0]!;
    const bItem = idsB.stock_transfer_items?.[0] ?? idsB.stock_movements![0]!;
    const bMember = idsB.memberships!.find((id) => id !== b.users.owner)!;
    const aItem = (await t.db.owner.query<{ id: string }>(`SELECT id FROM stock_transfer_items WHERE pharmacy_id = $1 AND transfer_id = $2`, [A, own.dispatched]))[0]?.id;
    expect(aItem).toBeTruthy();
    const attempts: [string, string, unknown][] = [
      ['POST', '/api/stock/adjustments', { branchId: bBranch, reason: 'x', items: [{ productId: own.product, delta: 1, reasonType: 'count_correction' }] }],
      ['POST', '/api/stock/adjustments', { reason: 'x', items: [{ productId: bProduct, delta: 1, reasonType: 'count_correction' }] }],
      ['POST', '/api/stock/adjustments', { reason: 'x', items: [{ productId: own.product, batchId: bBatch, delta: -1, reasonType: 'damage' }] }],
      ['POST', '/api/stock/transfers', { fromBranchId: bBranch, toBranchId: own.branchMain, items: [{ productId: own.product, quantity: 1 }] }],
      ['POST', '/api/stock/transfers', { fromBranchId: own.branchMain, toBranchId: bBranch, items: [{ productId: own.product, quantity: 1 }] }],
      ['POST', '/api/stock/transfers', { fromBranchId: own.branchMain, toBranchId: own.branch, items: [{ productId: bProduct, quantity: 1 }] }],
      ['POST', '/api/stock/transfers', { fromBranchId: own.branchMain, toBranchId: own.branch, items: [{ productId: own.product, quantity: 1, batchId: bBatch }] }],
      ['POST', `/api/stock/transfers/${own.dispatched}/receive`, { items: [{ itemId: bItem, quantityReceived: 1 }] }],
      ['POST', '/api/products', { name: 'Alpha Cross Product', restrictedBranchIds: [bBranch] }],
      ['POST', '/api/products', { name: 'Alpha Cross Product', branches: [{ branchId: bBranch, sellingPriceCents: 1 }] }],
      ['PATCH', `/api/products/${own.product}`, { restrictedBranchIds: [bBranch] }],
      ['PATCH', `/api/products/${own.product}?branchId=${bBranch}`, { sellingPriceCents: 1 }],
      ['POST', `/api/products/${own.product}/batches`, { branchId: bBranch, batchNumber: 'X1', expiryDate: daysFromToday(90), quantity: 1, unitCostCents: 1 }],
      ['POST', '/api/me/branch', { branchId: bBranch }],
      ['POST', '/api/users/invite', { email: 'cross@alpha.test', name: 'Cross', role: 'cashier', hasPosAccess: true, allowedBranchIds: [bBranch] }],
      ['PATCH', `/api/users/${own.member}`, { allowedBranchIds: [bBranch] }],
      ['PATCH', `/api/users/${bMember}`, { allowedBranchIds: [own.branchMain] }],
      ['POST', '/api/expenses', { description: 'Cross', category: 'Rent', amountCents: 100, branchId: bBranch }],
    ];
    const problems: string[] = [];
    for (const [method, url, body] of attempts) {
      const res = await ownerA.request(method, url, body);
      if (![400, 403, 404].includes(res.status)) problems.push(`${method} ${url} ${JSON.stringify(body)}: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
      const leaked = leaks(res, secretsB, url + JSON.stringify(body));
      if (leaked.length) problems.push(`${method} ${url} shows ${leaked.join(', ')}`);
    }
    expect(problems).toEqual([]);
    expect(await tenantRows(t.db, B)).toEqual(before);
    expect(await tenantRows(t.db, A)).toEqual(beforeA);
  });

  it('lists, exports and summaries of A show nothing of B', async () => {
    const routes = apiRoutes(t.app).filter(
      (r) => r.method === 'GET' && pathParams(r.url).length === 0 && r.config.access !== 'public' && r.url !== '/api/events' && r.config.access !== 'operator',
    );
    expect(routes.length).toBeGreaterThan(8);
    // Reads that need a query: another pharmacy's (here: no one's) id answers 404 and shows nothing.
    const needsQuery: Record<string, { query: string; status: number }> = {
      '/api/sales/last-prescription': { query: `clientId=${randomUUID()}`, status: 404 },
      '/api/reports/dda': { query: BASE_QUERY['/api/reports/dda']!, status: 200 },
    };
    for (const route of routes) {
      const extra = needsQuery[route.url];
      const res = await ownerA.get(extra ? `${route.url}?${extra.query}` : route.url);
      expect(res.status, route.url).toBe(extra?.status ?? 200);
      expect(leaks(res, secretsB), route.url).toEqual([]);
    }
    const all = await ownerA.get('/api/products/export?branchId=all');
    expect(all.status).toBe(200);
    expect(String(all.body)).toContain('Alpha Paracetamol');
    expect(leaks(all, secretsB)).toEqual([]);
  });
});
