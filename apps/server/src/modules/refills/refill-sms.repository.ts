import type { RefillSms, ReminderConsent } from '@pharmapoint/domain/refills';
import type { Queryable } from '../../db/database.ts';

/** The SQL of SMS refill reminders, consents and opt-outs (migration 0049). */

const smsColumns = (t = '') => `${t}id, ${t}trigger, ${t}status, ${t}delivery_status AS "deliveryStatus", ${t}provider_message_id AS "messageId",
  ${t}failure_reason AS "failureReason", ${t}created_at AS "createdAt", ${t}sent_at AS "sentAt", ${t}delivered_at AS "deliveredAt"`;

export interface SmsToSend {
  id: string;
  phone: string;
  message: string;
  status: string;
}

export async function insertRefillSms(
  q: Queryable,
  row: { pharmacyId: string; id: string; saleId: string; line: number; clientId: string; phone: string; message: string; trigger: 'manual' | 'auto'; reminderDay: string; createdBy: string | null; at: Date },
): Promise<void> {
  await q.query(
    `INSERT INTO refill_sms (pharmacy_id, id, sale_id, line, client_id, phone, message, trigger, reminder_day, created_by, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
    [row.pharmacyId, row.id, row.saleId, row.line, row.clientId, row.phone, row.message, row.trigger, row.reminderDay, row.createdBy, row.at],
  );
}

export async function findRefillSms(q: Queryable, pharmacyId: string, id: string): Promise<RefillSms | null> {
  const [row] = await q.query<RefillSms>(`SELECT ${smsColumns()} FROM refill_sms WHERE pharmacy_id = $1 AND id = $2`, [pharmacyId, id]);
  return row ?? null;
}

/** The job's claim: queued -> sending, once (a repeated job finds nothing to send). */
export async function claimRefillSms(q: Queryable, pharmacyId: string, id: string): Promise<SmsToSend | null> {
  const [row] = await q.query<SmsToSend>(
    `UPDATE refill_sms SET status = 'sending' WHERE pharmacy_id = $1 AND id = $2 AND status = 'queued' RETURNING id, phone, message, status`,
    [pharmacyId, id],
  );
  return row ?? null;
}

export async function markSmsSent(q: Queryable, pharmacyId: string, id: string, sent: { messageId: string; statusCode: number; cost: string | null; at: Date }): Promise<void> {
  await q.query(
    `UPDATE refill_sms SET status = 'sent', provider_message_id = $3, provider_status_code = $4, cost = $5, sent_at = $6 WHERE pharmacy_id = $1 AND id = $2`,
    [pharmacyId, id, sent.messageId, sent.statusCode, sent.cost, sent.at],
  );
}

export async function markSmsFailed(q: Queryable, pharmacyId: string, id: string, failed: { reason: string; statusCode?: number | null }): Promise<void> {
  await q.query(`UPDATE refill_sms SET status = 'failed', failure_reason = $3, provider_status_code = $4 WHERE pharmacy_id = $1 AND id = $2`, [
    pharmacyId,
    id,
    failed.reason.slice(0, 300),
    failed.statusCode ?? null,
  ]);
}

/** The message of a provider id, locked (a delivery report's update). */
export async function lockSmsByMessageId(q: Queryable, pharmacyId: string, messageId: string): Promise<{ id: string; phone: string; deliveryStatus: string | null } | null> {
  const [row] = await q.query<{ id: string; phone: string; deliveryStatus: string | null }>(
    `SELECT id, phone, delivery_status AS "deliveryStatus" FROM refill_sms WHERE pharmacy_id = $1 AND provider_message_id = $2 FOR UPDATE`,
    [pharmacyId, messageId],
  );
  return row ?? null;
}

export async function setDeliveryStatus(q: Queryable, pharmacyId: string, id: string, status: string, failureReason: string | null, at: Date): Promise<void> {
  await q.query(`UPDATE refill_sms SET delivery_status = $3, failure_reason = coalesce($4, failure_reason), delivered_at = $5 WHERE pharmacy_id = $1 AND id = $2`, [
    pharmacyId,
    id,
    status,
    failureReason,
    at,
  ]);
}

/** Which pharmacy sent this provider message (a callback names no pharmacy). */
export async function pharmacyOfMessage(q: Queryable, messageId: string): Promise<string | null> {
  const [row] = await q.query<{ pharmacy: string | null }>(`SELECT refill_sms_pharmacy($1) AS pharmacy`, [messageId]);
  return row?.pharmacy ?? null;
}

/** The pharmacies that have sent an SMS to this number. */
export async function pharmaciesOfPhone(q: Queryable, phone: string): Promise<string[]> {
  const rows = await q.query<{ pharmacy: string }>(`SELECT refill_sms_pharmacies_of AS pharmacy FROM refill_sms_pharmacies_of($1)`, [phone]);
  return rows.map((r) => r.pharmacy);
}

export async function insertOptOut(q: Queryable, pharmacyId: string, phone: string, source: 'provider_opt_out' | 'blacklisted', at: Date): Promise<boolean> {
  const rows = await q.query(
    `INSERT INTO sms_opt_outs (pharmacy_id, phone, source, opted_out_at) VALUES ($1, $2, $3, $4) ON CONFLICT (pharmacy_id, phone) DO NOTHING RETURNING phone`,
    [pharmacyId, phone, source, at],
  );
  return rows.length > 0;
}

export async function optedOutPhones(q: Queryable, pharmacyId: string, phones: readonly string[]): Promise<Set<string>> {
  if (phones.length === 0) return new Set();
  const rows = await q.query<{ phone: string }>(`SELECT phone FROM sms_opt_outs WHERE pharmacy_id = $1 AND phone = ANY ($2::text[])`, [pharmacyId, phones]);
  return new Set(rows.map((r) => r.phone));
}

export async function consentsOf(q: Queryable, pharmacyId: string, contactIds: readonly string[]): Promise<Map<string, { consent: boolean; source: ReminderConsent['source']; changedAt: string }>> {
  if (contactIds.length === 0) return new Map();
  const rows = await q.query<{ contactId: string; consent: boolean; source: NonNullable<ReminderConsent['source']>; changedAt: string }>(
    `SELECT contact_id AS "contactId", consent, source, changed_at AS "changedAt" FROM reminder_consents WHERE pharmacy_id = $1 AND contact_id = ANY ($2::uuid[])`,
    [pharmacyId, contactIds],
  );
  return new Map(rows.map((r) => [r.contactId, r]));
}

export async function upsertConsent(q: Queryable, row: { pharmacyId: string; contactId: string; consent: boolean; source: string; userId: string | null; at: Date }): Promise<void> {
  await q.query(
    `INSERT INTO reminder_consents (pharmacy_id, contact_id, consent, source, changed_by, changed_at) VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (pharmacy_id, contact_id) DO UPDATE SET consent = EXCLUDED.consent, source = EXCLUDED.source, changed_by = EXCLUDED.changed_by, changed_at = EXCLUDED.changed_at`,
    [row.pharmacyId, row.contactId, row.consent, row.source, row.userId, row.at],
  );
}

/** The latest SMS of each of these sale lines. */
export async function latestSmsOfLines(q: Queryable, pharmacyId: string, lines: readonly { saleId: string; line: number }[]): Promise<Map<string, RefillSms>> {
  if (lines.length === 0) return new Map();
  const rows = await q.query<RefillSms & { saleId: string; line: number }>(
    `SELECT DISTINCT ON (r.sale_id, r.line) r.sale_id AS "saleId", r.line, ${smsColumns('r.')}
       FROM refill_sms r JOIN unnest($2::uuid[], $3::int[]) AS k (sale_id, line) ON r.sale_id = k.sale_id AND r.line = k.line
      WHERE r.pharmacy_id = $1
      ORDER BY r.sale_id, r.line, r.created_at DESC, r.id`,
    [pharmacyId, lines.map((l) => l.saleId), lines.map((l) => l.line)],
  );
  return new Map(rows.map(({ saleId, line, ...sms }) => [`${saleId}:${line}`, sms]));
}

export interface AutoSettingsRow {
  enabled: boolean;
  daysBefore: number;
  quietStart: string;
  quietEnd: string;
  planJobId: string | null;
}

export async function findAutoSettings(q: Queryable, pharmacyId: string, lock = false): Promise<AutoSettingsRow | null> {
  const [row] = await q.query<AutoSettingsRow>(
    `SELECT enabled, days_before AS "daysBefore", quiet_start AS "quietStart", quiet_end AS "quietEnd", plan_job_id AS "planJobId"
       FROM refill_reminder_settings WHERE pharmacy_id = $1${lock ? ' FOR UPDATE' : ''}`,
    [pharmacyId],
  );
  return row ?? null;
}

export async function saveAutoSettings(
  q: Queryable,
  row: { pharmacyId: string; enabled: boolean; daysBefore: number; quietStart: string; quietEnd: string; planJobId: string | null; userId: string | null; at: Date },
): Promise<void> {
  await q.query(
    `INSERT INTO refill_reminder_settings (pharmacy_id, enabled, days_before, quiet_start, quiet_end, plan_job_id, updated_by, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT (pharmacy_id) DO UPDATE SET enabled = EXCLUDED.enabled, days_before = EXCLUDED.days_before, quiet_start = EXCLUDED.quiet_start,
       quiet_end = EXCLUDED.quiet_end, plan_job_id = EXCLUDED.plan_job_id, updated_by = EXCLUDED.updated_by, updated_at = EXCLUDED.updated_at`,
    [row.pharmacyId, row.enabled, row.daysBefore, row.quietStart, row.quietEnd, row.planJobId, row.userId, row.at],
  );
}

export async function setPlanJob(q: Queryable, pharmacyId: string, jobId: string): Promise<void> {
  await q.query(`UPDATE refill_reminder_settings SET plan_job_id = $2 WHERE pharmacy_id = $1`, [pharmacyId, jobId]);
}

export interface AutoCandidateRow {
  saleId: string;
  line: number;
  clientId: string;
  clientName: string;
  phone: string | null;
  refillDate: string;
  consent: boolean | null;
  remindedAlready: boolean;
}

/** Open refill lines due from `from` to `to`, with the client's consent and whether an automatic SMS already went. */
export async function findAutoCandidates(q: Queryable, pharmacyId: string, from: string, to: string): Promise<AutoCandidateRow[]> {
  return q.query<AutoCandidateRow>(
    `SELECT si.sale_id AS "saleId", si.line, s.client_id AS "clientId", coalesce(c.name, s.client_name) AS "clientName",
            coalesce(c.phone, s.client_phone) AS phone, si.refill_due_date AS "refillDate", rc.consent,
            EXISTS (SELECT 1 FROM refill_sms r WHERE r.pharmacy_id = si.pharmacy_id AND r.sale_id = si.sale_id AND r.line = si.line AND r.trigger = 'auto') AS "remindedAlready"
       FROM sale_items si
       JOIN sales s ON s.pharmacy_id = si.pharmacy_id AND s.id = si.sale_id
       LEFT JOIN contacts c ON c.pharmacy_id = s.pharmacy_id AND c.id = s.client_id
       LEFT JOIN reminder_consents rc ON rc.pharmacy_id = s.pharmacy_id AND rc.contact_id = s.client_id
      WHERE si.pharmacy_id = $1 AND si.needs_refill AND si.refill_completed_at IS NULL AND s.client_id IS NOT NULL
        AND si.refill_due_date BETWEEN $2::date AND $3::date
      ORDER BY si.refill_due_date, si.sale_id, si.line
      LIMIT 2000`,
    [pharmacyId, from, to],
  );
}

/** Clients sent any SMS reminder on this business day. */
export async function clientsMessagedOn(q: Queryable, pharmacyId: string, day: string): Promise<Set<string>> {
  const rows = await q.query<{ clientId: string }>(`SELECT DISTINCT client_id AS "clientId" FROM refill_sms WHERE pharmacy_id = $1 AND reminder_day = $2::date AND status <> 'failed'`, [pharmacyId, day]);
  return new Set(rows.map((r) => r.clientId));
}

/** An automatic reminder; null when one already exists for the line or the client that day (the unique indexes). */
export async function insertAutoSms(
  q: Queryable,
  row: { pharmacyId: string; id: string; saleId: string; line: number; clientId: string; phone: string; message: string; reminderDay: string; at: Date },
): Promise<string | null> {
  const rows = await q.query<{ id: string }>(
    `INSERT INTO refill_sms (pharmacy_id, id, sale_id, line, client_id, phone, message, trigger, reminder_day, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, 'auto', $8, $9) ON CONFLICT DO NOTHING RETURNING id`,
    [row.pharmacyId, row.id, row.saleId, row.line, row.clientId, row.phone, row.message, row.reminderDay, row.at],
  );
  return rows[0]?.id ?? null;
}
