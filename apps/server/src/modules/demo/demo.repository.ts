import type { DemoRegistration, Lead, LeadStatus } from '@pharmapoint/domain/demo';
import type { Queryable } from '../../db/database.ts';

interface RegistrationRow {
  id: string;
  user_id: string;
  name: string;
  email: string;
  phone: string;
  pharmacy_name: string | null;
  source: string;
  email_verified: boolean;
  demo_access_granted: boolean;
  verified_at: string | null;
  registered_at: string;
  last_access_at: string | null;
  access_count: number;
}

export type RegistrationRecord = DemoRegistration & { userId: string };

function toRegistration(row: RegistrationRow): RegistrationRecord {
  return {
    id: row.id,
    userId: row.user_id,
    name: row.name,
    email: row.email,
    phone: row.phone,
    pharmacyName: row.pharmacy_name,
    source: row.source,
    emailVerified: row.email_verified,
    demoAccessGranted: row.demo_access_granted,
    verifiedAt: row.verified_at,
    registeredAt: row.registered_at,
    lastAccessAt: row.last_access_at,
    accessCount: row.access_count,
  };
}

const REGISTRATION_COLUMNS = `id, user_id, name, email, phone, pharmacy_name, source, email_verified, demo_access_granted, verified_at,
  registered_at, last_access_at, access_count`;

interface LeadRow {
  id: string;
  name: string;
  email: string;
  phone: string;
  pharmacy_name: string | null;
  lead_type: string;
  lead_source: string;
  lead_status: LeadStatus;
  email_verified: boolean;
  demo_accessed: boolean;
  follow_up_required: boolean;
  notes: string | null;
  created_at: string;
  updated_at: string;
}

function toLead(row: LeadRow): Lead {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    phone: row.phone,
    pharmacyName: row.pharmacy_name,
    leadType: row.lead_type,
    leadSource: row.lead_source,
    leadStatus: row.lead_status,
    emailVerified: row.email_verified,
    demoAccessed: row.demo_accessed,
    followUpRequired: row.follow_up_required,
    notes: row.notes,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

const LEAD_COLUMNS = `id, name, email, phone, pharmacy_name, lead_type, lead_source, lead_status, email_verified, demo_accessed,
  follow_up_required, notes, created_at, updated_at`;

/** Requests of one action from an address and for an email since a moment (the demo endpoints' rate limits). */
export async function countDemoRequests(q: Queryable, action: string, ip: string, email: string, since: Date): Promise<{ byIp: number; byEmail: number }> {
  const [row] = await q.query<{ by_ip: number; by_email: number }>(
    `SELECT (SELECT count(*)::int FROM demo_requests WHERE action = $1 AND ip = $2 AND created_at > $4) AS by_ip,
            (SELECT count(*)::int FROM demo_requests WHERE action = $1 AND email = $3 AND created_at > $4) AS by_email`,
    [action, ip, email, since],
  );
  return { byIp: row?.by_ip ?? 0, byEmail: row?.by_email ?? 0 };
}

export async function insertDemoRequest(q: Queryable, action: string, ip: string, email: string, now: Date): Promise<void> {
  await q.query(`INSERT INTO demo_requests (action, ip, email, created_at) VALUES ($1, $2, $3, $4)`, [action, ip, email, now]);
}

export async function userIdByEmail(q: Queryable, email: string): Promise<string | undefined> {
  const [row] = await q.query<{ id: string }>(`SELECT id FROM users WHERE email = $1`, [email]);
  return row?.id;
}

export async function pharmacyExists(q: Queryable, pharmacyId: string): Promise<boolean> {
  return (await q.query(`SELECT 1 FROM pharmacies WHERE id = $1`, [pharmacyId])).length > 0;
}

/** The visitor's user: no password (they sign in by emailed links), email not verified yet. */
export async function insertDemoUser(q: Queryable, input: { email: string; name: string; phone: string }, now: Date): Promise<string> {
  const [row] = await q.query<{ id: string }>(
    `INSERT INTO users (email, name, phone, created_at, updated_at) VALUES ($1, $2, $3, $4, $4) RETURNING id`,
    [input.email, input.name, input.phone, now],
  );
  return row!.id;
}

/** The visitor's read-only place in the shared demo pharmacy (role demo, accepted at once). */
export async function insertDemoMembership(q: Queryable, pharmacyId: string, userId: string): Promise<void> {
  await q.query(`INSERT INTO memberships (pharmacy_id, user_id, role, has_pos_access) VALUES ($1, $2, 'demo', false)`, [pharmacyId, userId]);
}

export async function insertRegistration(
  q: Queryable,
  input: { userId: string; name: string; email: string; phone: string; pharmacyName: string | null; ip: string },
  now: Date,
): Promise<void> {
  await q.query(
    `INSERT INTO demo_registrations (user_id, name, email, phone, pharmacy_name, registered_at, ip) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [input.userId, input.name, input.email, input.phone, input.pharmacyName, now, input.ip],
  );
  await q.query(
    `INSERT INTO leads (user_id, name, email, phone, pharmacy_name, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $6)`,
    [input.userId, input.name, input.email, input.phone, input.pharmacyName, now],
  );
}

export async function registrationOfUser(q: Queryable, userId: string, options: { forUpdate?: boolean } = {}): Promise<RegistrationRecord | undefined> {
  const [row] = await q.query<RegistrationRow>(
    `SELECT ${REGISTRATION_COLUMNS} FROM demo_registrations WHERE user_id = $1 ${options.forUpdate ? 'FOR UPDATE' : ''}`,
    [userId],
  );
  return row ? toRegistration(row) : undefined;
}

export async function registrationByEmail(q: Queryable, email: string): Promise<RegistrationRecord | undefined> {
  const [row] = await q.query<RegistrationRow>(`SELECT ${REGISTRATION_COLUMNS} FROM demo_registrations WHERE email = $1`, [email]);
  return row ? toRegistration(row) : undefined;
}

/** The link was followed: verified, access granted, last access now (seed 002 section 4, Demo lifecycle). */
export async function markRegistrationVerified(q: Queryable, userId: string, now: Date): Promise<boolean> {
  const rows = await q.query(
    `UPDATE demo_registrations SET email_verified = true, demo_access_granted = true, verified_at = coalesce(verified_at, $2), last_access_at = $2
      WHERE user_id = $1 RETURNING id`,
    [userId, now],
  );
  if (rows.length) await q.query(`UPDATE leads SET email_verified = true, updated_at = $2 WHERE user_id = $1`, [userId, now]);
  return rows.length > 0;
}

/** Enter Demo: one more access, now. */
export async function countAccess(q: Queryable, userId: string, now: Date): Promise<RegistrationRecord | undefined> {
  const [row] = await q.query<RegistrationRow>(
    `UPDATE demo_registrations SET access_count = access_count + 1, last_access_at = $2 WHERE user_id = $1 RETURNING ${REGISTRATION_COLUMNS}`,
    [userId, now],
  );
  if (row) await q.query(`UPDATE leads SET demo_accessed = true, updated_at = $2 WHERE user_id = $1`, [userId, now]);
  return row ? toRegistration(row) : undefined;
}

export async function allRegistrations(q: Queryable, limit: number): Promise<RegistrationRecord[]> {
  const rows = await q.query<RegistrationRow>(`SELECT ${REGISTRATION_COLUMNS} FROM demo_registrations ORDER BY registered_at DESC, id LIMIT $1`, [limit]);
  return rows.map(toRegistration);
}

export async function allLeads(q: Queryable, limit: number): Promise<Lead[]> {
  const rows = await q.query<LeadRow>(`SELECT ${LEAD_COLUMNS} FROM leads ORDER BY created_at DESC, id LIMIT $1`, [limit]);
  return rows.map(toLead);
}

export async function leadById(q: Queryable, id: string, options: { forUpdate?: boolean } = {}): Promise<Lead | undefined> {
  const [row] = await q.query<LeadRow>(`SELECT ${LEAD_COLUMNS} FROM leads WHERE id = $1 ${options.forUpdate ? 'FOR UPDATE' : ''}`, [id]);
  return row ? toLead(row) : undefined;
}

export async function updateLeadRow(q: Queryable, id: string, patch: { leadStatus: LeadStatus; followUpRequired: boolean; notes: string | null }, now: Date): Promise<Lead> {
  const [row] = await q.query<LeadRow>(
    `UPDATE leads SET lead_status = $2, follow_up_required = $3, notes = $4, updated_at = $5 WHERE id = $1 RETURNING ${LEAD_COLUMNS}`,
    [id, patch.leadStatus, patch.followUpRequired, patch.notes, now],
  );
  return toLead(row!);
}

/** One operator change of a lead, appended in the transaction of the change (migration 0025). */
export async function appendLeadChange(q: Queryable, change: { leadId: string; changedBy: string; after: Lead; before: Lead; at: Date }): Promise<void> {
  await q.query(
    `INSERT INTO lead_changes (lead_id, changed_by, changed_at, lead_status, follow_up_required, notes, before) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [
      change.leadId,
      change.changedBy,
      change.at,
      change.after.leadStatus,
      change.after.followUpRequired,
      change.after.notes,
      JSON.stringify({ leadStatus: change.before.leadStatus, followUpRequired: change.before.followUpRequired, notes: change.before.notes }),
    ],
  );
}

/** The demo funnel for the operator's dashboard: registered, verified, entered, and converted (owns a pharmacy since). */
export async function demoFunnel(q: Queryable): Promise<{ registrations: number; verified: number; accessed: number; converted: number }> {
  const [row] = await q.query<{ registrations: number; verified: number; accessed: number; converted: number }>(
    `SELECT count(*)::int AS registrations,
            count(*) FILTER (WHERE d.email_verified)::int AS verified,
            count(*) FILTER (WHERE d.access_count > 0)::int AS accessed,
            count(*) FILTER (WHERE EXISTS (
              SELECT 1 FROM memberships m JOIN pharmacies p ON p.id = m.pharmacy_id
               WHERE m.user_id = d.user_id AND m.is_owner AND NOT p.is_demo
            ) OR EXISTS (SELECT 1 FROM leads l WHERE l.user_id = d.user_id AND l.lead_status = 'converted'))::int AS converted
       FROM demo_registrations d`,
  );
  return row ?? { registrations: 0, verified: 0, accessed: 0, converted: 0 };
}
