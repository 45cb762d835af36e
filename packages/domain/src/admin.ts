import { z } from 'zod';
import { adminPharmacySchema, type AdminPharmacy } from './subscription.ts';
import { parseMoneyToCents } from './money.ts';
import { PLATFORM_PRICES } from './platform-payments.ts';
import { calendarDate, text } from './text.ts';

/**
 * The operator's admin area (seed 002 section 2, Admin area; issue 11 item 8; decision 0047): the SaaS dashboard's
 * figures and the operator's actions on a pharmacy. The pharmacy list itself is subscription.ts's
 * adminPharmacyListResponseSchema.
 */

/** How long the admin session lasts in the browser before the operator must sign in again (admin_session_expiry). */
export const ADMIN_SESSION_HOURS = 8;
/** Storage keys of the admin session (seed 002 section 6). */
export const ADMIN_SESSION_KEY = 'admin_session';
export const ADMIN_SESSION_EXPIRY_KEY = 'admin_session_expiry';

/** The most days one extension may add to a trial. */
export const MAX_TRIAL_EXTENSION_DAYS = 90;

export const pharmacyIdParamsSchema = z.strictObject({ id: z.string().regex(/^[a-z0-9_]{3,64}$/, 'Not found') });

/** POST /api/admin/pharmacies/:id/extend-trial. */
export const extendTrialRequestSchema = z.strictObject({
  days: z
    .number({ error: 'Days must be a whole number.' })
    .int('Days must be a whole number.')
    .min(1, `Days must be between 1 and ${MAX_TRIAL_EXTENSION_DAYS}.`)
    .max(MAX_TRIAL_EXTENSION_DAYS, `Days must be between 1 and ${MAX_TRIAL_EXTENSION_DAYS}.`),
});
export type ExtendTrialRequest = z.infer<typeof extendTrialRequestSchema>;

/** The answer of every operator action on a pharmacy: the pharmacy as the list shows it now, and a sentence. */
export const pharmacyActionResponseSchema = z.object({ pharmacy: adminPharmacySchema, message: z.string() });
export type PharmacyActionResponse = z.infer<typeof pharmacyActionResponseSchema>;

/** The dashboard's buckets of pharmacies (demo pharmacies are not customers and are left out). */
export const PHARMACY_BUCKETS = ['trial', 'trialExpired', 'active', 'hostingDueSoon', 'hostingExpired', 'inactive'] as const;
export type PharmacyBucket = (typeof PHARMACY_BUCKETS)[number];

/**
 * The bucket of a pharmacy on the dashboard: inactive (stored so, or no subscription), trial or trialExpired,
 * hostingExpired (licence owned, hosting lapsed), hostingDueSoon (within the reminder window), else active.
 */
export function pharmacyBucket(p: Pick<AdminPharmacy, 'subscription'> & { hostingDueSoon?: boolean; licenseActiveHostingExpired?: boolean }): PharmacyBucket {
  const s = p.subscription;
  if (s.storedStatus === 'inactive' || s.status === 'none') return 'inactive';
  if (s.storedStatus === 'trial') return s.status === 'trial' ? 'trial' : 'trialExpired';
  if (p.licenseActiveHostingExpired || s.status === 'expired') return 'hostingExpired';
  if (p.hostingDueSoon) return 'hostingDueSoon';
  return 'active';
}

const month = z.string().regex(/^\d{4}-\d{2}$/);

/** GET /api/admin/overview: the SaaS dashboard's figures. */
export const adminOverviewResponseSchema = z.object({
  pharmacies: z.object({
    total: z.number().int(),
    trial: z.number().int(),
    trialExpired: z.number().int(),
    active: z.number().int(),
    hostingDueSoon: z.number().int(),
    hostingExpired: z.number().int(),
    inactive: z.number().int(),
  }),
  /** The last 12 months, oldest first: new pharmacies, and money received for licences and hosting (cents). */
  months: z.array(z.object({ month, signUps: z.number().int(), licenceCents: z.number().int(), hostingCents: z.number().int() })),
  demos: z.object({ registrations: z.number().int(), verified: z.number().int(), accessed: z.number().int(), converted: z.number().int() }),
});
export type AdminOverviewResponse = z.infer<typeof adminOverviewResponseSchema>;

/** The last `count` months ending with the month of `now` (UTC), oldest first, as YYYY-MM. */
export function lastMonths(now: Date, count = 12): string[] {
  const months: string[] = [];
  for (let i = count - 1; i >= 0; i -= 1) {
    const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - i, 1));
    months.push(`${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`);
  }
  return months;
}

/** POST /api/admin/pharmacies: a pharmacy and its owner set up by hand (a customer who paid outside M-Pesa). */
export const customerSetupRequestSchema = z.strictObject({
  pharmacyName: z.string().trim().min(1, 'Pharmacy name is required.').max(120, 'Pharmacy name must be at most 120 characters.'),
  ownerName: z.string().trim().min(1, 'Owner name is required.').max(120, 'Owner name must be at most 120 characters.'),
  ownerEmail: z
    .string()
    .trim()
    .toLowerCase()
    .min(1, 'Owner email is required.')
    .max(254, 'Owner email must be at most 254 characters.')
    .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'Please enter a valid email address.'),
  plan: z.enum(['trial', 'standard'], { error: 'Choose a plan.' }),
});
export type CustomerSetupRequest = z.infer<typeof customerSetupRequestSchema>;

/** GET /api/admin/analytics?month=YYYY-MM (the current month when absent). */
export const adminAnalyticsQuerySchema = z.strictObject({
  month: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'The month must read like 2026-11.').optional(),
});

/**
 * A month across the platform: per pharmacy only counts and totals of its sales (never its customers or lines), and
 * the platform's own figures for the month: sign-ups, money received, demo registrations.
 */
export const adminAnalyticsResponseSchema = z.object({
  month,
  pharmacies: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      isDemo: z.boolean(),
      salesCount: z.number().int(),
      salesTotalCents: z.number().int(),
      lastSaleDate: z.string().nullable(),
    }),
  ),
  totals: z.object({
    activePharmacies: z.number().int(),
    salesCount: z.number().int(),
    salesTotalCents: z.number().int(),
    signUps: z.number().int(),
    licenceCents: z.number().int(),
    hostingCents: z.number().int(),
    demoRegistrations: z.number().int(),
  }),
});
export type AdminAnalyticsResponse = z.infer<typeof adminAnalyticsResponseSchema>;

/** The first day of a YYYY-MM month and of the month after it (UTC). */
export function monthRange(month: string): { from: Date; to: Date } {
  const [year, m] = month.split('-').map(Number) as [number, number];
  return { from: new Date(Date.UTC(year, m - 1, 1)), to: new Date(Date.UTC(year, m, 1)) };
}

// ------------------------------------------------------------------------------ an offline payment (customers)

/**
 * What a customer paid outside the M-Pesa prompt (issue 11 item 8; decision 0060): the licence (a trial becomes
 * the licensed plan) or a year of hosting. The operator records it; the subscription follows as an M-Pesa payment's.
 */
export const OFFLINE_PAYMENT_KINDS = ['licence', 'hosting'] as const;
export type OfflinePaymentKind = (typeof OFFLINE_PAYMENT_KINDS)[number];

/** How the customer paid: a bank transfer, cash, a cheque, or M-Pesa paid to the paybill directly (no prompt). */
export const OFFLINE_PAYMENT_METHODS = ['bank_transfer', 'cash', 'cheque', 'mpesa_paybill'] as const;
export type OfflinePaymentMethod = (typeof OFFLINE_PAYMENT_METHODS)[number];

/** The amount an offline payment defaults to: the price list the licence purchase and hosting renewal charge. */
export function offlinePaymentDefaultCents(kind: OfflinePaymentKind): number {
  return kind === 'licence' ? PLATFORM_PRICES.complete.amountCents : PLATFORM_PRICES.hosting.amountCents;
}

/** The most one offline payment may record (KSh 1,000,000): a typo of extra zeros is refused, not booked. */
export const OFFLINE_PAYMENT_MAX_CENTS = 1_000_000_00;

/** Today's date in Kenya (East Africa Time is UTC+3 all year), as YYYY-MM-DD. */
export function kenyaToday(now: Date = new Date()): string {
  return new Date(now.getTime() + 3 * 3_600_000).toISOString().slice(0, 10);
}

export const OFFLINE_PAYMENT_MESSAGES = {
  kind: 'Choose what the payment is for.',
  method: 'Choose how the customer paid.',
  amount: 'Enter the amount in KSh, more than 0 and at most 1,000,000, with at most 2 decimals.',
  reference: 'Enter the reference: the bank or cheque number, or the M-Pesa code.',
  futureDate: 'The date paid cannot be in the future.',
} as const;

const paidOn = calendarDate('The date paid').refine((value) => value <= kenyaToday(), OFFLINE_PAYMENT_MESSAGES.futureDate);

/**
 * POST /api/admin/pharmacies/:id/offline-payments. The reference is required except for cash (a receipt number
 * then, when there is one). The server checks the date against its own clock again.
 */
export const offlinePaymentRequestSchema = z
  .strictObject({
    kind: z.enum(OFFLINE_PAYMENT_KINDS, { error: OFFLINE_PAYMENT_MESSAGES.kind }),
    amountCents: z
      .number({ error: OFFLINE_PAYMENT_MESSAGES.amount })
      .int(OFFLINE_PAYMENT_MESSAGES.amount)
      .min(1, OFFLINE_PAYMENT_MESSAGES.amount)
      .max(OFFLINE_PAYMENT_MAX_CENTS, OFFLINE_PAYMENT_MESSAGES.amount),
    method: z.enum(OFFLINE_PAYMENT_METHODS, { error: OFFLINE_PAYMENT_MESSAGES.method }),
    reference: text(100, 'The reference').optional(),
    paidOn,
    note: text(500, 'The note').optional(),
  })
  .superRefine((value, ctx) => {
    if (value.method !== 'cash' && !value.reference) ctx.addIssue({ code: 'custom', path: ['reference'], message: OFFLINE_PAYMENT_MESSAGES.reference });
  });
export type OfflinePaymentRequest = z.infer<typeof offlinePaymentRequestSchema>;

/** The screen's form: the amount typed in KSh ('30,000' or '3500.50'), turned into the request's cents. */
export const offlinePaymentFormSchema = z
  .strictObject({
    kind: z.enum(OFFLINE_PAYMENT_KINDS, { error: OFFLINE_PAYMENT_MESSAGES.kind }),
    amount: z.string().transform((value, ctx): number => {
      const cents = parseMoneyToCents(value);
      if (cents === null || cents < 1 || cents > OFFLINE_PAYMENT_MAX_CENTS) {
        ctx.addIssue({ code: 'custom', message: OFFLINE_PAYMENT_MESSAGES.amount });
        return 0;
      }
      return cents;
    }),
    method: z.enum(OFFLINE_PAYMENT_METHODS, { error: OFFLINE_PAYMENT_MESSAGES.method }),
    reference: text(100, 'The reference'),
    paidOn,
    note: text(500, 'The note'),
  })
  .superRefine((value, ctx) => {
    if (value.method !== 'cash' && !value.reference) ctx.addIssue({ code: 'custom', path: ['reference'], message: OFFLINE_PAYMENT_MESSAGES.reference });
  })
  .transform(
    (value): OfflinePaymentRequest => ({
      kind: value.kind,
      amountCents: value.amount,
      method: value.method,
      paidOn: value.paidOn,
      ...(value.reference ? { reference: value.reference } : {}),
      ...(value.note ? { note: value.note } : {}),
    }),
  );
export type OfflinePaymentForm = z.input<typeof offlinePaymentFormSchema>;

/** The answer of recording an offline payment: the pharmacy as the list shows it now, the payment, a sentence. */
export const offlinePaymentResponseSchema = z.object({
  pharmacy: adminPharmacySchema,
  payment: z.object({
    id: z.string(),
    kind: z.enum(OFFLINE_PAYMENT_KINDS),
    amountCents: z.number().int(),
    method: z.enum(OFFLINE_PAYMENT_METHODS),
    reference: z.string().nullable(),
    paidOn: z.string(),
  }),
  message: z.string(),
});
export type OfflinePaymentResponse = z.infer<typeof offlinePaymentResponseSchema>;
