import { newTrialSubscription, type SubscriptionRecord, type Usage } from '@pharmapoint/domain/subscription';
import type { Queryable } from '../../db/database.ts';

interface SubscriptionRow {
  plan_id: SubscriptionRecord['planId'];
  status: SubscriptionRecord['status'];
  start_date: Date | string;
  trial_end_date: Date | string | null;
  end_date: Date | string | null;
  hosting_paid_until: Date | string | null;
  max_products: number;
  max_transactions: number;
  max_users: number;
  max_branches: number;
}

const date = (v: Date | string | null) => (v === null ? null : new Date(v));

function toRecord(row: SubscriptionRow): SubscriptionRecord {
  return {
    planId: row.plan_id,
    status: row.status,
    startDate: new Date(row.start_date),
    trialEndDate: date(row.trial_end_date),
    endDate: date(row.end_date),
    hostingPaidUntil: date(row.hosting_paid_until),
    maxProducts: row.max_products,
    maxTransactions: row.max_transactions,
    maxUsers: row.max_users,
    maxBranches: row.max_branches,
  };
}

/** Writes the pharmacy's subscription row ('current' in seed 000). */
export async function insertSubscription(
  q: Queryable,
  pharmacyId: string,
  sub: SubscriptionRecord,
  origin: { initializedBy: string | null; method: string },
): Promise<void> {
  await q.query(
    `INSERT INTO subscriptions (pharmacy_id, plan_id, status, start_date, trial_end_date, end_date, hosting_paid_until,
       max_products, max_transactions, max_users, max_branches, initialized_by, initialization_method)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
    [pharmacyId, sub.planId, sub.status, sub.startDate, sub.trialEndDate, sub.endDate, sub.hostingPaidUntil,
      sub.maxProducts, sub.maxTransactions, sub.maxUsers, sub.maxBranches, origin.initializedBy, origin.method],
  );
}

/** The pharmacy's stored subscription, or null when it has none (read-only: the operator's view uses it). */
export async function findSubscription(q: Queryable, pharmacyId: string, forUpdate = false): Promise<SubscriptionRecord | null> {
  const [row] = await q.query<SubscriptionRow>(
    `SELECT * FROM subscriptions WHERE pharmacy_id = $1${forUpdate ? ' FOR UPDATE' : ''}`,
    [pharmacyId],
  );
  return row ? toRecord(row) : null;
}

/** The stored subscriptions of several pharmacies (read-only), by pharmacy id; a pharmacy without one is absent. */
export async function findSubscriptionsOf(q: Queryable, pharmacyIds: readonly string[]): Promise<Map<string, SubscriptionRecord>> {
  const rows = await q.query<SubscriptionRow & { pharmacy_id: string }>(`SELECT * FROM subscriptions WHERE pharmacy_id = ANY ($1::text[])`, [
    pharmacyIds,
  ]);
  return new Map(rows.map((row) => [row.pharmacy_id, toRecord(row)]));
}

/**
 * The pharmacy's subscription; a trial is created when there is none (seed 000 section 4). With forUpdate the
 * row stays locked until the transaction ends, so concurrent limit checks of one pharmacy run one at a time.
 */
export async function loadSubscription(q: Queryable, pharmacyId: string, now: Date, forUpdate = false): Promise<SubscriptionRecord> {
  const found = await findSubscription(q, pharmacyId, forUpdate);
  if (found) return found;
  const trial = newTrialSubscription(now);
  // Two first reads at once: the second one keeps the first one's trial.
  await q.query(`SELECT pg_advisory_xact_lock(hashtext('subscription:' || $1))`, [pharmacyId]);
  const [created] = await q.query<SubscriptionRow>(`SELECT * FROM subscriptions WHERE pharmacy_id = $1`, [pharmacyId]);
  if (created) return toRecord(created);
  await insertSubscription(q, pharmacyId, trial, { initializedBy: null, method: 'auto_on_read' });
  return trial;
}

/**
 * Usage counted from real rows, for several pharmacies in one query: active non-demo members, active branches,
 * products (when the products table exists) and transactions (sales rows once the POS issue's sales table
 * exists; 0 until then). Inside a tenant transaction only that tenant's rows are visible (row-level security).
 */
export async function countUsageOf(q: Queryable, pharmacyIds: readonly string[]): Promise<Map<string, Usage>> {
  const result = new Map<string, Usage>();
  if (pharmacyIds.length === 0) return result;
  const [tables] = await q.query<{ products: boolean; sales: boolean }>(
    `SELECT to_regclass('public.products') IS NOT NULL AS products, to_regclass('public.sales') IS NOT NULL AS sales`,
  );
  const rows = await q.query<Usage & { id: string }>(
    `SELECT p.id,
            (SELECT count(*)::int FROM memberships m WHERE m.pharmacy_id = p.id AND m.is_active AND m.role <> 'demo') AS users,
            (SELECT count(*)::int FROM branches b WHERE b.pharmacy_id = p.id AND b.is_active) AS branches,
            ${tables?.products ? '(SELECT count(*)::int FROM products x WHERE x.pharmacy_id = p.id)' : '0'} AS products,
            ${tables?.sales ? '(SELECT count(*)::int FROM sales x WHERE x.pharmacy_id = p.id)' : '0'} AS transactions
       FROM unnest($1::text[]) AS p (id)`,
    [pharmacyIds],
  );
  for (const { id, users, branches, products, transactions } of rows) {
    result.set(id, { products: Number(products), transactions: Number(transactions), users: Number(users), branches: Number(branches) });
  }
  return result;
}

/** Usage of one pharmacy counted from real rows (see countUsageOf). */
export async function countUsage(q: Queryable, pharmacyId: string): Promise<Usage> {
  return (await countUsageOf(q, [pharmacyId])).get(pharmacyId) ?? { products: 0, transactions: 0, users: 0, branches: 0 };
}

export type { Usage } from '@pharmapoint/domain/subscription';

/** The latest usage snapshot of the pharmacy (seed 000: 'the latest one by timestamp is used'), or null. */
export async function latestUsageSnapshot(q: Queryable, pharmacyId: string): Promise<(Usage & { takenAt: Date }) | null> {
  const [row] = await q.query<{
    current_products: number;
    current_transactions: number;
    current_users: number;
    current_branches: number;
    taken_at: Date | string;
  }>(
    `SELECT current_products, current_transactions, current_users, current_branches, taken_at
       FROM usage_snapshots WHERE pharmacy_id = $1 ORDER BY taken_at DESC LIMIT 1`,
    [pharmacyId],
  );
  if (!row) return null;
  return {
    products: row.current_products,
    transactions: row.current_transactions,
    users: row.current_users,
    branches: row.current_branches,
    takenAt: new Date(row.taken_at),
  };
}

/**
 * Records the usage counted from real rows when it differs from the latest snapshot, so usage_snapshots holds
 * the history of changes without a row per read. Returns true when a snapshot was written.
 */
export async function recordUsageSnapshot(q: Queryable, pharmacyId: string, usage: Usage): Promise<boolean> {
  const latest = await latestUsageSnapshot(q, pharmacyId);
  if (
    latest &&
    latest.products === usage.products &&
    latest.transactions === usage.transactions &&
    latest.users === usage.users &&
    latest.branches === usage.branches
  ) {
    return false;
  }
  await q.query(
    `INSERT INTO usage_snapshots (pharmacy_id, current_products, current_transactions, current_users, current_branches)
     VALUES ($1, $2, $3, $4, $5)`,
    [pharmacyId, usage.products, usage.transactions, usage.users, usage.branches],
  );
  return true;
}
