import {
  DEMO_LIMITS,
  demoRegistrationProblem,
  normaliseDemoEmail,
  type AdminDemosResponse,
  type DemoAccessResponse,
  type DemoEnterResponse,
  type DemoRegisterRequest,
  type Lead,
  type UpdateLeadRequest,
} from '@pharmapoint/domain/demo';
import { EMAIL_PATTERN } from '@pharmapoint/domain/auth';
import type { Config } from '../../config.ts';
import type { Database, Queryable } from '../../db/database.ts';
import { DEMO_PHARMACY_ID } from '../../db/seed.ts';
import type { RequestAuth } from '../../platform/access.ts';
import type { PlatformContext } from '../../platform/transaction.ts';
import { AppError } from '../../platform/errors.ts';
import type { Mailer } from '../../platform/mailer.ts';
import { queueSignInLink, queueVerificationEmail } from '../auth/auth.service.ts';
import * as repo from './demo.repository.ts';

/**
 * Demo registration and access (seed 002 sections 2-5, 8; issue 11 item 5; decision 0046). The public use cases run
 * in the routes' platform transactions (app.inPlatform: no tenant is known; registering names the demo pharmacy);
 * the demo visitor's place is a membership with role demo in the shared demo pharmacy, read-only as the auth plugin
 * enforces for every demo session.
 */
export interface DemoDeps {
  db: Database;
  config: Config;
  mailer: Mailer;
}

const PROBLEM_CODES = { fieldsRequired: 'DEMO_FIELDS_REQUIRED', invalidEmail: 'DEMO_INVALID_EMAIL', invalidPhone: 'DEMO_INVALID_PHONE' } as const;

/** The pharmacy a demo registration joins (the transaction's tenant when registering). */
export { DEMO_PHARMACY_ID };

/**
 * Counts a request to a public demo endpoint and refuses it past the limits of DEMO_LIMITS, per address and per
 * email. The route runs it in its own transaction before the request's own work (two transactions one after the
 * other), so the count is committed and a refused or failed attempt still counts.
 */
export async function throttleDemoRequest(q: Queryable, ctx: PlatformContext, action: keyof typeof DEMO_LIMITS, email: string): Promise<void> {
  const limits = DEMO_LIMITS[action];
  const since = new Date(ctx.now.getTime() - limits.windowMinutes * 60_000);
  const counts = await repo.countDemoRequests(q, action, ctx.ip, email, since);
  if (counts.byIp >= limits.perIp || counts.byEmail >= limits.perEmail) throw new AppError('DEMO_RATE_LIMITED');
  await repo.insertDemoRequest(q, action, ctx.ip, email, ctx.now);
}

/** A demo registration as it is stored: checked (seed 002's sentences) and trimmed, before anything is written. */
export interface DemoRegistration {
  email: string;
  name: string;
  phone: string;
  pharmacyName: string | null;
}

export function readDemoRegistration(input: DemoRegisterRequest): DemoRegistration {
  const problem = demoRegistrationProblem(input);
  if (problem) throw new AppError(PROBLEM_CODES[problem]);
  return { email: normaliseDemoEmail(input.email), name: input.name.trim().slice(0, 120), phone: input.phone.trim(), pharmacyName: input.pharmacyName?.trim() || null };
}

/**
 * POST /api/demo/register (seed 002 section 4, Demo registration): the visitor's account (no password: they sign in
 * by emailed links), their read-only place in the shared demo pharmacy, the demo record and the lead, and the
 * verification email whose link leads to /demo-access, all in the route's one transaction (tenant: the demo
 * pharmacy). An email that has any account already is refused with the specification's sentence.
 */
export async function registerDemo(
  q: Queryable,
  ctx: PlatformContext,
  deps: Pick<DemoDeps, 'config' | 'mailer'>,
  registration: DemoRegistration,
): Promise<{ email: string; message: string }> {
  const { email, name, phone, pharmacyName } = registration;
  if (await repo.userIdByEmail(q, email)) throw new AppError('DEMO_EMAIL_REGISTERED');
  if (!(await repo.pharmacyExists(q, DEMO_PHARMACY_ID))) throw new AppError('NOT_FOUND', { message: 'The demo is not available right now. Please try again later.' });
  const userId = await repo.insertDemoUser(q, { email, name, phone }, ctx.now);
  await repo.insertDemoMembership(q, DEMO_PHARMACY_ID, userId);
  await repo.insertRegistration(q, { userId, name, email, phone, pharmacyName, ip: ctx.ip }, ctx.now);
  await queueVerificationEmail(q, deps, { id: userId, email, name }, ['Thank you for registering for the PharmaPoint demo.', 'Confirm your email address to open the demo.'], ctx.now);
  return { email, message: 'Check your email' };
}

/** The demo's part of a verified address (passed to auth's verifyEmail): whether the user registered for the demo. */
export async function completeDemoVerification(q: Queryable, userId: string, now: Date): Promise<boolean> {
  return repo.markRegistrationVerified(q, userId, now);
}

/**
 * GET /api/demo/access: the state /demo-access shows for the caller's session (the route's transaction names the
 * signed-in user, whose demo record it reads).
 */
export async function demoAccess(q: Queryable, ctx: PlatformContext): Promise<DemoAccessResponse> {
  const auth = ctx.auth;
  if (!auth || !auth.isDemo) return { state: 'signed_out' };
  const registration = await repo.registrationOfUser(q, auth.userId);
  const verified = auth.profile.emailVerified && (registration ? registration.emailVerified && registration.demoAccessGranted : true);
  if (!verified) return { state: 'verification_required', email: auth.email };
  return { state: 'welcome', name: auth.name, email: auth.email, accessCount: registration?.accessCount ?? 0, lastAccessAt: registration?.lastAccessAt ?? null };
}

/** The address a sign-in link is asked for, checked before anything is written. */
export function readDemoEmail(rawEmail: string): string {
  const email = normaliseDemoEmail(rawEmail);
  if (!email) throw new AppError('DEMO_EMAIL_REQUIRED');
  if (!EMAIL_PATTERN.test(email)) throw new AppError('DEMO_INVALID_EMAIL');
  return email;
}

/**
 * POST /api/demo/sign-in-link: a single-use sign-in link to /demo-access for a registered demo visitor ('No demo
 * account found with this email. Please register first.' otherwise), in the route's transaction.
 */
export async function sendDemoSignInLink(q: Queryable, ctx: PlatformContext, deps: Pick<DemoDeps, 'config' | 'mailer'>, email: string): Promise<{ email: string; message: string }> {
  const registration = await repo.registrationByEmail(q, email);
  if (!registration) throw new AppError('DEMO_NO_ACCOUNT');
  await queueSignInLink(q, deps, { id: registration.userId, email, name: registration.name }, '/demo-access', ctx.now);
  return { email, message: `A sign-in link has been sent to ${email}` };
}

/** POST /api/demo/sign-in: the form is checked before anything is read (the route then completes the link). */
export function readDemoSignIn(input: { email: string; oobCode: string; mode?: string }): { email: string; oobCode: string } {
  if (!normaliseDemoEmail(input.email)) throw new AppError('DEMO_EMAIL_REQUIRED');
  if ((input.mode !== undefined && input.mode !== 'signIn') || !input.oobCode) throw new AppError('DEMO_SIGN_IN_FAILED');
  return { email: input.email, oobCode: input.oobCode };
}

/**
 * POST /api/demo/enter (Enter Demo): counts one access (accessCount, lastAccessAt; the lead is marked as having
 * accessed the demo) for a demo visitor whose address is verified. The seeded demo visitor has no record: nothing to
 * count, and they enter all the same.
 */
export async function enterDemo(q: Queryable, auth: RequestAuth, now = new Date()): Promise<DemoEnterResponse> {
  if (!auth.isDemo) throw new AppError('DEMO_NOT_REGISTERED');
  const registration = await repo.registrationOfUser(q, auth.userId, { forUpdate: true });
  if (!auth.profile.emailVerified || (registration && !registration.emailVerified)) throw new AppError('DEMO_VERIFY_FIRST');
  const counted = registration ? await repo.countAccess(q, auth.userId, now) : undefined;
  return { accessCount: counted?.accessCount ?? 0, lastAccessAt: counted?.lastAccessAt ?? now.toISOString(), redirectTo: '/app/dashboard' };
}

/** The operator's list of demo registrations and leads, newest first (at most 500 of each). */
export async function listDemosForOperator(q: Queryable): Promise<AdminDemosResponse> {
  const [registrations, leads] = [await repo.allRegistrations(q, 500), await repo.allLeads(q, 500)];
  return { registrations: registrations.map(({ userId: _userId, ...r }) => r), leads };
}

/** The operator's follow-up of a lead, recorded with who made it (lead_changes); an unknown id is 404. */
export async function updateLead(q: Queryable, operatorId: string, id: string, patch: UpdateLeadRequest, now = new Date()): Promise<{ lead: Lead; before: Lead }> {
  const before = await repo.leadById(q, id, { forUpdate: true });
  if (!before) throw new AppError('NOT_FOUND');
  const lead = await repo.updateLeadRow(
    q,
    id,
    {
      leadStatus: patch.leadStatus ?? before.leadStatus,
      followUpRequired: patch.followUpRequired ?? (patch.leadStatus === 'converted' || patch.leadStatus === 'lost' ? false : before.followUpRequired),
      notes: patch.notes === undefined ? before.notes : patch.notes || null,
    },
    now,
  );
  await repo.appendLeadChange(q, { leadId: id, changedBy: operatorId, after: lead, before, at: now });
  return { lead, before };
}

/** PATCH /api/admin/leads/:id, in the route's platform transaction as the operator. */
export async function updateLeadAsOperator(q: Queryable, operatorId: string, id: string, patch: UpdateLeadRequest, now = new Date()): Promise<{ lead: Lead }> {
  const { lead } = await updateLead(q, operatorId, id, patch, now);
  return { lead };
}

/** The demo funnel for the operator's dashboard. */
export function demoFunnelOf(q: Queryable): ReturnType<typeof repo.demoFunnel> {
  return repo.demoFunnel(q);
}
