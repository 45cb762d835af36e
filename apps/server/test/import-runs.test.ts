import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './app.ts';
import { testDatabaseKinds } from './database.ts';
import type { TestClient } from './http.ts';
import { ledgerMismatches, signedInClient, stockPharmacy, type StockPharmacy } from './import-helpers.ts';
import { usageCountersAndRows, syncUsageCounters } from './platform-helpers.ts';

const HEADER = 'Name,SKU,Category,Branch,Selling Price (KSh),Purchase Price (KSh),Opening Quantity,Batch Number,Expiry Date,DDA';
const csvOf = (prefix: string, n: number) =>
  [HEADER, ...Array.from({ length: n }, (_, i) => `${prefix} product ${i},${prefix}-${i},Medicine,Main Branch,10,5,${(i % 5) + 1},B${i},2038-01-31,No`)].join('\n');

/**
 * The CSV import in short transactions (issue 6 item 13, decision 0021): the products are written in chunks, each
 * in its own short transaction, so other requests get in; all or nothing still holds (a failing chunk undoes the
 * run, a run abandoned by a crash is undone by the next import), and the Idempotency-Key spans the run.
 */
describe.each(testDatabaseKinds())('import runs on %s', (kind) => {
  let t: TestApp;
  let pharmacy: StockPharmacy;
  let owner: TestClient;

  beforeAll(async () => {
    t = await createTestApp(kind);
    pharmacy = await stockPharmacy(t.db, 'import_runs', { roles: ['owner'], branchNames: ['Main Branch', 'Westlands Branch'] });
    owner = await signedInClient(t, pharmacy.users.owner!, pharmacy.pharmacyId, pharmacy.branches[0]!.id);
  });
  afterAll(async () => t?.close());

  const count = async (sql: string) =>
    ((await t.db.owner.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${sql}`, [pharmacy.pharmacyId]))[0]!.n);
  const importPosted = (csv: string, headers: Record<string, string> = {}) =>
    owner.request('POST', '/api/products/import?mode=all-or-nothing', csv, { 'content-type': 'text/csv', ...headers });
  /** Waits until the import has committed its first products (the first chunk). */
  async function firstChunkCommitted(prefix: string): Promise<void> {
    for (let i = 0; i < 2000; i += 1) {
      const [row] = await t.db.owner.query<{ n: number }>(`SELECT count(*)::int AS n FROM products WHERE pharmacy_id = $1 AND sku LIKE $2`, [
        pharmacy.pharmacyId,
        `${prefix}-%`,
      ]);
      if (row!.n > 0) return;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    throw new Error('the import wrote nothing');
  }

  it('other requests are answered while an import runs, and a stock write goes through', async () => {
    const [product] = await t.db.owner.query<{ id: string }>(`INSERT INTO products (pharmacy_id, name) VALUES ($1, 'Counted') RETURNING id`, [pharmacy.pharmacyId]);
    await syncUsageCounters(t.db, pharmacy.pharmacyId);
    let done = false;
    const running = importPosted(csvOf('LIVE', 1_000)).finally(() => (done = true));
    await firstChunkCommitted('LIVE');
    const answers: number[] = [];
    while (!done && answers.length < 10) {
      const began = performance.now();
      expect((await owner.get('/api/me')).status).toBe(200);
      answers.push(performance.now() - began);
    }
    const adjustment = await owner.post('/api/stock/adjustments', {
      reason: 'Count during an import',
      items: [{ productId: product!.id, delta: 3, reasonType: 'count_correction' }],
    });
    expect(adjustment.status).toBe(201);
    const finished = await running;
    expect(finished.status).toBe(200);
    expect(finished.body).toMatchObject({ imported: 1_000, productsCreated: 1_000 });
    // /api/me answered between the import's chunks, not after it.
    expect(answers.length).toBeGreaterThanOrEqual(3);
    expect(await count(`products WHERE pharmacy_id = $1 AND sku LIKE 'LIVE-%'`)).toBe(1_000);
    expect(await ledgerMismatches(t.db, pharmacy.pharmacyId)).toEqual([]);
    const { counters, rows } = await usageCountersAndRows(t.db, pharmacy.pharmacyId);
    expect(counters.products).toBe(rows.products);
  }, 180_000);

  it('a chunk that fails (a SKU of the file created meanwhile) undoes the whole run: nothing of the file stays', async () => {
    const before = await count(`products WHERE pharmacy_id = $1`);
    // Large enough that the run is still writing when the API creates the last row's product (a chunk is ~40 ms
    // and the opening stock is set-based, so a small file is done before the request gets in).
    const fileRows = 2_000;
    const running = importPosted(csvOf('UNDO', fileRows));
    await firstChunkCommitted('UNDO');
    // The last row's SKU, taken by a product created through the API while the import runs.
    const taken = await owner.post('/api/products', { name: 'Got there first', sku: `UNDO-${fileRows - 1}` });
    expect(taken.status).toBe(201);
    const failed = await running;
    expect(failed.status).toBe(409);
    expect(await count(`products WHERE pharmacy_id = $1 AND sku LIKE 'UNDO-%'`)).toBe(1);
    expect(await count(`products WHERE pharmacy_id = $1`)).toBe(before + 1);
    expect(await count(`stock_movements WHERE pharmacy_id = $1 AND kind = 'import' AND product_id IN (SELECT id FROM products WHERE sku LIKE 'UNDO-%')`)).toBe(0);
    expect(await count(`product_imports WHERE pharmacy_id = $1 AND status = 'undone'`)).toBe(1);
    expect(await ledgerMismatches(t.db, pharmacy.pharmacyId)).toEqual([]);
    const { counters, rows } = await usageCountersAndRows(t.db, pharmacy.pharmacyId);
    expect(counters.products).toBe(rows.products);
    // The file can be sent again once the SKU is out of it.
    const again = await importPosted(csvOf('UNDO', fileRows - 1));
    expect(again.status).toBe(200);
    expect(again.body.imported).toBe(fileRows - 1);
  }, 180_000);

  it('a run abandoned by a crash is undone by the next import of the pharmacy, places and all', async () => {
    const runId = randomUUID();
    const productId = randomUUID();
    const branchId = pharmacy.branches[0]!.id;
    const productsBefore = await count(`products WHERE pharmacy_id = $1`);
    // What a run that died after its first chunk leaves: its places taken (3), one product written with stock.
    await t.db.owner.query(
      `INSERT INTO product_imports (pharmacy_id, id, status, products, written, created_at, updated_at)
       VALUES ($1, $2, 'importing', 3, 1, now() - interval '1 hour', now() - interval '1 hour')`,
      [pharmacy.pharmacyId, runId],
    );
    await t.db.owner.query(`INSERT INTO products (pharmacy_id, id, name) VALUES ($1, $2, 'Left by a crash')`, [pharmacy.pharmacyId, productId]);
    await t.db.owner.query(`INSERT INTO product_import_items (pharmacy_id, import_id, product_id) VALUES ($1, $2, $3)`, [pharmacy.pharmacyId, runId, productId]);
    await t.db.owner.query(`INSERT INTO branch_products (pharmacy_id, branch_id, product_id, quantity) VALUES ($1, $2, $3, 4)`, [pharmacy.pharmacyId, branchId, productId]);
    const [batch] = await t.db.owner.query<{ id: string }>(
      `INSERT INTO batches (pharmacy_id, branch_id, product_id, quantity, unit_cost_cents, source) VALUES ($1, $2, $3, 4, 0, 'import') RETURNING id`,
      [pharmacy.pharmacyId, branchId, productId],
    );
    await t.db.owner.query(
      `INSERT INTO stock_movements (pharmacy_id, branch_id, product_id, batch_id, kind, delta, quantity_after, batch_quantity_after, reason, reference_type, reference_id)
       VALUES ($1, $2, $3, $4, 'import', 4, 4, 4, 'Import', 'import', $5)`,
      [pharmacy.pharmacyId, branchId, productId, batch!.id, runId],
    );
    await t.db.owner.query(`UPDATE usage_counters SET products = products + 3 WHERE pharmacy_id = $1`, [pharmacy.pharmacyId]);

    const next = await importPosted(csvOf('NEXT', 2));
    expect(next.status).toBe(200);
    expect(await count(`products WHERE pharmacy_id = $1`)).toBe(productsBefore + 2);
    expect(await count(`products WHERE pharmacy_id = $1 AND name = 'Left by a crash'`)).toBe(0);
    const [run] = await t.db.owner.query<{ status: string }>(`SELECT status FROM product_imports WHERE pharmacy_id = $1 AND id = $2`, [pharmacy.pharmacyId, runId]);
    expect(run!.status).toBe('undone');
    expect(await ledgerMismatches(t.db, pharmacy.pharmacyId)).toEqual([]);
    const { counters, rows } = await usageCountersAndRows(t.db, pharmacy.pharmacyId);
    expect(counters.products).toBe(rows.products);
  }, 180_000);

  it('one Idempotency-Key spans the run: a repeat while it runs is 409, a repeat after it replays the answer', async () => {
    const key = `import-${randomUUID()}`;
    // The run's first chunk (20 products) goes to the Main Branch, the other 200 products to Westlands. The repeat
    // must meet the run still going: with 40 products in one branch the run could finish on PostgreSQL between
    // its first chunk showing and the repeat arriving (it did once, 200 instead of 409). On PostgreSQL the test
    // holds Westlands' branch row (FOR UPDATE), so the second chunk waits at its first branch row's foreign key
    // check until the repeat has been answered; PGlite's one connection lets the repeat in between two chunks.
    const westlands = pharmacy.branches[1]!;
    const csv = [csvOf('KEY', 20), ...csvOf('KEY', 220).split('\n').slice(21).map((line) => line.replace(',Main Branch,', `,${westlands.name},`))].join('\n');
    const repeatWhileRunning = async () => {
      const running = importPosted(csv, { 'idempotency-key': key });
      await firstChunkCommitted('KEY');
      return { running, during: await importPosted(csv, { 'idempotency-key': key }) };
    };
    const { running, during } =
      kind === 'postgres'
        ? await t.db.ownerSession(async (session) => {
            await session.exec('BEGIN');
            try {
              await session.query(`SELECT 1 FROM branches WHERE pharmacy_id = $1 AND id = $2 FOR UPDATE`, [pharmacy.pharmacyId, westlands.id]);
              const repeated = await repeatWhileRunning();
              // Held: only the first chunk is in.
              expect(await count(`products WHERE pharmacy_id = $1 AND sku LIKE 'KEY-%'`)).toBe(20);
              return repeated;
            } finally {
              await session.exec('COMMIT');
            }
          })
        : await repeatWhileRunning();
    expect(during.status).toBe(409);
    expect(during.body.error.code).toBe('BUSY_TRY_AGAIN');
    const first = await running;
    expect(first.status).toBe(200);
    const after = await importPosted(csv, { 'idempotency-key': key });
    expect(after.status).toBe(200);
    expect(after.headers['idempotent-replayed']).toBe('true');
    expect(after.body).toEqual(first.body);
    expect(await count(`products WHERE pharmacy_id = $1 AND sku LIKE 'KEY-%'`)).toBe(220);
  }, 180_000);
});
