import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './app.ts';
import { testDatabaseKinds } from './database.ts';

/**
 * Every batch take of a sale runs PostgreSQL's foreign key check into its line (`SELECT 1 FROM sale_items WHERE
 * pharmacy_id = $1 AND sale_id = $2 AND line = $3 FOR KEY SHARE`), planned once per connection and kept. Planned
 * while sale_items had no statistics, it took any index led by pharmacy_id as readily as the primary key, and then
 * read every sale line of the pharmacy for each take (decision 0083, migration 0044). The primary key must be the
 * only index such a check can take: no other index of sale_items that applies to every row starts with pharmacy_id.
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

  it('the check of a batch take into its line takes the primary key on an empty table without statistics', async () => {
    const plan = await t.db.ownerSession(async (session) => {
      await session.query(`SET plan_cache_mode = force_generic_plan`);
      await session.query(
        `PREPARE sale_line_check (text, uuid, int) AS
           SELECT 1 FROM ONLY sale_items x WHERE pharmacy_id = $1 AND sale_id = $2 AND line = $3 FOR KEY SHARE OF x`,
      );
      try {
        return (await session.query<{ 'QUERY PLAN': string }>(`EXPLAIN EXECUTE sale_line_check ('p', '00000000-0000-4000-8000-000000000000', 1)`))
          .map((r) => r['QUERY PLAN'])
          .join('\n');
      } finally {
        await session.query(`DEALLOCATE sale_line_check`);
        await session.query(`RESET plan_cache_mode`);
      }
    });
    expect(plan).toContain('sale_items_pkey');
  });
});
