import { z } from 'zod';
import { EMAIL_PATTERN } from './auth.ts';
import { text } from './text.ts';

/**
 * Demo registration and access (seed 002 sections 2-5 and 8: /demo-register, /demo-access, /verify-email; the
 * demo record and the lead of section 3; the demo lifecycle of section 4). Decision 0046.
 */

/** The messages of the demo screens, word for word (seed 002 sections 5 and 8). */
export const DEMO_MESSAGES = {
  fieldsRequired: 'Please fill in all required fields',
  invalidEmail: 'Please enter a valid email address',
  invalidPhone: 'Please enter a valid phone number',
  emailRequired: 'Please enter your email',
  emailRegistered: 'This email is already registered. Click Already Registered? below to access the demo.',
  noRegistration: 'No demo registration found. Please register first.',
  verifyFirst: 'Please verify your email before accessing the demo.',
  noAccount: 'No demo account found with this email. Please register first.',
  linkFailed: 'Failed to send login link. Please try again.',
  signInFailed: 'Failed to sign in. Please try requesting a new link.',
  verificationRequired: 'Email verification required',
} as const;

/** At least 10 characters, each a digit, plus, space, hyphen or parenthesis (seed 002 section 5, Demo registration). */
export const DEMO_PHONE_PATTERN = /^[\d+\s\-()]{10,}$/;

/** How long after Enter Demo the browser goes to the dashboard (seed 002 section 4, Demo lifecycle). */
export const ENTER_DEMO_DELAY_MS = 500;
/** How long after a successful verification /verify-email goes on: to /demo-access for a demo user, else /login. */
export const VERIFY_REDIRECT_DEMO_MS = 2000;
export const VERIFY_REDIRECT_LOGIN_MS = 3000;
/** The shared demo pharmacy every demo visitor works in (seed 000 section 9). */
export const DEMO_PHARMACY_ID = 'demo_pharmacy_shared';
/** The browser's key for the email a sign-in link was sent to (seed 002 section 3, Local demo session). */
export const EMAIL_FOR_SIGN_IN_KEY = 'emailForSignIn';

/** Rate limits of the public demo endpoints (decision 0046): per address and per email, in a rolling hour. */
export const DEMO_LIMITS = {
  register: { perIp: 10, perEmail: 3, windowMinutes: 60 },
  sign_in_link: { perIp: 20, perEmail: 5, windowMinutes: 60 },
} as const;

export interface DemoRegistrationForm {
  name: string;
  email: string;
  phone: string;
  pharmacyName?: string;
}

export type DemoFormProblem = keyof Pick<typeof DEMO_MESSAGES, 'fieldsRequired' | 'invalidEmail' | 'invalidPhone'>;

/** The first problem of a demo registration form, in the specification's order, or null. */
export function demoRegistrationProblem(form: DemoRegistrationForm): DemoFormProblem | null {
  if (!form.name.trim() || !form.email.trim() || !form.phone.trim()) return 'fieldsRequired';
  if (!EMAIL_PATTERN.test(form.email.trim())) return 'invalidEmail';
  if (!DEMO_PHONE_PATTERN.test(form.phone.trim())) return 'invalidPhone';
  return null;
}

/** The email as it is looked up: trimmed and lowercased (seed 002 section 5, Demo access). */
export function normaliseDemoEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** POST /api/demo/register. The server checks the rules (demoRegistrationProblem) and answers their messages. */
export const demoRegisterRequestSchema = z.strictObject({
  name: z.string().max(120),
  email: z.string().max(254),
  phone: z.string().max(30),
  pharmacyName: text(120, 'Pharmacy name').optional(),
});
export type DemoRegisterRequest = z.infer<typeof demoRegisterRequestSchema>;
export const demoRegisterResponseSchema = z.object({ email: z.string(), message: z.string() });
export type DemoRegisterResponse = z.infer<typeof demoRegisterResponseSchema>;

/** POST /api/demo/sign-in-link: a passwordless sign-in link to /demo-access. */
export const demoSignInLinkRequestSchema = z.strictObject({ email: z.string().max(254) });
/** POST /api/demo/sign-in: completes the emailed link with the email it was sent to. */
export const demoSignInRequestSchema = z.strictObject({ email: z.string().max(254), oobCode: z.string().max(200), mode: z.string().max(40).optional() });

/** GET /api/demo/access: what /demo-access shows (checking is the browser's own state while this loads). */
export const demoAccessResponseSchema = z.discriminatedUnion('state', [
  z.object({ state: z.literal('signed_out') }),
  z.object({ state: z.literal('verification_required'), email: z.string() }),
  z.object({
    state: z.literal('welcome'),
    name: z.string(),
    email: z.string(),
    accessCount: z.number().int(),
    lastAccessAt: z.iso.datetime().nullable(),
  }),
]);
export type DemoAccessResponse = z.infer<typeof demoAccessResponseSchema>;

/** POST /api/demo/enter: Enter Demo counted; the browser goes to redirectTo after ENTER_DEMO_DELAY_MS. */
export const demoEnterResponseSchema = z.object({
  accessCount: z.number().int(),
  lastAccessAt: z.iso.datetime(),
  redirectTo: z.literal('/app/dashboard'),
});
export type DemoEnterResponse = z.infer<typeof demoEnterResponseSchema>;

/** POST /api/auth/verify-email: demo is true when the address was a demo registration (now signed in). */
export const verifyEmailResponseSchema = z.object({ message: z.string(), demo: z.boolean() });
export type VerifyEmailResponse = z.infer<typeof verifyEmailResponseSchema>;

/** A demo registration as the operator sees it (admin area, demos). */
export const demoRegistrationSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  pharmacyName: z.string().nullable(),
  source: z.string(),
  emailVerified: z.boolean(),
  demoAccessGranted: z.boolean(),
  verifiedAt: z.iso.datetime().nullable(),
  registeredAt: z.iso.datetime(),
  lastAccessAt: z.iso.datetime().nullable(),
  accessCount: z.number().int(),
});
export type DemoRegistration = z.infer<typeof demoRegistrationSchema>;

export const LEAD_STATUSES = ['new', 'contacted', 'qualified', 'converted', 'lost'] as const;
export type LeadStatus = (typeof LEAD_STATUSES)[number];

export const leadSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  pharmacyName: z.string().nullable(),
  leadType: z.string(),
  leadSource: z.string(),
  leadStatus: z.enum(LEAD_STATUSES),
  emailVerified: z.boolean(),
  demoAccessed: z.boolean(),
  followUpRequired: z.boolean(),
  notes: z.string().nullable(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type Lead = z.infer<typeof leadSchema>;

/** GET /api/admin/demos. */
export const adminDemosResponseSchema = z.object({
  registrations: z.array(demoRegistrationSchema),
  leads: z.array(leadSchema),
});
export type AdminDemosResponse = z.infer<typeof adminDemosResponseSchema>;

/** PATCH /api/admin/leads/:id: the operator's follow-up. */
export const updateLeadRequestSchema = z.strictObject({
  leadStatus: z.enum(LEAD_STATUSES, { error: 'Choose a follow-up status.' }).optional(),
  followUpRequired: z.boolean().optional(),
  notes: text(2000, 'Notes').nullable().optional(),
});
export type UpdateLeadRequest = z.infer<typeof updateLeadRequestSchema>;
export const leadIdParamsSchema = z.strictObject({ id: z.uuid() });
export const updateLeadResponseSchema = z.object({ lead: leadSchema });
