import {
  evaluateSubscription,
  newStandardSubscription,
  newTrialSubscription,
  planLimit,
  type LimitedResource,
  type PlanId,
  type SubscriptionOverview,
  type SubscriptionRecord,
  type SubscriptionView,
  type Usage,
} from '@pharmapoint/domain/subscription';
import { beforeCommit, type Queryable } from '../../db/database.ts';
import type { RequestContext } from '../../platform/context.ts';
import { AppError, raisedAppError } from '../../platform/errors.ts';
import { pharmacyTimeZone, pharmacyTimeZones } from '../settings/settings.service.ts';
import {
  findSubscriptionsOf,
  findUsage,
  findUsagesOf,
  giveBackUsage,
  insertSubscription,
  insertUsage,
  insertUsageFromRows,
  insertUsageSnapshot,
  latestUsageSnapshot,
  loadSubscription,
  lockSubscription,
  setHostingPaidUntil,
  upgradeSubscription,
  recountUsageFromRows,
  deferTakePlanPlaces,
  takePlanPlaces,
} from './subscription.repository.ts';

type LimitContext = Pick<RequestContext, 'pharmacyId' | 'now'>;

/** The subscription's limit for the resource, or SUBSCRIPTION_NOT_ACTIVE when the system may add nothing. */
async function activeLimit(q: Queryable, ctx: LimitContext, resource: LimitedResource): Promise<number> {
  const sub = await loadSubscription(q, ctx.pharmacyId, ctx.now);
  if (!evaluateSubscription(sub, ctx.now).systemActive) throw new AppError('SUBSCRIPTION_NOT_ACTIVE');
  return planLimit(sub, resource);
}

/** The pharmacy's counters, creating the row from its rows when it has none (a pharmacy made outside createPharmacy). */
async function usageOf(q: Queryable, pharmacyId: string): Promise<Usage> {
  const found = await findUsage(q, pharmacyId);
  if (found) return found;
  await insertUsageFromRows(q, pharmacyId);
  return (await findUsage(q, pharmacyId)) ?? { products: 0, transactions: 0, users: 0, branches: 0 };
}

/**
 * Checks the subscription and takes the places now, in one statement (take_plan_places, migration 0041), or throws
 * SUBSCRIPTION_NOT_ACTIVE or LIMIT_EXCEEDED (values limit, usage), as the statement refused.
 */
async function takePlaces(q: Queryable, ctx: LimitContext, resource: LimitedResource, requested: number): Promise<void> {
  try {
    await takePlanPlaces(q, ctx.pharmacyId, resource, requested, ctx.now, newTrialSubscription(ctx.now));
  } catch (error) {
    throw raisedAppError(error) ?? error;
  }
}

/** Places asked for in a transaction and taken right before it commits, by resource. */
const pendingPlaces = new WeakMap<Queryable, Map<LimitedResource, { requested: number }>>();

/**
 * Takes `requested` places of a resource for a change made in the same transaction, or refuses it with
 * LIMIT_EXCEEDED (values limit, usage) or SUBSCRIPTION_NOT_ACTIVE. Both the subscription and the places are
 * checked at the end of the transaction in ONE statement sent with COMMIT (take_plan_places, migration 0041, through
 * deferWrite: no round trip of its own; decision 0080): the subscription read (is the system active, what is the
 * plan's limit) and one conditional UPDATE of the pharmacy's counters row, so that row's lock is held only for the
 * commit, not for the whole change: two requests of one pharmacy cannot both take the last place (the second waits
 * for the first's row and tests the value it committed), and creates of one pharmacy do not queue behind each
 * other's work (issue 6 item 12). A refusal fails the COMMIT message and rolls the whole change back, so nothing is
 * written, as when the subscription was checked first; it reaches the caller as the database error (SQLSTATE PPL01
 * or PPL02), which platform/errors.ts maps to the same answer (raisedAppError). Several calls in one transaction take
 * their places together (one statement per resource, registered by a commit task once the work is done). Outside a
 * request transaction (no commit hook) the places are taken at once; `requested` 0 checks the subscription at once;
 * both throw the AppError themselves.
 */
export async function assertWithinPlanLimit(q: Queryable, ctx: LimitContext, resource: LimitedResource, requested: number): Promise<void> {
  if (!Number.isInteger(requested) || requested < 0) throw new Error(`requested must be a whole number >= 0, got ${requested}`);
  if (requested === 0) return takePlaces(q, ctx, resource, 0);
  let pending = pendingPlaces.get(q);
  const known = pending?.get(resource);
  if (known) {
    known.requested += requested;
    return;
  }
  try {
    beforeCommit(q, `plan-limit:${resource}`, async () => {
      const entry = pendingPlaces.get(q)?.get(resource);
      if (!entry) return;
      pendingPlaces.get(q)?.delete(resource);
      deferTakePlanPlaces(q, ctx.pharmacyId, resource, entry.requested, ctx.now, newTrialSubscription(ctx.now));
    });
  } catch {
    await takePlaces(q, ctx, resource, requested);
    return;
  }
  if (!pending) pendingPlaces.set(q, (pending = new Map()));
  pending.set(resource, { requested });
}

/**
 * Would `requested` more fit now? The same answer as assertWithinPlanLimit without taking anything (a dry run);
 * only assertWithinPlanLimit in the writing transaction guarantees the places.
 */
export async function assertPlanLimitAllows(q: Queryable, ctx: LimitContext, resource: LimitedResource, requested: number): Promise<void> {
  const limit = await activeLimit(q, ctx, resource);
  const usage = (await usageOf(q, ctx.pharmacyId))[resource];
  if (limit >= 0 && usage + requested > limit) throw new AppError('LIMIT_EXCEEDED', { values: { limit, usage } });
}

/**
 * Gives back `n` places of a resource, in the transaction of the change that frees them: a member or a branch
 * deactivated (a deactivated product keeps its place: products count every product row).
 */
export async function releasePlanUsage(q: Queryable, ctx: Pick<RequestContext, 'pharmacyId'>, resource: LimitedResource, n: number): Promise<void> {
  if (n > 0) await giveBackUsage(q, ctx.pharmacyId, resource, n);
}

/**
 * Starts a new pharmacy's subscription (trial or standard) and its usage counters with what it was created
 * with, in the creating transaction.
 */
export async function startSubscription(
  q: Queryable,
  pharmacyId: string,
  input: { plan: PlanId; now: Date; initializedBy: string | null; method: string; usage: Pick<Usage, 'users' | 'branches'> },
): Promise<void> {
  const sub = input.plan === 'standard' ? newStandardSubscription(input.now) : newTrialSubscription(input.now);
  await insertSubscription(q, pharmacyId, sub, { initializedBy: input.initializedBy, method: input.method });
  await insertUsage(q, pharmacyId, { products: 0, transactions: 0, ...input.usage }, sub.startDate);
}

/**
 * Sets the products, users and branches counters to the pharmacy's rows. For code that writes rows in bulk
 * outside the use cases (the demo seed, test fixtures), never on a request's path.
 */
export async function recountPlanUsage(q: Queryable, pharmacyId: string): Promise<void> {
  await recountUsageFromRows(q, pharmacyId);
}

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export function toSubscriptionView(sub: SubscriptionRecord): SubscriptionView {
  return {
    planId: sub.planId,
    status: sub.status,
    startDate: iso(sub.startDate),
    trialEndDate: iso(sub.trialEndDate),
    endDate: iso(sub.endDate),
    hostingPaidUntil: iso(sub.hostingPaidUntil),
    maxProducts: sub.maxProducts,
    maxTransactions: sub.maxTransactions,
    maxUsers: sub.maxUsers,
    maxBranches: sub.maxBranches,
  };
}

/** The whole overview from a stored subscription (or none), the usage and `now`; the rules are the domain's. */
export function describeSubscription(sub: SubscriptionRecord | null, usage: Usage, now: Date, timeZone: string): SubscriptionOverview {
  const { reminderDate, ...summary } = evaluateSubscription(sub, now, { timeZone });
  return {
    subscription: sub ? toSubscriptionView(sub) : null,
    summary: { ...summary, reminderDate: iso(reminderDate) },
    usage,
  };
}

/** Records the usage when it differs from the latest snapshot, so usage_snapshots holds the history of changes. */
async function recordUsageSnapshot(q: Queryable, pharmacyId: string, usage: Usage): Promise<void> {
  const latest = await latestUsageSnapshot(q, pharmacyId);
  const same =
    latest &&
    latest.products === usage.products &&
    latest.transactions === usage.transactions &&
    latest.users === usage.users &&
    latest.branches === usage.branches;
  if (!same) await insertUsageSnapshot(q, pharmacyId, usage);
}

/**
 * GET /api/subscription: creates the trial when there is none, reads usage from the counters and records a usage
 * snapshot when it changed since the last one.
 */
export async function loadSubscriptionOverview(q: Queryable, ctx: Pick<RequestContext, 'pharmacyId' | 'now'>): Promise<SubscriptionOverview> {
  const sub = await loadSubscription(q, ctx.pharmacyId, ctx.now);
  const usage = await usageOf(q, ctx.pharmacyId);
  await recordUsageSnapshot(q, ctx.pharmacyId, usage);
  return describeSubscription(sub, usage, ctx.now, await pharmacyTimeZone(q, ctx.pharmacyId));
}

/**
 * The overviews of several pharmacies for the platform operator, read-only: a pharmacy without a subscription
 * shows 'No subscription data' (no trial is created by the operator's visit), one without counters zero usage.
 */
export async function overviewsOf(q: Queryable, pharmacyIds: readonly string[], now: Date): Promise<Map<string, SubscriptionOverview>> {
  const subscriptions = await findSubscriptionsOf(q, pharmacyIds);
  const usages = await findUsagesOf(q, pharmacyIds);
  const timeZones = await pharmacyTimeZones(q, pharmacyIds);
  const zero: Usage = { products: 0, transactions: 0, users: 0, branches: 0 };
  return new Map(
    pharmacyIds.map((id) => [
      id,
      describeSubscription(subscriptions.get(id) ?? null, usages.get(id) ?? zero, now, timeZones.get(id) ?? 'Africa/Nairobi'),
    ]),
  );
}

/**
 * May the pharmacy pay this now from /app/subscription (issue 11 item 6)? An upgrade only during a trial ('Not in
 * trial period'), hosting only with a licence ('No active license').
 */
export async function assertSubscriptionPayable(q: Queryable, ctx: Pick<RequestContext, 'pharmacyId' | 'now'>, purpose: 'upgrade' | 'hosting'): Promise<void> {
  const sub = await loadSubscription(q, ctx.pharmacyId, ctx.now);
  const summary = evaluateSubscription(sub, ctx.now);
  if (purpose === 'upgrade' && sub.planId !== 'trial') throw new AppError('SUBSCRIPTION_NOT_IN_TRIAL');
  if (purpose === 'hosting' && (sub.planId !== 'standard' || !summary.licenseActive)) throw new AppError('SUBSCRIPTION_NO_LICENSE');
}

/**
 * A completed M-Pesa payment of the pharmacy, in the payment's transaction (the tenant set): an upgrade makes the
 * trial the standard licence with hosting paid a year from now; hosting extends one year from the later of now and
 * the current paid-until date. Returns false (nothing changed) when it no longer applies. An offline payment the
 * operator records (admin.service recordOfflinePayment) follows the same rule and names its method ('mpesa' when
 * not given).
 */
export async function applySubscriptionPayment(
  q: Queryable,
  pharmacyId: string,
  payment: { purpose: 'upgrade' | 'hosting'; amountCents: number; at: Date; method?: string },
): Promise<boolean> {
  const sub = await lockSubscription(q, pharmacyId);
  if (!sub) return false;
  if (payment.purpose === 'upgrade') {
    if (sub.planId !== 'trial') return false;
    await upgradeSubscription(q, pharmacyId, newStandardSubscription(payment.at), payment);
    return true;
  }
  const from = sub.hostingPaidUntil && sub.hostingPaidUntil.getTime() > payment.at.getTime() ? sub.hostingPaidUntil : payment.at;
  const until = new Date(from.getTime());
  until.setUTCFullYear(until.getUTCFullYear() + 1);
  await setHostingPaidUntil(q, pharmacyId, until, payment);
  return true;
}
