/**
 * Money as integer cents (ARCHITECTURE: never floats in storage or arithmetic). Rounding rule everywhere here:
 * half away from zero (1.5 -> 2, -1.5 -> -2), the rule a till customer expects; banker's rounding would surprise.
 */

/** Currencies whose amounts are rounded to whole units (seed 001 section 9). */
export const WHOLE_UNIT_CURRENCIES = ['KES', 'UGX', 'TZS', 'NGN', 'JPY', 'KRW'] as const;

const SYMBOLS: Record<string, string> = { KES: 'KSh' };

/** Integer division rounded half away from zero; both arguments are integers, the divisor positive. */
function divideRounded(numerator: number, divisor: number): number {
  const remainder = numerator % divisor;
  const quotient = (numerator - remainder) / divisor;
  if (Math.abs(remainder) * 2 >= divisor) return quotient + Math.sign(numerator);
  return quotient;
}

/** Round a number to the nearest integer, half away from zero. */
export function roundHalfAwayFromZero(value: number): number {
  return Math.sign(value) * Math.round(Math.abs(value));
}

/** Round an amount to what its currency can pay: whole units for KES, UGX, TZS, NGN, JPY, KRW; cents otherwise. */
export function roundForCurrency(cents: number, currency: string): number {
  const whole = (WHOLE_UNIT_CURRENCIES as readonly string[]).includes(currency.toUpperCase());
  return whole ? divideRounded(Math.round(cents), 100) * 100 : Math.round(cents);
}

export interface MoneyFormat {
  currencySymbol?: string;
  currency?: string;
  decimalPlaces?: number;
  thousandsSeparator?: string;
  decimalSeparator?: string;
}

/**
 * Format cents for people: 'KSh 1,234.50'. Money is shown with exactly 2 decimals by default (seed 002
 * section 9); fewer decimals round half away from zero, more pad with zeros.
 */
export function formatMoney(cents: number, options: MoneyFormat = {}): string {
  const symbol = options.currencySymbol ?? (options.currency ? (SYMBOLS[options.currency.toUpperCase()] ?? options.currency) : 'KSh');
  const decimals = Math.max(0, Math.min(6, Math.trunc(options.decimalPlaces ?? 2)));
  const thousands = options.thousandsSeparator ?? ',';
  const point = options.decimalSeparator ?? '.';
  const whole = Math.round(cents);
  // Work in the smallest unit shown: fewer than 2 decimals round, more than 2 append zeros.
  const scaled = decimals <= 2 ? divideRounded(whole, 10 ** (2 - decimals)) : whole;
  const digits = String(Math.abs(scaled)).padStart((decimals <= 2 ? decimals : 2) + 1, '0');
  const shownDecimals = decimals <= 2 ? decimals : 2;
  const integerPart = digits.slice(0, digits.length - shownDecimals);
  const fraction = (shownDecimals > 0 ? digits.slice(digits.length - shownDecimals) : '') + '0'.repeat(Math.max(0, decimals - 2));
  const grouped = integerPart.replace(/\B(?=(\d{3})+(?!\d))/g, thousands);
  const sign = scaled < 0 ? '-' : '';
  const amount = decimals > 0 ? `${grouped}${point}${fraction}` : grouped;
  return `${sign}${symbol ? `${symbol} ` : ''}${amount}`;
}

/**
 * Read an amount typed by a person into cents: '1,234.5' -> 123450, '1234' -> 123400. Commas must group
 * thousands; at most 2 decimals. Negative amounts and anything else answer null.
 */
export function parseMoneyToCents(text: string): number | null {
  const trimmed = text.trim();
  const match = /^(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?$/.exec(trimmed);
  if (!match) return null;
  const units = Number((match[1] ?? '').replaceAll(',', ''));
  const fraction = Number((match[2] ?? '').padEnd(2, '0'));
  const cents = units * 100 + fraction;
  return Number.isSafeInteger(cents) ? cents : null;
}

/**
 * A percentage of an amount in cents, rounded half away from zero to the cent: 16 % of 1,005 cents is 161.
 * The percent is taken to 4 decimal places so the arithmetic stays in integers.
 */
export function percentOfCents(cents: number, percent: number): number {
  const scaledPercent = Math.round(percent * 10_000);
  return divideRounded(Math.round(cents) * scaledPercent, 1_000_000);
}
