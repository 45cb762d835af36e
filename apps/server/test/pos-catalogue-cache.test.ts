import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { decodeCatalogue, posCatalogueResponseSchema, type PosCatalogueItem } from '@pharmapoint/domain/pos-catalogue';
import { buildApp, type App } from '../src/app.ts';
import { openPostgres, type Database } from '../src/db/database.ts';
import { createTestApp, type TestApp } from './app.ts';
import { testDatabaseKinds } from './database.ts';
import { TestClient } from './http.ts';
import type { StockPharmacy } from './import-helpers.ts';
import { clientsOf, daysFromToday, stockTestPharmacy } from './stock-helpers.ts';

/**
 * The catalogue's per-branch cache (decision 0064): a second request is answered from it (same ETag, same `at`,
 * 304 to If-None-Match, compressed once), it never answers another branch's or another tenant's catalogue nor
 * skips the access checks, and it is never stale after a sale, a receipt, an adjustment, a price edit or a change
 * no use case announces; on PostgreSQL, also when the change is made through another server instance.
 */
describe.each(testDatabaseKinds())('the till catalogue cache on %s', (kind) => {
  let t: TestApp;
  let ph: StockPharmacy;
  let other: StockPharmacy;
  let c: Record<string, TestClient>;
  let otherOwner: TestClient;
  let main: string;
  let west: string;
  let para: string;
  let saleNumber = 0;

  const get = (who: TestClient, query = '', headers: Record<string, string> = {}) => who.request('GET', `/api/pos/catalogue${query}`, undefined, headers);
  const catalogue = async (who: TestClient, query = '') => {
    const res = await get(who, query);
    expect(res.status).toBe(200);
    const body = posCatalogueResponseSchema.parse(res.body);
    return { body, items: decodeCatalogue(body), etag: res.headers.etag as string };
  };
  const byId = (items: PosCatalogueItem[], id: string) => items.find((i) => i.id === id);
  const sell = async (who: TestClient, quantity: number) => {
    saleNumber += 1;
    const id = `7d6f4b9e-0000-4000-8000-${String(saleNumber).padStart(12, '0')}`;
    const res = await who.request(
      'POST',
      '/api/sales',
      { id, lines: [{ productId: para, quantity }], payments: [{ method: 'Cash', amountCents: quantity * 1000 }], expectedTotalCents: quantity * 1000 },
      { 'idempotency-key': id },
    );
    expect(res.status).toBe(201);
  };

  beforeAll(async () => {
    t = await createTestApp(kind);
    ph = await stockTestPharmacy(t.db, 'poscache_ph', ['owner', 'cashier', 'inventory']);
    other = await stockTestPharmacy(t.db, 'poscache_other', ['owner']);
    c = await clientsOf(t, ph);
    otherOwner = (await clientsOf(t, other)).owner!;
    main = ph.branches[0]!.id;
    west = ph.branches[1]!.id;
    const created = await c.owner!.post('/api/products', { name: 'Paracetamol 500mg', sku: 'PARA', sellingPriceCents: 1000, purchasePriceCents: 500 });
    expect(created.status).toBe(201);
    para = created.body.product.id;
    expect((await c.owner!.post(`/api/products/${para}/batches`, { batchNumber: 'A', expiryDate: daysFromToday(300), quantity: 50, unitCostCents: 500 })).status).toBe(201);
    expect((await otherOwner.post('/api/products', { name: 'Other tenant product', sellingPriceCents: 100 })).status).toBe(201);
  });
  afterAll(async () => t?.close());

  it('answers a second request from the cache: same answer, same ETag, 304 to If-None-Match', async () => {
    const first = await catalogue(c.cashier!);
    const second = await catalogue(c.cashier!);
    expect(first.etag).toMatch(/^"[\w-]+"$/);
    expect(second.etag).toBe(first.etag);
    // `at` is when the answer was built: the second one was not built again.
    expect(second.body.at).toBe(first.body.at);
    const unchanged = await get(c.cashier!, '', { 'if-none-match': first.etag });
    expect(unchanged.status).toBe(304);
    expect(unchanged.body).toBeUndefined();
    expect((await get(c.cashier!, '', { 'if-none-match': '"something-else"' })).status).toBe(200);
  });

  it('sends the kept answer compressed as the client accepts, the same text in every encoding', async () => {
    const plain = await get(c.cashier!);
    const br = await t.app.inject({ method: 'GET', url: '/api/pos/catalogue', headers: { cookie: cookieOf(c.cashier!), 'accept-encoding': 'gzip, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString('utf8'))).toEqual(plain.body);
    const gz = await t.app.inject({ method: 'GET', url: '/api/pos/catalogue', headers: { cookie: cookieOf(c.cashier!), 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString('utf8'))).toEqual(plain.body);
    const none = await t.app.inject({ method: 'GET', url: '/api/pos/catalogue', headers: { cookie: cookieOf(c.cashier!), 'accept-encoding': 'br;q=0, identity' } });
    expect(none.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(none.body)).toEqual(plain.body);
  });

  it("never answers another branch's or another tenant's catalogue from it", async () => {
    const mainCat = await catalogue(c.owner!);
    const westCat = await catalogue(c.owner!, `?branchId=${west}`);
    expect(mainCat.body.branchId).toBe(main);
    expect(westCat.body.branchId).toBe(west);
    expect(westCat.etag).not.toBe(mainCat.etag);
    expect(byId(mainCat.items, para)!.quantity).toBeGreaterThan(0);
    expect(byId(westCat.items, para)?.quantity ?? 0).toBe(0);
    // Both kept now: the other tenant still sees only its own products, and this tenant's branch is 404 to it.
    const theirs = await catalogue(otherOwner);
    expect(theirs.body.branchId).toBe(other.branches[0]!.id);
    expect(theirs.items.map((i) => i.name)).toEqual(['Other tenant product']);
    const refused = await get(otherOwner, `?branchId=${main}`, { 'if-none-match': mainCat.etag });
    expect(refused.status).toBe(404);
  });

  it('checks access on every request, even when the answer is kept', async () => {
    await catalogue(c.cashier!, `?branchId=${west}`);
    await t.db.owner.query(`UPDATE memberships SET allowed_branch_ids = $3 WHERE pharmacy_id = $1 AND user_id = $2`, [ph.pharmacyId, ph.users.cashier, [main]]);
    try {
      // The session cache (decision 0062) hears a membership changed behind the app's back by its notification.
      await vi.waitFor(
        async () => {
          const res = await get(c.cashier!, `?branchId=${west}`);
          expect(res.status).toBe(403);
          expect(res.body.error.code).toBe('BRANCH_NOT_ALLOWED');
        },
        { timeout: 5000, interval: 100 },
      );
    } finally {
      await t.db.owner.query(`UPDATE memberships SET allowed_branch_ids = NULL WHERE pharmacy_id = $1 AND user_id = $2`, [ph.pharmacyId, ph.users.cashier]);
    }
    expect((await c.inventory!.get('/api/pos/catalogue')).status).toBe(403);
  });

  it('is never stale after a sale', async () => {
    const before = await catalogue(c.cashier!);
    const quantity = byId(before.items, para)!.quantity;
    await sell(c.cashier!, 2);
    const after = await catalogue(c.cashier!);
    expect(byId(after.items, para)!.quantity).toBe(quantity - 2);
    expect(after.etag).not.toBe(before.etag);
    expect((await get(c.cashier!, '', { 'if-none-match': before.etag })).status).toBe(200);
  });

  it('is never stale after a receipt', async () => {
    const before = await catalogue(c.cashier!);
    const quantity = byId(before.items, para)!.quantity;
    expect((await c.owner!.post(`/api/products/${para}/batches`, { batchNumber: 'B', expiryDate: daysFromToday(20), quantity: 7, unitCostCents: 500 })).status).toBe(201);
    const after = await catalogue(c.cashier!);
    expect(byId(after.items, para)).toMatchObject({ quantity: quantity + 7, nearestExpiry: daysFromToday(20) });
  });

  it('is never stale after an adjustment', async () => {
    const before = await catalogue(c.cashier!);
    const quantity = byId(before.items, para)!.quantity;
    const res = await c.owner!.post('/api/stock/adjustments', {
      reason: 'Count',
      items: [{ productId: para, delta: -3, reasonType: 'count_correction' }],
    });
    expect(res.status).toBe(201);
    const after = await catalogue(c.cashier!);
    expect(byId(after.items, para)!.quantity).toBe(quantity - 3);
  });

  it('is never stale after a price edit', async () => {
    await catalogue(c.cashier!);
    expect((await c.owner!.put(`/api/products/${para}/branches/${main}`, { sellingPriceCents: 1200 })).status).toBe(200);
    expect(byId((await catalogue(c.cashier!)).items, para)!.priceCents).toBe(1200);
    expect((await c.owner!.put(`/api/products/${para}/branches/${main}`, { sellingPriceCents: 1000 })).status).toBe(200);
    expect(byId((await catalogue(c.cashier!)).items, para)!.priceCents).toBe(1000);
  });

  it('is never stale after a change no use case announces (a batch edited in SQL: its transaction id moves the version)', async () => {
    const before = await catalogue(c.cashier!);
    // A batch's expiry moved by hand: no ledger movement, no updated_at of a product or branch row.
    await t.db.owner.query(`UPDATE batches SET expiry_date = $3 WHERE pharmacy_id = $1 AND product_id = $2 AND batch_number = 'B'`, [ph.pharmacyId, para, daysFromToday(15)]);
    const after = await catalogue(c.cashier!);
    expect(byId(after.items, para)!.nearestExpiry).toBe(daysFromToday(15));
    expect(after.body.at).not.toBe(before.body.at);
  });
});

function cookieOf(client: TestClient): string {
  return [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
}

// Only PostgreSQL has several server instances on one database (PGlite is embedded in one process).
describe.each(testDatabaseKinds().filter((k) => k === 'postgres'))('the till catalogue cache across two server instances on %s', (kind) => {
  let first: TestApp;
  let second: App;
  let secondDb: Database;
  let ph: StockPharmacy;
  let a: TestClient;
  let b: TestClient;
  let para: string;

  beforeAll(async () => {
    first = await createTestApp(kind);
    const [{ name }] = (await first.db.owner.query<{ name: string }>('SELECT current_database() AS name')) as [{ name: string }];
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = `/${name}`;
    secondDb = await openPostgres(url.toString(), { max: 3 });
    second = await buildApp({ db: secondDb, config: first.config });
    await second.ready();
    ph = await stockTestPharmacy(first.db, 'poscache_two', ['owner']);
    a = (await clientsOf(first, ph)).owner!;
    b = new TestClient(second);
    for (const [k, v] of a.cookies) b.cookies.set(k, v);
    const created = await a.post('/api/products', { name: 'Amoxicillin 250mg', sellingPriceCents: 1000, purchasePriceCents: 500 });
    para = created.body.product.id;
    expect((await a.post(`/api/products/${para}/batches`, { batchNumber: 'A', expiryDate: daysFromToday(300), quantity: 20, unitCostCents: 500 })).status).toBe(201);
  });
  afterAll(async () => {
    await second?.close();
    await secondDb?.close();
    await first?.close();
  });

  it('a sale through instance A is in the next answer of instance B, which had the catalogue kept', async () => {
    const read = async (who: TestClient) => decodeCatalogue(posCatalogueResponseSchema.parse((await who.get('/api/pos/catalogue')).body)).find((i) => i.id === para)!;
    expect((await read(b)).quantity).toBe(20);
    expect((await read(b)).quantity).toBe(20);
    const id = '7d6f4b9e-0000-4000-8000-00000000aaaa';
    const sale = await a.request('POST', '/api/sales', { id, lines: [{ productId: para, quantity: 4 }], payments: [{ method: 'Cash', amountCents: 4000 }], expectedTotalCents: 4000 }, { 'idempotency-key': id });
    expect(sale.status).toBe(201);
    expect((await read(b)).quantity).toBe(16);
    // And a change made behind both instances' backs (no version moves): heard by both before they answer.
    await first.db.owner.query(`UPDATE batches SET expiry_date = $2 WHERE product_id = $1`, [para, daysFromToday(40)]);
    expect((await read(b)).nearestExpiry).toBe(daysFromToday(40));
    expect((await read(a)).nearestExpiry).toBe(daysFromToday(40));
  });
});
