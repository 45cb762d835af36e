import { checkLimit, type LimitedResource } from '@pharmapoint/domain/subscription';
import type { Queryable } from '../../db/database.ts';
import { AppError } from '../../platform/errors.ts';
import { countUsage, loadSubscription } from './subscription.repository.ts';

/**
 * Throws LIMIT_EXCEEDED (values limit, usage) or SUBSCRIPTION_NOT_ACTIVE unless the pharmacy may add `requested`
 * more of the resource. Call it inside the write's own transaction.
 */
export async function assertWithinPlanLimit(
  q: Queryable,
  pharmacyId: string,
  resource: LimitedResource,
  requested: number,
  now: Date,
): Promise<void> {
  const sub = await loadSubscription(q, pharmacyId, now);
  const result = checkLimit(sub, await countUsage(q, pharmacyId), resource, requested, now);
  if (result.ok) return;
  if (result.code === 'LIMIT_EXCEEDED') throw new AppError('LIMIT_EXCEEDED', { values: { limit: result.limit, usage: result.usage } });
  throw new AppError('SUBSCRIPTION_NOT_ACTIVE');
}
