import { newTrialSubscription, type LimitedResource, type SubscriptionRecord, type Usage } from '@pharmapoint/domain/subscription';
import { deferWrite, type Queryable } from '../../db/database.ts';

export type { Usage } from '@pharmapoint/domain/subscription';

interface SubscriptionRow {
  pharmacy_id: string;
  plan_id: SubscriptionRecord['planId'];
  status: SubscriptionRecord['status'];
  start_date: string;
  trial_end_date: string | null;
  end_date: string | null;
  hosting_paid_until: string | null;
  max_products: number;
  max_transactions: number;
  max_users: number;
  max_branches: number;
}

const date = (v: string | null) => (v === null ? null : new Date(v));

/** The domain's record works with Date values (its rules compare instants); the column parsers give ISO text. */
function toSubscription(row: SubscriptionRow): SubscriptionRecord {
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

const SUBSCRIPTION_COLUMNS = `pharmacy_id, plan_id, status, start_date, trial_end_date, end_date, hosting_paid_until,
  max_products, max_transactions, max_users, max_branches`;

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

/** The pharmacy's stored subscription, or null when it has none. */
export async function findSubscription(q: Queryable, pharmacyId: string): Promise<SubscriptionRecord | null> {
  const [row] = await q.query<SubscriptionRow>(`SELECT ${SUBSCRIPTION_COLUMNS} FROM subscriptions WHERE pharmacy_id = $1`, [pharmacyId]);
  return row ? toSubscription(row) : null;
}

/** The stored subscriptions of several pharmacies (read-only), by pharmacy id; a pharmacy without one is absent. */
export async function findSubscriptionsOf(q: Queryable, pharmacyIds: readonly string[]): Promise<Map<string, SubscriptionRecord>> {
  const rows = await q.query<SubscriptionRow>(`SELECT ${SUBSCRIPTION_COLUMNS} FROM subscriptions WHERE pharmacy_id = ANY ($1::text[])`, [
    pharmacyIds,
  ]);
  return new Map(rows.map((row) => [row.pharmacy_id, toSubscription(row)]));
}

/** The pharmacy's subscription; a trial is created when there is none (seed 000 section 4). */
export async function loadSubscription(q: Queryable, pharmacyId: string, now: Date): Promise<SubscriptionRecord> {
  const found = await findSubscription(q, pharmacyId);
  if (found) return found;
  const trial = newTrialSubscription(now);
  // Two first reads at once: the second one keeps the first one's trial.
  await q.query(`SELECT pg_advisory_xact_lock(hashtext('subscription:' || $1))`, [pharmacyId]);
  const created = await findSubscription(q, pharmacyId);
  if (created) return created;
  await insertSubscription(q, pharmacyId, trial, { initializedBy: null, method: 'auto_on_read' });
  return trial;
}

// ---------------------------------------------------------------------------------------------- usage counters

interface UsageCountersRow {
  pharmacy_id: string;
  products: number;
  transactions: number;
  users: number;
  branches: number;
}

function toUsage(row: UsageCountersRow): Usage {
  return { products: row.products, transactions: row.transactions, users: row.users, branches: row.branches };
}

/** The counter column of each resource (a fixed list: column names are never taken from input). */
const COUNTER_COLUMN: Record<LimitedResource, string> = {
  products: 'products',
  transactions: 'transactions',
  users: 'users',
  branches: 'branches',
};

/**
 * The subscription checked and `n` places of a resource taken, in one statement (take_plan_places, migration 0041):
 * SUBSCRIPTION_NOT_ACTIVE and LIMIT_EXCEEDED come back as database errors of their own SQLSTATE (PPL01, PPL02),
 * which platform/errors.ts maps to the same answers. A pharmacy without a subscription gets `trial`.
 */
const TAKE_PLAN_PLACES = `SELECT take_plan_places($1, $2, $3, $4, $5)`;

function takePlanPlacesParams(pharmacyId: string, resource: LimitedResource, n: number, now: Date, trial: SubscriptionRecord): unknown[] {
  return [pharmacyId, COUNTER_COLUMN[resource], n, now.toISOString(), JSON.stringify(trial)];
}

/**
 * take_plan_places at the end of the transaction, in COMMIT's own round trip (deferWrite, decision 0077): no
 * statement of its own. Its refusal fails the transaction and reaches the caller as the database error.
 */
export function deferTakePlanPlaces(q: Queryable, pharmacyId: string, resource: LimitedResource, n: number, now: Date, trial: SubscriptionRecord): void {
  deferWrite(q, TAKE_PLAN_PLACES, takePlanPlacesParams(pharmacyId, resource, n, now, trial));
}

/** take_plan_places now, in its own round trip. */
export async function takePlanPlaces(q: Queryable, pharmacyId: string, resource: LimitedResource, n: number, now: Date, trial: SubscriptionRecord): Promise<void> {
  await q.query(TAKE_PLAN_PLACES, takePlanPlacesParams(pharmacyId, resource, n, now, trial));
}

/** Gives `n` places of a resource back (never below zero). */
export async function giveBackUsage(q: Queryable, pharmacyId: string, resource: LimitedResource, n: number): Promise<void> {
  const column = COUNTER_COLUMN[resource];
  await q.query(`UPDATE usage_counters SET ${column} = greatest(${column} - $2, 0), updated_at = now() WHERE pharmacy_id = $1`, [
    pharmacyId,
    n,
  ]);
}

export async function findUsage(q: Queryable, pharmacyId: string): Promise<Usage | null> {
  const [row] = await q.query<UsageCountersRow>(
    `SELECT pharmacy_id, products, transactions, users, branches FROM usage_counters WHERE pharmacy_id = $1`,
    [pharmacyId],
  );
  return row ? toUsage(row) : null;
}

/** The counters of several pharmacies; a pharmacy without a counters row is absent. */
export async function findUsagesOf(q: Queryable, pharmacyIds: readonly string[]): Promise<Map<string, Usage>> {
  const rows = await q.query<UsageCountersRow>(
    `SELECT pharmacy_id, products, transactions, users, branches FROM usage_counters WHERE pharmacy_id = ANY ($1::text[])`,
    [pharmacyIds],
  );
  return new Map(rows.map((row) => [row.pharmacy_id, toUsage(row)]));
}

/** The counters row of a new pharmacy, from what it was created with. */
export async function insertUsage(q: Queryable, pharmacyId: string, usage: Usage, periodStart: Date): Promise<void> {
  await q.query(
    `INSERT INTO usage_counters (pharmacy_id, products, transactions, users, branches, period_start) VALUES ($1, $2, $3, $4, $5, $6)`,
    [pharmacyId, usage.products, usage.transactions, usage.users, usage.branches, periodStart],
  );
}

/** What the counters mean, counted from the rows (the migration's backfill; transactions have no table yet). */
const COUNTED_FROM_ROWS = `
  (SELECT count(*) FROM products x WHERE x.pharmacy_id = $1) AS products,
  (SELECT count(*) FROM memberships m WHERE m.pharmacy_id = $1 AND m.is_active AND m.role <> 'demo') AS users,
  (SELECT count(*) FROM branches b WHERE b.pharmacy_id = $1 AND b.is_active) AS branches`;

/**
 * Creates the counters row of a pharmacy that has none (one made by hand, outside createPharmacy) from its rows;
 * a concurrent creator's row wins. Counting happens only here, once per pharmacy, never on a limit check.
 */
export async function insertUsageFromRows(q: Queryable, pharmacyId: string): Promise<void> {
  await q.query(
    `INSERT INTO usage_counters (pharmacy_id, products, users, branches)
     SELECT $1, c.products, c.users, c.branches FROM (SELECT ${COUNTED_FROM_ROWS}) c
     ON CONFLICT (pharmacy_id) DO NOTHING`,
    [pharmacyId],
  );
}

/**
 * Sets the products, users and branches counters to the rows' counts (seeding and fixtures write rows in bulk
 * without taking places); the transactions counter is kept.
 */
export async function recountUsageFromRows(q: Queryable, pharmacyId: string): Promise<void> {
  await q.query(
    `INSERT INTO usage_counters (pharmacy_id, products, users, branches)
     SELECT $1, c.products, c.users, c.branches FROM (SELECT ${COUNTED_FROM_ROWS}) c
     ON CONFLICT (pharmacy_id) DO UPDATE
       SET products = EXCLUDED.products, users = EXCLUDED.users, branches = EXCLUDED.branches, updated_at = now()`,
    [pharmacyId],
  );
}

// ---------------------------------------------------------------------------------------------- usage snapshots

interface UsageSnapshotRow {
  current_products: number;
  current_transactions: number;
  current_users: number;
  current_branches: number;
  taken_at: string;
}

/** The latest usage snapshot of the pharmacy (seed 000: 'the latest one by timestamp is used'), or null. */
export async function latestUsageSnapshot(q: Queryable, pharmacyId: string): Promise<(Usage & { takenAt: string }) | null> {
  const [row] = await q.query<UsageSnapshotRow>(
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
    takenAt: row.taken_at,
  };
}

export async function insertUsageSnapshot(q: Queryable, pharmacyId: string, usage: Usage): Promise<void> {
  await q.query(
    `INSERT INTO usage_snapshots (pharmacy_id, current_products, current_transactions, current_users, current_branches)
     VALUES ($1, $2, $3, $4, $5)`,
    [pharmacyId, usage.products, usage.transactions, usage.users, usage.branches],
  );
}

/** The subscription row locked for a paid change (item 6: upgrade or hosting by M-Pesa). */
export async function lockSubscription(q: Queryable, pharmacyId: string): Promise<SubscriptionRecord | null> {
  const [row] = await q.query<SubscriptionRow>(`SELECT ${SUBSCRIPTION_COLUMNS} FROM subscriptions WHERE pharmacy_id = $1 FOR UPDATE`, [pharmacyId]);
  return row ? toSubscription(row) : null;
}

/** A trial upgraded to the standard licence, paid now. */
export async function upgradeSubscription(q: Queryable, pharmacyId: string, sub: SubscriptionRecord, payment: { amountCents: number; at: Date; method?: string }): Promise<void> {
  await q.query(
    `UPDATE subscriptions
        SET plan_id = $2, status = $3, trial_end_date = $4, end_date = $5, hosting_paid_until = $6, max_products = $7,
            max_transactions = $8, max_users = $9, max_branches = $10, upgraded_from_trial = true, upgrade_date = $11,
            payment_method = $13, last_payment_amount_cents = $12, last_payment_date = $11, hosting_status = 'active',
            last_hosting_payment = $11, hosting_payment_method = $13, updated_at = $11
      WHERE pharmacy_id = $1`,
    [pharmacyId, sub.planId, sub.status, sub.trialEndDate, sub.endDate, sub.hostingPaidUntil, sub.maxProducts, sub.maxTransactions, sub.maxUsers,
      sub.maxBranches, payment.at, payment.amountCents, payment.method ?? 'mpesa'],
  );
}

/** Hosting paid until a new date. */
export async function setHostingPaidUntil(q: Queryable, pharmacyId: string, until: Date, payment: { amountCents: number; at: Date; method?: string }): Promise<void> {
  await q.query(
    `UPDATE subscriptions SET hosting_paid_until = $2, hosting_status = 'active', last_hosting_payment = $3, last_hosting_amount_cents = $4,
            hosting_payment_method = $5, updated_at = $3
      WHERE pharmacy_id = $1`,
    [pharmacyId, until, payment.at, payment.amountCents, payment.method ?? 'mpesa'],
  );
}
