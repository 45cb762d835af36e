import { describe, expect, it } from 'vitest';
import { formatMpesaPhone, isKenyanPhone, kenyanPhoneText, isMpesaPhone, normalizeMpesaPhone, normalizePhone } from './phone.ts';

describe('phone normalisation (seed 002 section 5: "strip all non-digits; a 10-digit number starting with 0 has the 0 replaced by 254")', () => {
  it('replaces the leading 0 of a 10-digit number by 254', () => {
    expect(normalizePhone('0712 345 678')).toBe('254712345678');
  });

  it('strips everything but digits', () => {
    expect(normalizePhone('+254 (712) 345-678')).toBe('254712345678');
  });

  it('returns the digits only for other lengths', () => {
    expect(normalizePhone('071234567')).toBe('071234567');
  });
});

describe('Kenyan phone format (seed 001 section 5: "+254 or 0, then 1 or 7, then 8 digits")', () => {
  it('accepts 07 and 01 numbers', () => {
    expect(isKenyanPhone('0712345678')).toBe(true);
    expect(isKenyanPhone('0112345678')).toBe(true);
  });

  it('accepts +254 numbers', () => {
    expect(isKenyanPhone('+254712345678')).toBe(true);
  });

  it('ignores spaces and hyphens between groups', () => {
    expect(isKenyanPhone('0712 345-678')).toBe(true);
  });

  it('rejects other prefixes and lengths', () => {
    for (const text of ['0812345678', '254712345678', '071234567', '07123456789', '+2547123456789', 'phone']) {
      expect(isKenyanPhone(text)).toBe(false);
    }
  });
});

describe('mobile money phone (seed 002 section 5, "Mobile money phone")', () => {
  it('turns a leading 0 into 254', () => {
    expect(normalizeMpesaPhone('0712345678')).toBe('254712345678');
  });

  it('puts 254 before a leading 7 or 1', () => {
    expect(normalizeMpesaPhone('712345678')).toBe('254712345678');
    expect(normalizeMpesaPhone('112345678')).toBe('254112345678');
  });

  it('keeps digits only', () => {
    expect(normalizeMpesaPhone('+254 712-345-678')).toBe('254712345678');
  });

  it('caps the number at 12 digits', () => {
    expect(normalizeMpesaPhone('2547123456789999')).toBe('254712345678');
  });

  it('is valid only as 254, then 1 or 7, then 8 digits', () => {
    expect(isMpesaPhone('254712345678')).toBe(true);
    expect(isMpesaPhone('0112345678')).toBe(true);
    expect(isMpesaPhone('254812345678')).toBe(false);
    expect(isMpesaPhone('25471234567')).toBe(false);
    expect(isMpesaPhone('')).toBe(false);
  });

  it('shows the number in groups of three', () => {
    expect(formatMpesaPhone('0712345678')).toBe('254 712 345 678');
    expect(formatMpesaPhone('07123')).toBe('254 712 3');
  });
});

describe('kenyanPhoneText', () => {
  it('takes nothing or a Kenyan number, else a sentence by the label', () => {
    const schema = kenyanPhoneText('Branch phone');
    expect(schema.parse('')).toBe('');
    expect(schema.parse(' 0712-345-678 ')).toBe('0712-345-678');
    expect(schema.safeParse('020 123 4567').error?.issues[0]?.message).toBe(
      'Branch phone must be a Kenyan number: +254 or 0, then 7 or 1, then 8 digits (e.g. 0712 345 678).',
    );
  });
});
