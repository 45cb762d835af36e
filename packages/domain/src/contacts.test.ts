import { describe, expect, it } from 'vitest';
import { contactCreditDays, contactFormSchema, creditTermsProblem, DEFAULT_CREDIT_DAYS, newClientFormSchema, parseContactCsvRow, parseCreditTerms } from './contacts.ts';

/** A small seeded generator, so a failing case can be replayed. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

describe('supplier credit terms (seed 002 section 5, Supplier report)', () => {
  it.each([
    ['30 days', 30],
    ['1 day', 1],
    ['45d', 45],
    ['45 D', 45],
    ['2 months', 60],
    ['1 Month', 30],
    ['3m', 90],
    ['net 60', 60],
    ['Net60', 60],
    ['net 14 days', 14],
    ['21', 21],
    ['  7  ', 7],
    [14, 14],
  ] as const)('reads %j as %i days', (terms, days) => {
    expect(parseCreditTerms(terms)).toBe(days);
  });

  it.each([null, undefined, '', '   ', 'cash on delivery', 'two weeks', '30 weeks', -5, 2.5, 'net', 'days 30'])('falls back to 30 days for %j', (terms) => {
    expect(parseCreditTerms(terms)).toBe(DEFAULT_CREDIT_DAYS);
    expect(parseCreditTerms(terms, 45)).toBe(45);
  });

  it('property: every recognised spelling of N days or N months gives N or 30 N, whatever the case and spacing', () => {
    const next = random(20261124);
    for (let i = 0; i < 500; i++) {
      const n = Math.floor(next() * 400);
      const space = next() < 0.5 ? '' : ' '.repeat(1 + Math.floor(next() * 3));
      const upper = (s: string) => (next() < 0.5 ? s.toUpperCase() : s);
      const dayForm = upper(['day', 'days', 'd'][Math.floor(next() * 3)]!);
      const monthForm = upper(['month', 'months', 'm'][Math.floor(next() * 3)]!);
      expect(parseCreditTerms(`${n}${space}${dayForm}`)).toBe(n);
      expect(parseCreditTerms(` ${n}${space}${monthForm} `)).toBe(n * 30);
      expect(parseCreditTerms(`${upper('net')}${space}${n}`)).toBe(n);
      expect(parseCreditTerms(String(n))).toBe(n);
      // Unrecognised text never yields anything but the fallback.
      expect(parseCreditTerms(`${n} fortnights`, 17)).toBe(17);
    }
  });

  it('a form or API accepts recognised terms within a year only; stored days win over terms', () => {
    expect(creditTermsProblem('')).toBeNull();
    expect(creditTermsProblem('net 30')).toBeNull();
    expect(creditTermsProblem('12 months')).toBeNull();
    expect(creditTermsProblem('13 months')).toBe('CONTACT_CREDIT_TERMS_TOO_LONG');
    expect(creditTermsProblem('on delivery')).toBe('CONTACT_CREDIT_TERMS_UNKNOWN');
    expect(contactCreditDays({ creditPeriodDays: 10, creditTerms: '2 months' })).toBe(10);
    expect(contactCreditDays({ creditPeriodDays: null, creditTerms: '2 months' })).toBe(60);
    expect(contactCreditDays({ creditPeriodDays: null, creditTerms: null }, 45)).toBe(45);
  });
});

describe('the contacts form and the CSV rows', () => {
  it('the form normalises the phone, blanks to null, keeps credit terms for suppliers only, and names the supplier rule', () => {
    const base = { name: 'Dawa Ltd', phone: '0712-345 678', email: '', location: '', address: '', notes: '', creditTerms: 'net 45' };
    expect(contactFormSchema.parse({ ...base, type: 'supplier' })).toMatchObject({ type: 'supplier', phone: '254712345678', email: null, creditTerms: 'net 45' });
    expect(contactFormSchema.parse({ ...base, type: 'customer' }).creditTerms).toBeNull();
    const bad = contactFormSchema.safeParse({ ...base, type: 'supplier', name: ' ', creditTerms: 'soon' });
    expect(bad.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['name', 'Name is required'],
      ['creditTerms', "Credit terms must read like '30 days', '30d', '2 months', '2m', 'net 30' or a number of days."],
    ]);
    // The till's dialog keeps its own wording.
    expect(newClientFormSchema(false).safeParse({ ...base, name: '' }).error?.issues[0]?.message).toBe('Client name is required');
  });

  it('a CSV row: headers in any case, default type, normalised phone, every problem with its line', () => {
    const ok = parseContactCsvRow({ Name: ' Mary ', PHONE: '0722 000 111', creditTerms: '2m', Type: 'Supplier' }, 2, 'customer');
    expect(ok.contact).toMatchObject({ type: 'supplier', name: 'Mary', phone: '254722000111', creditTerms: '2m', isActive: true });
    expect(parseContactCsvRow({ name: 'Ann', phone: '0711', active: 'false' }, 3, 'customer').contact).toMatchObject({ type: 'customer', isActive: false, creditTerms: null });
    const bad = parseContactCsvRow({ type: 'doctor', name: '', phone: '', email: 'nope', creditTerms: 'soon' }, 7, 'customer');
    expect(bad.contact).toBeNull();
    expect(bad.errors.map((e) => `${e.row}:${e.field}`)).toEqual(['7:type', '7:name', '7:phone', '7:email', '7:creditTerms']);
  });
});
