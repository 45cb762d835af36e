import { businessDate } from '@pharmapoint/domain/stock';
import type { Queryable } from '../../db/database.ts';
import type { RequestContext } from '../../platform/context.ts';
import { resolveBranch, stockSettings } from '../stock/stock.service.ts';
import type { CatalogueCache, CatalogueEntry } from './pos.cache.ts';
import { branchCatalogueJson, branchCatalogueVersion } from './pos.repository.ts';

/**
 * GET /api/pos/catalogue: the till's catalogue of a branch (the one asked for, else the session's), columnar
 * (decision 0024), as the JSON text of a PosCatalogueResponse. 404 for a branch of another pharmacy, 403
 * BRANCH_NOT_ALLOWED for one the user may not work in: checked on every request, before any cached answer is looked
 * at. With a cache (decisions 0064, 0072) the answer is the entry of the branch's current version when there is one, else
 * built and kept; `at` is then when it was built (nothing it was read from has changed since).
 */
export async function branchCatalogue(
  q: Queryable,
  ctx: RequestContext,
  input: { branchId?: string | undefined; cache?: CatalogueCache | null },
): Promise<CatalogueEntry | string> {
  const branch = await resolveBranch(q, ctx, input.branchId);
  const settings = await stockSettings(q, ctx);
  const today = businessDate(ctx.now, settings.timeZone);
  const defaultMinMarginBasisPoints = Math.round(settings.defaultMinMarginPercent * 100);
  const cache = input.cache ?? null;
  let key = '';
  if (cache) {
    // Read before the answer's own statement: the answer is never older than its key.
    const version = await branchCatalogueVersion(q, { pharmacyId: ctx.pharmacyId, branchId: branch.id });
    key = JSON.stringify([ctx.pharmacyId, branch.id, today, defaultMinMarginBasisPoints, version]);
    const hit = cache.get(key);
    if (hit) return hit;
  }
  const body = await branchCatalogueJson(q, {
    pharmacyId: ctx.pharmacyId,
    branchId: branch.id,
    today,
    defaultMinMarginBasisPoints,
    at: ctx.now.toISOString(),
  });
  return cache ? cache.put(key, ctx.pharmacyId, body) : body;
}
