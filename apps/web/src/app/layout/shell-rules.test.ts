import { describe, expect, it } from 'vitest';
import { isDemoBlockedRequest } from './demo-rules.ts';
import { greetingKey } from '../../features/dashboard/greeting.ts';
import { usagePercent, usageTone } from '../../components/ui/usage-tone.ts';

describe('demo mode refuses changes by request, not by button label (seed 000 section 4)', () => {
  it.each([
    ['POST', '/api/products'],
    ['PUT', '/api/settings'],
    ['PATCH', '/api/branches/1'],
    ['DELETE', '/api/users/1'],
    ['PUT', '/api/me/pin'],
    ['POST', '/api/stock/adjustments?x=1'],
  ])('refuses %s %s', (method, path) => {
    expect(isDemoBlockedRequest(method, path)).toBe(true);
  });
  it.each([
    ['GET', '/api/products'],
    ['POST', '/api/auth/logout'],
    ['POST', '/api/auth/unlock'],
    ['POST', '/api/me/branch'],
  ])('lets %s %s through', (method, path) => {
    expect(isDemoBlockedRequest(method, path)).toBe(false);
  });
});

describe('dashboard greeting (seed 002, Dashboard)', () => {
  it('says good morning before 12, good afternoon before 17, good evening after', () => {
    expect(greetingKey(0)).toBe('morning');
    expect(greetingKey(11)).toBe('morning');
    expect(greetingKey(12)).toBe('afternoon');
    expect(greetingKey(16)).toBe('afternoon');
    expect(greetingKey(17)).toBe('evening');
  });
});

describe('usage bars', () => {
  it('are red above 90%, yellow above 70%, green otherwise', () => {
    expect(usageTone(91)).toBe('red');
    expect(usageTone(90)).toBe('yellow');
    expect(usageTone(71)).toBe('yellow');
    expect(usageTone(70)).toBe('green');
  });
  it('treat -1 as unlimited', () => {
    expect(usagePercent(10, -1)).toBeNull();
    expect(usagePercent(45, 50)).toBe(90);
  });
});
