import { describe, expect, it } from 'vitest';
import { displayName, formatCountdown, greetingKey } from './display.ts';

describe('display name (seed 002 section 3: "displayName, then name, then the part of the email before the @, then User")', () => {
  it('prefers displayName', () => {
    expect(displayName({ displayName: 'Dr. Wanjiru', name: 'Grace Wanjiru', email: 'grace@afya.co.ke' })).toBe('Dr. Wanjiru');
  });

  it('then uses name', () => {
    expect(displayName({ displayName: '', name: 'Grace Wanjiru', email: 'grace@afya.co.ke' })).toBe('Grace Wanjiru');
  });

  it('then the part of the email before the @', () => {
    expect(displayName({ displayName: null, email: 'grace@afya.co.ke' })).toBe('grace');
  });

  it("then 'User'", () => {
    expect(displayName({})).toBe('User');
  });
});

describe('greeting (seed 002 section 9: "before 12, before 17, otherwise evening")', () => {
  it('says morning before 12', () => {
    expect(greetingKey(0)).toBe('morning');
    expect(greetingKey(11)).toBe('morning');
  });

  it('says afternoon from 12 to before 17', () => {
    expect(greetingKey(12)).toBe('afternoon');
    expect(greetingKey(16)).toBe('afternoon');
  });

  it('says evening from 17', () => {
    expect(greetingKey(17)).toBe('evening');
    expect(greetingKey(23)).toBe('evening');
  });
});

describe('auto-logout countdown (seed 000 section 4: "shown as m:ss")', () => {
  it('shows minutes and two-digit seconds', () => {
    expect(formatCountdown(65)).toBe('1:05');
  });

  it('shows under a minute as 0:ss', () => {
    expect(formatCountdown(9)).toBe('0:09');
  });

  it('keeps counting minutes past an hour', () => {
    expect(formatCountdown(3600)).toBe('60:00');
  });

  it('never shows a negative time', () => {
    expect(formatCountdown(-5)).toBe('0:00');
  });

  it('drops partial seconds', () => {
    expect(formatCountdown(59.9)).toBe('0:59');
  });
});
