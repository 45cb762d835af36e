import type { Database } from '../src/db/database.ts';
import { recountPlanUsage } from '../src/modules/subscription/subscription.service.ts';
import type { TestApp } from './app.ts';
import { FIXTURE_PASSWORD } from './fixtures.ts';
import type { TestClient } from './http.ts';

/** A browser signed in through POST /api/auth/login as the fixture user of that email. */
export function loginAs(t: TestApp, email: string, password: string = FIXTURE_PASSWORD): Promise<TestClient> {
  return t.client().login(email, password);
}

/** How many rows a tenant table holds for the pharmacy (read as the owner: no row-level security). */
export async function countRows(db: Database, table: string, pharmacyId: string): Promise<number> {
  const [row] = await db.owner.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE pharmacy_id = $1`, [pharmacyId]);
  return row?.n ?? 0;
}

/** A picture of what a write could have touched in a pharmacy, to prove that a refused request wrote nothing. */
export async function tenantSnapshot(db: Database, pharmacyId: string): Promise<Record<string, unknown>> {
  const tables = ['branches', 'memberships', 'settings', 'subscriptions', 'audit_log', 'outbox'];
  const counts: Record<string, unknown> = {};
  for (const table of tables) counts[table] = await countRows(db, table, pharmacyId);
  const [users] = await db.owner.query<{ n: number }>(`SELECT count(*)::int AS n FROM users`);
  counts.users = users?.n;
  const [settings] = await db.owner.query<{ document: unknown }>(`SELECT document FROM settings WHERE pharmacy_id = $1`, [pharmacyId]);
  counts.settingsDocument = settings?.document ?? null;
  const [pharmacy] = await db.owner.query<{ name: string; theme: unknown }>(`SELECT name, theme FROM pharmacies WHERE id = $1`, [pharmacyId]);
  counts.pharmacy = pharmacy ?? null;
  counts.branchRows = await db.owner.query(`SELECT id, name, address, phone, is_default, is_active FROM branches WHERE pharmacy_id = $1 ORDER BY id`, [pharmacyId]);
  counts.memberRows = await db.owner.query(
    `SELECT user_id, role, permissions, allowed_branch_ids, has_pos_access, is_active FROM memberships WHERE pharmacy_id = $1 ORDER BY user_id`,
    [pharmacyId],
  );
  return counts;
}

/** Moves the subscription's dates: each value is an SQL interval from now (e.g. '-1 day', '36 hours') or null. */
export async function setSubscription(
  db: Database,
  pharmacyId: string,
  values: Partial<Record<'trial_end_date' | 'end_date' | 'hosting_paid_until', string | null>> & { status?: string; plan_id?: string },
): Promise<void> {
  const sets: string[] = [];
  const params: unknown[] = [pharmacyId];
  for (const [column, value] of Object.entries(values)) {
    if (column === 'status' || column === 'plan_id') {
      params.push(value);
      sets.push(`${column} = $${params.length}`);
    } else if (value === null) {
      sets.push(`${column} = NULL`);
    } else {
      params.push(value);
      sets.push(`${column} = now() + $${params.length}::interval`);
    }
  }
  await db.owner.query(`UPDATE subscriptions SET ${sets.join(', ')} WHERE pharmacy_id = $1`, params);
}

/**
 * After a test wrote products, members or branches directly (not through the use cases, which keep the usage
 * counters), sets the pharmacy's counters to its rows, as the seed does.
 */
export async function syncUsageCounters(db: Database, pharmacyId: string): Promise<void> {
  await db.transaction({ pharmacyId }, (q) => recountPlanUsage(q, pharmacyId));
}

/** The pharmacy's usage counters next to the counts of its rows (they must agree). */
export async function usageCountersAndRows(
  db: Database,
  pharmacyId: string,
): Promise<{ counters: Record<'products' | 'users' | 'branches', number>; rows: Record<'products' | 'users' | 'branches', number> }> {
  const [counters] = await db.owner.query<{ products: number; users: number; branches: number }>(
    `SELECT products, users, branches FROM usage_counters WHERE pharmacy_id = $1`,
    [pharmacyId],
  );
  const [rows] = await db.owner.query<{ products: number; users: number; branches: number }>(
    `SELECT (SELECT count(*)::int FROM products WHERE pharmacy_id = $1) AS products,
            (SELECT count(*)::int FROM memberships WHERE pharmacy_id = $1 AND is_active AND role <> 'demo') AS users,
            (SELECT count(*)::int FROM branches WHERE pharmacy_id = $1 AND is_active) AS branches`,
    [pharmacyId],
  );
  return { counters: counters ?? { products: -1, users: -1, branches: -1 }, rows: rows! };
}

/**
 * Polls `check` every 50 ms until it answers something truthy (its answer is returned), or fails after timeoutMs
 * naming what it waited for: for work the job runner or a simulator does in the background.
 */
export async function until<T>(what: string, check: () => Promise<T | undefined | null | false> | T | undefined | null | false, timeoutMs = 20_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
