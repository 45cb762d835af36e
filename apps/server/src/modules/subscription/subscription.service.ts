import { DEFAULT_SETTINGS } from '@pharmapoint/domain/settings';
import {
  checkLimit,
  evaluateSubscription,
  type LimitedResource,
  type SubscriptionOverview,
  type SubscriptionRecord,
  type SubscriptionView,
} from '@pharmapoint/domain/subscription';
import type { Queryable } from '../../db/database.ts';
import type { RequestContext } from '../../platform/context.ts';
import { AppError } from '../../platform/errors.ts';
import { countUsage, loadSubscription, recordUsageSnapshot, type Usage } from './subscription.repository.ts';

/**
 * Throws LIMIT_EXCEEDED (values limit, usage) or SUBSCRIPTION_NOT_ACTIVE unless the pharmacy may add `requested`
 * more of the resource. Call it inside the write's own transaction, before the rows it counts change.
 */
export async function assertWithinPlanLimit(
  q: Queryable,
  ctx: Pick<RequestContext, 'pharmacyId' | 'now'>,
  resource: LimitedResource,
  requested: number,
): Promise<void> {
  const { pharmacyId, now } = ctx;
  // Locked until the write commits: two requests of one pharmacy cannot both take the last free place.
  const sub = await loadSubscription(q, pharmacyId, now, true);
  const result = checkLimit(sub, await countUsage(q, pharmacyId), resource, requested, now);
  if (result.ok) return;
  if (result.code === 'LIMIT_EXCEEDED') throw new AppError('LIMIT_EXCEEDED', { values: { limit: result.limit, usage: result.usage } });
  throw new AppError('SUBSCRIPTION_NOT_ACTIVE');
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

/** The whole overview from a stored subscription (or none), the counted usage and `now`; the rules are the domain's. */
export function describeSubscription(sub: SubscriptionRecord | null, usage: Usage, now: Date, timeZone: string): SubscriptionOverview {
  const { reminderDate, ...summary } = evaluateSubscription(sub, now, { timeZone });
  return {
    subscription: sub ? toSubscriptionView(sub) : null,
    summary: { ...summary, reminderDate: iso(reminderDate) },
    usage,
  };
}

const FALLBACK_TIME_ZONE = DEFAULT_SETTINGS.timezone;

/** A time zone Intl knows, else the default one (Africa/Nairobi). */
function usableTimeZone(zone: string | null | undefined): string {
  if (!zone) return FALLBACK_TIME_ZONE;
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: zone });
    return zone;
  } catch {
    return FALLBACK_TIME_ZONE;
  }
}

/** The pharmacies' time zones from their settings (for 'Active - Hosting until {date}'); the default when unusable. */
export async function pharmacyTimeZones(q: Queryable, pharmacyIds: readonly string[]): Promise<Map<string, string>> {
  const rows = await q.query<{ pharmacy_id: string; timezone: string | null }>(
    `SELECT pharmacy_id, document->>'timezone' AS timezone FROM settings WHERE pharmacy_id = ANY ($1::text[])`,
    [pharmacyIds],
  );
  const found = new Map(rows.map((row) => [row.pharmacy_id, row.timezone]));
  return new Map(pharmacyIds.map((id) => [id, usableTimeZone(found.get(id))]));
}

/** One pharmacy's time zone (see pharmacyTimeZones). */
export async function pharmacyTimeZone(q: Queryable, pharmacyId: string): Promise<string> {
  return (await pharmacyTimeZones(q, [pharmacyId])).get(pharmacyId) ?? FALLBACK_TIME_ZONE;
}

/**
 * The tenant's subscription overview, inside the caller's transaction: creates the trial when there is none,
 * counts usage from real rows and records a usage snapshot when the counts changed since the last one.
 */
export async function loadSubscriptionOverview(q: Queryable, pharmacyId: string, now: Date): Promise<SubscriptionOverview> {
  const sub = await loadSubscription(q, pharmacyId, now);
  const usage = await countUsage(q, pharmacyId);
  await recordUsageSnapshot(q, pharmacyId, usage);
  return describeSubscription(sub, usage, now, await pharmacyTimeZone(q, pharmacyId));
}
