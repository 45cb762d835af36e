import { describe, expect, it } from 'vitest';
import { extendTrialRequestSchema, kenyaToday, lastMonths, OFFLINE_PAYMENT_MESSAGES, offlinePaymentFormSchema, offlinePaymentRequestSchema, pharmacyBucket } from './admin.ts';
import { demoRegistrationProblem } from './demo.ts';

const sub = (status: string, storedStatus: string | null) =>
  ({ subscription: { status, storedStatus } }) as unknown as Parameters<typeof pharmacyBucket>[0];

describe('the dashboard buckets', () => {
  it('puts each pharmacy in one bucket', () => {
    expect(pharmacyBucket(sub('trial', 'trial'))).toBe('trial');
    expect(pharmacyBucket(sub('expired', 'trial'))).toBe('trialExpired');
    expect(pharmacyBucket(sub('active', 'active'))).toBe('active');
    expect(pharmacyBucket({ ...sub('active', 'active'), hostingDueSoon: true })).toBe('hostingDueSoon');
    expect(pharmacyBucket({ ...sub('expired', 'active'), licenseActiveHostingExpired: true })).toBe('hostingExpired');
    expect(pharmacyBucket(sub('inactive', 'inactive'))).toBe('inactive');
    expect(pharmacyBucket(sub('none', null))).toBe('inactive');
  });
});

describe('lastMonths', () => {
  it('gives twelve months ending with this one, across a year', () => {
    const months = lastMonths(new Date('2026-02-10T00:00:00Z'));
    expect(months).toHaveLength(12);
    expect(months[0]).toBe('2025-03');
    expect(months[11]).toBe('2026-02');
  });
});

describe('extending a trial', () => {
  it('takes 1 to 90 whole days', () => {
    expect(extendTrialRequestSchema.safeParse({ days: 7 }).success).toBe(true);
    expect(extendTrialRequestSchema.safeParse({ days: 0 }).success).toBe(false);
    expect(extendTrialRequestSchema.safeParse({ days: 91 }).success).toBe(false);
    expect(extendTrialRequestSchema.safeParse({ days: 1.5 }).success).toBe(false);
  });
});

describe('the demo registration form', () => {
  const form = { name: 'Jane Wanjiku', email: 'jane@example.com', phone: '0712 345 678' };
  it("answers the specification's first problem", () => {
    expect(demoRegistrationProblem(form)).toBeNull();
    expect(demoRegistrationProblem({ ...form, name: ' ' })).toBe('fieldsRequired');
    expect(demoRegistrationProblem({ ...form, email: 'jane@' })).toBe('invalidEmail');
    expect(demoRegistrationProblem({ ...form, phone: '0712-34' })).toBe('invalidPhone');
    expect(demoRegistrationProblem({ ...form, phone: '0712abc45678' })).toBe('invalidPhone');
    expect(demoRegistrationProblem({ ...form, phone: '+254 (712) 345-678' })).toBeNull();
  });
});

describe('the offline payment form (decision 0060)', () => {
  const base = { kind: 'hosting', amount: '3,500', method: 'bank_transfer', reference: ' EQ-1 ', paidOn: '2026-01-15', note: '' } as const;

  it('turns the KSh typed into cents and leaves out what is empty', () => {
    expect(offlinePaymentFormSchema.parse(base)).toEqual({ kind: 'hosting', amountCents: 350_000, method: 'bank_transfer', reference: 'EQ-1', paidOn: '2026-01-15' });
    expect(offlinePaymentFormSchema.parse({ ...base, amount: '30000.5', kind: 'licence', method: 'cash', reference: '', note: 'At the office' })).toEqual({
      kind: 'licence',
      amountCents: 3_000_050,
      method: 'cash',
      paidOn: '2026-01-15',
      note: 'At the office',
    });
  });

  it('says what is wrong in a sentence', () => {
    const message = (input: Record<string, unknown>) => offlinePaymentFormSchema.safeParse(input).error?.issues[0]?.message;
    expect(message({ ...base, reference: '' })).toBe('Enter the reference: the bank or cheque number, or the M-Pesa code.');
    expect(message({ ...base, amount: '0' })).toBe(OFFLINE_PAYMENT_MESSAGES.amount);
    expect(message({ ...base, amount: '3.555' })).toBe(OFFLINE_PAYMENT_MESSAGES.amount);
    expect(message({ ...base, amount: '1,000,000.01' })).toBe(OFFLINE_PAYMENT_MESSAGES.amount);
    expect(message({ ...base, paidOn: kenyaToday(new Date(Date.now() + 2 * 86_400_000)) })).toBe('The date paid cannot be in the future.');
    expect(offlinePaymentRequestSchema.safeParse({ kind: 'hosting', amountCents: 350_000, method: 'cheque', paidOn: '2026-01-15' }).error?.issues[0]?.message).toBe(
      'Enter the reference: the bank or cheque number, or the M-Pesa code.',
    );
  });

  it("takes today's date in Kenya (UTC+3): 22:30 UTC is already the next day", () => {
    expect(kenyaToday(new Date('2026-03-31T22:30:00Z'))).toBe('2026-04-01');
    expect(kenyaToday(new Date('2026-03-31T20:59:00Z'))).toBe('2026-03-31');
  });
});
