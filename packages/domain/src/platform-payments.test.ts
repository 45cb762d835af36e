import { describe, expect, it } from 'vitest';
import {
  canMovePayment,
  k2PhoneNumber,
  KENYAN_COUNTIES,
  PLATFORM_PRICES,
  registrationFormSchema,
  startFailureMessage,
  stkPushRequestSchema,
  subdomainSlug,
} from './platform-payments.ts';

const form = { pharmacyName: 'Uzima', ownerName: 'Amina', ownerEmail: 'amina@example.com', ownerPhone: '0712345678', location: 'Nairobi' };

describe('platform payments', () => {
  it('lists the 47 counties once each', () => {
    expect(KENYAN_COUNTIES).toHaveLength(47);
    expect(new Set(KENYAN_COUNTIES).size).toBe(47);
  });

  it('charges the landing page prices', () => {
    expect(PLATFORM_PRICES.complete.amountCents).toBe(3_000_000);
    expect(PLATFORM_PRICES.hosting.amountCents).toBe(350_000);
  });

  it('gives the registration form’s messages', () => {
    const messages = (value: Record<string, unknown>) => {
      const result = registrationFormSchema.safeParse(value);
      return result.success ? [] : result.error.issues.map((i) => i.message);
    };
    expect(messages(form)).toEqual([]);
    expect(messages({ ...form, pharmacyName: ' ' })).toEqual(['Pharmacy name is required']);
    expect(messages({ ...form, ownerName: '' })).toEqual(['Owner name is required']);
    expect(messages({ ...form, ownerEmail: '' })).toEqual(['Email is required']);
    expect(messages({ ...form, ownerEmail: 'amina@example' })).toEqual(['Invalid email format']);
    expect(messages({ ...form, ownerPhone: '' })).toEqual(['Phone number is required']);
    expect(messages({ ...form, location: '' })).toEqual(['Location is required']);
    expect(messages({ ...form, county: 'Atlantis' })).not.toEqual([]);
    expect(messages({ ...form, county: 'Nairobi', licenseNumber: '' })).toEqual([]);
  });

  it('takes only a 12-digit M-Pesa number on submit', () => {
    const body = { ...form, plan: 'complete', phoneNumber: '254712345678' };
    expect(stkPushRequestSchema.safeParse(body).success).toBe(true);
    expect(stkPushRequestSchema.safeParse({ ...body, phoneNumber: '0712345678' }).success).toBe(false);
    const short = stkPushRequestSchema.safeParse({ ...body, phoneNumber: '25471234567' });
    expect(short.success ? [] : short.error.issues.map((i) => i.message)).toEqual(['Please enter a valid M-Pesa number']);
    expect(stkPushRequestSchema.safeParse({ ...body, phoneNumber: '254812345678' }).success).toBe(false);
    expect(k2PhoneNumber('0712 345 678')).toBe('+254712345678');
  });

  it('moves a payment only forward', () => {
    expect(canMovePayment('pending', 'completed')).toBe(true);
    expect(canMovePayment('pending', 'failed')).toBe(true);
    expect(canMovePayment('completed', 'reversed')).toBe(true);
    expect(canMovePayment('failed', 'completed')).toBe(false);
    expect(canMovePayment('completed', 'pending')).toBe(false);
    expect(canMovePayment('reversed', 'completed')).toBe(false);
    expect(canMovePayment('completed', 'failed')).toBe(false);
  });

  it('makes subdomains from names', () => {
    expect(subdomainSlug('Uzima Chemists & Co.')).toBe('uzima-chemists-co');
    expect(subdomainSlug('  Café Pharmacie  ')).toBe('cafe-pharmacie');
    expect(subdomainSlug('!!!')).toBe('pharmacy');
    expect(subdomainSlug('a'.repeat(60))).toHaveLength(40);
  });

  it('maps start failures to the specification’s messages', () => {
    expect(startFailureMessage({ network: true })).toBe('Network error. Please check your internet connection and try again.');
    expect(startFailureMessage({ message: 'Failed to fetch' })).toBe('Network error. Please check your internet connection and try again.');
    expect(startFailureMessage({ status: 429, message: 'x' })).toBe('Too many payment attempts. Please wait a moment and try again.');
    expect(startFailureMessage({ message: 'Service offline' })).toBe('Payment service is temporarily unavailable. Please try again later.');
    expect(startFailureMessage({ message: 'Invalid plan selection' })).toBe('Invalid plan selection');
    expect(startFailureMessage({})).toBe('Payment initiation failed. Please try again.');
  });
});
