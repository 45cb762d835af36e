import { z } from 'zod';
import { normalizePhone } from './phone.ts';

/**
 * Refill reminders set on sale lines at the till: the read the back office's refill alerts and the dashboard card
 * use, completing a refill, and the reminder's WhatsApp link. A reminder is open until it is completed.
 */

/** 'Upcoming' is within the next 7 days. */
export const REFILL_UPCOMING_DAYS = 7;

/** Reminders of the same client and product due within 24 hours of each other are one refill (one alert). */
export const REFILL_MERGE_WINDOW_DAYS = 1;

export const REFILL_STATUSES = ['overdue', 'due', 'upcoming', 'later'] as const;
export type RefillStatus = (typeof REFILL_STATUSES)[number];

/** overdue (days left below 0), due (0), upcoming (within 7 days), later. */
export function refillStatus(daysLeft: number): RefillStatus {
  if (daysLeft < 0) return 'overdue';
  if (daysLeft === 0) return 'due';
  return daysLeft <= REFILL_UPCOMING_DAYS ? 'upcoming' : 'later';
}

/** Whole days from `from` to `to` (calendar dates YYYY-MM-DD). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** The calendar date `n` days after `day`. */
export function shiftDate(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}

/** One open refill line as the merge reads it. */
export interface RefillLineKey {
  saleId: string;
  line: number;
  clientId: string;
  productId: string;
  refillDate: string;
}

/**
 * Merges duplicates: lines of the same client and product whose refill dates lie within 24 hours (one day) of the
 * group's first are one alert. The alert is the group's earliest line (the soonest refill, so nobody is reminded
 * late), carrying every line it stands for. Groups come out by refill date, then sale and line, as the input's
 * order breaks ties.
 */
export function mergeRefillLines<T extends RefillLineKey>(rows: readonly T[]): (T & { lines: { saleId: string; line: number }[] })[] {
  const sorted = [...rows].sort((a, b) => (a.refillDate < b.refillDate ? -1 : a.refillDate > b.refillDate ? 1 : 0));
  const open = new Map<string, T & { lines: { saleId: string; line: number }[] }>();
  const out: (T & { lines: { saleId: string; line: number }[] })[] = [];
  for (const row of sorted) {
    const key = `${row.clientId}\u0000${row.productId}`;
    const group = open.get(key);
    if (group && daysBetween(group.refillDate, row.refillDate) <= REFILL_MERGE_WINDOW_DAYS) {
      group.lines.push({ saleId: row.saleId, line: row.line });
      continue;
    }
    const started = { ...row, lines: [{ saleId: row.saleId, line: row.line }] };
    open.set(key, started);
    out.push(started);
  }
  return out;
}

/**
 * Which reminders: `window` (overdue, today or the next 7 days: the refill alerts' list and the dashboard's window),
 * `overdue`, `today` (status due), `upcoming` (the next 7 days, today excluded), or `all` open reminders.
 */
export const REFILL_DUE_FILTERS = ['window', 'overdue', 'today', 'upcoming', 'all'] as const;
export type RefillDueFilter = (typeof REFILL_DUE_FILTERS)[number];

/** The range of days left a filter keeps (null: no bound). */
export function refillDueRange(due: RefillDueFilter): { min: number | null; max: number | null } {
  switch (due) {
    case 'window':
      return { min: null, max: REFILL_UPCOMING_DAYS };
    case 'overdue':
      return { min: null, max: -1 };
    case 'today':
      return { min: 0, max: 0 };
    case 'upcoming':
      return { min: 1, max: REFILL_UPCOMING_DAYS };
    case 'all':
      return { min: null, max: null };
  }
}

export const REFILL_PAGE_SIZE = 25;

/** GET /api/refill-reminders */
export const refillReminderListQuerySchema = z.strictObject({
  due: z.enum(REFILL_DUE_FILTERS).default('window'),
  branchId: z.uuid().optional(),
  clientId: z.uuid().optional(),
  /** Client name or phone, product name or invoice number. */
  search: z.string().trim().max(100, 'Search must be at most 100 characters.').optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});
export type RefillReminderListQuery = z.output<typeof refillReminderListQuerySchema>;
export type RefillReminderListQueryInput = z.input<typeof refillReminderListQuerySchema>;

export const refillLineRefSchema = z.object({ saleId: z.string(), line: z.number().int() });

/** An SMS reminder: queued, sending (claimed by the job), sent (accepted by the provider) or failed. */
export const REFILL_SMS_STATUSES = ['queued', 'sending', 'sent', 'failed'] as const;
export type RefillSmsStatus = (typeof REFILL_SMS_STATUSES)[number];

export const refillSmsSchema = z.object({
  id: z.string(),
  trigger: z.enum(['manual', 'auto']),
  status: z.enum(REFILL_SMS_STATUSES),
  /** The delivery report's status (Africa's Talking: Sent, Submitted, Buffered, Rejected, Success, Failed, ...). */
  deliveryStatus: z.string().nullable(),
  /** The provider's message id. */
  messageId: z.string().nullable(),
  failureReason: z.string().nullable(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
  deliveredAt: z.string().nullable(),
});
export type RefillSms = z.infer<typeof refillSmsSchema>;

export const refillReminderSchema = z.object({
  saleId: z.string(),
  /** The line of the sale (1-based), the item's index. */
  line: z.number().int(),
  invoiceNumber: z.string(),
  saleDate: z.string(),
  branchId: z.string(),
  branchName: z.string(),
  client: z.object({
    id: z.string(),
    name: z.string(),
    phone: z.string().nullable(),
    /** The client's consent to refill reminders: given, withdrawn, or never asked (null). */
    reminderConsent: z.boolean().nullable().optional(),
    /** The number asked the SMS provider to stop: no SMS goes to it from this pharmacy. */
    smsOptedOut: z.boolean().optional(),
  }),
  productId: z.string(),
  productName: z.string(),
  refillDays: z.number().int(),
  refillDate: z.string(),
  daysLeft: z.number().int(),
  status: z.enum(REFILL_STATUSES),
  /** Every sale line this alert stands for (duplicates within 24 hours merged), this one first. */
  lines: z.array(refillLineRefSchema),
  /** The latest SMS reminder of these lines, with its delivery status. */
  sms: refillSmsSchema.nullable().optional(),
});
export type RefillReminder = z.infer<typeof refillReminderSchema>;

export const refillReminderListResponseSchema = z.object({
  items: z.array(refillReminderSchema),
  total: z.number().int(),
  /** The pharmacy's business day the days are counted from. */
  today: z.string(),
  /** The pharmacy's name, as the reminder text names it. */
  pharmacyName: z.string(),
  limit: z.number().int(),
  offset: z.number().int(),
});
export type RefillReminderListResponse = z.infer<typeof refillReminderListResponseSchema>;

/** POST /api/refill-reminders/:saleId/:line/complete */
export const refillLineParamsSchema = z.strictObject({
  saleId: z.uuid('Refill reminder not found'),
  line: z.coerce.number().int().min(1).max(10_000),
});

/** The body of completing a refill and of Send SMS: nothing (an empty object). */
export const refillActionBodySchema = z.strictObject({});

export const refillCompletionSchema = z.object({
  /** When the refill was marked completed (kept; a repeat answers the first completion). */
  completedAt: z.string(),
  lines: z.array(refillLineRefSchema),
});
export type RefillCompletion = z.infer<typeof refillCompletionSchema>;

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A refill date as the reminder writes it: '5 Dec 2026'. */
export function reminderDate(day: string): string {
  const [y, m, d] = day.split('-').map(Number);
  return `${d} ${MONTHS[(m ?? 1) - 1]} ${y}`;
}

/**
 * The reminder's text. Health data is sensitive: it names the pharmacy and the refill, never the drug.
 */
export function refillReminderText(input: { clientName: string; pharmacyName: string; refillDate: string }): string {
  return `Hello ${input.clientName}, this is ${input.pharmacyName}. Your refill is due on ${reminderDate(input.refillDate)}. Please visit us or call to arrange it.`;
}

/** A Kenyan mobile number as WhatsApp and SMS take it: 254, then 7 or 1, then 8 digits. */
export function reminderPhone(phone: string | null | undefined): { ok: true; phone: string } | { ok: false; error: 'No phone number available' | 'Invalid phone number' } {
  const text = (phone ?? '').trim();
  if (text === '') return { ok: false, error: 'No phone number available' };
  const normalized = normalizePhone(text);
  return /^254[17]\d{8}$/.test(normalized) ? { ok: true, phone: normalized } : { ok: false, error: 'Invalid phone number' };
}

/** The WhatsApp click-to-chat link with the reminder pre-filled (nothing is sent until the user taps send). */
export function whatsappReminderLink(phone: string | null | undefined, text: string): { ok: true; url: string } | { ok: false; error: 'No phone number available' | 'Invalid phone number' } {
  const number = reminderPhone(phone);
  if (!number.ok) return number;
  return { ok: true, url: `https://wa.me/${number.phone}?text=${encodeURIComponent(text)}` };
}

/** Delivery report statuses after which nothing changes (the handset has it, or it will never get it). */
export const FINAL_DELIVERY_STATUSES = ['Success', 'Failed', 'Rejected', 'AbsentSubscriber', 'Expired'] as const;

export function isFinalDeliveryStatus(status: string | null): boolean {
  return status !== null && (FINAL_DELIVERY_STATUSES as readonly string[]).includes(status);
}

/**
 * The status a delivery report leaves on a message: a final status is never overwritten (reports can arrive twice
 * and out of order); otherwise the report's. Null: nothing to change.
 */
export function nextDeliveryStatus(current: string | null, reported: string): string | null {
  if (current === reported || isFinalDeliveryStatus(current)) return null;
  return reported;
}

/** What the alert shows for an SMS: its delivery report when one came, else its own state. */
export function smsStateLabel(sms: Pick<RefillSms, 'status' | 'deliveryStatus'>): 'Queued' | 'Sending' | 'Sent' | 'Delivered' | 'Failed' | 'Rejected' | 'Pending delivery' {
  if (sms.status === 'failed') return 'Failed';
  if (sms.deliveryStatus === 'Success') return 'Delivered';
  if (sms.deliveryStatus === 'Rejected') return 'Rejected';
  if (sms.deliveryStatus !== null && isFinalDeliveryStatus(sms.deliveryStatus)) return 'Failed';
  if (sms.deliveryStatus !== null) return 'Pending delivery';
  if (sms.status === 'queued') return 'Queued';
  if (sms.status === 'sending') return 'Sending';
  return 'Sent';
}

/** Africa's Talking's delivery report (form-encoded or JSON): id is the message id. */
export const smsDeliveryReportSchema = z.object({
  id: z.string().trim().min(1).max(100),
  status: z.string().trim().min(1).max(40),
  phoneNumber: z.string().max(30).optional(),
  networkCode: z.string().max(20).optional(),
  failureReason: z.string().max(200).optional(),
});
export type SmsDeliveryReport = z.infer<typeof smsDeliveryReportSchema>;

/** Africa's Talking's opt-out callback: the subscriber asked this sender to stop. */
export const smsOptOutSchema = z.object({
  senderId: z.string().max(40).optional(),
  phoneNumber: z.string().trim().min(1).max(30),
});

/** PUT /api/contacts/:id/reminder-consent */
export const REMINDER_CONSENT_SOURCES = ['till', 'contact', 'refill_alerts'] as const;
export const reminderConsentSchema = z.strictObject({
  consent: z.boolean(),
  source: z.enum(REMINDER_CONSENT_SOURCES),
});
export type ReminderConsentInput = z.infer<typeof reminderConsentSchema>;
export const reminderConsentResponseSchema = z.object({
  contactId: z.string(),
  consent: z.boolean().nullable(),
  source: z.enum(REMINDER_CONSENT_SOURCES).nullable(),
  changedAt: z.string().nullable(),
  smsOptedOut: z.boolean(),
});
export type ReminderConsent = z.infer<typeof reminderConsentResponseSchema>;
export const contactIdParamsSchema = z.strictObject({ id: z.uuid('Contact not found') });

/** The SMS of a reminder as sent: E.164 with + for Africa's Talking. */
export function smsRecipient(phone254: string): string {
  return `+${phone254}`;
}

/** The automatic SMS reminder: opt-in, N days before the refill is due (default 3), never in quiet hours. */
export const AUTO_REMINDER_DEFAULTS = { enabled: false, daysBefore: 3, quietStart: '20:00', quietEnd: '08:00' } as const;

const clock = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Enter the time as HH:MM (24-hour).');
export const autoReminderSettingsSchema = z.strictObject({
  enabled: z.boolean(),
  daysBefore: z.number().int().min(0, 'Days before must be from 0 to 30.').max(30, 'Days before must be from 0 to 30.'),
  quietStart: clock,
  quietEnd: clock,
});
export type AutoReminderSettings = z.infer<typeof autoReminderSettingsSchema>;

function minutesOf(hhmm: string): number {
  const [h, m] = hhmm.split(':').map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
}

/** Whether a local time (HH:MM) lies in the quiet hours [start, end), which may run past midnight. */
export function inQuietHours(localTime: string, quietStart: string, quietEnd: string): boolean {
  const t = minutesOf(localTime);
  const start = minutesOf(quietStart);
  const end = minutesOf(quietEnd);
  if (start === end) return false;
  return start < end ? t >= start && t < end : t >= start || t < end;
}

/** One open refill line the automatic reminder may message. */
export interface AutoReminderCandidate {
  saleId: string;
  line: number;
  clientId: string;
  refillDate: string;
  /** The client's consent to reminders (null: never asked). */
  consent: boolean | null;
  phone: string | null;
  optedOut: boolean;
  /** An automatic reminder already went for this line. */
  remindedAlready: boolean;
}

/**
 * Which lines get their automatic reminder now: only when enabled and outside quiet hours; a line due within
 * `daysBefore` days (not already past due), never reminded automatically, of a client who gave consent, with a
 * valid number that did not opt out; at most one message per client per day (the soonest refill), none for a
 * client already messaged today.
 */
export function planAutoReminders(input: {
  settings: AutoReminderSettings;
  today: string;
  localTime: string;
  candidates: readonly AutoReminderCandidate[];
  clientsMessagedToday: ReadonlySet<string>;
}): AutoReminderCandidate[] {
  const { settings, today } = input;
  if (!settings.enabled || inQuietHours(input.localTime, settings.quietStart, settings.quietEnd)) return [];
  const chosen = new Map<string, AutoReminderCandidate>();
  for (const c of input.candidates) {
    const daysLeft = daysBetween(today, c.refillDate);
    if (daysLeft < 0 || daysLeft > settings.daysBefore) continue;
    if (c.remindedAlready || c.consent !== true || c.optedOut || !reminderPhone(c.phone).ok) continue;
    if (input.clientsMessagedToday.has(c.clientId)) continue;
    const current = chosen.get(c.clientId);
    if (!current || c.refillDate < current.refillDate) chosen.set(c.clientId, c);
  }
  return [...chosen.values()];
}
