import { z } from 'zod';

/**
 * The subscription rules of seed 000 sections 4, 8 and 9 and seed 002 section 9: a 7-day trial, then a
 * one-off licence with a yearly hosting fee. Pure: every rule takes `now`.
 */

/** A plan value of -1 means unlimited (seed 000 section 5). */
export const UNLIMITED = -1;

const DAY_MS = 24 * 60 * 60 * 1000;
/** Hosting is due soon at 30 days or fewer (seed 000 section 9, "Hosting windows"). */
export const HOSTING_DUE_SOON_DAYS = 30;
/** Hosting renewal becomes urgent at 7 days or fewer. */
export const HOSTING_URGENT_DAYS = 7;
/** The trial prompt to purchase appears when 2 days or fewer remain (seed 000 section 8). */
export const TRIAL_PURCHASE_PROMPT_DAYS = 2;
/** A reminder is set 3 days before expiry (seed 000 section 4). */
export const REMINDER_DAYS_BEFORE_EXPIRY = 3;

/** The two plans of seed 000 section 9. Prices in cents: KSh 30,000 licence, KSh 3,500 yearly hosting. */
export const PLANS = {
  trial: {
    id: 'trial',
    priceCents: 0,
    trialDays: 7,
    limits: { maxProducts: 50, maxTransactions: 50, maxUsers: 1, maxBranches: 1 },
  },
  standard: {
    id: 'standard',
    licencePriceCents: 3_000_000,
    hostingFeeCents: 350_000,
    limits: { maxProducts: UNLIMITED, maxTransactions: UNLIMITED, maxUsers: UNLIMITED, maxBranches: UNLIMITED },
  },
} as const;

export type PlanId = keyof typeof PLANS;
export type SubscriptionStatus = 'trial' | 'active' | 'inactive';

/** The stored subscription of a pharmacy (seed 000 section 3, one per pharmacy). */
export interface SubscriptionRecord {
  planId: PlanId;
  status: SubscriptionStatus;
  startDate: Date;
  trialEndDate: Date | null;
  endDate: Date | null;
  hostingPaidUntil: Date | null;
  maxProducts: number;
  maxTransactions: number;
  maxUsers: number;
  maxBranches: number;
}

/** The date one calendar year later (UTC); 29 February rolls to 1 March. */
function addOneYear(date: Date): Date {
  const next = new Date(date.getTime());
  next.setUTCFullYear(next.getUTCFullYear() + 1);
  return next;
}

/** Whole days from now until `end`, rounded up, never negative. */
export function daysUntil(end: Date | null, now: Date): number {
  if (!end) return 0;
  return Math.max(0, Math.ceil((end.getTime() - now.getTime()) / DAY_MS));
}

/** A new 7-day trial: 50 products, 50 transactions, 1 user, 1 branch (seed 000 section 9). */
export function newTrialSubscription(now: Date): SubscriptionRecord {
  const trialEnd = new Date(now.getTime() + PLANS.trial.trialDays * DAY_MS);
  return {
    planId: 'trial',
    status: 'trial',
    startDate: new Date(now.getTime()),
    trialEndDate: trialEnd,
    endDate: new Date(trialEnd.getTime()),
    hostingPaidUntil: null,
    ...PLANS.trial.limits,
  };
}

/** A standard licence bought now: lifetime licence (no end date), hosting paid one year from now, no limits. */
export function newStandardSubscription(now: Date): SubscriptionRecord {
  return {
    planId: 'standard',
    status: 'active',
    startDate: new Date(now.getTime()),
    trialEndDate: null,
    endDate: null,
    hostingPaidUntil: addOneYear(now),
    ...PLANS.standard.limits,
  };
}

export type SubscriptionBanner = 'upgrade' | 'upgrade_soon' | 'pay_hosting' | 'renew_hosting';

/** What the subscription means right now: states, messages and prompts of seed 000 sections 4 and 8. */
export interface SubscriptionSummary {
  isTrial: boolean;
  trialExpired: boolean;
  trialDaysLeft: number;
  licenseActive: boolean;
  hostingActive: boolean;
  systemActive: boolean;
  licenseActiveHostingExpired: boolean;
  hostingDaysLeft: number;
  hostingDueSoon: boolean;
  hostingUrgent: boolean;
  statusMessage: string;
  nextAction: string | null;
  nextActionUrgent: boolean;
  banner: SubscriptionBanner | null;
  reminderDate: Date | null;
}

/** One formatter per time zone: building an Intl.DateTimeFormat costs far more than formatting (every request evaluates the subscription). */
const enGbFormatters = new Map<string, Intl.DateTimeFormat>();

/** A date as en-GB shows it (22/11/2027), in the pharmacy's time zone. */
function formatDateEnGb(date: Date, timeZone: string): string {
  let formatter = enGbFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-GB', { timeZone, day: '2-digit', month: '2-digit', year: 'numeric' });
    enGbFormatters.set(timeZone, formatter);
  }
  return formatter.format(date);
}

/** The end of the trial: trialEndDate, else the end date of a trial record. */
function trialEndOf(sub: SubscriptionRecord): Date | null {
  return sub.trialEndDate ?? sub.endDate;
}

/** Evaluate a subscription at `now`: licence, hosting, day counts, status message, next action and banner. */
export function evaluateSubscription(
  sub: SubscriptionRecord | null,
  now: Date,
  options: { timeZone?: string } = {},
): SubscriptionSummary {
  if (!sub) {
    return {
      isTrial: false, trialExpired: false, trialDaysLeft: 0, licenseActive: false, hostingActive: false,
      systemActive: false, licenseActiveHostingExpired: false, hostingDaysLeft: 0, hostingDueSoon: false,
      hostingUrgent: false, statusMessage: 'No subscription data', nextAction: 'Initialize subscription data',
      nextActionUrgent: false, banner: null, reminderDate: null,
    };
  }
  const isTrial = sub.status === 'trial';
  const trialEnd = isTrial ? trialEndOf(sub) : null;
  // A trial without an end date cannot be trusted to be running: treat it as ended.
  const trialExpired = isTrial && (!trialEnd || now.getTime() > trialEnd.getTime());
  const trialRunning = isTrial && !trialExpired;
  const trialDaysLeft = trialRunning ? daysUntil(trialEnd, now) : 0;
  const hostingPaid = sub.hostingPaidUntil !== null && sub.hostingPaidUntil.getTime() > now.getTime();
  const licenseActive = sub.status === 'active' || trialRunning;
  const hostingActive = trialRunning || hostingPaid;
  const systemActive = licenseActive && hostingActive;
  const licenseActiveHostingExpired = licenseActive && !hostingActive;
  const hostingDaysLeft = hostingPaid ? daysUntil(sub.hostingPaidUntil, now) : 0;
  const hostingDueSoon = !isTrial && hostingPaid && hostingDaysLeft <= HOSTING_DUE_SOON_DAYS;
  const hostingUrgent = hostingDueSoon && hostingDaysLeft <= HOSTING_URGENT_DAYS;
  const trialEndingSoon = trialRunning && trialDaysLeft <= TRIAL_PURCHASE_PROMPT_DAYS;

  let statusMessage: string;
  if (isTrial) {
    statusMessage = trialExpired ? 'Trial expired - upgrade to continue' : `Trial expires in ${trialDaysLeft} days`;
  } else if (sub.status !== 'active') {
    statusMessage = 'Inactive';
  } else if (licenseActiveHostingExpired) {
    statusMessage = 'License active - Hosting expired';
  } else if (hostingDueSoon) {
    statusMessage = `Active - Hosting expires in ${hostingDaysLeft} days`;
  } else {
    // hostingPaid holds here, so the paid-until date is present.
    statusMessage = `Active - Hosting until ${formatDateEnGb(sub.hostingPaidUntil ?? now, options.timeZone ?? 'Africa/Nairobi')}`;
  }

  let nextAction: string | null = null;
  let nextActionUrgent = false;
  // Banner and prompt share one rule: upgrade_soon shows exactly when the 2-day purchase prompt does, so the
  // banner never tells the owner something the subscription screen does not.
  let banner: SubscriptionBanner | null = null;
  if (trialExpired) {
    nextAction = 'Purchase the POS (KSh 30,000) to continue';
    nextActionUrgent = true;
    banner = 'upgrade';
  } else if (trialEndingSoon) {
    nextAction = `Trial expires in ${trialDaysLeft} days - purchase now to avoid interruption`;
    nextActionUrgent = trialDaysLeft <= HOSTING_URGENT_DAYS;
    banner = 'upgrade_soon';
  } else if (licenseActiveHostingExpired) {
    nextAction = 'Pay yearly hosting fee (KSh 3,500) to reactivate your system';
    nextActionUrgent = true;
    banner = 'pay_hosting';
  } else if (hostingDueSoon) {
    nextAction = `Hosting expires in ${hostingDaysLeft} days - renew now`;
    nextActionUrgent = hostingUrgent;
    banner = 'renew_hosting';
  }

  const relevantExpiry = isTrial ? trialEnd : sub.hostingPaidUntil;
  const reminderDate = relevantExpiry
    ? new Date(relevantExpiry.getTime() - REMINDER_DAYS_BEFORE_EXPIRY * DAY_MS)
    : null;

  return {
    isTrial, trialExpired, trialDaysLeft, licenseActive, hostingActive, systemActive,
    licenseActiveHostingExpired, hostingDaysLeft, hostingDueSoon, hostingUrgent,
    statusMessage, nextAction, nextActionUrgent, banner, reminderDate,
  };
}

export type LimitedResource = 'products' | 'transactions' | 'users' | 'branches';

const LIMIT_FIELD = {
  products: 'maxProducts',
  transactions: 'maxTransactions',
  users: 'maxUsers',
  branches: 'maxBranches',
} as const satisfies Record<LimitedResource, keyof SubscriptionRecord>;

/** The plan's limit of a resource (-1 = unlimited). */
export function planLimit(sub: Pick<SubscriptionRecord, 'maxProducts' | 'maxTransactions' | 'maxUsers' | 'maxBranches'>, resource: LimitedResource): number {
  return sub[LIMIT_FIELD[resource]];
}

export type LimitCheck =
  | { ok: true }
  | { ok: false; code: 'SUBSCRIPTION_NOT_ACTIVE' }
  | { ok: false; code: 'LIMIT_EXCEEDED'; limit: number; usage: number };

/**
 * May the pharmacy add `requested` more of a resource? -1 is unlimited; otherwise requested plus current usage
 * must not exceed the plan limit; an inactive system (licence or hosting) may add nothing (seed 000 section 5).
 */
export function checkLimit(
  sub: SubscriptionRecord | null,
  usage: Record<LimitedResource, number>,
  resource: LimitedResource,
  requested = 1,
  now: Date,
): LimitCheck {
  if (!evaluateSubscription(sub, now).systemActive || !sub) return { ok: false, code: 'SUBSCRIPTION_NOT_ACTIVE' };
  const limit = sub[LIMIT_FIELD[resource]];
  if (limit === UNLIMITED) return { ok: true };
  const current = usage[resource];
  if (current + requested > limit) return { ok: false, code: 'LIMIT_EXCEEDED', limit, usage: current };
  return { ok: true };
}

/** The new hosting paid-until after a yearly payment: one year from the later of now or the current paid-until. */
export function extendHosting(currentPaidUntil: Date | null, now: Date): Date {
  const from = currentPaidUntil && currentPaidUntil.getTime() > now.getTime() ? currentPaidUntil : now;
  return addOneYear(from);
}

/**
 * Upgrade from trial is allowed only during the trial (seed 000 section 4). An expired trial is still a trial:
 * its owner is exactly the one asked to 'Purchase the POS (KSh 30,000) to continue'.
 */
export function assertCanUpgradeFromTrial(sub: SubscriptionRecord | null): 'NOT_IN_TRIAL' | null {
  return sub?.status === 'trial' ? null : 'NOT_IN_TRIAL';
}

/** Paying hosting requires an active licence (seed 000 section 4). */
export function assertCanPayHosting(sub: SubscriptionRecord | null, now: Date): 'NO_ACTIVE_LICENSE' | null {
  return evaluateSubscription(sub, now).licenseActive ? null : 'NO_ACTIVE_LICENSE';
}

/** Counts of the limited resources, from the usage counters. */
export type Usage = Record<LimitedResource, number>;

/** The stored subscription as the API shows it (dates as ISO strings). */
export interface SubscriptionView {
  planId: PlanId;
  status: SubscriptionStatus;
  startDate: string | null;
  trialEndDate: string | null;
  endDate: string | null;
  hostingPaidUntil: string | null;
  maxProducts: number;
  maxTransactions: number;
  maxUsers: number;
  maxBranches: number;
}

/** GET /api/subscription: the stored plan and limits, what it means now (seed 000 sections 4 and 8), and usage. */
export interface SubscriptionOverview {
  subscription: SubscriptionView | null;
  summary: Omit<SubscriptionSummary, 'reminderDate'> & { reminderDate: string | null };
  usage: Usage;
}

const isoDate = z.iso.datetime().nullable();
const count = z.number().int().min(0);
/** A plan limit: -1 is unlimited (seed 000 section 5). */
const limit = z.number().int().min(-1);

/**
 * Usage of the limited resources, from the pharmacy's usage counters (kept in the transaction of every change):
 * products (every product row), active staff members, active branches, and transactions of the period.
 */
export const usageSchema = z.object({ products: count, transactions: count, users: count, branches: count });

export const subscriptionViewSchema = z.object({
  planId: z.enum(['trial', 'standard']),
  status: z.enum(['trial', 'active', 'inactive']),
  startDate: isoDate,
  trialEndDate: isoDate,
  endDate: isoDate,
  hostingPaidUntil: isoDate,
  maxProducts: limit,
  maxTransactions: limit,
  maxUsers: limit,
  maxBranches: limit,
});

export const subscriptionSummarySchema = z.object({
  isTrial: z.boolean(),
  trialExpired: z.boolean(),
  trialDaysLeft: count,
  licenseActive: z.boolean(),
  hostingActive: z.boolean(),
  systemActive: z.boolean(),
  licenseActiveHostingExpired: z.boolean(),
  hostingDaysLeft: count,
  hostingDueSoon: z.boolean(),
  hostingUrgent: z.boolean(),
  /** One of the status messages of seed 000 section 8. */
  statusMessage: z.string(),
  /** One of the next-action prompts of seed 000 section 8, or null when nothing is needed. */
  nextAction: z.string().nullable(),
  nextActionUrgent: z.boolean(),
  banner: z.enum(['upgrade', 'upgrade_soon', 'pay_hosting', 'renew_hosting']).nullable(),
  /** The reminder, 3 days before the trial or hosting ends. */
  reminderDate: isoDate,
});

/** GET /api/subscription (SubscriptionOverview). */
export const subscriptionResponseSchema = z.object({
  subscription: subscriptionViewSchema.nullable(),
  summary: subscriptionSummarySchema,
  usage: usageSchema,
});

/** One pharmacy as the operator's SaaS dashboard lists it (GET /api/admin/pharmacies). */
export const adminPharmacySchema = z.object({
  id: z.string(),
  name: z.string(),
  isDemo: z.boolean(),
  ownerEmail: z.string().nullable(),
  createdAt: z.iso.datetime(),
  plan: z.enum(['trial', 'standard']).nullable(),
  subscription: z.object({
    status: z.enum(['trial', 'active', 'expired', 'inactive', 'none']),
    storedStatus: z.enum(['trial', 'active', 'inactive']).nullable(),
    statusMessage: z.string(),
    systemActive: z.boolean(),
    trialEndDate: isoDate,
    hostingPaidUntil: isoDate,
    limits: z.object({ maxProducts: limit, maxTransactions: limit, maxUsers: limit, maxBranches: limit }).nullable(),
  }),
  usage: usageSchema,
});
export type AdminPharmacy = z.infer<typeof adminPharmacySchema>;
export const adminPharmacyListResponseSchema = z.object({ pharmacies: z.array(adminPharmacySchema) });
