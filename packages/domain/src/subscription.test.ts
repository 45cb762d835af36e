import { describe, expect, it } from 'vitest';
import {
  PLANS,
  UNLIMITED,
  assertCanPayHosting,
  assertCanUpgradeFromTrial,
  checkLimit,
  evaluateSubscription,
  extendHosting,
  newStandardSubscription,
  newTrialSubscription,
  type SubscriptionRecord,
} from './subscription.ts';

const DAY = 24 * 60 * 60 * 1000;
const now = new Date('2026-11-22T09:00:00Z');
const later = (days: number) => new Date(now.getTime() + days * DAY);
const noUsage = { products: 0, transactions: 0, users: 0, branches: 0 };

/** A trial that started `startedDaysAgo` days before now. */
const trialStarted = (startedDaysAgo: number) => newTrialSubscription(later(-startedDaysAgo));
/** A standard licence whose hosting is paid until `days` from now (negative: in the past). */
const standardWithHosting = (days: number): SubscriptionRecord => ({ ...newStandardSubscription(later(-365)), hostingPaidUntil: later(days) });

describe('plans (seed 000 section 9)', () => {
  it('trial: 7 days, price 0, max 50 products, 50 transactions, 1 user, 1 branch', () => {
    expect(PLANS.trial).toEqual({
      id: 'trial', priceCents: 0, trialDays: 7, limits: { maxProducts: 50, maxTransactions: 50, maxUsers: 1, maxBranches: 1 },
    });
  });

  it('standard: 30,000 KSh one-off, yearly hosting 3,500 KSh, unlimited everything', () => {
    expect(PLANS.standard).toEqual({
      id: 'standard', licencePriceCents: 3_000_000, hostingFeeCents: 350_000,
      limits: { maxProducts: -1, maxTransactions: -1, maxUsers: -1, maxBranches: -1 },
    });
    expect(UNLIMITED).toBe(-1);
  });
});

describe('new subscriptions', () => {
  it('starts a trial that ends 7 days from now with the trial limits', () => {
    const trial = newTrialSubscription(now);
    expect(trial).toMatchObject({ planId: 'trial', status: 'trial', maxProducts: 50, maxTransactions: 50, maxUsers: 1, maxBranches: 1 });
    expect(trial.startDate).toEqual(now);
    expect(trial.trialEndDate).toEqual(later(7));
    expect(trial.hostingPaidUntil).toBeNull();
  });

  it('starts a standard licence with hosting paid one year from now', () => {
    const standard = newStandardSubscription(now);
    expect(standard).toMatchObject({ planId: 'standard', status: 'active', maxProducts: -1, maxUsers: -1, trialEndDate: null });
    expect(standard.hostingPaidUntil).toEqual(new Date('2027-11-22T09:00:00Z'));
  });
});

describe('subscription states (seed 000 section 4)', () => {
  it('counts trial days left in whole days, rounded up', () => {
    const summary = evaluateSubscription(newTrialSubscription(new Date(now.getTime() - 36 * 60 * 60 * 1000)), now);
    expect(summary.trialDaysLeft).toBe(6); // 5.5 days left
  });

  it('keeps a running trial licensed, hosted and active', () => {
    const summary = evaluateSubscription(trialStarted(1), now);
    expect(summary).toMatchObject({ isTrial: true, trialExpired: false, licenseActive: true, hostingActive: true, systemActive: true });
  });

  it('expires a trial once its end date has passed', () => {
    const summary = evaluateSubscription(trialStarted(8), now);
    expect(summary).toMatchObject({ trialExpired: true, trialDaysLeft: 0, licenseActive: false, hostingActive: false, systemActive: false });
  });

  it('does not expire a trial at the very moment it ends', () => {
    const trial = { ...trialStarted(7), trialEndDate: now, endDate: now };
    expect(evaluateSubscription(trial, now).trialExpired).toBe(false);
  });

  it('never counts negative days', () => {
    expect(evaluateSubscription(trialStarted(30), now).trialDaysLeft).toBe(0);
    expect(evaluateSubscription(standardWithHosting(-40), now).hostingDaysLeft).toBe(0);
  });

  it('keeps a paid licence with hosting in the future fully active', () => {
    const summary = evaluateSubscription(standardWithHosting(200), now);
    expect(summary).toMatchObject({ licenseActive: true, hostingActive: true, systemActive: true, hostingDaysLeft: 200 });
  });

  it("is 'licence active, hosting expired' when the paid-until date has passed", () => {
    const summary = evaluateSubscription(standardWithHosting(-1), now);
    expect(summary).toMatchObject({ licenseActive: true, hostingActive: false, systemActive: false, licenseActiveHostingExpired: true });
  });

  it('flags hosting due soon at 30 days or fewer', () => {
    expect(evaluateSubscription(standardWithHosting(30), now).hostingDueSoon).toBe(true);
    expect(evaluateSubscription(standardWithHosting(31), now).hostingDueSoon).toBe(false);
  });

  it('flags hosting urgent at 7 days or fewer', () => {
    expect(evaluateSubscription(standardWithHosting(7), now).hostingUrgent).toBe(true);
    expect(evaluateSubscription(standardWithHosting(8), now).hostingUrgent).toBe(false);
  });

  it('never flags hosting due soon during a trial', () => {
    const trial = { ...trialStarted(1), hostingPaidUntil: later(3) };
    expect(evaluateSubscription(trial, now).hostingDueSoon).toBe(false);
  });

  it('treats an inactive subscription as neither licensed nor active', () => {
    const inactive = { ...standardWithHosting(100), status: 'inactive' as const };
    expect(evaluateSubscription(inactive, now)).toMatchObject({ licenseActive: false, systemActive: false });
  });
});

describe('status messages (seed 000 section 8)', () => {
  it("says 'Trial expires in N days'", () => {
    expect(evaluateSubscription(trialStarted(2), now).statusMessage).toBe('Trial expires in 5 days');
  });

  it("says 'Trial expired - upgrade to continue'", () => {
    expect(evaluateSubscription(trialStarted(8), now).statusMessage).toBe('Trial expired - upgrade to continue');
  });

  it("says 'Active - Hosting expires in N days' when due soon", () => {
    expect(evaluateSubscription(standardWithHosting(12), now).statusMessage).toBe('Active - Hosting expires in 12 days');
  });

  it("says 'Active - Hosting until {date}' with the date in en-GB", () => {
    expect(evaluateSubscription(newStandardSubscription(new Date('2026-11-22T09:00:00Z')), now).statusMessage).toBe(
      'Active - Hosting until 22/11/2027',
    );
  });

  it("says 'License active - Hosting expired'", () => {
    expect(evaluateSubscription(standardWithHosting(-3), now).statusMessage).toBe('License active - Hosting expired');
  });

  it("says 'Inactive'", () => {
    expect(evaluateSubscription({ ...standardWithHosting(100), status: 'inactive' }, now).statusMessage).toBe('Inactive');
  });

  it("says 'No subscription data' when there is none", () => {
    expect(evaluateSubscription(null, now).statusMessage).toBe('No subscription data');
  });
});

describe('next-action prompts (seed 000 section 8)', () => {
  it("asks to 'Purchase the POS (KSh 30,000) to continue' when the trial expired", () => {
    const summary = evaluateSubscription(trialStarted(8), now);
    expect(summary.nextAction).toBe('Purchase the POS (KSh 30,000) to continue');
    expect(summary.nextActionUrgent).toBe(true);
  });

  it("says 'Trial expires in N days - purchase now to avoid interruption' when 2 days or fewer remain", () => {
    expect(evaluateSubscription(trialStarted(5), now).nextAction).toBe('Trial expires in 2 days - purchase now to avoid interruption');
  });

  it('does not prompt a purchase with 3 trial days left', () => {
    expect(evaluateSubscription(trialStarted(4), now).nextAction).toBeNull();
  });

  it("asks to 'Pay yearly hosting fee (KSh 3,500) to reactivate your system' when hosting expired", () => {
    expect(evaluateSubscription(standardWithHosting(-1), now).nextAction).toBe(
      'Pay yearly hosting fee (KSh 3,500) to reactivate your system',
    );
  });

  it("says 'Hosting expires in N days - renew now' when due soon, not urgent above 7 days", () => {
    const summary = evaluateSubscription(standardWithHosting(20), now);
    expect(summary.nextAction).toBe('Hosting expires in 20 days - renew now');
    expect(summary.nextActionUrgent).toBe(false);
  });

  it('marks the hosting prompt urgent at 7 days or fewer', () => {
    expect(evaluateSubscription(standardWithHosting(7), now).nextActionUrgent).toBe(true);
  });

  it("asks to 'Initialize subscription data' when there is none", () => {
    expect(evaluateSubscription(null, now).nextAction).toBe('Initialize subscription data');
  });

  it('asks nothing of a healthy licence', () => {
    expect(evaluateSubscription(standardWithHosting(200), now).nextAction).toBeNull();
  });
});

describe('banners (seed 000 section 4, "Trial and hosting banners")', () => {
  it("shows 'upgrade' when the trial expired", () => {
    expect(evaluateSubscription(trialStarted(8), now).banner).toBe('upgrade');
  });

  it("shows 'upgrade_soon' when 2 trial days or fewer remain", () => {
    expect(evaluateSubscription(trialStarted(6), now).banner).toBe('upgrade_soon');
    expect(evaluateSubscription(trialStarted(3), now).banner).toBeNull();
  });

  it("shows 'pay_hosting' when hosting is overdue", () => {
    expect(evaluateSubscription(standardWithHosting(-1), now).banner).toBe('pay_hosting');
  });

  it("shows 'renew_hosting' when hosting is due soon", () => {
    expect(evaluateSubscription(standardWithHosting(25), now).banner).toBe('renew_hosting');
  });

  it('shows no banner for a healthy licence', () => {
    expect(evaluateSubscription(standardWithHosting(100), now).banner).toBeNull();
  });
});

describe('reminder (seed 002 section 9: "a reminder is set 3 days before expiry")', () => {
  it('is 3 days before the trial ends', () => {
    const trial = trialStarted(1);
    expect(evaluateSubscription(trial, now).reminderDate).toEqual(new Date(trial.trialEndDate!.getTime() - 3 * DAY));
  });

  it('is 3 days before hosting runs out for a licence', () => {
    expect(evaluateSubscription(standardWithHosting(100), now).reminderDate).toEqual(later(97));
  });
});

describe('limit check (seed 000 section 5)', () => {
  it('allows adding within the plan limit', () => {
    expect(checkLimit(trialStarted(1), { ...noUsage, products: 49 }, 'products', 1, now)).toEqual({ ok: true });
  });

  it("refuses when requested plus current usage exceeds the limit ('Plan allows N, current usage: M')", () => {
    expect(checkLimit(trialStarted(1), { ...noUsage, products: 50 }, 'products', 1, now)).toEqual({
      ok: false, code: 'LIMIT_EXCEEDED', limit: 50, usage: 50,
    });
  });

  it('counts every requested item, as a bulk import does', () => {
    expect(checkLimit(trialStarted(1), { ...noUsage, products: 40 }, 'products', 11, now)).toMatchObject({ ok: false, code: 'LIMIT_EXCEEDED' });
  });

  it('checks each resource against its own limit', () => {
    expect(checkLimit(trialStarted(1), { ...noUsage, users: 1 }, 'users', 1, now)).toMatchObject({ ok: false, limit: 1 });
    expect(checkLimit(trialStarted(1), { ...noUsage, branches: 1 }, 'branches', 1, now)).toMatchObject({ ok: false, limit: 1 });
    expect(checkLimit(trialStarted(1), { ...noUsage, transactions: 50 }, 'transactions', 1, now)).toMatchObject({ ok: false, limit: 50 });
  });

  it('treats -1 as unlimited', () => {
    expect(checkLimit(standardWithHosting(100), { ...noUsage, products: 1_000_000 }, 'products', 500, now)).toEqual({ ok: true });
  });

  it("answers 'Subscription not active' when the trial expired", () => {
    expect(checkLimit(trialStarted(8), noUsage, 'products', 1, now)).toEqual({ ok: false, code: 'SUBSCRIPTION_NOT_ACTIVE' });
  });

  it("answers 'Subscription not active' when hosting expired", () => {
    expect(checkLimit(standardWithHosting(-1), noUsage, 'products', 1, now)).toEqual({ ok: false, code: 'SUBSCRIPTION_NOT_ACTIVE' });
  });

  it("answers 'Subscription not active' without a subscription", () => {
    expect(checkLimit(null, noUsage, 'users', 1, now)).toEqual({ ok: false, code: 'SUBSCRIPTION_NOT_ACTIVE' });
  });
});

describe('hosting extension (seed 000 section 9: "one year, from the later of now or the current paid-until")', () => {
  it('extends from the current paid-until when it is still in the future', () => {
    expect(extendHosting(new Date('2027-01-10T00:00:00Z'), now)).toEqual(new Date('2028-01-10T00:00:00Z'));
  });

  it('extends from now when hosting already lapsed', () => {
    expect(extendHosting(new Date('2026-01-10T00:00:00Z'), now)).toEqual(new Date('2027-11-22T09:00:00Z'));
  });

  it('extends from now when hosting was never paid', () => {
    expect(extendHosting(null, now)).toEqual(new Date('2027-11-22T09:00:00Z'));
  });
});

describe('upgrade and hosting payment guards (seed 000 section 4)', () => {
  it('allows upgrading during the trial', () => {
    expect(assertCanUpgradeFromTrial(trialStarted(1))).toBeNull();
  });

  it('allows upgrading an expired trial, whose owner is asked to purchase', () => {
    expect(assertCanUpgradeFromTrial(trialStarted(8))).toBeNull();
  });

  it("refuses upgrading outside the trial ('Not in trial period')", () => {
    expect(assertCanUpgradeFromTrial(standardWithHosting(100))).toBe('NOT_IN_TRIAL');
    expect(assertCanUpgradeFromTrial(null)).toBe('NOT_IN_TRIAL');
  });

  it('allows paying hosting with an active licence, even after hosting lapsed', () => {
    expect(assertCanPayHosting(standardWithHosting(-10), now)).toBeNull();
  });

  it("refuses paying hosting without an active licence ('No active license')", () => {
    expect(assertCanPayHosting(trialStarted(8), now)).toBe('NO_ACTIVE_LICENSE');
    expect(assertCanPayHosting({ ...standardWithHosting(10), status: 'inactive' }, now)).toBe('NO_ACTIVE_LICENSE');
  });
});
