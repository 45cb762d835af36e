import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './app.ts';
import { testDatabaseKinds } from './database.ts';

/**
 * Every batch take of a sale runs PostgreSQL's foreign key check into its line (`SELECT 1 FROM sale_items WHERE
 * pharmacy_id = $1 AND sale_id = $2 AND line = $3 FOR KEY SHARE`), planned once per connection and kept. Planned
 * while sale_items had no statistics, it took any index led by pharmacy_id as readily as the primary key, and then
 * read every sale line of the pharmacy for each take (decision 0083, migration 0044). The primary key must be the
 * only index such a check can take: no other index of sale_items that applies to every row starts with pharmacy_id.
 * The checks into sales and products had the same trap through sales_status and products_category; there no index
 * order can settle it, and the app's maintenance pass (or autovacuum) gives the tables statistics, after which every
 * such check takes the primary key (decision 0083: a rebuild of the primary keys to win the planner's tie was left out).
 */
describe.each(testDatabaseKinds())('the foreign key checks of a sale on %s', (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => t?.close());

  it('sale_items has no index but its primary key that a lookup by pharmacy alone could use', async () => {
    const indexes = await t.db.owner.query<{ name: string; first: string; partial: boolean; primary: boolean }>(
      `SELECT c.relname AS name, a.attname AS first, i.indpred IS NOT NULL AS partial, i.indisprimary AS primary
         FROM pg_index i
         JOIN pg_class c ON c.oid = i.indexrelid
         JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0]
        WHERE i.indrelid = 'sale_items'::regclass
        ORDER BY 1`,
    );
    expect(indexes.find((i) => i.primary)?.name).toBe('sale_items_pkey');
    expect(indexes.filter((i) => !i.primary && !i.partial && i.first === 'pharmacy_id').map((i) => i.name)).toEqual([]);
    // The lookups by product (a product's deletion checks its sale lines) still have an index naming both columns.
    expect(indexes.find((i) => i.name === 'sale_items_product')?.first).toBe('product_id');
  });

  /** The generic plan PostgreSQL keeps for a foreign key check, planned on the test database's empty, unanalysed tables. */
  async function checkPlan(sql: string, types: string, values: string): Promise<string> {
    return t.db.ownerSession(async (session) => {
      await session.query(`SET plan_cache_mode = force_generic_plan`);
      await session.query(`PREPARE fk_check (${types}) AS ${sql}`);
      try {
        return (await session.query<{ 'QUERY PLAN': string }>(`EXPLAIN EXECUTE fk_check (${values})`)).map((r) => r['QUERY PLAN']).join('\n');
      } finally {
        await session.query(`DEALLOCATE fk_check`);
        await session.query(`RESET plan_cache_mode`);
      }
    });
  }

  it('the check of a batch take into its line takes the primary key on an empty table without statistics', async () => {
    const plan = await checkPlan(
      `SELECT 1 FROM ONLY sale_items x WHERE pharmacy_id = $1 AND sale_id = $2 AND line = $3 FOR KEY SHARE OF x`,
      'text, uuid, int',
      `'p', '00000000-0000-4000-8000-000000000000', 1`,
    );
    expect(plan).toContain('sale_items_pkey');
  });


  it("the cart's products are read key by key, and PostgreSQL keeps the statement's generic plan", async () => {
    // cart-pricing.repository.ts's shape for a 3-product cart: the ids as an ARRAY[...] of their number.
    const statement = `SELECT p.id, p.name FROM unnest(ARRAY[$2::uuid, $3::uuid, $4::uuid]) AS k (id)
         CROSS JOIN LATERAL (SELECT x.id, x.name FROM products x WHERE x.pharmacy_id = $1 AND x.id = k.id LIMIT 1) p`;
    const ids = `'00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-000000000003'`;
    // One lookup per id (a nested loop over the ids), never a scan of the pharmacy's products hashed against them.
    const plan = await checkPlan(statement, 'text, uuid, uuid, uuid', `'p', ${ids}`);
    expect(plan, plan).toMatch(/Nested Loop/);
    expect(plan, plan).not.toMatch(/Hash|Seq Scan on products/);
    if (t.db.kind !== 'postgres') return;
    // Planned once and kept (a generic plan), not planned again for every sale as `unnest($2::uuid[])` was.
    const counts = await t.db.ownerSession(async (session) => {
      await session.query(`PREPARE cart_products (text, uuid, uuid, uuid) AS ${statement}`);
      try {
        for (let i = 0; i < 8; i += 1) await session.query(`EXECUTE cart_products ('p', ${ids})`);
        return (await session.query<{ generic_plans: number; custom_plans: number }>(
          `SELECT generic_plans::int, custom_plans::int FROM pg_prepared_statements WHERE name = 'cart_products'`,
        ))[0];
      } finally {
        await session.query(`DEALLOCATE cart_products`);
      }
    });
    expect(counts!.generic_plans).toBeGreaterThan(0);
  });


});
