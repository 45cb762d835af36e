import { businessDate } from '@pharmapoint/domain/stock';
import type { Queryable } from '../../db/database.ts';
import type { RequestContext } from '../../platform/context.ts';
import { resolveBranch, stockSettings } from '../stock/stock.service.ts';
import { branchCatalogueJson } from './pos.repository.ts';

/**
 * GET /api/pos/catalogue: the till's catalogue of a branch (the one asked for, else the session's), columnar
 * (decision 0024), as the JSON text of a PosCatalogueResponse. 404 for a branch of another pharmacy, 403
 * BRANCH_NOT_ALLOWED for one the user may not work in.
 */
export async function branchCatalogue(q: Queryable, ctx: RequestContext, input: { branchId?: string | undefined }): Promise<string> {
  const branch = await resolveBranch(q, ctx, input.branchId);
  const settings = await stockSettings(q, ctx);
  return branchCatalogueJson(q, {
    pharmacyId: ctx.pharmacyId,
    branchId: branch.id,
    today: businessDate(ctx.now),
    defaultMinMarginBasisPoints: Math.round(settings.defaultMinMarginPercent * 100),
    at: ctx.now.toISOString(),
  });
}
