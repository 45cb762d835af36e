import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createTestApp, type TestApp } from './app.ts';
import { testDatabaseKinds } from './database.ts';
import type { StockPharmacy } from './import-helpers.ts';
import { alertsDrift, stockTestPharmacy } from './stock-helpers.ts';

/**
 * The stock alerts of new products and new branch rows (migration 0043, decision 0082): the products INSERT trigger
 * writes a new product's alerts in one statement, and the branch rows INSERT trigger refreshes only rows inserted
 * with stock. Whatever the rows inserted — a product alone, a product with its branch rows in the same statement
 * (as POST /api/products does) with or without stock, above, at or below the branch's or the product's threshold,
 * an inactive product, branch rows added later with or without stock — the kept alerts equal what the rows say.
 */

describe.each(testDatabaseKinds())('stock alerts of new rows on %s', (kind) => {
  let t: TestApp;
  let ph: StockPharmacy;

  beforeAll(async () => {
    t = await createTestApp(kind);
    ph = await stockTestPharmacy(t.db, 'alerts_new_rows_ph', ['owner']);
  });
  afterAll(async () => t?.close());

  /** Inserts products and (in the same statement) branch rows: [branch index, quantity, branch threshold]. */
  async function insert(products: { active: boolean; threshold: number; rows: [number, number, number | null][] }[]): Promise<string[]> {
    const ids = products.map(() => randomUUID());
    const rows = products.flatMap((p, i) => p.rows.map(([branch, quantity, threshold]) => ({ id: ids[i]!, branch: ph.branches[branch]!.id, quantity, threshold })));
    await t.db.owner.query(
      `WITH p AS (
         INSERT INTO products (pharmacy_id, id, name, is_active, low_stock_threshold)
         SELECT $1, x.id, 'New row product ' || x.id, x.active, x.threshold FROM unnest($2::uuid[], $3::boolean[], $4::int[]) AS x(id, active, threshold)
         RETURNING id
       )
       INSERT INTO branch_products (pharmacy_id, branch_id, product_id, quantity, low_stock_threshold)
       SELECT $1, r.branch, r.id, r.quantity, r.threshold
         FROM unnest($5::uuid[], $6::uuid[], $7::int[], $8::int[]) AS r(id, branch, quantity, threshold) JOIN p ON p.id = r.id`,
      [
        ph.pharmacyId,
        ids,
        products.map((p) => p.active),
        products.map((p) => p.threshold),
        rows.map((r) => r.id),
        rows.map((r) => r.branch),
        rows.map((r) => r.quantity),
        rows.map((r) => r.threshold),
      ],
    );
    return ids;
  }

  it('equal what the rows say after products and branch rows are inserted together, alone or later', async () => {
    const ids = await insert([
      { active: true, threshold: 5, rows: [] },
      { active: true, threshold: 5, rows: [[0, 0, null]] },
      { active: true, threshold: 5, rows: [[0, 0, null], [1, 0, 20]] },
      { active: true, threshold: 5, rows: [[0, 3, null], [1, 30, null]] },
      { active: true, threshold: 5, rows: [[0, 5, null], [1, 6, null]] },
      { active: true, threshold: 5, rows: [[0, 10, 12], [1, 10, 2]] },
      { active: true, threshold: 0, rows: [[0, 0, 0], [1, 1, 0]] },
      { active: false, threshold: 5, rows: [[0, 0, null], [1, 3, null]] },
      { active: false, threshold: 5, rows: [] },
    ]);
    expect(await alertsDrift(t.db, ph.pharmacyId)).toEqual([]);
    const [alone, , , , , , , , inactive] = ids;
    // Branch rows added afterwards, in a statement of their own: without stock (the pair was already 'out') and with.
    await t.db.owner.query(
      `INSERT INTO branch_products (pharmacy_id, branch_id, product_id, quantity, low_stock_threshold)
       VALUES ($1, $2, $3, 0, 3), ($1, $4, $3, 8, 3), ($1, $2, $5, 9, null), ($1, $4, $5, 0, null)`,
      [ph.pharmacyId, ph.branches[0]!.id, alone, ph.branches[1]!.id, inactive],
    );
    expect(await alertsDrift(t.db, ph.pharmacyId)).toEqual([]);
    // The product screen's path: one statement with the product and its branch rows (no stock).
    const created = await t.db.owner.query<{ n: number }>(`SELECT count(*)::int AS n FROM stock_alerts WHERE pharmacy_id = $1 AND product_id = ANY($2::uuid[])`, [
      ph.pharmacyId,
      ids,
    ]);
    expect(created[0]!.n).toBeGreaterThan(0);
  });
});
