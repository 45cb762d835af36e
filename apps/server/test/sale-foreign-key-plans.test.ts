import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './app.ts';
import { testDatabaseKinds } from './database.ts';

/**
 * Every batch take of a sale runs PostgreSQL's foreign key check into its line (`SELECT 1 FROM sale_items WHERE
 * pharmacy_id = $1 AND sale_id = $2 AND line = $3 FOR KEY SHARE`), planned once per connection and kept. Planned
 * while sale_items had no statistics, it took any index led by pharmacy_id as readily as the primary key, and then
 * read every sale line of the pharmacy for each take (decision 0083, migration 0044). The primary key must be the
 * only index such a check can take: no other index of sale_items that applies to every row starts with pharmacy_id.
 * The four checks of a sale's lines and payment into the sale, and the six into products, had the same trap through
 * sales_status and products_category (migration 0045).
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

  it('the check of a line into its product takes the primary key on an empty table without statistics', async () => {
    const check = await checkPlan(`SELECT 1 FROM ONLY products x WHERE pharmacy_id = $1 AND id = $2 FOR KEY SHARE OF x`, 'text, uuid', `'p', '00000000-0000-4000-8000-000000000000'`);
    expect(check).toContain('products_pkey');
    expect(check).toMatch(/Index Cond: \(\(pharmacy_id = \$1\) AND \(id = \$2\)\)/);
  });

  it("the cart's products are read by primary key, and PostgreSQL keeps the statement's generic plan", async () => {
    // cart-pricing.repository.ts's shape for a 3-product cart: the ids as an ARRAY[...] of their number.
    const statement = `SELECT p.id, p.name FROM unnest(ARRAY[$2::uuid, $3::uuid, $4::uuid]) AS k (id)
         CROSS JOIN LATERAL (SELECT x.id, x.name FROM products x WHERE x.pharmacy_id = $1 AND x.id = k.id LIMIT 1) p`;
    const ids = `'00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-000000000003'`;
    const plan = await checkPlan(statement, 'text, uuid, uuid, uuid', `'p', ${ids}`);
    expect(plan, plan).toContain('products_pkey');
    expect(plan, plan).toMatch(/Index Cond: \(\(pharmacy_id = \$1\) AND \(id = k\.id\)\)/);
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

  it('the foreign keys into sales and products are those of before 0045, on the rebuilt primary keys', async () => {
    const keys = await t.db.owner.query<{ referenced: string; name: string; index: string }>(
      `SELECT c.confrelid::regclass::text AS referenced, c.conname AS name, c.conindid::regclass::text AS index
         FROM pg_constraint c WHERE c.contype = 'f' AND c.confrelid IN ('sales'::regclass, 'products'::regclass) ORDER BY 1, 2`,
    );
    expect(keys.filter((k) => k.index !== `${k.referenced}_pkey`)).toEqual([]);
    expect(keys.filter((k) => k.referenced === 'sales').map((k) => k.name)).toEqual(
      expect.arrayContaining([
        'customer_payment_allocations_pharmacy_id_sale_id_fkey',
        'sale_items_pharmacy_id_sale_id_fkey',
        'sale_payments_pharmacy_id_sale_id_fkey',
        'sale_returns_pharmacy_id_sale_id_fkey',
        'suspended_sales_pharmacy_id_sale_id_fkey',
        'till_payment_requests_resolved_sale',
      ]),
    );
    expect(keys.filter((k) => k.referenced === 'products').length).toBeGreaterThanOrEqual(7);
  });

  it('the check of a line or a payment into its sale takes the primary key on an empty table without statistics', async () => {
    // Several indexes of sales (and of products) start with pharmacy_id and cost the same here; the newest wins the tie
    // (migration 0045 rebuilt the primary keys' indexes last). An index added to either later needs another rebuild.
    const plan = await checkPlan(
      `SELECT 1 FROM ONLY sales x WHERE pharmacy_id = $1 AND id = $2 FOR KEY SHARE OF x`,
      'text, uuid',
      `'p', '00000000-0000-4000-8000-000000000000'`,
    );
    expect(plan).toContain('sales_pkey');
    expect(plan).toMatch(/Index Cond: \(\(pharmacy_id = \$1\) AND \(id = \$2\)\)/);
  });
});
