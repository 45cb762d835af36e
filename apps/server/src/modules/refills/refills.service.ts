import {
  REFILL_MERGE_WINDOW_DAYS,
  mergeRefillLines,
  refillDueRange,
  refillStatus,
  daysBetween,
  shiftDate,
  type RefillCompletion,
  type RefillReminder,
  type RefillReminderListQuery,
  type RefillReminderListResponse,
} from '@pharmapoint/domain/refills';
import { businessDate } from '@pharmapoint/domain/stock';
import type { Queryable } from '../../db/database.ts';
import { canSeeBranch, type RequestContext } from '../../platform/context.ts';
import { AppError } from '../../platform/errors.ts';
import { audit } from '../audit/audit.service.ts';
import { loadSettings, settingsTimeZone } from '../settings/settings.service.ts';
import { withReminderState } from './refill-sms.service.ts';
import { findOpenRefillLines, findPharmacyName, lockOpenRefillLinesOf, lockRefillLine, markRefillLinesCompleted, type RefillLineRow } from './refills.repository.ts';

/**
 * Refill alerts: the open refill reminders set on sale lines at the till, for the back office's list and the
 * dashboard's card (one source), with the days left from the pharmacy's today and the status (overdue, due,
 * upcoming within 7 days, later); duplicates of a client and product due within 24 hours are one alert.
 */
export async function listRefillReminders(q: Queryable, ctx: RequestContext, query: RefillReminderListQuery): Promise<RefillReminderListResponse> {
  if (query.branchId && !canSeeBranch(ctx, query.branchId)) throw new AppError('BRANCH_NOT_ALLOWED');
  const { settings } = await loadSettings(q, ctx.pharmacyId);
  const today = businessDate(ctx.now, settingsTimeZone(settings));
  const range = refillDueRange(query.due);
  // A group's first line decides its status: lines up to a merge window beyond the range are read so a group is whole.
  const rows = await findOpenRefillLines(q, ctx.pharmacyId, {
    branchIds: ctx.visibleBranchIds,
    branchId: query.branchId,
    clientId: query.clientId,
    search: query.search || undefined,
    fromDate: range.min === null ? null : shiftDate(today, range.min - REFILL_MERGE_WINDOW_DAYS),
    toDate: range.max === null ? null : shiftDate(today, range.max + REFILL_MERGE_WINDOW_DAYS),
  });
  const alerts = mergeRefillLines(rows)
    .map((row) => toReminder(row, today))
    .filter((r) => (range.min === null || r.daysLeft >= range.min) && (range.max === null || r.daysLeft <= range.max));
  return {
    items: await withReminderState(q, ctx.pharmacyId, alerts.slice(query.offset, query.offset + query.limit)),
    total: alerts.length,
    today,
    pharmacyName: settings.pharmacyName.trim() || (await findPharmacyName(q, ctx.pharmacyId)) || 'PharmaPoint',
    limit: query.limit,
    offset: query.offset,
  };
}

function toReminder(row: RefillLineRow & { lines: { saleId: string; line: number }[] }, today: string): RefillReminder {
  const daysLeft = daysBetween(today, row.refillDate);
  return {
    saleId: row.saleId,
    line: row.line,
    invoiceNumber: row.invoiceNumber,
    saleDate: row.saleDate,
    branchId: row.branchId,
    branchName: row.branchName,
    client: { id: row.clientId, name: row.clientName, phone: row.clientPhone },
    productId: row.productId,
    productName: row.productName,
    refillDays: row.refillDays,
    refillDate: row.refillDate,
    daysLeft,
    status: refillStatus(daysLeft),
    lines: row.lines,
  };
}

/**
 * Marks a refill completed: the line and the duplicates merged into its alert get the completion date and leave the
 * list. A refill already completed answers its first completion (nothing written again). Another pharmacy's line, a
 * line without a refill or of a branch the caller cannot see is not found.
 */
export async function completeRefill(q: Queryable, ctx: RequestContext, saleId: string, line: number): Promise<RefillCompletion> {
  const target = await lockRefillLine(q, ctx.pharmacyId, saleId, line);
  if (!target || !canSeeBranch(ctx, target.branchId)) throw new AppError('REFILL_NOT_FOUND');
  if (target.completedAt !== null) return { completedAt: target.completedAt, lines: [{ saleId, line }] };
  const open = await lockOpenRefillLinesOf(q, ctx.pharmacyId, target.clientId, target.productId, ctx.visibleBranchIds);
  const group = mergeRefillLines(open).find((g) => g.lines.some((l) => l.saleId === saleId && l.line === line));
  const lines = group?.lines ?? [{ saleId, line }];
  await markRefillLinesCompleted(q, ctx.pharmacyId, lines, ctx.now);
  await audit(q, ctx, 'refill.complete', 'sale', saleId, { line, refillDate: target.refillDate }, { lines, completedAt: ctx.now.toISOString() });
  return { completedAt: ctx.now.toISOString(), lines };
}
