/** A pharmacy's business date: the calendar day in its own time zone (a module without imports). */

/** One formatter per time zone: building an Intl.DateTimeFormat was the largest app function in a sale's CPU profile. */
const businessDateFormats = new Map<string, Intl.DateTimeFormat>();

/** The business date of the last whole minute asked for, per time zone (businessDate). */
const businessDateMinutes = new Map<string, { minute: number; date: string }>();
const MINUTE_MS = 60_000;

/**
 * A pharmacy's business date ('YYYY-MM-DD') at `now`: the calendar day in the pharmacy's own time zone (its settings'
 * timezone). Every rule that asks what day it is (what has expired, the business day of a sale or an expense, the
 * backdating window, report days) asks this function with the same zone, so the till, the ledger and the sale never
 * disagree near midnight. There is no default zone: a caller must name the pharmacy's. An unknown zone throws. A sale asks
 * for it twice and every stock change once, and formatting a date in a zone costs more than the rest of the call: the
 * date is kept for the whole minute of `now` when the minute's first and last millisecond have it too (a zone's
 * date never changes and changes back within a minute), and formatted again only for another minute.
 */
export function businessDate(now: Date, timeZone: string): string {
  let format = businessDateFormats.get(timeZone);
  if (!format) {
    // en-CA formats as YYYY-MM-DD.
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    businessDateFormats.set(timeZone, format);
  }
  const minute = Math.floor(now.getTime() / MINUTE_MS);
  const known = businessDateMinutes.get(timeZone);
  if (known !== undefined && known.minute === minute) return known.date;
  const date = format.format(now);
  const first = minute * MINUTE_MS;
  if (format.format(first) === date && format.format(first + MINUTE_MS - 1) === date) businessDateMinutes.set(timeZone, { minute, date });
  return date;
}
