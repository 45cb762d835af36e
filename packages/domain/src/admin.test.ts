import { describe, expect, it } from 'vitest';
import { extendTrialRequestSchema, lastMonths, pharmacyBucket } from './admin.ts';
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
