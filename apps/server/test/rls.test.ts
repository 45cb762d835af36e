import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { createTestDatabase, testDatabaseKinds } from './database.ts';

describe.each(testDatabaseKinds())('row-level security on %s', (kind) => {
  let db: Database;
  beforeAll(async () => {
    db = await createTestDatabase(kind);
    await db.owner.query(`INSERT INTO pharmacies (id, name) VALUES ('pharm_a', 'A'), ('pharm_b', 'B')`);
    await db.owner.query(`INSERT INTO branches (pharmacy_id, name, is_default) VALUES ('pharm_a', 'Main Branch', true), ('pharm_b', 'Main Branch', true)`);
  });
  afterAll(async () => db?.close());

  it('shows nothing of a tenant table when no tenant is set', async () => {
    const rows = await db.transaction({}, (q) => q.query('SELECT * FROM branches'));
    expect(rows).toEqual([]);
  });

  it('shows only the rows of the tenant that is set', async () => {
    const rows = await db.transaction({ pharmacyId: 'pharm_a' }, (q) => q.query<{ pharmacy_id: string }>('SELECT pharmacy_id FROM branches'));
    expect(rows.map((r) => r.pharmacy_id)).toEqual(['pharm_a']);
  });

  it('refuses to write a row into another tenant', async () => {
    await expect(
      db.transaction({ pharmacyId: 'pharm_a' }, (q) => q.query(`INSERT INTO branches (pharmacy_id, name) VALUES ('pharm_b', 'Sneaky')`)),
    ).rejects.toThrow(/row-level security/);
  });

  it('cannot update or delete another tenant\'s rows', async () => {
    const updated = await db.transaction({ pharmacyId: 'pharm_a' }, (q) =>
      q.query(`UPDATE branches SET name = 'Taken' WHERE pharmacy_id = 'pharm_b' RETURNING id`),
    );
    expect(updated).toEqual([]);
    const [row] = await db.owner.query<{ name: string }>(`SELECT name FROM branches WHERE pharmacy_id = 'pharm_b'`);
    expect(row?.name).toBe('Main Branch');
  });

  it('runs requests as a role that is neither superuser nor table owner', async () => {
    const [row] = await db.transaction({}, (q) =>
      q.query<{ rolsuper: boolean; rolbypassrls: boolean; current_user: string }>(
        'SELECT rolsuper, rolbypassrls, current_user FROM pg_roles WHERE rolname = current_user',
      ),
    );
    expect(row).toEqual({ rolsuper: false, rolbypassrls: false, current_user: 'pharmapoint_app' });
  });

  it('the product search functions (security definer) find only the tenant that is set, and nothing without one', async () => {
    await db.owner.query(`INSERT INTO products (pharmacy_id, name) VALUES ('pharm_a', 'Amoxyl Alpha'), ('pharm_b', 'Amoxyl Bravo')`);
    await db.owner.query(
      `INSERT INTO branch_products (pharmacy_id, branch_id, product_id, quantity)
       SELECT p.pharmacy_id, br.id, p.id, CASE p.pharmacy_id WHEN 'pharm_a' THEN 7 ELSE 9 END FROM products p JOIN branches br ON br.pharmacy_id = p.pharmacy_id`,
    );
    const branchOf = async (pharmacyId: string) =>
      (await db.owner.query<{ id: string }>(`SELECT id FROM branches WHERE pharmacy_id = $1`, [pharmacyId]))[0]!.id;
    const [branchA, branchB] = [await branchOf('pharm_a'), await branchOf('pharm_b')];
    // product_search (migration 0034): every word in one scan, the tenant's products only.
    const search = (pharmacyId: string | null) =>
      db.transaction({ pharmacyId }, (q) => q.query<{ name: string }>(`SELECT name FROM product_search(ARRAY['%amoxyl%']) ORDER BY name`));
    expect((await search('pharm_a')).map((r) => r.name)).toEqual(['Amoxyl Alpha']);
    expect((await search('pharm_b')).map((r) => r.name)).toEqual(['Amoxyl Bravo']);
    expect(await search(null)).toEqual([]);
    // product_search_in_branch (migration 0038): with the branch's row of each match, in the tenant's own branch only.
    const inBranch = (pharmacyId: string | null, branch: string) =>
      db.transaction({ pharmacyId }, (q) =>
        q.query<{ name: string; bp_quantity: number | null }>(`SELECT name, bp_quantity FROM product_search_in_branch(ARRAY['%amoxyl%'], $1) ORDER BY name`, [branch]),
      );
    expect(await inBranch('pharm_a', branchA)).toEqual([{ name: 'Amoxyl Alpha', bp_quantity: 7 }]);
    expect(await inBranch('pharm_b', branchB)).toEqual([{ name: 'Amoxyl Bravo', bp_quantity: 9 }]);
    expect(await inBranch('pharm_a', branchB)).toEqual([]);
    expect(await inBranch('pharm_b', branchA)).toEqual([]);
    expect(await inBranch(null, branchA)).toEqual([]);
    // Migration 0010's one-word function is gone (migration 0038): nothing calls it.
    const [old] = await db.owner.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_proc WHERE proname = 'product_ids_matching'`);
    expect(old?.n).toBe(0);
  });
});
