import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Queryable } from '../src/db/database.ts';
import { createTestDatabase, testDatabaseKinds } from './database.ts';

/**
 * The foreign keys that name a row's pharmacy, read from the database's own catalogue so a table added later is
 * covered without anyone remembering (decision 0085, migration 0045):
 *   - no row can name a pharmacy that does not exist: every table with a pharmacy_id has `FOREIGN KEY (pharmacy_id)
 *     REFERENCES pharmacies (id)`, or a tenant key — first column pharmacy_id, onto the parent's pharmacy_id — into
 *     a table that reaches pharmacies the same way;
 *   - no table has both: a tenant key already proves its pharmacy, and the direct key only costs a check into
 *     pharmacies for every row written (17 of a 3-item sale's 48 checks before migration 0045).
 * A tenant key proves the pharmacy only if it is checked for every row: all its columns NOT NULL (MATCH SIMPLE skips
 * a row with a NULL in the key), or MATCH FULL; and into another table (a key into the table itself cannot start a chain).
 */

interface ForeignKey {
  table: string;
  name: string;
  parent: string;
  columns: string[];
  parentColumns: string[];
  /** Checked for every row: every column NOT NULL, or MATCH FULL. */
  everyRow: boolean;
}

async function foreignKeys(q: Queryable): Promise<ForeignKey[]> {
  return q.query<ForeignKey>(
    `SELECT f.conrelid::regclass::text AS "table", f.conname AS name, f.confrelid::regclass::text AS parent,
            ARRAY(SELECT a.attname::text FROM unnest(f.conkey) WITH ORDINALITY k (attnum, n)
                    JOIN pg_attribute a ON a.attrelid = f.conrelid AND a.attnum = k.attnum ORDER BY k.n) AS columns,
            ARRAY(SELECT a.attname::text FROM unnest(f.confkey) WITH ORDINALITY k (attnum, n)
                    JOIN pg_attribute a ON a.attrelid = f.confrelid AND a.attnum = k.attnum ORDER BY k.n) AS "parentColumns",
            f.confmatchtype = 'f' OR NOT EXISTS (
              SELECT 1 FROM pg_attribute a WHERE a.attrelid = f.conrelid AND a.attnum = ANY (f.conkey) AND NOT a.attnotnull) AS "everyRow"
       FROM pg_constraint f
      WHERE f.contype = 'f' AND f.connamespace = 'public'::regnamespace
      ORDER BY 1, 2`,
  );
}

async function tablesWithPharmacy(q: Queryable): Promise<string[]> {
  const rows = await q.query<{ name: string }>(
    `SELECT c.relname AS name
       FROM pg_class c
       JOIN pg_namespace n ON n.oid = c.relnamespace
       JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'pharmacy_id' AND NOT a.attisdropped
      WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p')
      ORDER BY 1`,
  );
  return rows.map((r) => r.name);
}

const isDirect = (k: ForeignKey) => k.parent === 'pharmacies' && k.columns.length === 1 && k.columns[0] === 'pharmacy_id' && k.parentColumns[0] === 'id';
const isTenantKey = (k: ForeignKey) =>
  k.parent !== 'pharmacies' && k.parent !== k.table && k.columns[0] === 'pharmacy_id' && k.parentColumns[0] === 'pharmacy_id' && k.everyRow;

/** What the catalogue breaks of the two rules: tables whose pharmacy is not proved, tables with the redundant pair. */
async function problems(q: Queryable): Promise<{ unproved: string[]; redundant: string[] }> {
  const keys = await foreignKeys(q);
  const tables = await tablesWithPharmacy(q);
  // Tables that reach pharmacies: those with the direct key, then, until nothing changes, those with a tenant key
  // into one that does (so a cycle of tenant keys with no direct key anywhere reaches nothing).
  const proved = new Set(tables.filter((t) => keys.some((k) => k.table === t && isDirect(k))));
  for (let grew = true; grew; ) {
    grew = false;
    for (const t of tables) {
      if (proved.has(t) || !keys.some((k) => k.table === t && isTenantKey(k) && proved.has(k.parent))) continue;
      proved.add(t);
      grew = true;
    }
  }
  return {
    unproved: tables.filter((t) => !proved.has(t)),
    redundant: tables
      .filter((t) => keys.some((k) => k.table === t && isDirect(k)) && keys.some((k) => k.table === t && isTenantKey(k)))
      .map((t) => `${t}: ${keys.filter((k) => k.table === t && (isDirect(k) || isTenantKey(k))).map((k) => k.name).join(', ')}`),
  };
}

describe.each(testDatabaseKinds())('the foreign keys naming a pharmacy on %s', (kind) => {
  let db: Database;
  beforeAll(async () => {
    db = await createTestDatabase(kind);
  });
  afterAll(async () => db?.close());

  it('every table with a pharmacy_id reaches pharmacies, and none checks its pharmacy twice', async () => {
    expect(await problems(db.owner)).toEqual({ unproved: [], redundant: [] });
    // The walk reads the tables it should: the tenant tables of a sale reach pharmacies through their tenant keys.
    const keys = await foreignKeys(db.owner);
    for (const table of ['sales', 'sale_items', 'sale_item_batches', 'sale_payments', 'stock_movements', 'branch_products', 'batches']) {
      expect({ table, tenantKeys: keys.some((k) => k.table === table && isTenantKey(k)), direct: keys.some((k) => k.table === table && isDirect(k)) }).toEqual({
        table,
        tenantKeys: true,
        direct: false,
      });
    }
    // A tenant key with a nullable column is no proof: till_payment_requests keeps its direct key.
    expect(keys.filter((k) => k.table === 'till_payment_requests' && (isDirect(k) || isTenantKey(k))).map((k) => k.name)).toEqual([
      'till_payment_requests_pharmacy_id_fkey',
    ]);
  });

  it('the walk sees a redundant key added back, a needed key dropped and a tenant key on a nullable column', async () => {
    const inRolledBackTransaction = (ddl: string) =>
      db.ownerSession(async (session) => {
        await session.query('BEGIN');
        try {
          await session.exec(ddl);
          return await problems(session);
        } finally {
          await session.query('ROLLBACK');
        }
      });
    expect(await inRolledBackTransaction(`ALTER TABLE sale_items ADD FOREIGN KEY (pharmacy_id) REFERENCES pharmacies (id)`)).toEqual({
      unproved: [],
      redundant: ['sale_items: sale_items_pharmacy_id_fkey, sale_items_pharmacy_id_product_id_fkey, sale_items_pharmacy_id_sale_id_fkey'],
    });
    // branches holds the direct key of its chain: without it, the tables that reach pharmacies only through a branch
    // reach nothing (a sale's lines still do, through their products).
    expect(await inRolledBackTransaction(`ALTER TABLE branches DROP CONSTRAINT branches_pharmacy_id_fkey`)).toEqual({
      unproved: ['branches', 'expenses', 'sale_payments', 'sale_returns', 'sales', 'stock_adjustments', 'stock_transfers'],
      redundant: [],
    });
    // till_payment_requests' only tenant key is on a nullable column (resolved_sale_id): MATCH SIMPLE skips a request
    // not yet resolved, so without its direct key nothing proves its pharmacy.
    const nullable = await inRolledBackTransaction(`ALTER TABLE till_payment_requests DROP CONSTRAINT till_payment_requests_pharmacy_id_fkey`);
    expect(nullable).toEqual({ unproved: ['till_payment_requests'], redundant: [] });
  });
});
