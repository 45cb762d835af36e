import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './app.ts';
import type { TestClient } from './http.ts';
import type { StockPharmacy } from './import-helpers.ts';
import { clientsOf, stockTestPharmacy } from './stock-helpers.ts';

/**
 * The statements a keyed write sends to a PostgreSQL server (issue 6 item 12; decisions 0077-0080, 0086). Every round
 * trip costs CPU on both sides before any work, so the write path keeps them few: the Idempotency-Key's claim goes with
 * BEGIN, the audit row, the key's answer and the plan's places with COMMIT, and statements that need no answer of one
 * another are pipelined. Counted at node-postgres's Client.query, PostgreSQL only (PGlite runs in process: no round
 * trips to count): a statement issued while none of its connection's is awaiting its answer starts a round trip; one
 * issued while another is still on the wire (pipelined) joins that round trip.
 */
describe.runIf(Boolean(process.env.TEST_DATABASE_URL))('round trips of a keyed write on postgres', () => {
  let t: TestApp;
  let ph: StockPharmacy;
  let c: Record<string, TestClient>;
  let product: string;
  /** The round trips of the recorded request, each the statements sent in it, in order. */
  const trips: string[][] = [];
  let recording = false;
  const original = pg.Client.prototype.query;
  /** Statements of each connection still awaiting their answer. */
  const inFlight = new WeakMap<pg.Client, number>();

  beforeAll(async () => {
    (pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown }).query = function (this: pg.Client, ...args: unknown[]) {
      const first = args[0];
      const text = typeof first === 'string' ? first : ((first as { text?: string } | undefined)?.text ?? '');
      const result = (original as (...a: unknown[]) => unknown).apply(this, args);
      // The live events' relay and LISTEN run beside requests, on their own connections.
      if (recording && !/pg_notify|^LISTEN/.test(text)) {
        const waiting = inFlight.get(this) ?? 0;
        // Without pipeline mode node-postgres holds a statement back until the one before it is answered: a trip of its own.
        if (waiting === 0 || trips.length === 0 || !this.pipeline) trips.push([]);
        trips.at(-1)!.push(text.replace(/\s+/g, ' ').trim());
        inFlight.set(this, waiting + 1);
        const settled = () => void inFlight.set(this, (inFlight.get(this) ?? 1) - 1);
        void (result as Promise<unknown>).then(settled, settled);
      }
      return result;
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

  /** The round trips of one request (after four of the same, so every statement of the path is prepared). */
  async function roundTripsOf(client: TestClient, url: string, body: unknown): Promise<string[][]> {
    for (let i = 0; i < 4; i += 1) expect((await client.request('POST', url, typeof body === 'function' ? body() : body, { 'idempotency-key': randomUUID() })).status).toBe(201);
    trips.length = 0;
    recording = true;
    const res = await client.request('POST', url, typeof body === 'function' ? body() : body, { 'idempotency-key': randomUUID() });
    recording = false;
    expect(res.status).toBe(201);
    return trips.map((t) => [...t]);
  }

  it('a one-line stock adjustment: the branch read, the lock and the batches with BEGIN and the claim, the audit row and the answer with COMMIT, 3 round trips', async () => {
    const trips = await roundTripsOf(c.inventory!, '/api/stock/adjustments', { reason: 'Found', items: [{ productId: product, delta: 1, reasonType: 'count_correction' }] });
    const sent = trips.flat();
    expect(sent.filter((s) => s.includes('idempotency_keys (pharmacy_id, key'))).toHaveLength(1);
    // BEGIN; the scope with the claim; the branch, products and user; the lock of the stock row; its batches; the
    // pharmacy's time zone (its business date decides what has expired): one round trip, in this order (BEGIN a
    // message of its own: decision 0086).
    expect(trips[0]).toHaveLength(6);
    expect(trips[0]![0]).toBe('BEGIN');
    expect(trips[0]![1]).toMatch(/^SELECT set_config\('role'.*; INSERT INTO idempotency_keys /);
    expect(trips[0]![2]).toMatch(/json_build_object\('id', b\.id, 'name', b\.name\)/);
    expect(trips[0]![3]).toMatch(/FROM branch_products bp .*FOR UPDATE/);
    expect(trips[0]![4]).toMatch(/FROM batches b WHERE/);
    expect(trips[0]![5]).toMatch(/document->>'timezone'/);
    expect(trips.at(-1)!.at(-1)).toMatch(/INSERT INTO audit_log .*UPDATE idempotency_keys SET status_code .*COMMIT$/);
    expect(trips).toHaveLength(3);
    expect(sent).toHaveLength(8);
  });

  it('a new product: the settings read with BEGIN and the claim, its plan place taken with COMMIT, 3 round trips', async () => {
    let n = 0;
    const trips = await roundTripsOf(c.owner!, '/api/products', () => ({ name: `Round trip ${(n += 1)}`, sellingPriceCents: 1_500, purchasePriceCents: 1_000 }));
    expect(trips[0]).toHaveLength(3);
    expect(trips[0]![0]).toBe('BEGIN');
    expect(trips[0]![1]).toMatch(/^SELECT set_config\('role'.*INSERT INTO idempotency_keys /);
    expect(trips[0]![2]).toMatch(/FROM settings s/);
    expect(trips.at(-1)!.at(-1)).toMatch(/take_plan_places.*COMMIT$/);
    expect(trips).toHaveLength(3);
  });

  it('a 3-item cash sale: the settings, the lock of the stock rows, their batches and the cart with BEGIN and the claim, 4 round trips', async () => {
    const products: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const created = await c.owner!.post('/api/products', { name: `Round trip sale ${i}`, sellingPriceCents: 1_000, purchasePriceCents: 500 });
      products.push(created.body.product.id);
      expect((await c.inventory!.post('/api/stock/adjustments', { reason: 'Stock', items: [{ productId: created.body.product.id, delta: 100, reasonType: 'count_correction' }] })).status).toBe(201);
    }
    const trips = await roundTripsOf(c.cashier!, '/api/sales', () => ({
      id: randomUUID(),
      branchId: ph.branches[0]!.id,
      lines: products.map((productId) => ({ productId, quantity: 1 })),
      payments: [{ method: 'Cash', amountCents: 3_000 }],
      expectedTotalCents: 3_000,
    }));
    expect(trips[0]).toHaveLength(6);
    expect(trips[0]![0]).toBe('BEGIN');
    expect(trips[0]![1]).toMatch(/^SELECT set_config\('role'.*INSERT INTO idempotency_keys /);
    expect(trips[0]![2]).toMatch(/^SELECT s\.document::text AS document/);
    expect(trips[0]![3]).toMatch(/FROM branch_products bp .*FOR UPDATE/);
    expect(trips[0]![4]).toMatch(/FROM batches b WHERE/);
    expect(trips[0]![5]).toMatch(/^SELECT p\.id, p\.name/);
    // Then the stock's write and the numbered sale, each its own round trip (the sale needs the batches taken).
    expect(trips[1]).toEqual([expect.stringMatching(/^WITH b AS \( UPDATE batches/)]);
    expect(trips[2]).toEqual([expect.stringMatching(/^WITH counter AS/)]);
    expect(trips.at(-1)!.at(-1)).toMatch(/INSERT INTO audit_log .*UPDATE idempotency_keys SET status_code .*COMMIT$/);
    // The branch rows are written once, by the stock's write, naming the sale (decision 0087): no second UPDATE of
    // them once the invoice number is known.
    expect(trips.flat().filter((sent) => /UPDATE branch_products/.test(sent))).toHaveLength(1);
    expect(trips).toHaveLength(4);
    expect(trips.flat()).toHaveLength(9);
  });
});
