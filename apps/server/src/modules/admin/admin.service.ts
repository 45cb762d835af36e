import type { AdminPharmacy, SubscriptionOverview } from '@pharmapoint/domain/subscription';
import { randomUUID } from 'node:crypto';
import {
  kenyaToday,
  lastMonths,
  monthRange,
  OFFLINE_PAYMENT_MESSAGES,
  pharmacyBucket,
  PHARMACY_BUCKETS,
  type AdminAnalyticsResponse,
  type AdminOverviewResponse,
  type CustomerSetupRequest,
  type OfflinePaymentRequest,
  type OfflinePaymentResponse,
  type PharmacyActionResponse,
} from '@pharmapoint/domain/admin';
import { formatMoney } from '@pharmapoint/domain/money';
import { LICENCE_PLAN } from '@pharmapoint/domain/platform-payments';
import type { Queryable } from '../../db/database.ts';
import type { RequestAuth } from '../../platform/access.ts';
import type { RequestContext } from '../../platform/context.ts';
import type { Mailer } from '../../platform/mailer.ts';
import { AppError } from '../../platform/errors.ts';
import { audit } from '../audit/audit.service.ts';
import { demoFunnelOf } from '../demo/demo.service.ts';
import { applySubscriptionPayment, assertSubscriptionPayable, overviewsOf } from '../subscription/subscription.service.ts';
import { createPharmacy, getTheme, saveTheme } from '../tenancy/pharmacy.service.ts';
import type { Theme } from '@pharmapoint/domain/tenancy';
import { resendInvite } from '../users/users.service.ts';
import {
  demoRegistrationsBetween,
  findAllPharmacies,
  findPharmacy,
  insertOfflinePayment,
  insertOwnerUser,
  lockSubscription,
  makeOwnerMembershipPending,
  ownerOf,
  payerOfPharmacy,
  revenueByMonth,
  salesByPharmacy,
  setSubscriptionStatus,
  setTrialEnd,
  signUpsByMonth,
  userExists,
  type PlatformPharmacy,
} from './admin.repository.ts';

/**
 * The operator's one-word state of a pharmacy: trial (running), active (licence and hosting), expired (trial
 * ended, or licence with hosting expired), inactive (stored as inactive) or none (no subscription yet).
 */
export type OperatorStatus = AdminPharmacy['subscription']['status'];

export function operatorStatus(overview: Pick<SubscriptionOverview, 'subscription' | 'summary'>): OperatorStatus {
  const { subscription, summary } = overview;
  if (!subscription) return 'none';
  if (summary.isTrial) return summary.trialExpired ? 'expired' : 'trial';
  if (subscription.status === 'active') return summary.systemActive ? 'active' : 'expired';
  return 'inactive';
}

/**
 * Every pharmacy of the platform with its plan, state and usage (from the usage counters), newest first.
 * Platform work across tenants: `owner` is the owner connection (the operator's view is the one place a request
 * reads every tenant), and it is read-only.
 */
export async function listPharmaciesForOperator(owner: Queryable, now: Date): Promise<AdminPharmacy[]> {
  const pharmacies = await findAllPharmacies(owner);
  // A handful of queries for the whole platform, not a handful per pharmacy.
  const overviews = await overviewsOf(owner, pharmacies.map((p) => p.id), now);
  return pharmacies.map((pharmacy) => describePharmacy(pharmacy, overviews.get(pharmacy.id)!));
}

/** A pharmacy with its plan, state and usage, as the operator's list shows it. */
function describePharmacy(pharmacy: PlatformPharmacy, overview: SubscriptionOverview): AdminPharmacy {
  const sub = overview.subscription;
  return {
    ...pharmacy,
    plan: sub?.planId ?? null,
    subscription: {
      status: operatorStatus(overview),
      storedStatus: sub?.status ?? null,
      statusMessage: overview.summary.statusMessage,
      systemActive: overview.summary.systemActive,
      trialEndDate: sub?.trialEndDate ?? null,
      hostingPaidUntil: sub?.hostingPaidUntil ?? null,
      limits: sub
        ? { maxProducts: sub.maxProducts, maxTransactions: sub.maxTransactions, maxUsers: sub.maxUsers, maxBranches: sub.maxBranches }
        : null,
    },
    usage: overview.usage,
  };
}

/** One pharmacy as the operator's list shows it (404 when there is none). */
async function pharmacyForOperator(owner: Queryable, pharmacyId: string, now: Date): Promise<AdminPharmacy> {
  const pharmacy = (await listPharmaciesForOperator(owner, now)).find((p) => p.id === pharmacyId);
  if (!pharmacy) throw new AppError('PHARMACY_NOT_FOUND');
  return pharmacy;
}

/**
 * One pharmacy as the list shows it, read in the transaction of the operator's change (the tenant is that
 * pharmacy): the answer shows the change, and it is the answer stored with the request's Idempotency-Key.
 */
async function changedPharmacy(q: Queryable, pharmacyId: string, now: Date): Promise<AdminPharmacy> {
  const pharmacy = await findPharmacy(q, pharmacyId);
  if (!pharmacy) throw new AppError('PHARMACY_NOT_FOUND');
  const overview = (await overviewsOf(q, [pharmacyId], now)).get(pharmacyId)!;
  return describePharmacy(pharmacy, overview);
}

type LockedSubscription = NonNullable<Awaited<ReturnType<typeof lockSubscription>>>;
type OperatorChange = (sub: LockedSubscription) => Promise<{ action: string; before: unknown; after: unknown } | null>;

/**
 * An operator's change of one pharmacy's subscription, in the transaction app.inOperator opens (the tenant is that
 * pharmacy; row-level security holds the change to it): the subscription locked, and the change in the pharmacy's
 * audit log under the operator's name. A pharmacy without a subscription is 404.
 */
async function changeSubscription(q: Queryable, operator: RequestAuth, pharmacyId: string, change: OperatorChange): Promise<void> {
  const sub = await lockSubscription(q, pharmacyId);
  if (!sub) throw new AppError('PHARMACY_NOT_FOUND');
  const done = await change(sub);
  if (done) await audit(q, { pharmacyId, userId: operator.userId }, done.action, 'subscription', pharmacyId, done.before, { ...(done.after as object), by: 'platform_operator', operatorEmail: operator.email });
}

/**
 * Extends a trial by `days` from the later of now and its current end ('Not in trial period' for a licensed
 * pharmacy; a deactivated one must be reactivated first). An expired trial starts running again. The route's
 * Idempotency-Key (app.inOperator) makes a retry answer this first answer and extend nothing more (issue 7).
 */
export async function extendTrial(q: Queryable, operator: RequestAuth, pharmacyId: string, days: number, now = new Date()): Promise<PharmacyActionResponse> {
  await changeSubscription(q, operator, pharmacyId, async (sub) => {
    if (sub.status === 'inactive') throw new AppError('ADMIN_PHARMACY_INACTIVE');
    if (sub.planId !== 'trial') throw new AppError('NOT_IN_TRIAL');
    const currentEnd = sub.trialEndDate ?? sub.endDate;
    const from = currentEnd && new Date(currentEnd) > now ? new Date(currentEnd) : now;
    const newEnd = new Date(from.getTime() + days * 86_400_000);
    await setTrialEnd(q, pharmacyId, newEnd, now);
    return { action: 'admin.trial_extended', before: { trialEndDate: currentEnd }, after: { trialEndDate: newEnd.toISOString(), days } };
  });
  const pharmacy = await changedPharmacy(q, pharmacyId, now);
  return { pharmacy, message: `Trial extended by ${days} day${days === 1 ? '' : 's'} for ${pharmacy.name}` };
}

/** Deactivates a pharmacy (its subscription inactive: the system stops for it until reactivated). */
export async function deactivatePharmacy(q: Queryable, operator: RequestAuth, pharmacyId: string, now = new Date()): Promise<PharmacyActionResponse> {
  await changeSubscription(q, operator, pharmacyId, async (sub) => {
    if (sub.status === 'inactive') return null;
    await setSubscriptionStatus(q, pharmacyId, 'inactive', now);
    return { action: 'admin.pharmacy_deactivated', before: { status: sub.status }, after: { status: 'inactive' } };
  });
  const pharmacy = await changedPharmacy(q, pharmacyId, now);
  return { pharmacy, message: `${pharmacy.name} has been deactivated` };
}

/** Reactivates a pharmacy: a trial plan becomes trial again, a licence active. */
export async function reactivatePharmacy(q: Queryable, operator: RequestAuth, pharmacyId: string, now = new Date()): Promise<PharmacyActionResponse> {
  await changeSubscription(q, operator, pharmacyId, async (sub) => {
    if (sub.status !== 'inactive') return null;
    const status = sub.planId === 'trial' ? 'trial' : 'active';
    await setSubscriptionStatus(q, pharmacyId, status, now);
    return { action: 'admin.pharmacy_reactivated', before: { status: 'inactive' }, after: { status } };
  });
  const pharmacy = await changedPharmacy(q, pharmacyId, now);
  return { pharmacy, message: `${pharmacy.name} has been reactivated` };
}

const METHOD_NAMES: Record<OfflinePaymentRequest['method'], string> = {
  bank_transfer: 'bank transfer',
  cash: 'cash',
  cheque: 'cheque',
  mpesa_paybill: 'M-Pesa paybill',
};

/**
 * Records a payment the customer made outside the M-Pesa prompt (issue 11 item 8; decision 0060), in the
 * transaction app.inOperator opens: a completed platform payment with its method, reference and day paid (the
 * dashboard's revenue counts it in that month), the subscription following exactly as for an M-Pesa payment
 * (subscription.service's applySubscriptionPayment: the licence turns a trial into the licensed plan, hosting
 * extends one year from the later of now and the paid-until date), and the pharmacy's audit log under the operator.
 * The same rules as paying from /app/subscription: a licence only for a trial ('Not in trial period'), hosting only
 * with a licence ('No active license'); a deactivated pharmacy is reactivated first.
 */
export async function recordOfflinePayment(q: Queryable, operator: RequestAuth, pharmacyId: string, input: OfflinePaymentRequest, now = new Date()): Promise<OfflinePaymentResponse> {
  if (input.paidOn > kenyaToday(now)) throw new AppError('VALIDATION_FAILED', { message: OFFLINE_PAYMENT_MESSAGES.futureDate });
  const sub = await lockSubscription(q, pharmacyId);
  if (!sub) throw new AppError('PHARMACY_NOT_FOUND');
  if (sub.status === 'inactive') throw new AppError('ADMIN_PHARMACY_INACTIVE');
  const purpose = input.kind === 'licence' ? 'upgrade' : 'hosting';
  await assertSubscriptionPayable(q, { pharmacyId, now }, purpose);
  const payer = await payerOfPharmacy(q, pharmacyId);
  if (!payer) throw new AppError('PHARMACY_NOT_FOUND');
  const id = randomUUID();
  await insertOfflinePayment(q, {
    id,
    purpose,
    plan: purpose === 'upgrade' ? LICENCE_PLAN : 'hosting',
    amountCents: input.amountCents,
    method: input.method,
    reference: input.reference ?? null,
    paidOn: input.paidOn,
    note: input.note ?? null,
    ownerEmail: payer.email ?? operator.email,
    ownerName: (payer.name ?? operator.name ?? payer.pharmacyName).slice(0, 120),
    pharmacyName: payer.pharmacyName.slice(0, 120),
    pharmacyId,
    recordedBy: operator.userId,
    at: now,
  });
  const hostingBefore = (await overviewsOf(q, [pharmacyId], now)).get(pharmacyId)?.subscription?.hostingPaidUntil ?? null;
  if (!(await applySubscriptionPayment(q, pharmacyId, { purpose, amountCents: input.amountCents, at: now, method: input.method }))) {
    throw new AppError(purpose === 'upgrade' ? 'SUBSCRIPTION_NOT_IN_TRIAL' : 'SUBSCRIPTION_NO_LICENSE');
  }
  const pharmacy = await changedPharmacy(q, pharmacyId, now);
  await audit(q, { pharmacyId, userId: operator.userId }, 'admin.offline_payment_recorded', 'subscription', pharmacyId, { plan: sub.planId, hostingPaidUntil: hostingBefore }, {
    transactionId: id,
    kind: input.kind,
    amountCents: input.amountCents,
    method: input.method,
    reference: input.reference ?? null,
    paidOn: input.paidOn,
    note: input.note ?? null,
    plan: pharmacy.plan,
    hostingPaidUntil: pharmacy.subscription.hostingPaidUntil,
    by: 'platform_operator',
    operatorEmail: operator.email,
  });
  const what = input.kind === 'licence' ? 'licence' : 'hosting';
  return {
    pharmacy,
    payment: { id, kind: input.kind, amountCents: input.amountCents, method: input.method, reference: input.reference ?? null, paidOn: input.paidOn },
    message: `${formatMoney(input.amountCents)} ${what} payment by ${METHOD_NAMES[input.method]} recorded for ${pharmacy.name}`,
  };
}

/** The SaaS dashboard's figures: pharmacies by bucket (demo pharmacies left out), 12 months of sign-ups and money, the demo funnel. */
export async function adminOverview(owner: Queryable, now = new Date()): Promise<AdminOverviewResponse> {
  const pharmacies = (await findAllPharmacies(owner)).filter((p) => !p.isDemo);
  const overviews = await overviewsOf(owner, pharmacies.map((p) => p.id), now);
  const counts = Object.fromEntries(PHARMACY_BUCKETS.map((b) => [b, 0])) as Record<(typeof PHARMACY_BUCKETS)[number], number>;
  for (const p of pharmacies) {
    const overview = overviews.get(p.id)!;
    const bucket = pharmacyBucket({
      subscription: { status: operatorStatus(overview), storedStatus: overview.subscription?.status ?? null } as AdminPharmacy['subscription'],
      hostingDueSoon: overview.summary.hostingDueSoon,
      licenseActiveHostingExpired: overview.summary.licenseActiveHostingExpired,
    });
    counts[bucket] += 1;
  }
  const months = lastMonths(now);
  const since = new Date(`${months[0]}-01T00:00:00Z`);
  const signUps = await signUpsByMonth(owner, since);
  const revenue = await revenueByMonth(owner, since);
  return {
    pharmacies: { total: pharmacies.length, ...counts },
    months: months.map((month) => ({ month, signUps: signUps.get(month) ?? 0, licenceCents: revenue.get(month)?.licenceCents ?? 0, hostingCents: revenue.get(month)?.hostingCents ?? 0 })),
    demos: await demoFunnelOf(owner),
  };
}

/**
 * The operator working in one pharmacy for an action the pharmacy's own people could take (sending the owner's
 * invitation): the tenant is that pharmacy, the user the operator, every permission of the pharmacy ('*'): the
 * operator's own membership anywhere does not limit an action of the admin area.
 */
function operatorContext(operator: RequestAuth, pharmacyId: string, now: Date): RequestContext {
  return {
    pharmacyId,
    branchId: null,
    userId: operator.userId,
    permissions: ['*'],
    subject: { role: 'admin', permissions: null, isPlatformOperator: true },
    membership: { role: 'admin', permissions: null, allowedBranchIds: null, defaultBranchId: null, hasPosAccess: false, isOwner: false },
    isDemo: false,
    visibleBranchIds: null,
    now,
  };
}

export interface OperatorMail {
  mailer: Mailer;
  publicUrl: string;
}

/**
 * customers/new: a pharmacy and its owner set up by hand for a customer who paid outside M-Pesa, in the route's one
 * transaction (no tenant yet: app.inPlatform as the operator): the owner's account (no password), the pharmacy with
 * its Main Branch, settings and the chosen plan's subscription, the owner's membership waiting for their answer, and
 * the invitation email whose link lets them choose a password and sign in. An email that has an account already is
 * refused ('An account with this email already exists.'). Returns the new pharmacy's id; the route then answers
 * with customerSetUpAnswer, after COMMIT.
 */
export async function setUpCustomer(q: Queryable, operator: RequestAuth, input: CustomerSetupRequest, mail: OperatorMail, now = new Date()): Promise<string> {
  if (await userExists(q, input.ownerEmail)) throw new AppError('DUPLICATE_EMAIL');
  const ownerId = await insertOwnerUser(q, input.ownerEmail, input.ownerName, now);
  const created = await createPharmacy(q, { name: input.pharmacyName, ownerUserId: ownerId, plan: input.plan, now });
  await makeOwnerMembershipPending(q, created.pharmacyId, ownerId, input.ownerName);
  const ctx = operatorContext(operator, created.pharmacyId, now);
  await audit(q, { pharmacyId: created.pharmacyId, userId: operator.userId }, 'admin.pharmacy_created', 'pharmacy', created.pharmacyId, null, {
    name: input.pharmacyName,
    ownerEmail: input.ownerEmail,
    plan: input.plan,
    by: 'platform_operator',
    operatorEmail: operator.email,
  });
  await resendInvite(q, ctx, ownerId, mail);
  return created.pharmacyId;
}

/**
 * Sends the owner a new invitation link ('This person has already accepted the invitation.' once they have), in the
 * operator's transaction of that pharmacy (app.inOperator). Returns the sentence for the operator.
 */
export async function resendOwnerInvitation(q: Queryable, operator: RequestAuth, pharmacyId: string, mail: OperatorMail, now = new Date()): Promise<string> {
  const ownerId = await ownerOf(q, pharmacyId);
  if (!ownerId) throw new AppError('PHARMACY_NOT_FOUND');
  return (await resendInvite(q, operatorContext(operator, pharmacyId, now), ownerId, mail)).message;
}

/**
 * The answer of an operator's action that queued an email, read after its transaction committed: the email is sent
 * at once (the mailer's outbox is flushed in the background) and the pharmacy is read as the operator's list shows it.
 */
export async function operatorActionAnswer(owner: Queryable, mail: OperatorMail, pharmacyId: string, message: string, now = new Date()): Promise<PharmacyActionResponse> {
  void mail.mailer.flush().catch(() => undefined);
  return { pharmacy: await pharmacyForOperator(owner, pharmacyId, now), message };
}

/** The sentence the operator reads once a customer is set up. */
export function customerSetUpMessage(pharmacyName: string, ownerEmail: string): string {
  return `${pharmacyName} is set up. An invitation was sent to ${ownerEmail}.`;
}

/**
 * Analytics and the monthly report: a month's sales per pharmacy (counts and totals only) and the platform's own
 * figures for it. Demo pharmacies are listed but left out of the totals.
 */
export async function adminAnalytics(owner: Queryable, month: string | undefined, now = new Date()): Promise<AdminAnalyticsResponse> {
  const chosen = month ?? lastMonths(now, 1)[0]!;
  const { from, to } = monthRange(chosen);
  const day = (d: Date) => d.toISOString().slice(0, 10);
  const pharmacies = await salesByPharmacy(owner, day(from), day(to));
  const customers = pharmacies.filter((p) => !p.isDemo);
  const signUps = (await signUpsByMonth(owner, from)).get(chosen) ?? 0;
  const revenue = (await revenueByMonth(owner, from)).get(chosen);
  return {
    month: chosen,
    pharmacies,
    totals: {
      activePharmacies: customers.filter((p) => p.salesCount > 0).length,
      salesCount: customers.reduce((sum, p) => sum + p.salesCount, 0),
      salesTotalCents: customers.reduce((sum, p) => sum + p.salesTotalCents, 0),
      signUps,
      licenceCents: revenue?.licenceCents ?? 0,
      hostingCents: revenue?.hostingCents ?? 0,
      demoRegistrations: await demoRegistrationsBetween(owner, from, to),
    },
  };
}

/** theme-customizer: a pharmacy's theme as its people see it (in the operator's transaction of that pharmacy). */
export async function pharmacyTheme(q: Queryable, operator: RequestAuth, pharmacyId: string, now = new Date()): Promise<{ theme: Theme }> {
  return getTheme(q, operatorContext(operator, pharmacyId, now));
}

/** theme-customizer: saves a pharmacy's theme (audited in its log under the operator, as the pharmacy's own save is). */
export async function savePharmacyTheme(q: Queryable, operator: RequestAuth, pharmacyId: string, theme: Theme, now = new Date()): Promise<{ theme: Theme }> {
  return saveTheme(q, operatorContext(operator, pharmacyId, now), theme);
}
