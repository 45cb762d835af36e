import type { Database } from '../src/db/database.ts';
import type { TestApp } from './app.ts';
import type { TestClient } from './http.ts';
import { sessionCookie } from './sse-client.ts';

/** A test client signed in as the user in the pharmacy and branch (a session made directly, as sign-in makes it). */
export async function signedInClient(t: TestApp, userId: string, pharmacyId: string, branchId: string | null): Promise<TestClient> {
  const client = t.client();
  const cookie = await sessionCookie(t.db, userId, pharmacyId, branchId);
  const [name, value] = cookie.split('=') as [string, string];
  client.cookies.set(name, value);
  return client;
}

/**
 * The ledger invariant of DATA-MODEL (1): for every product and branch, quantity + reserved on the branch row =
 * the sum of its batches = the sum of its movements, and nothing is negative. Returns the rows that break it.
 */
export async function ledgerMismatches(db: Database, pharmacyId: string): Promise<unknown[]> {
  return db.owner.query(
    `WITH b AS (SELECT branch_id, product_id, sum(quantity + reserved_quantity)::bigint AS q, min(quantity) AS min_q
                  FROM batches WHERE pharmacy_id = $1 GROUP BY 1, 2),
          m AS (SELECT branch_id, product_id, sum(delta)::bigint AS q FROM stock_movements WHERE pharmacy_id = $1 GROUP BY 1, 2)
     SELECT bp.product_id, bp.branch_id, bp.quantity, bp.reserved_quantity, b.q AS batches, m.q AS movements
       FROM branch_products bp
       LEFT JOIN b ON b.branch_id = bp.branch_id AND b.product_id = bp.product_id
       LEFT JOIN m ON m.branch_id = bp.branch_id AND m.product_id = bp.product_id
      WHERE bp.pharmacy_id = $1
        AND (bp.quantity + bp.reserved_quantity <> COALESCE(b.q, 0)
             OR bp.quantity + bp.reserved_quantity <> COALESCE(m.q, 0)
             OR bp.quantity < 0 OR bp.reserved_quantity < 0 OR COALESCE(b.min_q, 0) < 0)`,
    [pharmacyId],
  );
}

export interface StockPharmacy {
  pharmacyId: string;
  branches: { id: string; name: string }[];
  /** User ids by role ('owner' always). */
  users: Record<string, string>;
}

/**
 * A pharmacy for the import, export and events tests, inserted directly: branches, the default categories in
 * its settings, a running subscription of the plan (trial: 50 products) and one member per role.
 */
export async function stockPharmacy(
  db: Database,
  id: string,
  options: { roles?: readonly string[]; plan?: 'trial' | 'standard'; branchNames?: readonly string[] } = {},
): Promise<StockPharmacy> {
  const roles = ['owner', ...(options.roles ?? []).filter((r) => r !== 'owner')];
  await db.owner.query(`INSERT INTO pharmacies (id, name, is_demo) VALUES ($1, $2, $3)`, [id, `Pharmacy ${id}`, roles.includes('demo')]);
  const branches: { id: string; name: string }[] = [];
  for (const [i, name] of (options.branchNames ?? ['Main Branch', 'Westlands Branch']).entries()) {
    const [row] = await db.owner.query<{ id: string }>(`INSERT INTO branches (pharmacy_id, name, is_default) VALUES ($1, $2, $3) RETURNING id`, [id, name, i === 0]);
    branches.push({ id: row!.id, name });
  }
  await db.owner.query(`INSERT INTO settings (pharmacy_id, document) VALUES ($1, $2)`, [
    id,
    JSON.stringify({ categories: ['Medicine', 'Equipment', 'Supplies', 'Cosmetics', 'Supplements'] }),
  ]);
  const trial = options.plan === 'trial';
  // A running subscription (a trial with days left, or a licence with hosting paid): writes check it is active.
  await db.owner.query(
    `INSERT INTO subscriptions (pharmacy_id, plan_id, status, max_products, max_transactions, max_users, max_branches, trial_end_date, hosting_paid_until)
     VALUES ($1, $2, $3, $4, $4, $5, $5, $6, $7)`,
    [
      id,
      trial ? 'trial' : 'standard',
      trial ? 'trial' : 'active',
      trial ? 50 : -1,
      trial ? 1 : -1,
      trial ? new Date(Date.now() + 14 * 86_400_000) : null,
      trial ? null : new Date(Date.now() + 365 * 86_400_000),
    ],
  );
  const users: Record<string, string> = {};
  for (const role of roles) {
    const [user] = await db.owner.query<{ id: string }>(`INSERT INTO users (email, name, email_verified_at) VALUES ($1, $2, now()) RETURNING id`, [
      `${role}@${id}.test`,
      `${role} ${id}`,
    ]);
    await db.owner.query(
      `INSERT INTO memberships (pharmacy_id, user_id, role, is_owner, has_pos_access, default_branch_id) VALUES ($1, $2, $3, $4, $5, $6)`,
      [id, user!.id, role, role === 'owner', role === 'owner' || role === 'cashier', branches[0]!.id],
    );
    users[role] = user!.id;
  }
  return { pharmacyId: id, branches, users };
}
