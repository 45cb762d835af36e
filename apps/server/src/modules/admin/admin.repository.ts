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

/** One pharmacy (in the transaction of an operator's change of it). */
export async function findPharmacy(q: Queryable, pharmacyId: string): Promise<PlatformPharmacy | undefined> {
  const [row] = await q.query<PharmacyRow>(`SELECT id, name, is_demo, owner_email, created_at FROM pharmacies WHERE id = $1`, [pharmacyId]);
  return row ? toPlatformPharmacy(row) : undefined;
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
 * Money received per month since `since` (cents): completed platform payments (M-Pesa, migration 0022; offline,
 * migration 0027) by the month the money came in: an offline payment's day paid, else the day it completed. A
 * licence or an upgrade counts as licence, hosting as hosting. Reversed payments do not count.
 */
export async function revenueByMonth(q: Queryable, since: Date): Promise<Map<string, { licenceCents: number; hostingCents: number }>> {
  const rows = await q.query<{ month: string; licence: number; hosting: number }>(
    `SELECT to_char(received, 'YYYY-MM') AS month,
            coalesce(sum(amount_cents) FILTER (WHERE purpose IN ('licence', 'upgrade')), 0)::bigint AS licence,
            coalesce(sum(amount_cents) FILTER (WHERE purpose = 'hosting'), 0)::bigint AS hosting
       FROM (SELECT amount_cents, purpose, coalesce(paid_on::timestamp, completed_at AT TIME ZONE 'UTC') AS received
               FROM platform_payments WHERE status = 'completed') paid
      WHERE received >= $1::timestamptz AT TIME ZONE 'UTC'
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

/** Who an offline payment is from: the pharmacy's name and its owner's email and name (the operator's when it has none). */
export async function payerOfPharmacy(q: Queryable, pharmacyId: string): Promise<{ pharmacyName: string; email: string | null; name: string | null } | undefined> {
  const [row] = await q.query<{ pharmacy_name: string; email: string | null; name: string | null }>(
    `SELECT p.name AS pharmacy_name, coalesce(u.email, lower(p.owner_email)) AS email, u.name
       FROM pharmacies p
       LEFT JOIN LATERAL (SELECT user_id FROM memberships WHERE pharmacy_id = p.id AND is_owner ORDER BY created_at LIMIT 1) m ON true
       LEFT JOIN users u ON u.id = m.user_id
      WHERE p.id = $1`,
    [pharmacyId],
  );
  return row ? { pharmacyName: row.pharmacy_name, email: row.email, name: row.name } : undefined;
}

export interface NewOfflinePayment {
  id: string;
  purpose: 'upgrade' | 'hosting';
  plan: string;
  amountCents: number;
  method: 'bank_transfer' | 'cash' | 'cheque' | 'mpesa_paybill';
  reference: string | null;
  paidOn: string;
  note: string | null;
  ownerEmail: string;
  ownerName: string;
  pharmacyName: string;
  pharmacyId: string;
  recordedBy: string;
  at: Date;
}

/** An offline payment: a platform payment recorded completed at once, with its method, reference and day paid (0027). */
export async function insertOfflinePayment(q: Queryable, p: NewOfflinePayment): Promise<void> {
  await q.query(
    `INSERT INTO platform_payments (id, purpose, plan, amount_cents, phone, owner_email, owner_name, pharmacy_name, for_pharmacy_id, requested_by,
                                    status, method, reference, paid_on, note, created_at, updated_at, completed_at)
     VALUES ($1, $2, $3, $4, NULL, $5, $6, $7, $8, $9, 'completed', $10, $11, $12, $13, $14, $14, $14)`,
    [p.id, p.purpose, p.plan, p.amountCents, p.ownerEmail, p.ownerName, p.pharmacyName, p.pharmacyId, p.recordedBy, p.method, p.reference, p.paidOn, p.note, p.at],
  );
}
