import { z } from 'zod';

/** Schemas of the sign-in, session and account endpoints, shared by server (validation) and browser (forms). */

export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const PIN_PATTERN = /^\d{4,6}$/;
export const PASSWORD_MIN_LENGTH = 8;

/** Password rules of seed 002 (password setup): at least 8 characters, an uppercase, a lowercase letter and a digit. */
export function passwordChecks(password: string) {
  return {
    length: password.length >= PASSWORD_MIN_LENGTH,
    uppercase: /[A-Z]/.test(password),
    lowercase: /[a-z]/.test(password),
    digit: /\d/.test(password),
    /** Computed, shown, not required. */
    special: /[^A-Za-z0-9]/.test(password),
  };
}

export function isPasswordAcceptable(password: string): boolean {
  const c = passwordChecks(password);
  return c.length && c.uppercase && c.lowercase && c.digit;
}

export const loginRequestSchema = z.strictObject({
  email: z.string().trim().toLowerCase().max(254),
  password: z.string().max(200),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

export const unlockRequestSchema = z.strictObject({
  method: z.enum(['pin', 'password']),
  secret: z.string().max(200),
});
export type UnlockRequest = z.infer<typeof unlockRequestSchema>;

export const forgotPasswordRequestSchema = z.strictObject({ email: z.string().trim().toLowerCase().max(254) });

export const resetPasswordRequestSchema = z.strictObject({
  token: z.string().min(1).max(200),
  password: z.string().max(200),
  confirmPassword: z.string().max(200),
});

export const verifyEmailRequestSchema = z.strictObject({
  mode: z.string().max(40),
  oobCode: z.string().max(200),
});

export const setPinRequestSchema = z.strictObject({
  pin: z.string().regex(PIN_PATTERN, 'PIN must be at least 4 digits'),
  currentPassword: z.string().min(1).max(200),
});

/**
 * POST /api/auth/accept-invite: a person without an account accepts with the invitation link's token, their name
 * (optional: the name they were invited under stays) and the new password twice. A person who already has an
 * account signs in and accepts in their own session (POST /api/me/invitations/accept).
 */
export const acceptInviteRequestSchema = z.strictObject({
  token: z.string().min(1).max(200),
  name: z.string().trim().min(1, 'Enter your name').max(120).optional(),
  password: z.string().max(200),
  confirmPassword: z.string().max(200),
});

/** POST /api/auth/resend-verification and other bodiless writes: nothing, or an empty object. */
export const emptyRequestSchema = z.strictObject({}).optional();

/** GET /api/auth/invite/:token */
export const inviteTokenParamsSchema = z.strictObject({ token: z.string().min(1).max(200) });

/** GET /api/auth/google/start: where to return to after sign-in. */
export const googleStartQuerySchema = z.strictObject({ from: z.string().max(500).optional() });

/** GET /api/auth/google/callback: what Google sends back (code and state, or an error). */
export const googleCallbackQuerySchema = z.object({
  code: z.string().max(2000).optional(),
  state: z.string().max(200).optional(),
  error: z.string().max(200).optional(),
});

/** The answer of writes that only confirm: a sentence for the user. */
export const messageResponseSchema = z.object({ message: z.string() });
export type MessageResponse = z.infer<typeof messageResponseSchema>;

/** GET /api/auth/providers: the sign-in methods offered, and whether email goes to the dev mailbox. */
export const authProvidersResponseSchema = z.object({
  google: z.boolean(),
  /** No SMTP server: email stays on the server and shows at /dev/mailbox (readable from the machine itself). */
  devMailbox: z.boolean(),
});
export type AuthProvidersResponse = z.infer<typeof authProvidersResponseSchema>;

/**
 * GET /api/auth/invite/:token: who an invitation is for (told only to the holder of the emailed link). `hasAccount`:
 * the person already has a PharmaPoint account, so they sign in as `email` and accept there.
 */
export const inviteDetailsResponseSchema = z.object({
  email: z.string(),
  name: z.string(),
  pharmacyName: z.string(),
  pharmacyId: z.string(),
  hasAccount: z.boolean(),
});
export type InviteDetailsResponse = z.infer<typeof inviteDetailsResponseSchema>;

/** A redirect (Google sign-in): no body. */
export const redirectResponseSchema = z.null().describe('A redirect: see the Location header');

export const switchBranchRequestSchema = z.strictObject({ branchId: z.uuid() });

export const branchSummarySchema = z.object({ id: z.string(), name: z.string(), isDefault: z.boolean() });
export type BranchSummary = z.infer<typeof branchSummarySchema>;

/** GET /api/me: who is signed in, where they work and what they may do. */
export const meResponseSchema = z.object({
  user: z.object({
    id: z.string(),
    email: z.string(),
    name: z.string(),
    displayName: z.string(),
    emailVerified: z.boolean(),
    hasPin: z.boolean(),
    isPlatformOperator: z.boolean(),
    lastLoginAt: z.string().nullable(),
  }),
  pharmacy: z
    .object({
      id: z.string(),
      name: z.string(),
      isDemo: z.boolean(),
      theme: z.record(z.string(), z.unknown()),
    })
    .nullable(),
  membership: z
    .object({
      role: z.string(),
      isOwner: z.boolean(),
      hasPosAccess: z.boolean(),
      /** The stored explicit list, or null when the role defaults apply. */
      explicitPermissions: z.array(z.string()).nullable(),
    })
    .nullable(),
  /** Effective permissions; '*' means all. */
  permissions: z.array(z.string()),
  branch: branchSummarySchema.nullable(),
  /** Branches this user may switch to. */
  allowedBranches: z.array(branchSummarySchema),
  isDemo: z.boolean(),
  session: z.object({ locked: z.boolean(), lockAfterMinutes: z.number(), autoLogoutMinutes: z.number() }),
});
export type MeResponse = z.infer<typeof meResponseSchema>;

/** POST /api/auth/login and /api/auth/accept-invite: the me document of the new session and a greeting. */
export const signedInResponseSchema = meResponseSchema.extend({ message: z.string() });
export type SignedInResponse = z.infer<typeof signedInResponseSchema>;
