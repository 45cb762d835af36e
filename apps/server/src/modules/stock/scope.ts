import { DEFAULT_MIN_MARGIN_PERCENT } from '@pharmapoint/domain/margins';
import { EXPIRY_ALERT_DAYS } from '@pharmapoint/domain/stock';
import type { Queryable } from '../../db/database.ts';
import type { RequestAuth, RequestContext } from '../../platform/access.ts';
import { AppError } from '../../platform/errors.ts';

/**
 * Which branches a request may read and write for products and stock, and the settings the stock screens use.
 * Users holding branch:view_all or settings:system (admins and owners hold '*') see every branch; others the
 * branches of their membership (allowed_branch_ids; null = every branch).
 */

/** The branch ids the user may see; null = every branch of the pharmacy (computed once in the request context). */
export function visibleBranchIds(ctx: RequestContext, _auth?: RequestAuth | null): readonly string[] | null {
  return ctx.visibleBranchIds;
}

/** May the user see this branch? */
export function canSeeBranch(ctx: RequestContext, _auth: RequestAuth | null, branchId: string): boolean {
  const visible = ctx.visibleBranchIds;
  return visible === null || visible.includes(branchId);
}

/**
 * The branch a request works on: the one asked for, else the session's, else the default branch. 404 for a
 * branch that does not exist in the pharmacy, 403 BRANCH_NOT_ALLOWED for one the user may not see.
 */
export async function resolveBranch(
  q: Queryable,
  ctx: RequestContext,
  auth: RequestAuth | null,
  requested: string | null | undefined,
): Promise<{ id: string; name: string }> {
  let id = requested ?? ctx.branchId ?? null;
  if (!id) {
    const [fallback] = await q.query<{ id: string }>(
      `SELECT id FROM branches WHERE pharmacy_id = $1 AND is_active ORDER BY is_default DESC, created_at, name LIMIT 1`,
      [ctx.pharmacyId],
    );
    id = fallback?.id ?? null;
  }
  if (!id) throw new AppError('NOT_FOUND', { details: { branchId: null } });
  const [branch] = await q.query<{ id: string; name: string }>(`SELECT id, name FROM branches WHERE pharmacy_id = $1 AND id = $2`, [
    ctx.pharmacyId,
    id,
  ]);
  if (!branch) throw new AppError('NOT_FOUND', { details: { branchId: id } });
  if (!canSeeBranch(ctx, auth, branch.id)) throw new AppError('BRANCH_NOT_ALLOWED');
  return branch;
}

/** The settings the stock screens need: default minimum margin (percent), expiry alert days and categories. */
export async function stockSettings(
  q: Queryable,
  pharmacyId: string,
): Promise<{ defaultMinMarginPercent: number; expiryAlertDays: number; categories: string[] }> {
  const [row] = await q.query<{ document: Record<string, unknown> | null }>(`SELECT document FROM settings WHERE pharmacy_id = $1`, [pharmacyId]);
  const doc = row?.document ?? {};
  const margin = Number(doc.defaultMinMargin);
  const alert = Number(doc.expiryAlertDays);
  const categories = Array.isArray(doc.categories) ? doc.categories.filter((c): c is string => typeof c === 'string' && c.trim() !== '') : [];
  return {
    defaultMinMarginPercent: margin > 0 && margin < 100 ? margin : DEFAULT_MIN_MARGIN_PERCENT,
    expiryAlertDays: Number.isInteger(alert) && alert >= 0 ? alert : EXPIRY_ALERT_DAYS,
    categories,
  };
}

/** A timestamp column as ISO 8601 (drivers hand back Date objects or strings). */
export function iso(value: Date | string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

export { likeEscape } from '../../db/sql.ts';
