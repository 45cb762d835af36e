import { z } from 'zod';
import { addDays, addMonths } from './sales-history.ts';
import { calendarDate } from './text.ts';

/**
 * The date range of a back-office report, in the pharmacy's business dates: both ends included, the end on or after
 * the start, at most five years long. A report given no range covers the last 30 days up to today.
 */

/** The longest range a report answers: five years (the end at most the same day five years after the start). */
export const MAX_REPORT_RANGE_YEARS = 5;
/** The default range of a report: the 30 days that end today. */
export const DEFAULT_REPORT_DAYS = 30;

export const REPORT_RANGE_MESSAGES = {
  endBeforeStart: 'The end date must be on or after the start date.',
  tooLong: 'Choose a date range of at most 5 years.',
} as const;

/** The problem of a range, or null: an end before the start, or more than five years. */
export function reportRangeProblem(from: string | undefined, to: string | undefined): string | null {
  if (!from || !to) return null;
  if (to < from) return REPORT_RANGE_MESSAGES.endBeforeStart;
  if (to > addMonths(from, MAX_REPORT_RANGE_YEARS * 12)) return REPORT_RANGE_MESSAGES.tooLong;
  return null;
}

/** The range a report covers: what was asked, the missing ends filled from today (the last 30 days by default). */
export function resolveReportRange(range: { from?: string | undefined; to?: string | undefined }, today: string): { from: string; to: string } {
  const to = range.to ?? (range.from && range.from > today ? range.from : today);
  const from = range.from ?? addDays(to, -(DEFAULT_REPORT_DAYS - 1));
  return { from, to };
}

/** The from/to fields of a report's query. */
export const reportRangeFields = {
  from: calendarDate('The start date').optional(),
  to: calendarDate('The end date').optional(),
};

/** Adds the range rule to a query schema that has from/to (the message at `to`). */
export function refineReportRange<T extends { from?: string | undefined; to?: string | undefined }>(query: T, ctx: z.RefinementCtx): void {
  const problem = reportRangeProblem(query.from, query.to);
  if (problem) ctx.addIssue({ code: 'custom', path: ['to'], message: problem });
}

/** Page size of the back-office reports' tables. */
export const REPORT_PAGE_SIZE = 25;
export const reportPageFields = {
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(REPORT_PAGE_SIZE),
};
