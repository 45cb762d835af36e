import { formatMoney as formatDomainMoney } from '@pharmapoint/domain/money';

/** Display formatting: money from integer cents (KSh), dates and times in en-GB. */

const numberFormatter = new Intl.NumberFormat('en-GB');
const dateFormatter = new Intl.DateTimeFormat('en-GB', { day: '2-digit', month: 'short', year: 'numeric' });
const dateTimeFormatter = new Intl.DateTimeFormat('en-GB', { day: '2-digit', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });
const timeFormatter = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit' });

/** "KSh 1,234.50" from 123450 cents: the domain's formatter (integer arithmetic throughout); nothing shown is 0. */
export function formatMoney(cents: number | bigint | null | undefined, currency = 'KSh'): string {
  const value = typeof cents === 'bigint' ? Number(cents) : (cents ?? 0);
  const text = formatDomainMoney(Math.abs(value), { currencySymbol: currency });
  return value < 0 ? `-${text}` : text;
}

/** 1,234 */
export function formatNumber(value: number | null | undefined): string {
  return numberFormatter.format(value ?? 0);
}

/** 45.67% */
export function formatPercent(value: number | null | undefined, decimals = 2): string {
  return `${(value ?? 0).toFixed(decimals)}%`;
}

function toDate(value: string | number | Date | null | undefined): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** 05 Mar 2026 (or '' for nothing). */
export function formatDate(value: string | number | Date | null | undefined): string {
  const date = toDate(value);
  return date ? dateFormatter.format(date) : '';
}

/** 05 Mar 2026, 14:30 */
export function formatDateTime(value: string | number | Date | null | undefined): string {
  const date = toDate(value);
  return date ? dateTimeFormatter.format(date) : '';
}

/** 14:30 */
export function formatTime(value: string | number | Date | null | undefined): string {
  const date = toDate(value);
  return date ? timeFormatter.format(date) : '';
}

/** m:ss for countdowns (seed 000 section 4, auto-logout). */
export function formatCountdown(totalSeconds: number): string {
  const seconds = Math.max(0, Math.floor(totalSeconds));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}
