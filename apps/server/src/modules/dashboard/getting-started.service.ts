import { showGettingStarted, type GettingStartedResponse } from '@pharmapoint/domain/getting-started';
import type { Queryable } from '../../db/database.ts';
import type { RequestContext } from '../../platform/context.ts';
import { gettingStartedFacts, insertDismissal } from './getting-started.repository.ts';

/** GET /api/dashboard/getting-started: the checklist's steps as the pharmacy's data has them, and whether it shows. */
export async function getGettingStarted(q: Queryable, ctx: RequestContext): Promise<GettingStartedResponse> {
  const { steps, dismissed } = await gettingStartedFacts(q, ctx.pharmacyId);
  return { show: showGettingStarted(steps, dismissed), dismissed, steps };
}

/** POST /api/dashboard/getting-started/dismiss: hides the checklist for every user of the pharmacy, for good. */
export async function dismissGettingStarted(q: Queryable, ctx: RequestContext): Promise<GettingStartedResponse> {
  await insertDismissal(q, ctx.pharmacyId, ctx.userId);
  return getGettingStarted(q, ctx);
}
