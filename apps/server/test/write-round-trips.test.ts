import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './app.ts';
import type { TestClient } from './http.ts';
import type { StockPharmacy } from './import-helpers.ts';
import { clientsOf, stockTestPharmacy } from './stock-helpers.ts';

/**
 * The statements a keyed write sends to a PostgreSQL server (issue 6 item 12; decisions 0077-0080). Every round trip
 * costs CPU on both sides before any work, so the write path keeps them few: the Idempotency-Key's claim goes with
 * BEGIN, the audit row, the key's answer and the plan's places with COMMIT. Counted at node-postgres's Client.query,
 * PostgreSQL only (PGlite runs in process: no round trips to count).
 */
describe.runIf(Boolean(process.env.TEST_DATABASE_URL))('round trips of a keyed write on postgres', () => {
  let t: TestApp;
  let ph: StockPharmacy;
  let c: Record<string, TestClient>;
  let product: string;
  const sent: string[] = [];
  let recording = false;
  const original = pg.Client.prototype.query;

  beforeAll(async () => {
    (pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown }).query = function (this: pg.Client, ...args: unknown[]) {
      const first = args[0];
      const text = typeof first === 'string' ? first : ((first as { text?: string } | undefined)?.text ?? '');
      // The live events' relay and LISTEN run beside requests, on their own connections.
      if (recording && !/pg_notify|^LISTEN/.test(text)) sent.push(text.replace(/\s+/g, ' ').trim());
      return (original as (...a: unknown[]) => unknown).apply(this, args);
    };
    t = await createTestApp('postgres');
    ph = await stockTestPharmacy(t.db, 'round_trips');
    c = await clientsOf(t, ph);
    product = (await c.owner!.post('/api/products', { name: 'Cetirizine 10mg', sellingPriceCents: 2_000, purchasePriceCents: 1_000 })).body.product.id;
  });
  afterAll(async () => {
    pg.Client.prototype.query = original;
    await t?.close();
  });

  async function statementsOf(client: TestClient, url: string, body: unknown): Promise<string[]> {
    // Once to let every statement of the path be seen (prepared after a few sightings), then counted.
    for (let i = 0; i < 4; i += 1) expect((await client.request('POST', url, typeof body === 'function' ? body() : body, { 'idempotency-key': randomUUID() })).status).toBe(201);
    sent.length = 0;
    recording = true;
    const res = await client.request('POST', url, typeof body === 'function' ? body() : body, { 'idempotency-key': randomUUID() });
    recording = false;
    expect(res.status).toBe(201);
    return [...sent];
  }

  it('a one-line stock adjustment: the claim with BEGIN, the audit row and the answer with COMMIT, 6 round trips at most', async () => {
    const sent = await statementsOf(c.inventory!, '/api/stock/adjustments', { reason: 'Found', items: [{ productId: product, delta: 1, reasonType: 'count_correction' }] });
    expect(sent[0]).toMatch(/^BEGIN; SELECT set_config\('role'.*; INSERT INTO idempotency_keys /);
    expect(sent.filter((s) => s.includes('idempotency_keys (pharmacy_id, key'))).toHaveLength(1);
    expect(sent.at(-1)).toMatch(/INSERT INTO audit_log .*UPDATE idempotency_keys SET status_code .*COMMIT$/);
    expect(sent.length).toBeLessThanOrEqual(6);
  });

  it('a new product: 4 round trips at most, its plan place taken with COMMIT', async () => {
    let n = 0;
    const sent = await statementsOf(c.owner!, '/api/products', () => ({ name: `Round trip ${(n += 1)}`, sellingPriceCents: 1_500, purchasePriceCents: 1_000 }));
    expect(sent[0]).toMatch(/^BEGIN; .*INSERT INTO idempotency_keys /);
    expect(sent.at(-1)).toMatch(/take_plan_places.*COMMIT$/);
    expect(sent.length).toBeLessThanOrEqual(4);
  });
});
