import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_ROLE, type Database } from '../src/db/database.ts';
import { createTestApp, type TestApp } from './app.ts';
import { testDatabaseKinds } from './database.ts';
import { createPharmacyWithStaff, type PharmacyFixture } from './fixtures.ts';

/**
 * Least privilege, read from the database's own catalogue (issue 6 item 4), so a table added later is covered
 * without anyone remembering: every table with a pharmacy_id forces row-level security under a policy; the
 * application role can change only what a use case needs; the ledger, price changes and audit log are append-only
 * for it; and it can never read a password, PIN or token hash.
 */

/** Tables the application role may only read and append to. */
const APPEND_ONLY = ['stock_movements', 'price_changes', 'audit_log', 'stock_adjustments', 'stock_adjustment_items'];

/**
 * Tables with a pharmacy_id that are platform rows, not tenant rows, and why they are not under the tenant policy.
 * sessions: a user's sign-in; pharmacy_id is the workplace they chose, and sign-in writes it before any tenant is set.
 */
const PLATFORM_TABLES_WITH_PHARMACY: Record<string, string> = {
  sessions: 'a user’s session; pharmacy_id is the chosen workplace',
  one_time_tokens: 'a person’s emailed link, found before any tenant is known; pharmacy_id names the pharmacy an invitation is for (decision 0015)',
};

/**
 * The only tables the application role may delete from: the sign-in throttle it prunes (migration 0008), and the stock
 * alerts the ledger keeps itself, deleting a branch row's alert when its stock rises above the threshold (migration
 * 0040, decision 0078: a derived table, rebuilt from the branch rows, never a record of what happened).
 */
const DELETABLE = ['login_throttle', 'stock_alerts'];


async function tables(db: Database): Promise<{ name: string; rls: boolean; forced: boolean; policies: number; tenant: boolean }[]> {
  return db.owner.query(
    `SELECT c.relname AS name, c.relrowsecurity AS rls, c.relforcerowsecurity AS forced,
            (SELECT count(*)::int FROM pg_policy p WHERE p.polrelid = c.oid) AS policies,
            EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'pharmacy_id' AND NOT a.attisdropped) AS tenant
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p')
      ORDER BY 1`,
  );
}

describe.each(testDatabaseKinds())('database privileges on %s', (kind) => {
  let t: TestApp;
  let ph: PharmacyFixture;

  beforeAll(async () => {
    t = await createTestApp(kind);
    ph = await createPharmacyWithStaff(t.db, { id: 'catalogue_ph', roles: ['owner'] });
  });
  afterAll(async () => t?.close());

  /** Runs one statement as the application role in the pharmacy; the SQLSTATE it failed with, or 'ok'. */
  async function asApp(sql: string): Promise<string> {
    try {
      await t.db.transaction({ pharmacyId: ph.pharmacyId, userId: ph.users.owner!.id }, async (q) => {
        await q.query(sql);
        throw Object.assign(new Error('rollback'), { code: 'ROLLBACK_OK' });
      });
      return 'ok';
    } catch (error) {
      const code = (error as { code?: string }).code;
      return code === 'ROLLBACK_OK' ? 'ok' : (code ?? 'error');
    }
  }

  it('every table with a pharmacy_id forces row-level security under a policy, or is closed to the application role', async () => {
    const problems: string[] = [];
    for (const table of await tables(t.db)) {
      if (!table.tenant || PLATFORM_TABLES_WITH_PHARMACY[table.name]) continue;
      const [{ readable }] = (await t.db.owner.query<{ readable: boolean }>(
        `SELECT has_table_privilege($1, $2, 'SELECT') OR has_any_column_privilege($1, $2, 'SELECT') AS readable`,
        [APP_ROLE, table.name],
      )) as [{ readable: boolean }];
      if (!readable && !(await t.db.owner.query(`SELECT 1 WHERE has_table_privilege($1, $2, 'INSERT')`, [APP_ROLE, table.name])).length) continue;
      // jobs: the role may only INSERT (its own pharmacy's) jobs; RLS is enabled and the role never owns it.
      const forcedNeeded = table.name !== 'jobs';
      if (!table.rls || (forcedNeeded && !table.forced) || table.policies === 0) problems.push(`${table.name}: rls=${table.rls} forced=${table.forced} policies=${table.policies}`);
    }
    expect(problems).toEqual([]);
  });

  it('the ledger, price changes, adjustments and audit log are append-only for the application role', async () => {
    for (const table of APPEND_ONLY) {
      const [privileges] = await t.db.owner.query<{ update: boolean; delete: boolean; truncate: boolean; insert: boolean }>(
        `SELECT has_table_privilege($1, $2, 'UPDATE') AS update, has_table_privilege($1, $2, 'DELETE') AS delete,
                has_table_privilege($1, $2, 'TRUNCATE') AS truncate, has_table_privilege($1, $2, 'INSERT') AS insert`,
        [APP_ROLE, table],
      );
      expect({ table, ...privileges }).toEqual({ table, update: false, delete: false, truncate: false, insert: true });
      // And the database says so when the role tries (42501: insufficient privilege).
      expect(await asApp(`DELETE FROM ${table}`)).toBe('42501');
      expect(await asApp(`UPDATE ${table} SET pharmacy_id = pharmacy_id`)).toBe('42501');
    }
  });

  it('the application role cannot read a password, PIN or one-time link hash (decision 0016)', async () => {
    for (const [table, column] of [
      ['users', 'password_hash'],
      ['users', 'pin_hash'],
      ['one_time_tokens', 'token_hash'],
    ] as const) {
      const [privilege] = await t.db.owner.query<{ readable: boolean }>(`SELECT has_column_privilege($1, $2, $3, 'SELECT') AS readable`, [APP_ROLE, table, column]);
      expect({ table, column, readable: privilege?.readable }).toEqual({ table, column, readable: false });
      // And the database refuses when the role tries (42501), directly, in a condition or in a whole row.
      expect(await asApp(`SELECT ${column} FROM ${table}`)).toBe('42501');
      expect(await asApp(`SELECT 1 FROM ${table} WHERE ${column} IS NOT NULL`)).toBe('42501');
      expect(await asApp(`SELECT t.* FROM ${table} t`)).toBe('42501');
      expect(await asApp(`SELECT to_jsonb(t) FROM ${table} t`)).toBe('42501');
    }
    // What sign-in needs stays readable: whether a secret is set, never the secret.
    expect(await asApp(`SELECT id, email, has_password, has_pin FROM users`)).toBe('ok');
    expect(await asApp(`SELECT id, user_id, expires_at, used_at FROM one_time_tokens WHERE id = one_time_token_id('x', 'invite')`)).toBe('ok');
  });
  it('the application role deletes only from the sign-in throttle, and never changes an append-only table', async () => {
    const rows = await t.db.owner.query<{ name: string; update: boolean; delete: boolean }>(
      `SELECT c.relname AS name, has_table_privilege($1, c.oid, 'UPDATE') OR has_any_column_privilege($1, c.oid, 'UPDATE') AS update,
              has_table_privilege($1, c.oid, 'DELETE') AS delete
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND c.relkind = 'r' ORDER BY 1`,
      [APP_ROLE],
    );
    expect(rows.filter((r) => r.delete).map((r) => r.name)).toEqual(DELETABLE);
    for (const table of APPEND_ONLY) expect(rows.find((r) => r.name === table)?.update).toBe(false);
  });
});
