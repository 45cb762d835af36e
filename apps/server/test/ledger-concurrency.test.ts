import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { createTestApp, type TestApp } from './app.ts';
import { testDatabaseKinds } from './database.ts';
import type { TestClient } from './http.ts';
import type { StockPharmacy } from './import-helpers.ts';
import { alertsDrift, clientsOf, ledgerProblems, stockTestPharmacy } from './stock-helpers.ts';

/**
 * Concurrent multi-product stock changes over HTTP. Adjustments with several lines, in opposite product orders, all
 * at once: the ledger takes its row locks in one global order (and creates missing rows in it), so none of them
 * waits for another in a circle. On PostgreSQL the database's own deadlock counter must not move (the transaction
 * wrapper retries a deadlock once, which would otherwise hide one); on both databases no request may fail with a
 * 5xx or 409 BUSY_TRY_AGAIN, nothing goes negative, and ledger = batches = stock.
 */

const PARALLEL = 20;
const START = 25;

/**
 * The database's deadlock count. Each backend reports its statistics when it goes idle at most once a second, so
 * wait past that second, then give every pooled connection (5 in tests) a statement to finish so each reports.
 */
async function deadlocks(db: Database): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, 1100));
  await Promise.all(Array.from({ length: 5 }, () => db.owner.query(`SELECT pg_sleep(0.1)`)));
  await new Promise((resolve) => setTimeout(resolve, 300));
  const [row] = await db.owner.query<{ deadlocks: number }>(`SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()`);
  return row!.deadlocks;
}

describe.each(testDatabaseKinds())('stock ledger under concurrent multi-product changes on %s', (kind) => {
  let t: TestApp;
  let ph: StockPharmacy;
  let owner: TestClient;
  let main: string;
  /** Products with stock in the main branch. */
  const stocked: string[] = [];
  /** Products without a row in the main branch yet: concurrent increases create it. */
  const fresh: string[] = [];

  beforeAll(async () => {
    t = await createTestApp(kind);
    ph = await stockTestPharmacy(t.db, 'concurrency_ph', ['owner']);
    owner = (await clientsOf(t, ph)).owner!;
    main = ph.branches[0]!.id;
    for (const [list, names] of [
      [stocked, ['Amoxicillin 500mg Capsules', 'Paracetamol 500mg Tablets', 'Cetirizine 10mg Tablets', 'Omeprazole 20mg Capsules']],
      [fresh, ['ORS Sachets', 'Zinc 20mg Tablets', 'Vitamin C 100mg Tablets']],
    ] as const) {
      for (const name of names) {
        const [row] = await t.db.owner.query<{ id: string }>(`INSERT INTO products (pharmacy_id, name) VALUES ($1, $2) RETURNING id`, [ph.pharmacyId, name]);
        (list as string[]).push(row!.id);
      }
    }
    const opening = await owner.post('/api/stock/adjustments', {
      branchId: main,
      reason: 'Opening count',
      items: stocked.map((productId) => ({ productId, delta: START, reasonType: 'count_correction' })),
    });
    expect(opening.status).toBe(201);
  });
  afterAll(async () => t?.close());

  const quantities = async (productIds: readonly string[]) => {
    const rows = await t.db.owner.query<{ product_id: string; quantity: number }>(
      `SELECT product_id, quantity FROM branch_products WHERE pharmacy_id = $1 AND branch_id = $2 AND product_id = ANY($3::uuid[])`,
      [ph.pharmacyId, main, productIds],
    );
    return Object.fromEntries(productIds.map((id) => [id, rows.find((r) => r.product_id === id)?.quantity ?? 0]));
  };

  it(`runs ${PARALLEL} multi-product adjustments in opposite orders at once without a deadlock, 5xx or negative stock`, async () => {
    const deadlocksBefore = kind === 'postgres' ? await deadlocks(t.db) : 0;
    // 14 adjustments over the stocked products (5 add 2 pieces, 9 take 4: together more than is there, so some
    // are refused, all lines or none), 6 over the fresh products (each creates the branch rows it needs); every other one lists its
    // products in the opposite order.
    const requests = Array.from({ length: PARALLEL }, (_, i) => {
      const overStocked = i < 14;
      const products = overStocked ? stocked : fresh;
      const ordered = i % 2 === 0 ? products : [...products].reverse();
      const items = ordered.map((productId) => ({
        productId,
        delta: overStocked ? (i % 3 === 0 ? 2 : -4) : 1 + (i % 3),
        reasonType: 'count_correction' as const,
        note: `parallel ${i}`,
      }));
      return { items, body: { branchId: main, reason: `Parallel count ${i}`, items } };
    });
    const responses = await Promise.all(requests.map((r) => owner.post('/api/stock/adjustments', r.body)));

    const unexpected = responses
      .map((r, i) => ({ i, status: r.status, code: r.body?.error?.code }))
      .filter((r) => r.status !== 201 && !(r.status === 409 && r.code === 'INSUFFICIENT_STOCK'));
    expect(unexpected).toEqual([]);
    const accepted = requests.filter((_, i) => responses[i]!.status === 201);
    expect(accepted.length).toBeGreaterThan(PARALLEL / 2);
    expect(responses.some((r) => r.status === 409)).toBe(true);
    // Every fresh-product adjustment only adds: all of them went through.
    expect(responses.slice(14).every((r) => r.status === 201)).toBe(true);

    // The stock is exactly the start plus the lines of the accepted adjustments, and never negative.
    const expected: Record<string, number> = Object.fromEntries([...stocked.map((id) => [id, START]), ...fresh.map((id) => [id, 0])]);
    for (const r of accepted) for (const item of r.items) expected[item.productId]! += item.delta;
    expect(await quantities([...stocked, ...fresh])).toEqual(expected);
    for (const value of Object.values(expected)) expect(value).toBeGreaterThanOrEqual(0);
    const [{ n }] = (await t.db.owner.query<{ n: number }>(`SELECT count(*)::int AS n FROM stock_adjustments WHERE pharmacy_id = $1`, [ph.pharmacyId])) as [
      { n: number },
    ];
    expect(n).toBe(1 + accepted.length);
    expect(await ledgerProblems(t.db, ph.pharmacyId)).toEqual([]);
    // The ledger keeps the stock alerts in its own write (decision 0078): the quantities above cross the products'
    // threshold (5) and zero under concurrent changes, and the alerts still say exactly what the rows say.
    expect(await alertsDrift(t.db, ph.pharmacyId)).toEqual([]);

    if (kind === 'postgres') expect(await deadlocks(t.db)).toBe(deadlocksBefore);
  });
});
