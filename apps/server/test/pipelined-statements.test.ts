import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_ROLE, together, type Database, type Queryable } from '../src/db/database.ts';
import { createTestApp, type TestApp } from './app.ts';
import { createTestDatabase, testDatabaseKinds } from './database.ts';
import type { TestClient } from './http.ts';
import type { StockPharmacy } from './import-helpers.ts';
import { clientsOf, stockTestPharmacy } from './stock-helpers.ts';

/**
 * Statements sent together (decision 0086): on a PostgreSQL server the transaction's connection pipelines them (all on
 * the wire before the first answer), on PGlite they run one after the other. Either way a batch whose statement fails
 * reports that statement's error (never a later statement's 25P02), commits nothing of the batch or of the
 * transaction, leaves no promise rejected unhandled, and leaves the connection usable.
 */
describe.each(testDatabaseKinds())('statements sent together on %s', (kind) => {
  let db: Database;
  const SCOPE = { pharmacyId: null, userId: null };
  const insert = (q: Queryable, id: number) => q.query(`INSERT INTO pipeline_probe (id, note) VALUES ($1, $2) RETURNING id`, [id, `row ${id}`]);
  const failing = (q: Queryable) => q.query(`SELECT 1 / (SELECT count(*) FROM pipeline_probe WHERE id < 0)::int AS never`);
  const backend = async (q: Queryable) => (await q.query<{ pid: number }>(`SELECT pg_backend_pid() AS pid`))[0]!.pid;
  const rowsOf = async () => (await db.owner.query<{ id: number }>(`SELECT id FROM pipeline_probe ORDER BY id`)).map((r) => r.id);

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    await db.owner.query(`CREATE TABLE pipeline_probe (id int PRIMARY KEY, note text NOT NULL)`);
    await db.owner.query(`GRANT SELECT, INSERT ON pipeline_probe TO ${APP_ROLE}`);
  });
  afterAll(async () => {
    await db?.close();
  });

  it('the first statement fails: its error is the one reported, nothing is written, the connection goes on', async () => {
    let pid = 0;
    const error = await db
      .transaction(SCOPE, async (q) => {
        pid = await backend(q);
        return together(failing(q), insert(q, 1), insert(q, 2), q.query(`SELECT id FROM pipeline_probe`));
      })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: '22012' }); // division_by_zero, not the later statements' 25P02
    expect(await rowsOf()).toEqual([]);
    // The next transaction takes the same connection (the pool's last released) and works on it.
    const after = await db.transaction(SCOPE, async (q) => {
      const [again, [written]] = await together(backend(q), insert(q, 3));
      return { again, written };
    });
    if (kind === 'postgres') expect(after.again).toBe(pid);
    expect(after.written).toEqual({ id: 3 });
    expect(await rowsOf()).toEqual([3]);
  });

  it('a statement in the middle fails: its error, and neither the statement before it nor after it is committed', async () => {
    const error = await db.transaction(SCOPE, async (q) => together(insert(q, 10), insert(q, 3), insert(q, 11))).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: '23505', constraint: 'pipeline_probe_pkey' });
    expect(await rowsOf()).toEqual([3]);
  });

  it('the work sees a later statement fail first: the transaction still reports the statement that failed first', async () => {
    const error = await db
      .transaction(SCOPE, async (q) => {
        const first = failing(q);
        const second = insert(q, 20);
        // Awaited in the other order: the work's error is the second statement's 25P02.
        return together(second, first);
      })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: '22012' });
    expect(await rowsOf()).toEqual([3]);
  });

  it('a prepared statement answered with 25P02 in a failed batch is prepared and usable afterwards', async () => {
    // Seen often enough to be sent as a named (prepared) statement on the server.
    for (let id = 30; id < 35; id += 1) await db.transaction(SCOPE, async (q) => insert(q, id));
    const error = await db.transaction(SCOPE, async (q) => together(failing(q), insert(q, 40))).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: '22012' });
    for (let id = 41; id < 46; id += 1) await db.transaction(SCOPE, async (q) => insert(q, id));
    expect(await rowsOf()).toEqual([3, 30, 31, 32, 33, 34, 41, 42, 43, 44, 45]);
  });

  it('a statement issued after its transaction ended is refused, never sent on a connection another request holds', async () => {
    let kept: Queryable | undefined;
    await db.transaction(SCOPE, async (q) => {
      kept = q;
      await insert(q, 50);
    });
    await expect(insert(kept!, 51)).rejects.toThrow(/after its transaction ended/);
    expect(await rowsOf()).toContain(50);
    expect(await rowsOf()).not.toContain(51);
  });

  it('the opening statement fails to parse: the statements sent behind it never run outside the transaction', async () => {
    // The work's first statement goes on the wire before BEGIN's answer (pipelined). A message PostgreSQL cannot
    // parse runs none of its statements, so BEGIN travels as a message of its own: what follows a failed opening runs
    // inside the transaction and fails with it, never on its own as the connection's login role.
    const error = await db
      .transaction(SCOPE, async (q) => insert(q, 60), { sql: `SELEC 1 WHERE $1`, params: [true] })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: '42601' }); // syntax_error
    expect(await rowsOf()).not.toContain(60);
  });
});

/**
 * A keyed write's first statements go out with BEGIN and the key's claim, before the claim is answered (decision
 * 0086). When the key is taken, what the work sent is rolled back and the request runs again the sequential way.
 */
describe.each(testDatabaseKinds())('a keyed write started with its claim on %s', (kind) => {
  let t: TestApp;
  let ph: StockPharmacy;
  let c: Record<string, TestClient>;
  let product: string;
  const quantity = async () =>
    (await t.db.owner.query<{ quantity: number }>(`SELECT quantity FROM branch_products WHERE pharmacy_id = $1 AND branch_id = $2 AND product_id = $3`, [ph.pharmacyId, ph.branches[0]!.id, product]))[0]!.quantity;
  const adjustments = async () => (await t.db.owner.query(`SELECT 1 FROM stock_adjustments WHERE pharmacy_id = $1`, [ph.pharmacyId])).length;

  beforeAll(async () => {
    t = await createTestApp(kind);
    ph = await stockTestPharmacy(t.db, `pipelined_${kind}`);
    c = await clientsOf(t, ph);
    product = (await c.owner!.post('/api/products', { name: 'Loratadine 10mg', sellingPriceCents: 800, purchasePriceCents: 400 })).body.product.id;
    expect((await c.inventory!.post('/api/stock/adjustments', { reason: 'Count', items: [{ productId: product, delta: 10, reasonType: 'count_correction' }] })).status).toBe(201);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('ten adjustments with one key at once change the stock once and all answer the first', async () => {
    const before = await quantity();
    const count = await adjustments();
    const body = { reason: 'Found at once', items: [{ productId: product, delta: 1, reasonType: 'count_correction' }] };
    const responses = await Promise.all(Array.from({ length: 10 }, () => c.inventory!.request('POST', '/api/stock/adjustments', body, { 'idempotency-key': 'adjust-at-once-1' })));
    expect(responses.map((r) => r.status)).toEqual(Array<number>(10).fill(201));
    expect(new Set(responses.map((r) => r.body.id)).size).toBe(1);
    expect(responses.filter((r) => r.headers['idempotent-replayed'] === 'true')).toHaveLength(9);
    expect(await quantity()).toBe(before + 1);
    expect(await adjustments()).toBe(count + 1);
  });

  it('the key again with another body is 422 and the work started with the claim writes nothing', async () => {
    const body = { reason: 'First', items: [{ productId: product, delta: 2, reasonType: 'count_correction' }] };
    expect((await c.inventory!.request('POST', '/api/stock/adjustments', body, { 'idempotency-key': 'adjust-reused-1' })).status).toBe(201);
    const before = await quantity();
    const count = await adjustments();
    const reused = await c.inventory!.request('POST', '/api/stock/adjustments', { ...body, reason: 'Second' }, { 'idempotency-key': 'adjust-reused-1' });
    expect(reused.status).toBe(422);
    expect(reused.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await quantity()).toBe(before);
    expect(await adjustments()).toBe(count);
  });
});
