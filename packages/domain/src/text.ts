import { z } from 'zod';

/**
 * Text and dates as every schema should take them (issue 7, bad input): text that PostgreSQL can store (no NUL
 * character, no lone UTF-16 surrogate), trimmed, with a maximum length; dates that exist on the calendar.
 */

/** A NUL character or half of a UTF-16 surrogate pair: text that cannot be stored or turned into valid UTF-8. */
// eslint-disable-next-line no-control-regex -- the NUL character is exactly what this pattern exists to find
export const UNSTORABLE_CHARACTER = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const UNSTORABLE_TEXT_MESSAGE = 'The text contains a character that cannot be saved. Remove it and try again.';

/** Can this text be stored as it is? */
export function isStorableText(value: string): boolean {
  return !UNSTORABLE_CHARACTER.test(value);
}

/** Trimmed text of at most `max` characters that can be stored; `label` names the field in the messages. */
export function text(max: number, label = 'This field') {
  return z
    .string()
    .trim()
    .max(max, `${label} must be at most ${max} characters.`)
    .refine(isStorableText, UNSTORABLE_TEXT_MESSAGE);
}

/** The nil and the max UUID: placeholders that a random UUID never is, so never an id a client made. */
export const PLACEHOLDER_UUIDS: readonly string[] = ['00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff'];
export const PLACEHOLDER_UUID_MESSAGE = 'The id must be a random UUID, not the nil or max UUID.';

/**
 * An id a client makes for what it creates (a sale, a suspended sale, a return, a customer payment; also their
 * Idempotency-Key): a UUID, and not the nil or max UUID, which zod's uuid() accepts.
 */
export const clientMadeIdSchema = z.uuid().refine((value) => !PLACEHOLDER_UUIDS.includes(value.toLowerCase()), PLACEHOLDER_UUID_MESSAGE);

/** Is 'YYYY-MM-DD' a day of the calendar (2026-02-30 is not)? */
export function isCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day && year >= 1900 && year <= 2999;
}

/** A calendar date as 'YYYY-MM-DD'. */
export function calendarDate(label = 'The date') {
  return z.string().refine(isCalendarDate, `${label} must be a real date (YYYY-MM-DD).`);
}

/** Anything a client sent, walked for text that cannot be stored: the path of the first such string, or null. */
export function findUnstorableText(value: unknown, path: string[] = []): string | null {
  const found = unstorableAt(value);
  if (found === null) return null;
  // The segments come back innermost first; the path is built once, for the string found.
  return [...path, ...found.reverse()].join('.') || '(value)';
}

/** The path (innermost segment first) to the first string that cannot be stored, or null. Builds nothing on the way. */
function unstorableAt(value: unknown): string[] | null {
  if (typeof value === 'string') return isStorableText(value) ? null : [];
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = unstorableAt(value[i]);
      if (found) return (found.push(String(i)), found);
    }
    return null;
  }
  if (value && typeof value === 'object') {
    for (const key of Object.keys(value)) {
      if (!isStorableText(key)) return ['(key)'];
      const found = unstorableAt((value as Record<string, unknown>)[key]);
      if (found) return (found.push(key), found);
    }
  }
  return null;
}
