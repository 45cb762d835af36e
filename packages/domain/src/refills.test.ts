import { describe, expect, it } from 'vitest';
import {
  type AutoReminderCandidate,
  daysBetween,
  mergeRefillLines,
  refillDueRange,
  refillReminderText,
  refillStatus,
  reminderPhone,
  shiftDate,
  whatsappReminderLink,
} from './refills.ts';

describe('refill status', () => {
  it('is overdue below 0 days left, due at 0, upcoming within 7 days, later beyond', () => {
    expect([-30, -1, 0, 1, 7, 8, 60].map(refillStatus)).toEqual(['overdue', 'overdue', 'due', 'upcoming', 'upcoming', 'later', 'later']);
  });
  it('filters by ranges of days left', () => {
    expect(refillDueRange('window')).toEqual({ min: null, max: 7 });
    expect(refillDueRange('overdue')).toEqual({ min: null, max: -1 });
    expect(refillDueRange('today')).toEqual({ min: 0, max: 0 });
    expect(refillDueRange('upcoming')).toEqual({ min: 1, max: 7 });
    expect(refillDueRange('all')).toEqual({ min: null, max: null });
  });
  it('counts calendar days across months and years', () => {
    expect(daysBetween('2026-12-30', '2027-01-02')).toBe(3);
    expect(daysBetween('2026-03-01', '2026-02-27')).toBe(-2);
    expect(shiftDate('2026-12-30', 3)).toBe('2027-01-02');
  });
});

describe('merging duplicate refill reminders', () => {
  const row = (saleId: string, refillDate: string, clientId = 'c1', productId = 'p1', line = 1) => ({ saleId, line, clientId, productId, refillDate });

  it('merges the same client and product due within 24 hours into the earliest, keeping every line', () => {
    const merged = mergeRefillLines([row('b', '2026-12-06'), row('a', '2026-12-05'), row('c', '2026-12-05', 'c1', 'p1', 2)]);
    expect(merged).toHaveLength(1);
    expect(merged[0]).toMatchObject({ saleId: 'a', refillDate: '2026-12-05' });
    expect(merged[0]!.lines).toEqual([
      { saleId: 'a', line: 1 },
      { saleId: 'c', line: 2 },
      { saleId: 'b', line: 1 },
    ]);
  });
  it('keeps reminders two days apart, of another client or of another product apart', () => {
    const merged = mergeRefillLines([row('a', '2026-12-05'), row('b', '2026-12-07'), row('c', '2026-12-05', 'c2'), row('d', '2026-12-05', 'c1', 'p2')]);
    expect(merged.map((m) => [m.saleId, m.lines.length])).toEqual([
      ['a', 1],
      ['c', 1],
      ['d', 1],
      ['b', 1],
    ]);
  });
  it('measures the window from the group\'s first reminder, not from the last one merged', () => {
    const merged = mergeRefillLines([row('a', '2026-12-05'), row('b', '2026-12-06'), row('c', '2026-12-07')]);
    expect(merged.map((m) => m.lines.map((l) => l.saleId))).toEqual([['a', 'b'], ['c']]);
  });
  it('answers nothing for nothing', () => {
    expect(mergeRefillLines([])).toEqual([]);
  });
});

describe('the reminder and its WhatsApp link', () => {
  it('names the pharmacy and the refill date, never the drug', () => {
    expect(refillReminderText({ clientName: 'Jane Wanjiku', pharmacyName: 'Afya Chemist', refillDate: '2026-12-05' })).toBe(
      'Hello Jane Wanjiku, this is Afya Chemist. Your refill is due on 5 Dec 2026. Please visit us or call to arrange it.',
    );
  });
  it('normalises the phone to 254 and refuses a missing or invalid one', () => {
    expect(reminderPhone('0712 345 678')).toEqual({ ok: true, phone: '254712345678' });
    expect(reminderPhone('+254 110-345-678')).toEqual({ ok: true, phone: '254110345678' });
    expect(reminderPhone('254712345678')).toEqual({ ok: true, phone: '254712345678' });
    expect(reminderPhone('')).toEqual({ ok: false, error: 'No phone number available' });
    expect(reminderPhone(null)).toEqual({ ok: false, error: 'No phone number available' });
    expect(reminderPhone('12345')).toEqual({ ok: false, error: 'Invalid phone number' });
    expect(reminderPhone('0812345678')).toEqual({ ok: false, error: 'Invalid phone number' });
  });
  it('builds the wa.me link with the encoded text', () => {
    expect(whatsappReminderLink('0712345678', 'Hello Jo, due on 5 Dec 2026.')).toEqual({ ok: true, url: 'https://wa.me/254712345678?text=Hello%20Jo%2C%20due%20on%205%20Dec%202026.' });
    expect(whatsappReminderLink(undefined, 'x')).toEqual({ ok: false, error: 'No phone number available' });
  });
});

describe('delivery reports', () => {
  it('keeps a final status against later or repeated reports, and takes any other', async () => {
    const { nextDeliveryStatus, smsStateLabel } = await import('./refills.ts');
    expect(nextDeliveryStatus(null, 'Submitted')).toBe('Submitted');
    expect(nextDeliveryStatus('Submitted', 'Success')).toBe('Success');
    expect(nextDeliveryStatus('Success', 'Submitted')).toBeNull();
    expect(nextDeliveryStatus('Success', 'Success')).toBeNull();
    expect(nextDeliveryStatus('Failed', 'Success')).toBeNull();
    expect(nextDeliveryStatus('Buffered', 'AbsentSubscriber')).toBe('AbsentSubscriber');
    expect(smsStateLabel({ status: 'queued', deliveryStatus: null })).toBe('Queued');
    expect(smsStateLabel({ status: 'sent', deliveryStatus: null })).toBe('Sent');
    expect(smsStateLabel({ status: 'sent', deliveryStatus: 'Buffered' })).toBe('Pending delivery');
    expect(smsStateLabel({ status: 'sent', deliveryStatus: 'Success' })).toBe('Delivered');
    expect(smsStateLabel({ status: 'sent', deliveryStatus: 'Expired' })).toBe('Failed');
    expect(smsStateLabel({ status: 'failed', deliveryStatus: null })).toBe('Failed');
  });
});

describe('the automatic reminder planner', () => {
  const on = { enabled: true, daysBefore: 3, quietStart: '20:00', quietEnd: '08:00' };
  const c = (over: Partial<AutoReminderCandidate> = {}) => ({
    saleId: 's1', line: 1, clientId: 'c1', refillDate: '2026-12-03', consent: true, phone: '0712345678', optedOut: false, remindedAlready: false, ...over,
  });
  it('knows quiet hours across midnight and within a day', async () => {
    const { inQuietHours } = await import('./refills.ts');
    expect(['19:59', '20:00', '23:30', '00:00', '07:59', '08:00'].map((t) => inQuietHours(t, '20:00', '08:00'))).toEqual([false, true, true, true, true, false]);
    expect(['12:59', '13:00', '13:59', '14:00'].map((t) => inQuietHours(t, '13:00', '14:00'))).toEqual([false, true, true, false]);
    expect(inQuietHours('03:00', '08:00', '08:00')).toBe(false);
  });
  it('sends N days before the refill, once per refill, only with consent, a valid number and no opt-out', async () => {
    const { planAutoReminders } = await import('./refills.ts');
    const plan = (candidates: ReturnType<typeof c>[], extra: Partial<Parameters<typeof planAutoReminders>[0]> = {}) =>
      planAutoReminders({ settings: on, today: '2026-11-30', localTime: '10:00', candidates, clientsMessagedToday: new Set(), ...extra }).map((p) => p.saleId);
    expect(plan([c()])).toEqual(['s1']);
    expect(plan([c({ refillDate: '2026-12-04' })])).toEqual([]);
    expect(plan([c({ refillDate: '2026-11-29' })])).toEqual([]);
    expect(plan([c({ remindedAlready: true })])).toEqual([]);
    expect(plan([c({ consent: null })])).toEqual([]);
    expect(plan([c({ consent: false })])).toEqual([]);
    expect(plan([c({ optedOut: true })])).toEqual([]);
    expect(plan([c({ phone: '12345' })])).toEqual([]);
    expect(plan([c()], { localTime: '21:15' })).toEqual([]);
    expect(plan([c()], { settings: { ...on, enabled: false } })).toEqual([]);
  });
  it('sends at most one message per client per day: the soonest refill, none if already messaged today', async () => {
    const { planAutoReminders } = await import('./refills.ts');
    const plan = (candidates: ReturnType<typeof c>[], messaged: string[] = []) =>
      planAutoReminders({ settings: on, today: '2026-11-30', localTime: '10:00', candidates, clientsMessagedToday: new Set(messaged) }).map((p) => p.saleId);
    expect(plan([c({ saleId: 'a', refillDate: '2026-12-02' }), c({ saleId: 'b', refillDate: '2026-12-01' }), c({ saleId: 'x', clientId: 'c2' })])).toEqual(['b', 'x']);
    expect(plan([c(), c({ saleId: 'y', clientId: 'c2' })], ['c1'])).toEqual(['y']);
  });
});
