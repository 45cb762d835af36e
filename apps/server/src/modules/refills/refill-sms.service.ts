import { randomUUID } from 'node:crypto';
import {
  AUTO_REMINDER_DEFAULTS,
  nextDeliveryStatus,
  planAutoReminders,
  shiftDate,
  type AutoReminderSettings,
  refillReminderText,
  reminderPhone,
  type ReminderConsent,
  type ReminderConsentInput,
  type RefillReminder,
  type RefillSms,
  type SmsDeliveryReport,
} from '@pharmapoint/domain/refills';
import { normalizePhone } from '@pharmapoint/domain/phone';
import { businessDate } from '@pharmapoint/domain/stock';
import type { Queryable } from '../../db/database.ts';
import { canSeeBranch, type RequestContext } from '../../platform/context.ts';
import { AppError } from '../../platform/errors.ts';
import { enqueueJob } from '../../platform/jobs.ts';
import { audit } from '../audit/audit.service.ts';
import { findCustomer } from '../contacts/contacts.service.ts';
import { loadSettings, settingsTimeZone } from '../settings/settings.service.ts';
import {
  clientsMessagedOn,
  consentsOf,
  findAutoCandidates,
  findAutoSettings,
  insertAutoSms,
  saveAutoSettings,
  setPlanJob,
  findRefillSms,
  insertOptOut,
  insertRefillSms,
  latestSmsOfLines,
  lockSmsByMessageId,
  optedOutPhones,
  setDeliveryStatus,
  upsertConsent,
} from './refill-sms.repository.ts';
import { findPharmacyName, lockRefillLine } from './refills.repository.ts';

/** The job that sends one SMS reminder through Africa's Talking. */
export const REFILL_SMS_JOB = 'refill_sms_send';

/**
 * Send SMS on a refill alert: the reminder (naming the pharmacy and the refill date, never the drug) is written as a
 * queued message and its job queued in the same transaction; the job runner sends it. Refused: a refill completed,
 * no or an invalid phone, a client who withdrew consent to reminders, a number opted out of this pharmacy's SMS.
 */
export async function queueRefillSms(q: Queryable, ctx: RequestContext, saleId: string, line: number): Promise<RefillSms> {
  const target = await lockRefillLine(q, ctx.pharmacyId, saleId, line);
  if (!target || !canSeeBranch(ctx, target.branchId)) throw new AppError('REFILL_NOT_FOUND');
  if (target.completedAt !== null) throw new AppError('REFILL_COMPLETED');
  const phone = reminderPhone(target.clientPhone);
  if (!phone.ok) throw new AppError(phone.error === 'No phone number available' ? 'REFILL_NO_PHONE' : 'REFILL_INVALID_PHONE');
  const consent = (await consentsOf(q, ctx.pharmacyId, [target.clientId])).get(target.clientId);
  if (consent && !consent.consent) throw new AppError('REFILL_NO_CONSENT', { values: { client: target.clientName } });
  if ((await optedOutPhones(q, ctx.pharmacyId, [phone.phone])).size > 0) throw new AppError('REFILL_OPTED_OUT', { values: { client: target.clientName } });
  const { settings } = await loadSettings(q, ctx.pharmacyId);
  const pharmacyName = settings.pharmacyName.trim() || (await findPharmacyName(q, ctx.pharmacyId)) || 'PharmaPoint';
  const id = randomUUID();
  await insertRefillSms(q, {
    pharmacyId: ctx.pharmacyId,
    id,
    saleId,
    line,
    clientId: target.clientId,
    phone: phone.phone,
    message: refillReminderText({ clientName: target.clientName, pharmacyName, refillDate: target.refillDate }),
    trigger: 'manual',
    reminderDay: businessDate(ctx.now, settingsTimeZone(settings)),
    createdBy: ctx.userId,
    at: ctx.now,
  });
  await enqueueJob(q, { kind: REFILL_SMS_JOB, pharmacyId: ctx.pharmacyId, payload: { pharmacyId: ctx.pharmacyId, smsId: id }, maxAttempts: 3 });
  await audit(q, ctx, 'refill.sms', 'sale', saleId, null, { line, smsId: id });
  return (await findRefillSms(q, ctx.pharmacyId, id))!;
}

/** The alerts of a page with their latest SMS and the client's consent and opt-out. */
export async function withReminderState(q: Queryable, pharmacyId: string, items: RefillReminder[]): Promise<RefillReminder[]> {
  if (items.length === 0) return items;
  const sms = await latestSmsOfLines(q, pharmacyId, items.flatMap((i) => i.lines));
  const consents = await consentsOf(q, pharmacyId, [...new Set(items.map((i) => i.client.id))]);
  const phones = items.map((i) => reminderPhone(i.client.phone)).flatMap((p) => (p.ok ? [p.phone] : []));
  const optedOut = await optedOutPhones(q, pharmacyId, [...new Set(phones)]);
  return items.map((item) => {
    const latest = item.lines
      .map((l) => sms.get(`${l.saleId}:${l.line}`))
      .filter((s): s is RefillSms => s !== undefined)
      .sort((a, b) => (a.createdAt < b.createdAt ? 1 : -1))[0];
    const phone = reminderPhone(item.client.phone);
    return {
      ...item,
      client: { ...item.client, reminderConsent: consents.get(item.client.id)?.consent ?? null, smsOptedOut: phone.ok && optedOut.has(phone.phone) },
      sms: latest ?? null,
    };
  });
}

async function consentOf(q: Queryable, pharmacyId: string, contactId: string, phone: string | null): Promise<ReminderConsent> {
  const consent = (await consentsOf(q, pharmacyId, [contactId])).get(contactId);
  const number = reminderPhone(phone);
  const optedOut = number.ok && (await optedOutPhones(q, pharmacyId, [number.phone])).size > 0;
  return { contactId, consent: consent?.consent ?? null, source: consent?.source ?? null, changedAt: consent?.changedAt ?? null, smsOptedOut: optedOut };
}

/** GET /api/contacts/:id/reminder-consent */
export async function getReminderConsent(q: Queryable, ctx: RequestContext, contactId: string): Promise<ReminderConsent> {
  const contact = await findCustomer(q, ctx, contactId);
  return consentOf(q, ctx.pharmacyId, contactId, contact.phone);
}

/**
 * PUT /api/contacts/:id/reminder-consent: the client's consent to refill reminders given or withdrawn (at the till,
 * on the contact page or on the refill alerts), apart from any marketing consent; audited with what it was before.
 */
export async function setReminderConsent(q: Queryable, ctx: RequestContext, contactId: string, input: ReminderConsentInput): Promise<ReminderConsent> {
  const contact = await findCustomer(q, ctx, contactId);
  const before = await consentOf(q, ctx.pharmacyId, contactId, contact.phone);
  if (before.consent === input.consent) return before;
  await upsertConsent(q, { pharmacyId: ctx.pharmacyId, contactId, consent: input.consent, source: input.source, userId: ctx.userId, at: ctx.now });
  await audit(q, ctx, input.consent ? 'reminder_consent.give' : 'reminder_consent.withdraw', 'contact', contactId, { consent: before.consent }, { consent: input.consent, source: input.source });
  return consentOf(q, ctx.pharmacyId, contactId, contact.phone);
}

/**
 * A delivery report of the provider, in the pharmacy that sent the message: the status is kept unless the message
 * already has a final one (reports may repeat or come out of order). A number the network says is blacklisted is
 * an opt-out of the whole pharmacy.
 */
export async function applyDeliveryReport(q: Queryable, pharmacyId: string, report: SmsDeliveryReport, now: Date): Promise<boolean> {
  const sms = await lockSmsByMessageId(q, pharmacyId, report.id);
  if (!sms) return false;
  const next = nextDeliveryStatus(sms.deliveryStatus, report.status);
  if (next !== null) await setDeliveryStatus(q, pharmacyId, sms.id, next, report.failureReason?.trim() || null, now);
  if (report.failureReason === 'UserInBlackList' || report.failureReason === 'UserInBlacklist') await insertOptOut(q, pharmacyId, sms.phone, 'blacklisted', now);
  return true;
}

/** The provider's opt-out of a number: no SMS goes to it from this pharmacy any more. */
export async function applyOptOut(q: Queryable, pharmacyId: string, phoneNumber: string, now: Date): Promise<void> {
  const phone = normalizePhone(phoneNumber);
  if (!/^254\d{9}$/.test(phone)) return;
  if (await insertOptOut(q, pharmacyId, phone, 'provider_opt_out', now)) {
    await audit(q, { pharmacyId, userId: null }, 'sms.opt_out', 'phone', null, null, { phone });
  }
}

/** The job that plans the automatic reminders of one pharmacy, then queues itself again. */
export const REFILL_SMS_PLAN_JOB = 'refill_sms_plan';
/** How often the plan runs while the automatic reminder is on. */
export const AUTO_PLAN_EVERY_MS = 15 * 60_000;

/** GET /api/refill-reminders/settings */
export async function getAutoReminderSettings(q: Queryable, ctx: RequestContext): Promise<AutoReminderSettings> {
  const row = await findAutoSettings(q, ctx.pharmacyId);
  return row ? { enabled: row.enabled, daysBefore: row.daysBefore, quietStart: row.quietStart, quietEnd: row.quietEnd } : { ...AUTO_REMINDER_DEFAULTS };
}

/**
 * PUT /api/refill-reminders/settings: the opt-in automatic reminder. Turning it on queues the planning job now (and
 * names it, so a chain started earlier stops at its next run); audited.
 */
export async function saveAutoReminderSettings(q: Queryable, ctx: RequestContext, input: AutoReminderSettings): Promise<AutoReminderSettings> {
  const before = await findAutoSettings(q, ctx.pharmacyId, true);
  let planJobId = before?.planJobId ?? null;
  if (input.enabled && !before?.enabled) {
    planJobId = await enqueueJob(q, { kind: REFILL_SMS_PLAN_JOB, pharmacyId: ctx.pharmacyId, payload: { pharmacyId: ctx.pharmacyId }, maxAttempts: 5 });
  }
  if (!input.enabled) planJobId = null;
  await saveAutoSettings(q, { pharmacyId: ctx.pharmacyId, ...input, planJobId, userId: ctx.userId, at: ctx.now });
  await audit(q, ctx, 'refill_reminders.settings', 'settings', null, before ? { enabled: before.enabled, daysBefore: before.daysBefore, quietStart: before.quietStart, quietEnd: before.quietEnd } : null, input);
  return input;
}

function localTimeOf(now: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(now);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '00';
  return `${part('hour')}:${part('minute')}`;
}

/**
 * One run of the automatic reminder (the planning job's work, in the pharmacy's transaction): only the job the
 * settings name goes on; the pure planner picks the lines; each message is written with its send job (the unique
 * indexes make a second writer's copy a no-op); then the next run is queued. Answers the messages queued.
 */
export async function planAutoReminderRun(q: Queryable, pharmacyId: string, jobId: string, now: Date): Promise<number> {
  const row = await findAutoSettings(q, pharmacyId, true);
  if (!row?.enabled || row.planJobId !== jobId) return 0;
  const { settings } = await loadSettings(q, pharmacyId);
  const timeZone = settingsTimeZone(settings);
  const today = businessDate(now, timeZone);
  const candidates = await findAutoCandidates(q, pharmacyId, today, shiftDate(today, row.daysBefore));
  const phones = [...new Set(candidates.map((c) => reminderPhone(c.phone)).flatMap((p) => (p.ok ? [p.phone] : [])))];
  const optedOut = await optedOutPhones(q, pharmacyId, phones);
  const plan = planAutoReminders({
    settings: { enabled: row.enabled, daysBefore: row.daysBefore, quietStart: row.quietStart, quietEnd: row.quietEnd },
    today,
    localTime: localTimeOf(now, timeZone),
    candidates: candidates.map((c) => {
      const phone = reminderPhone(c.phone);
      return { ...c, optedOut: phone.ok && optedOut.has(phone.phone) };
    }),
    clientsMessagedToday: await clientsMessagedOn(q, pharmacyId, today),
  });
  const pharmacyName = settings.pharmacyName.trim() || (await findPharmacyName(q, pharmacyId)) || 'PharmaPoint';
  let queued = 0;
  for (const line of plan) {
    const candidate = candidates.find((c) => c.saleId === line.saleId && c.line === line.line)!;
    const phone = reminderPhone(candidate.phone);
    if (!phone.ok) continue;
    const id = await insertAutoSms(q, {
      pharmacyId,
      id: randomUUID(),
      saleId: line.saleId,
      line: line.line,
      clientId: line.clientId,
      phone: phone.phone,
      message: refillReminderText({ clientName: candidate.clientName, pharmacyName, refillDate: candidate.refillDate }),
      reminderDay: today,
      at: now,
    });
    if (!id) continue;
    await enqueueJob(q, { kind: REFILL_SMS_JOB, pharmacyId, payload: { pharmacyId, smsId: id }, maxAttempts: 3 });
    queued += 1;
  }
  const next = await enqueueJob(q, { kind: REFILL_SMS_PLAN_JOB, pharmacyId, payload: { pharmacyId }, runAt: new Date(now.getTime() + AUTO_PLAN_EVERY_MS), maxAttempts: 5 });
  await setPlanJob(q, pharmacyId, next);
  return queued;
}
