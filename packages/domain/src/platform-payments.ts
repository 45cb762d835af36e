import { z } from 'zod';
import { isMpesaPhone, normalizeMpesaPhone } from './phone.ts';
import { text } from './text.ts';

/**
 * Buying the licence by M-Pesa STK push through Kopo Kopo K2 (issue 11 items 2-4; seed 002 sections 2-9): the
 * registration form, the server's price list, the payment states and the paths of section 7.
 */

/** The 47 counties of Kenya, in their official order (the registration form's list). */
export const KENYAN_COUNTIES = [
  'Mombasa', 'Kwale', 'Kilifi', 'Tana River', 'Lamu', 'Taita-Taveta', 'Garissa', 'Wajir', 'Mandera', 'Marsabit',
  'Isiolo', 'Meru', 'Tharaka-Nithi', 'Embu', 'Kitui', 'Machakos', 'Makueni', 'Nyandarua', 'Nyeri', 'Kirinyaga',
  "Murang'a", 'Kiambu', 'Turkana', 'West Pokot', 'Samburu', 'Trans-Nzoia', 'Uasin Gishu', 'Elgeyo-Marakwet', 'Nandi',
  'Baringo', 'Laikipia', 'Nakuru', 'Narok', 'Kajiado', 'Kericho', 'Bomet', 'Kakamega', 'Vihiga', 'Bungoma', 'Busia',
  'Siaya', 'Kisumu', 'Homa Bay', 'Migori', 'Kisii', 'Nyamira', 'Nairobi',
] as const;

/**
 * The server's price list (decision 0043): the landing page's prices, VAT included. The browser never sends the
 * amount that is charged; the specification's test values (5, 10) are not used.
 */
export const PLATFORM_PRICES = {
  /** The one complete plan: the lifetime software licence. */
  complete: { name: 'Complete Plan', amountCents: 30_000_00 },
  /** The yearly hosting fee. */
  hosting: { name: 'Annual Hosting', amountCents: 3_500_00 },
} as const;
export type PlatformPlan = keyof typeof PLATFORM_PRICES;
export const LICENCE_PLAN = 'complete' as const;

/** Timings of seed 002 section 9. */
export const PAYMENT_TIMING = {
  healthTimeoutMs: 10_000,
  statusPollMs: 5_000,
  statusPollMax: 60,
  countdownSeconds: 300,
  successRedirectSeconds: 3,
  confirmationPollMs: 3_000,
  confirmationCutoffMs: 120_000,
  accountRedirectMs: 2_000,
} as const;

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The simple email pattern of the registration form. */
export function isRegistrationEmail(value: string): boolean {
  return EMAIL_PATTERN.test(value.trim());
}

/** The pharmacy registration form of step 1 with the messages of seed 002 section 5. */
export const registrationFormSchema = z.object({
  pharmacyName: text(120, 'Pharmacy name').pipe(z.string().min(1, 'Pharmacy name is required')),
  ownerName: text(120, 'Owner name').pipe(z.string().min(1, 'Owner name is required')),
  ownerEmail: text(254, 'Email')
    .pipe(z.string().min(1, 'Email is required'))
    .refine((v) => v === '' || isRegistrationEmail(v), 'Invalid email format'),
  ownerPhone: text(20, 'Phone number').pipe(z.string().min(1, 'Phone number is required')),
  location: text(200, 'Location').pipe(z.string().min(1, 'Location is required')),
  county: z.union([z.enum(KENYAN_COUNTIES), z.literal('')]).optional(),
  licenseNumber: text(60, 'Licence number').optional(),
});
export type RegistrationForm = z.infer<typeof registrationFormSchema>;

/**
 * POST /api/payments/kopokopo/stk-push: section 7's fields, plus the rest of the registration form. The request also
 * carries an `Idempotency-Key` header, made once per purchase attempt: a retry with the same key and body answers the
 * first answer and sends no second STK push (decision 0076).
 */
export const stkPushRequestSchema = z.object({
  phoneNumber: z.string().max(30).refine((v) => v.replace(/\D/g, '').length === 12 && isMpesaPhone(v), 'Please enter a valid M-Pesa number'),
  /** Ignored: the amount charged is the server's (decision 0043). Accepted so the section 7 body validates. */
  amount: z.number().optional(),
  plan: z.string().max(40),
  pharmacyName: registrationFormSchema.shape.pharmacyName,
  ownerEmail: registrationFormSchema.shape.ownerEmail,
  ownerName: registrationFormSchema.shape.ownerName,
  ownerPhone: registrationFormSchema.shape.ownerPhone.optional(),
  location: registrationFormSchema.shape.location,
  county: registrationFormSchema.shape.county,
  licenseNumber: registrationFormSchema.shape.licenseNumber,
});
export type StkPushRequest = z.infer<typeof stkPushRequestSchema>;

export const stkPushResponseSchema = z.object({
  success: z.literal(true),
  transactionId: z.string(),
  /** The secret that lets this browser (and only it) set the owner's password after the payment. */
  setupToken: z.string(),
  amount: z.number(),
  message: z.string(),
});
export type StkPushResponse = z.infer<typeof stkPushResponseSchema>;

/** A platform payment only moves forward: pending, then completed, failed or reversed; completed may be reversed. */
export const PAYMENT_STATUSES = ['pending', 'completed', 'failed', 'reversed'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

const FORWARD: Record<PaymentStatus, readonly PaymentStatus[]> = {
  pending: ['completed', 'failed', 'reversed'],
  completed: ['reversed'],
  failed: [],
  reversed: [],
};

/** May a payment in `from` move to `to`? Never backwards, never sideways (failed stays failed). */
export function canMovePayment(from: PaymentStatus, to: PaymentStatus): boolean {
  return FORWARD[from].includes(to);
}

/**
 * GET /api/payments/kopokopo/status/:id: public to whoever holds the payment's random id, so it answers the state
 * of the payment and nothing personal (issue 7): no owner email, name or pharmacy name, and the paying phone only
 * masked to its last three digits. The paying browser keeps what it typed; the pharmacy's name and subdomain come
 * back from create-owner, which needs the setup token.
 */
export const paymentStatusResponseSchema = z.object({
  success: z.literal(true),
  transaction: z.object({
    id: z.string(),
    status: z.enum(PAYMENT_STATUSES),
    amount: z.number(),
    /** Masked: '*********678'. */
    phoneNumber: z.string(),
    mpesaReceiptNumber: z.string().nullable(),
    failureReason: z.string().nullable(),
    plan: z.string(),
    /** Once the pharmacy exists (a completed licence payment); a random id that names nothing. */
    pharmacyId: z.string().nullable(),
    completedAt: z.string().nullable(),
  }),
});

/** A phone number with all but its last three digits hidden (what a public answer may show of it). */
export function maskPhone(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  return digits.length <= 3 ? '*'.repeat(digits.length) : `${'*'.repeat(digits.length - 3)}${digits.slice(-3)}`;
}
export type PaymentStatusResponse = z.infer<typeof paymentStatusResponseSchema>;

export const paymentIdParamsSchema = z.object({ id: z.uuid({ error: 'Not found' }) });

/** POST /api/payments/email-check: is this email free for a new pharmacy (seed 002 section 5, email uniqueness)? */
export const emailCheckRequestSchema = z.object({ email: text(254, 'Email').pipe(z.string().min(1, 'Email is required')) });
export const emailCheckResponseSchema = z.object({ available: z.boolean() });
/**
 * The email check says whether an account exists, so it is limited per client address (issue 7): 30 checks in
 * 15 minutes is ample for the purchase form (it checks on Continue and when step 2 loads). Counted in each server
 * instance's memory; see docs/security.md.
 */
export const EMAIL_CHECK_LIMIT = { perIp: 30, windowMinutes: 15 } as const;

/**
 * POST /api/tenants/create-owner (section 7) as this server does it: the owner record was made with the pharmacy
 * when the payment completed; this sets the owner's password, with the secret the browser got from stk-push.
 */
export const createOwnerRequestSchema = z.object({
  transactionId: z.uuid({ error: 'Missing required information. Please start over from the purchase page.' }),
  setupToken: z.string().min(1).max(200),
  email: z.string().max(254),
  password: z.string().max(200),
  confirmPassword: z.string().max(200),
  name: text(120, 'Name').optional(),
  displayName: text(120, 'Name').optional(),
  pharmacyId: z.string().max(64).optional(),
  pharmacyName: z.string().max(200).optional(),
  phoneNumber: z.string().max(30).optional(),
});
export type CreateOwnerRequest = z.infer<typeof createOwnerRequestSchema>;
export const createOwnerResponseSchema = z.object({
  success: z.literal(true),
  email: z.string(),
  pharmacy: z.object({ id: z.string(), name: z.string(), subdomain: z.string().nullable() }),
});
export type CreateOwnerResponse = z.infer<typeof createOwnerResponseSchema>;

/** POST /api/emails/payment-confirmation (section 7): best effort; the server sends it once per payment. */
export const paymentConfirmationEmailRequestSchema = z.object({
  transactionId: z.uuid({ error: 'Not found' }),
  to: z.string().max(254).optional(),
  pharmacyName: z.string().max(200).optional(),
  ownerName: z.string().max(200).optional(),
  planName: z.string().max(200).optional(),
  amount: z.number().optional(),
  paymentDate: z.string().max(60).optional(),
});
export const paymentConfirmationEmailResponseSchema = z.object({ success: z.literal(true), queued: z.boolean() });

/** The kopokopo part of GET /health (section 7): configured false = misconfigured; status 'offline' = offline. */
export const kopokopoHealthSchema = z.object({
  configured: z.boolean(),
  status: z.enum(['online', 'offline']),
  /** The local K2 simulator plays the customer's phone (no K2 credentials configured). */
  simulator: z.boolean(),
});
export type KopokopoHealth = z.infer<typeof kopokopoHealthSchema>;

/**
 * The pharmacy's subdomain: its name in lower case, letters and digits joined by single hyphens, at most 40
 * characters; 'pharmacy' when nothing is left. A number is added by the server when it is taken.
 */
export function subdomainSlug(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/g, '');
  return slug || 'pharmacy';
}

/** The M-Pesa number as K2 wants it: E.164 with '+'. */
export function k2PhoneNumber(phone: string): string {
  return `+${normalizeMpesaPhone(phone)}`;
}

/** What the start-failure message of the purchase screen is (seed 002 section 8, Payment service and purchase). */
export function startFailureMessage(input: { status?: number; message?: string; network?: boolean }): string {
  const message = input.message ?? '';
  if (input.network || /network|failed to fetch/i.test(message)) return 'Network error. Please check your internet connection and try again.';
  if (input.status === 429 || /rate limit|too many/i.test(message)) return 'Too many payment attempts. Please wait a moment and try again.';
  if (/unavailable|offline/i.test(message)) return 'Payment service is temporarily unavailable. Please try again later.';
  return message || 'Payment initiation failed. Please try again.';
}

// ------------------------------------------------------------------------- paying from /app/subscription (item 6)

/** What an owner pays from /app/subscription: the licence to end a trial, or a year of hosting. */
export const SUBSCRIPTION_PAYMENT_PURPOSES = ['upgrade', 'hosting'] as const;
export type SubscriptionPaymentPurpose = (typeof SUBSCRIPTION_PAYMENT_PURPOSES)[number];

/** The price of each purpose (the server's list): the licence, or the yearly hosting fee. */
export function subscriptionPaymentCents(purpose: SubscriptionPaymentPurpose): number {
  return purpose === 'upgrade' ? PLATFORM_PRICES.complete.amountCents : PLATFORM_PRICES.hosting.amountCents;
}

/** POST /api/subscription/payments */
export const subscriptionPaymentRequestSchema = z.object({
  purpose: z.enum(SUBSCRIPTION_PAYMENT_PURPOSES),
  phoneNumber: stkPushRequestSchema.shape.phoneNumber,
});
export type SubscriptionPaymentRequest = z.infer<typeof subscriptionPaymentRequestSchema>;

/** The state of a subscription payment, as the subscription screen polls it. */
export const subscriptionPaymentSchema = z.object({
  id: z.string(),
  purpose: z.enum(SUBSCRIPTION_PAYMENT_PURPOSES),
  status: z.enum(PAYMENT_STATUSES),
  amount: z.number(),
  phoneNumber: z.string(),
  mpesaReceiptNumber: z.string().nullable(),
  failureReason: z.string().nullable(),
});
export type SubscriptionPayment = z.infer<typeof subscriptionPaymentSchema>;
export const subscriptionPaymentResponseSchema = z.object({ payment: subscriptionPaymentSchema });
