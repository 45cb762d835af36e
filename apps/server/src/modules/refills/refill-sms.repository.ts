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
