import { businessDate } from '@pharmapoint/domain/business-date';
import { DEFAULT_FORMAT_LOCALE } from '@/lib/format';
/** Today as YYYY-MM-DD in the pharmacy's time zone (the business day the server checks the sale date against). */
export function businessToday(timeZone: string | undefined, now: Date = new Date()): string {
  try {
    return businessDate(now, timeZone || DEFAULT_FORMAT_LOCALE.timezone);
  } catch {
    return businessDate(now, DEFAULT_FORMAT_LOCALE.timezone);
  }
}

/** The date `days` before a YYYY-MM-DD date. */
export function daysBefore(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
}
