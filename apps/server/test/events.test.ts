import { businessDate } from '@pharmapoint/domain/stock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { buildApp, type App } from '../src/app.ts';
import { openPostgres, type Database } from '../src/db/database.ts';
import { applyStockChanges } from '../src/modules/stock/ledger.service.ts';
import { notifyProductsChanged, notifyStockChange, stockPayloads } from '../src/platform/events.ts';
import { createTestApp, type TestApp } from './app.ts';
import { testDatabaseKinds } from './database.ts';
import { minimalPharmacy, sessionCookie, SseClient, type MinimalPharmacy } from './sse-client.ts';

describe('NOTIFY payloads', () => {
  it('splits many stock events into payloads under the 8000-byte limit, losing none', () => {
    const events = Array.from({ length: 500 }, (_, i) => ({
      productId: randomUUID(),
      branchId: randomUUID(),
      quantity: i,
      reservedQuantity: 0,
      reason: `Import row ${i}`,
      at: new Date().toISOString(),
    }));
    const payloads = stockPayloads('pharm_x', events);
    expect(payloads.length).toBeGreaterThan(1);
    for (const p of payloads) expect(Buffer.byteLength(p)).toBeLessThan(8000);
    const back = payloads.flatMap((p) => JSON.parse(p).e);
    expect(back).toEqual(events);
    // Each payload is exactly the message as JSON (the events are written once each, then joined).
    for (const p of payloads) expect(p).toBe(JSON.stringify({ t: 'stock', p: 'pharm_x', e: JSON.parse(p).e }));
    expect(stockPayloads('pharm "q"', events.slice(0, 2))).toEqual([JSON.stringify({ t: 'stock', p: 'pharm "q"', e: events.slice(0, 2) })]);
  });
});

describe.each(testDatabaseKinds())('live stock events (GET /api/events) on %s', (kind) => {
  let t: TestApp;
  let a: MinimalPharmacy;
  let b: MinimalPharmacy;
  let base: string;
  let cookieA: string;
  let cookieB: string;
  const clients: SseClient[] = [];

  beforeAll(async () => {
    t = await createTestApp(kind);
    a = await minimalPharmacy(t.db, 'events_a');
    b = await minimalPharmacy(t.db, 'events_b');
    cookieA = await sessionCookie(t.db, a.ownerId, a.pharmacyId, a.branches[0]!.id);
    cookieB = await sessionCookie(t.db, b.ownerId, b.pharmacyId, b.branches[0]!.id);
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await t?.close();
  });

  async function open(path: string, cookie: string): Promise<SseClient> {
    const client = await SseClient.open(`${base}${path}`, cookie);
    clients.push(client);
    return client;
  }

  function change(pharmacyId: string, branchId: string, productId: string, quantity: number, reason = 'Adjustment') {
    return { pharmacyId, branchId, productId, quantity, reservedQuantity: 0, reason };
  }

  it('refuses a caller who is not signed in', async () => {
    const client = await open('/api/events', 'pp_session=nonsense');
    expect(client.status).toBe(401);
  });

  it('streams text/event-stream with retry and a ready event', async () => {
    const client = await open('/api/events', cookieA);
    expect(client.status).toBe(200);
    expect(client.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(client.headers['cache-control']).toContain('no-cache');
    const ready = await client.next((e) => e.event === 'ready');
    expect(typeof ready.data.at).toBe('string');
    expect(client.retry).toBe(3000);
  });

  it('delivers a committed stock change to the clients of its pharmacy only, and never a rolled-back one', async () => {
    const mine = await open('/api/events', cookieA);
    const theirs = await open('/api/events', cookieB);
    await mine.next((e) => e.event === 'ready');
    await theirs.next((e) => e.event === 'ready');
    const productId = randomUUID();
    const rolledBack = randomUUID();
    await expect(
      t.db.transaction({ pharmacyId: a.pharmacyId }, async (q) => {
        notifyStockChange(q, change(a.pharmacyId, a.branches[0]!.id, rolledBack, 1));
        throw new Error('the sale failed');
      }),
    ).rejects.toThrow('the sale failed');
    await t.db.transaction({ pharmacyId: a.pharmacyId }, async (q) =>
      notifyStockChange(q, change(a.pharmacyId, a.branches[0]!.id, productId, 42, 'Sale: INV-000001')),
    );
    const event = await mine.next((e) => e.event === 'stock' && e.data.productId === productId);
    expect(event.data).toMatchObject({ productId, branchId: a.branches[0]!.id, quantity: 42, reservedQuantity: 0, reason: 'Sale: INV-000001' });
    expect(Number.isNaN(Date.parse(event.data.at))).toBe(false);
    // A later event of B's own proves B's stream is live, so A's event would have arrived by now.
    const marker = randomUUID();
    await t.db.transaction({ pharmacyId: b.pharmacyId }, async (q) => notifyStockChange(q, change(b.pharmacyId, b.branches[0]!.id, marker, 1)));
    await theirs.next((e) => e.event === 'stock' && e.data.productId === marker);
    expect(theirs.events.some((e) => e.data.productId === productId)).toBe(false);
    expect([...mine.events, ...theirs.events].some((e) => e.data.productId === rolledBack)).toBe(false);
  });

  it('filters by branch when asked', async () => {
    const [main, second] = a.branches;
    const client = await open(`/api/events?branchId=${second!.id}`, cookieA);
    await client.next((e) => e.event === 'ready');
    const p1 = randomUUID();
    const p2 = randomUUID();
    await t.db.transaction({ pharmacyId: a.pharmacyId }, async (q) =>
      notifyStockChange(q, [change(a.pharmacyId, main!.id, p1, 5), change(a.pharmacyId, second!.id, p2, 6)]),
    );
    const event = await client.next((e) => e.event === 'stock');
    expect(event.data.productId).toBe(p2);
    expect(client.events.some((e) => e.data.productId === p1)).toBe(false);
  });

  it('rejects an unknown branch, or one of another pharmacy', async () => {
    expect((await open(`/api/events?branchId=${b.branches[0]!.id}`, cookieA)).status).toBe(404);
    expect((await open('/api/events?branchId=not-a-uuid', cookieA)).status).toBe(400);
  });

  it('delivers a bulk products event', async () => {
    const client = await open('/api/events', cookieA);
    await client.next((e) => e.event === 'ready');
    await t.db.transaction({ pharmacyId: a.pharmacyId }, async (q) =>
      notifyProductsChanged(q, a.pharmacyId, { reason: 'Import', count: 1200, branchIds: [a.branches[0]!.id] }),
    );
    const event = await client.next((e) => e.event === 'products');
    expect(event.data).toMatchObject({ reason: 'Import', count: 1200, branchIds: [a.branches[0]!.id] });
  });

  it('delivers thousands of changes of one transaction', async () => {
    const client = await open('/api/events', cookieA);
    await client.next((e) => e.event === 'ready');
    const changes = Array.from({ length: 2000 }, (_, i) => change(a.pharmacyId, a.branches[0]!.id, randomUUID(), i));
    await t.db.transaction({ pharmacyId: a.pharmacyId }, async (q) => notifyStockChange(q, changes));
    const last = changes[changes.length - 1]!;
    await client.next((e) => e.event === 'stock' && e.data.productId === last.productId, 10_000);
    const got = new Set(client.events.filter((e) => e.event === 'stock').map((e) => e.data.productId));
    expect(changes.every((c) => got.has(c.productId))).toBe(true);
  });
});

// Only PostgreSQL has several server instances on one database (PGlite is embedded in one process).
describe.each(testDatabaseKinds().filter((k) => k === 'postgres'))('live stock events across two server instances on %s', (kind) => {
  let first: TestApp;
  let second: App;
  let secondDb: Database;
  let pharmacy: MinimalPharmacy;
  let client: SseClient | null = null;

  beforeAll(async () => {
    first = await createTestApp(kind);
    const [{ name }] = (await first.db.owner.query<{ name: string }>('SELECT current_database() AS name')) as [{ name: string }];
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = `/${name}`;
    secondDb = await openPostgres(url.toString(), { max: 3 });
    second = await buildApp({ db: secondDb, config: first.config });
    await second.ready();
    pharmacy = await minimalPharmacy(first.db, 'events_two');
  });
  afterAll(async () => {
    client?.close();
    await second?.close();
    await secondDb?.close();
    await first?.close();
  });

  it('a stock change committed through instance A reaches an SSE client of instance B', async () => {
    const cookie = await sessionCookie(first.db, pharmacy.ownerId, pharmacy.pharmacyId, pharmacy.branches[0]!.id);
    const secondUrl = await second.listen({ port: 0, host: '127.0.0.1' });
    client = await SseClient.open(`${secondUrl}/api/events`, cookie);
    await client.next((e) => e.event === 'ready');
    const productId = randomUUID();
    // Instance A's database handle: its own pool and its own LISTEN connection.
    await first.db.transaction({ pharmacyId: pharmacy.pharmacyId }, async (q) =>
      notifyStockChange(q, {
        pharmacyId: pharmacy.pharmacyId,
        branchId: pharmacy.branches[1]!.id,
        productId,
        quantity: 7,
        reservedQuantity: 2,
        reason: 'Transfer in',
      }),
    );
    const event = await client.next((e) => e.event === 'stock' && e.data.productId === productId, 3000);
    expect(event.data).toMatchObject({ branchId: pharmacy.branches[1]!.id, quantity: 7, reservedQuantity: 2, reason: 'Transfer in' });
  });

  it('a change is delivered once on each instance (its own instance at once, not again from its NOTIFY), with the ledger sequence', async () => {
    const cookie = await sessionCookie(first.db, pharmacy.ownerId, pharmacy.pharmacyId, pharmacy.branches[0]!.id);
    const firstUrl = await first.app.listen({ port: 0, host: '127.0.0.1' });
    const secondUrl = second.server.address() ? `http://127.0.0.1:${(second.server.address() as { port: number }).port}` : await second.listen({ port: 0, host: '127.0.0.1' });
    const onFirst = await SseClient.open(`${firstUrl}/api/events`, cookie);
    const onSecond = await SseClient.open(`${secondUrl}/api/events`, cookie);
    try {
      await onFirst.next((e) => e.event === 'ready');
      await onSecond.next((e) => e.event === 'ready');
      const product = await first.db.owner.query<{ id: string }>(
        `INSERT INTO products (pharmacy_id, name, sku) VALUES ($1, 'Seq test', $2) RETURNING id`,
        [pharmacy.pharmacyId, `SEQ-${randomUUID().slice(0, 8)}`],
      );
      const productId = product[0]!.id;
      const branchId = pharmacy.branches[0]!.id;
      // Three changes of the same stock through instance A's ledger, one transaction each.
      for (const delta of [5, -1, -1]) {
        await first.db.transaction({ pharmacyId: pharmacy.pharmacyId }, (q) =>
          applyStockChanges(q, { pharmacyId: pharmacy.pharmacyId, userId: null, today: businessDate(new Date(), 'Africa/Nairobi') }, [
            { kind: 'adjustment', branchId, productId, delta, reason: 'Adjustment: count', includeExpired: true },
          ]),
        );
      }
      const last = (e: { event: string; data: { productId?: string; quantity?: number } }) => e.event === 'stock' && e.data.productId === productId && e.data.quantity === 3;
      await onFirst.next(last, 3000);
      await onSecond.next(last, 3000);
      // Give a duplicate time to arrive (the relay sends within a few milliseconds).
      await new Promise((resolve) => setTimeout(resolve, 300));
      for (const client of [onFirst, onSecond]) {
        const mine = client.events.filter((e) => e.event === 'stock' && e.data.productId === productId);
        expect(mine.map((e) => e.data.quantity)).toEqual([5, 4, 3]);
        const seqs = mine.map((e) => e.data.seq as number);
        expect(seqs.every((seq) => Number.isInteger(seq))).toBe(true);
        expect(seqs[0]! < seqs[1]! && seqs[1]! < seqs[2]!).toBe(true);
      }
    } finally {
      onFirst.close();
      onSecond.close();
    }
  });

  it('keeps delivering after the database drops the LISTEN connections (restart, failover)', async () => {
    const [{ n }] = (await first.db.owner.query<{ n: number }>(
      `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND query ILIKE 'LISTEN%' AND pid <> pg_backend_pid()`,
    )) as [{ n: number }];
    expect(n).toBeGreaterThanOrEqual(2);
    // Announce again and again until one arrives: the instances reconnect about a second later.
    let delivered = false;
    const deadline = Date.now() + 8000;
    while (!delivered && Date.now() < deadline) {
      const productId = randomUUID();
      await first.db.transaction({ pharmacyId: pharmacy.pharmacyId }, async (q) =>
        notifyStockChange(q, { pharmacyId: pharmacy.pharmacyId, branchId: pharmacy.branches[0]!.id, productId, quantity: 1, reservedQuantity: 0, reason: 'Sale' }),
      );
      delivered = await client!.next((e) => e.data.productId === productId, 400).then(() => true, () => false);
    }
    expect(delivered).toBe(true);
  });
});
