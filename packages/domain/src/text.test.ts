import { describe, expect, it } from 'vitest';
import { calendarDate, findUnstorableText, isCalendarDate, isStorableText, text } from './text.ts';

describe('text that can be stored', () => {
  it('refuses NUL and lone surrogates, accepts pairs and ordinary text', () => {
    expect(isStorableText('Amoxicillin 500mg')).toBe(true);
    expect(isStorableText('Dawa 💊')).toBe(true);
    expect(isStorableText('a\u0000b')).toBe(false);
    expect(isStorableText('a\uD800b')).toBe(false);
    expect(isStorableText('a\uDC00b')).toBe(false);
    expect(isStorableText('\uD83D')).toBe(false);
  });
  it('trims, bounds the length and names the field', () => {
    const name = text(5, 'Name');
    expect(name.parse('  abc ')).toBe('abc');
    expect(name.safeParse('abcdef').error?.issues[0]?.message).toBe('Name must be at most 5 characters.');
    expect(name.safeParse('a\u0000').success).toBe(false);
  });
  it('finds the first unstorable string anywhere in a body', () => {
    expect(findUnstorableText({ items: [{ name: 'ok' }, { name: 'x\u0000' }] })).toBe('items.1.name');
    expect(findUnstorableText({ a: ['fine', 1, null] })).toBeNull();
  });
});

describe('calendar dates', () => {
  it('accepts real days only', () => {
    expect(isCalendarDate('2026-02-28')).toBe(true);
    expect(isCalendarDate('2028-02-29')).toBe(true);
    expect(isCalendarDate('2026-02-29')).toBe(false);
    expect(isCalendarDate('2026-02-30')).toBe(false);
    expect(isCalendarDate('2026-13-01')).toBe(false);
    expect(isCalendarDate('26-01-01')).toBe(false);
    expect(calendarDate('Expiry date').safeParse('2026-04-31').error?.issues[0]?.message).toBe('Expiry date must be a real date (YYYY-MM-DD).');
  });
});
