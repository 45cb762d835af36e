import { z } from 'zod';

/**
 * Kenyan phone numbers: the contact normalisation of seed 001 section 5 and seed 002 section 5 (sales
 * analytics), the expense/contact format, and the mobile money (M-Pesa) rules of seed 002 section 5.
 */

/** Strip all non-digits; a 10-digit number starting with 0 has the 0 replaced by 254; otherwise the digits. */
export function normalizePhone(text: string): string {
  const digits = text.replace(/\D/g, '');
  return digits.length === 10 && digits.startsWith('0') ? `254${digits.slice(1)}` : digits;
}

/**
 * The Kenyan format of expense and contact phones: +254 or 0, then 1 or 7, then 8 digits (seed 001
 * section 5). Spaces and hyphens people type between groups are ignored.
 */
export function isKenyanPhone(text: string): boolean {
  return /^(\+254|0)[17]\d{8}$/.test(text.replace(/[\s-]/g, ''));
}

/** The longest M-Pesa number: 254 plus 9 digits. */
export const MPESA_PHONE_LENGTH = 12;

/** Mobile money phone: digits only, a leading 0 becomes 254, a leading 7 or 1 gets 254, capped at 12 digits. */
export function normalizeMpesaPhone(text: string): string {
  const digits = text.replace(/\D/g, '');
  let normalized = digits;
  if (digits.startsWith('0')) normalized = `254${digits.slice(1)}`;
  else if (digits.startsWith('7') || digits.startsWith('1')) normalized = `254${digits}`;
  return normalized.slice(0, MPESA_PHONE_LENGTH);
}

/** A valid M-Pesa number, once normalised: 254, then 1 or 7, then 8 digits. */
export function isMpesaPhone(text: string): boolean {
  return /^254[17]\d{8}$/.test(normalizeMpesaPhone(text));
}

/** The M-Pesa number shown in groups of three: '254 712 345 678'. */
export function formatMpesaPhone(text: string): string {
  return normalizeMpesaPhone(text).replace(/(\d{3})(?=\d)/g, '$1 ');
}

/**
 * A contact phone as a form or an API takes it (decision 0033): empty (no phone) or a Kenyan number, with a
 * sentence by the field's label. Spaces and hyphens between groups are kept as typed.
 */
export function kenyanPhoneText(label = 'Phone') {
  return z
    .string()
    .trim()
    .max(20, `${label} must be at most 20 characters.`)
    .refine((value) => value === '' || isKenyanPhone(value), `${label} must be a Kenyan number: +254 or 0, then 7 or 1, then 8 digits (e.g. 0712 345 678).`);
}
