import { formatMoney as formatDomainMoney } from '@pharmapoint/domain/money';
import { businessDate } from '@pharmapoint/domain/business-date';

/**
 * Display formatting, the one place: money from integer cents (the domain's formatter), numbers, dates and times in
 * the pharmacy's locale settings (seed 000 section 3: dateFormat and numberFormat locale tags, timezone; defaults
 * en-GB, en-KE and Africa/Nairobi of section 9). The signed-in shell calls setFormatLocale when the settings load.
 */
export interface FormatLocale {
  /** Locale tag for dates, e.g. en-GB. */
  dateFormat: string;
  /** Locale tag for numbers, e.g. en-KE. */
  numberFormat: string;
  /** IANA time zone, e.g. Africa/Nairobi. */
  timezone: string;
}

export const DEFAULT_FORMAT_LOCALE: FormatLocale = { dateFormat: 'en-GB', numberFormat: 'en-KE', timezone: 'Africa/Nairobi' };

interface Formatters {
  number: Intl.NumberFormat;
  date: Intl.DateTimeFormat;
  calendarDate: Intl.DateTimeFormat;
  dateTime: Intl.DateTimeFormat;
  time: Intl.DateTimeFormat;
}

function build(locale: FormatLocale): Formatters {
  const date = { day: '2-digit', month: 'short', year: 'numeric' } as const;
  return {
    number: new Intl.NumberFormat(locale.numberFormat),
    date: new Intl.DateTimeFormat(locale.dateFormat, { ...date, timeZone: locale.timezone }),
    // A calendar date (YYYY-MM-DD: an expiry, a business day) is the same day everywhere: never shifted by a zone.
    calendarDate: new Intl.DateTimeFormat(locale.dateFormat, { ...date, timeZone: 'UTC' }),
    dateTime: new Intl.DateTimeFormat(locale.dateFormat, { ...date, hour: '2-digit', minute: '2-digit', timeZone: locale.timezone }),
    time: new Intl.DateTimeFormat(locale.dateFormat, { hour: '2-digit', minute: '2-digit', timeZone: locale.timezone }),
  };
}

let current: FormatLocale = DEFAULT_FORMAT_LOCALE;
let formatters = build(current);

/** Use the pharmacy's locale settings from now on; a tag or zone the browser does not know keeps the default. */
export function setFormatLocale(locale: Partial<FormatLocale>): void {
  const next = { ...DEFAULT_FORMAT_LOCALE, ...Object.fromEntries(Object.entries(locale).filter(([, v]) => typeof v === 'string' && v)) };
  if (next.dateFormat === current.dateFormat && next.numberFormat === current.numberFormat && next.timezone === current.timezone) return;
  try {
    formatters = build(next);
    current = next;
  } catch {
    formatters = build(DEFAULT_FORMAT_LOCALE);
    current = DEFAULT_FORMAT_LOCALE;
  }
}

export function formatLocale(): FormatLocale {
  return current;
}

/** The pharmacy's business date (YYYY-MM-DD) at `now`: the day in its time zone, as the server counts it. */
export function pharmacyToday(now: Date = new Date()): string {
  return businessDate(now, current.timezone);
}

/** "KSh 1,234.50" from 123450 cents: the domain's formatter (integer arithmetic throughout); nothing shown is 0. */
export function formatMoney(cents: number | bigint | null | undefined, currency = 'KSh'): string {
  const value = typeof cents === 'bigint' ? Number(cents) : (cents ?? 0);
  const text = formatDomainMoney(Math.abs(value), { currencySymbol: currency });
  return value < 0 ? `-${text}` : text;
}

/** 1,234 */
export function formatNumber(value: number | null | undefined): string {
  return formatters.number.format(value ?? 0);
}

/** 45.67% */
export function formatPercent(value: number | null | undefined, decimals = 2): string {
  return `${(value ?? 0).toFixed(decimals)}%`;
}

const CALENDAR_DATE = /^\d{4}-\d{2}-\d{2}$/;

function toDate(value: string | number | Date | null | undefined): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** 05 Mar 2026 (or '' for nothing); a YYYY-MM-DD calendar date is shown as that day in any time zone. */
export function formatDate(value: string | number | Date | null | undefined): string {
  const date = toDate(value);
  if (!date) return '';
  return (typeof value === 'string' && CALENDAR_DATE.test(value) ? formatters.calendarDate : formatters.date).format(date);
}

/** 05 Mar 2026, 14:30 */
export function formatDateTime(value: string | number | Date | null | undefined): string {
  const date = toDate(value);
  return date ? formatters.dateTime.format(date) : '';
}

/** 14:30 */
export function formatTime(value: string | number | Date | null | undefined): string {
  const date = toDate(value);
  return date ? formatters.time.format(date) : '';
}

/** m:ss for countdowns (seed 000 section 4, auto-logout). */
export function formatCountdown(totalSeconds: number): string {
  const seconds = Math.max(0, Math.floor(totalSeconds));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}
