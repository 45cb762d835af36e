import type { Queryable } from '../../db/database.ts';

interface PharmacyRow {
  id: string;
  name: string;
  is_demo: boolean;
  owner_email: string | null;
  created_at: string;
}

export interface PlatformPharmacy {
  id: string;
  name: string;
  isDemo: boolean;
  ownerEmail: string | null;
  createdAt: string;
}

function toPlatformPharmacy(row: PharmacyRow): PlatformPharmacy {
  return { id: row.id, name: row.name, isDemo: row.is_demo, ownerEmail: row.owner_email, createdAt: row.created_at };
}

/** Every pharmacy of the platform, newest first (through the owner connection: across tenants). */
export async function findAllPharmacies(q: Queryable): Promise<PlatformPharmacy[]> {
  const rows = await q.query<PharmacyRow>(`SELECT id, name, is_demo, owner_email, created_at FROM pharmacies ORDER BY created_at DESC, id`);
  return rows.map(toPlatformPharmacy);
}

interface SubscriptionStateRow {
  plan_id: 'trial' | 'standard';
  status: 'trial' | 'active' | 'inactive';
  trial_end_date: string | null;
  end_date: string | null;
}

export interface SubscriptionState {
  planId: 'trial' | 'standard';
  status: 'trial' | 'active' | 'inactive';
  trialEndDate: string | null;
  endDate: string | null;
}

/** The pharmacy's subscription, locked for the operator's change (RLS: the transaction's tenant must be this pharmacy). */
export async function lockSubscription(q: Queryable, pharmacyId: string): Promise<SubscriptionState | undefined> {
  const [row] = await q.query<SubscriptionStateRow>(
    `SELECT plan_id, status, trial_end_date, end_date FROM subscriptions WHERE pharmacy_id = $1 FOR UPDATE`,
    [pharmacyId],
  );
  return row ? { planId: row.plan_id, status: row.status, trialEndDate: row.trial_end_date, endDate: row.end_date } : undefined;
}

export async function setTrialEnd(q: Queryable, pharmacyId: string, trialEnd: Date, now: Date): Promise<void> {
  await q.query(
    `UPDATE subscriptions SET trial_end_date = $2, end_date = $2, status = 'trial', updated_at = $3 WHERE pharmacy_id = $1`,
    [pharmacyId, trialEnd, now],
  );
}

export async function setSubscriptionStatus(q: Queryable, pharmacyId: string, status: 'trial' | 'active' | 'inactive', now: Date): Promise<void> {
  await q.query(`UPDATE subscriptions SET status = $2, updated_at = $3 WHERE pharmacy_id = $1`, [pharmacyId, status, now]);
}

/** New pharmacies (not demo) per month since `since`, as YYYY-MM. */
export async function signUpsByMonth(q: Queryable, since: Date): Promise<Map<string, number>> {
  const rows = await q.query<{ month: string; n: number }>(
    `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM') AS month, count(*)::int AS n
       FROM pharmacies WHERE NOT is_demo AND created_at >= $1 GROUP BY 1`,
    [since],
  );
  return new Map(rows.map((r) => [r.month, r.n]));
}

/**
 * Money received per month since `since` (cents): completed platform payments (M-Pesa, migration 0022) by the month
 * they completed; a licence or an upgrade counts as licence, hosting as hosting. Reversed payments do not count.
 */
export async function revenueByMonth(q: Queryable, since: Date): Promise<Map<string, { licenceCents: number; hostingCents: number }>> {
  const rows = await q.query<{ month: string; licence: number; hosting: number }>(
    `SELECT to_char(completed_at AT TIME ZONE 'UTC', 'YYYY-MM') AS month,
            coalesce(sum(amount_cents) FILTER (WHERE purpose IN ('licence', 'upgrade')), 0)::bigint AS licence,
            coalesce(sum(amount_cents) FILTER (WHERE purpose = 'hosting'), 0)::bigint AS hosting
       FROM platform_payments
      WHERE status = 'completed' AND completed_at >= $1
      GROUP BY 1`,
    [since],
  );
  return new Map(rows.map((r) => [r.month, { licenceCents: Number(r.licence), hostingCents: Number(r.hosting) }]));
}

export async function userExists(q: Queryable, email: string): Promise<boolean> {
  return (await q.query(`SELECT 1 FROM users WHERE email = $1`, [email])).length > 0;
}

/** The owner of a pharmacy set up by hand: no password yet (they choose it from the invitation link). */
export async function insertOwnerUser(q: Queryable, email: string, name: string, now: Date): Promise<string> {
  const [row] = await q.query<{ id: string }>(`INSERT INTO users (email, name, created_at, updated_at) VALUES ($1, $2, $3, $3) RETURNING id`, [email, name, now]);
  return row!.id;
}

/** The owner's membership waits for their answer, like any invitation (decision 0015), until they set a password. */
export async function makeOwnerMembershipPending(q: Queryable, pharmacyId: string, userId: string, name: string): Promise<void> {
  await q.query(`UPDATE memberships SET accepted_at = NULL, invited_name = $3 WHERE pharmacy_id = $1 AND user_id = $2`, [pharmacyId, userId, name]);
}

export async function ownerOf(q: Queryable, pharmacyId: string): Promise<string | undefined> {
  const [row] = await q.query<{ user_id: string }>(
    `SELECT user_id FROM memberships WHERE pharmacy_id = $1 AND is_owner ORDER BY created_at LIMIT 1`,
    [pharmacyId],
  );
  return row?.user_id;
}

/** Per pharmacy, the sales of a period (sale_date from..to exclusive; voided sales left out): count, total, last date. */
export async function salesByPharmacy(q: Queryable, from: string, to: string): Promise<{ id: string; name: string; isDemo: boolean; salesCount: number; salesTotalCents: number; lastSaleDate: string | null }[]> {
  const rows = await q.query<{ id: string; name: string; is_demo: boolean; n: number; total: number; last: string | null }>(
    `SELECT p.id, p.name, p.is_demo, count(s.*)::int AS n, coalesce(sum(s.total_cents), 0)::bigint AS total, max(s.sale_date)::text AS last
       FROM pharmacies p
       LEFT JOIN sales s ON s.pharmacy_id = p.id AND s.sale_date >= $1::date AND s.sale_date < $2::date AND s.status <> 'voided'
      GROUP BY p.id, p.name, p.is_demo
      ORDER BY total DESC, p.name`,
    [from, to],
  );
  return rows.map((r) => ({ id: r.id, name: r.name, isDemo: r.is_demo, salesCount: r.n, salesTotalCents: Number(r.total), lastSaleDate: r.last }));
}

export async function demoRegistrationsBetween(q: Queryable, from: Date, to: Date): Promise<number> {
  const [row] = await q.query<{ n: number }>(`SELECT count(*)::int AS n FROM demo_registrations WHERE registered_at >= $1 AND registered_at < $2`, [from, to]);
  return row?.n ?? 0;
}

/**
 * Claims an operator's Idempotency-Key in the pharmacy the change is made in (the table every tenant's keys live in,
 * under row-level security; the caller holds the pharmacy's subscription lock, so a concurrent retry waits here and
 * then finds the key). 'claimed' the first time; 'replay' for the same request again; 'reused' for another request.
 */
export async function claimOperatorKey(q: Queryable, pharmacyId: string, key: string, userId: string, hash: string): Promise<'claimed' | 'replay' | 'reused'> {
  const claimed = await q.query(
    `INSERT INTO idempotency_keys (pharmacy_id, key, user_id, request_hash, status_code) VALUES ($1, $2, $3, $4, 200)
     ON CONFLICT (pharmacy_id, key) DO NOTHING RETURNING key`,
    [pharmacyId, key, userId, hash],
  );
  if (claimed.length > 0) return 'claimed';
  const [stored] = await q.query<{ request_hash: string }>(`SELECT request_hash FROM idempotency_keys WHERE pharmacy_id = $1 AND key = $2`, [pharmacyId, key]);
  return stored?.request_hash === hash ? 'replay' : 'reused';
}
