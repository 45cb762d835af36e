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
