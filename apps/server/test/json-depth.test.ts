import { describe, expect, it } from 'vitest';
import { jsonNestsDeeperThan, MAX_JSON_DEPTH } from '../src/platform/input-guard.ts';

/** The depth scan of the JSON parser (platform/input-guard.ts): counts objects and arrays, never brackets in strings. */
describe('the JSON depth scan', () => {
  const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

  it('lets 64 levels through and refuses 65, objects and arrays alike', () => {
    expect(MAX_JSON_DEPTH).toBe(64);
    expect(jsonNestsDeeperThan(nested(64), 64)).toBe(false);
    expect(jsonNestsDeeperThan(nested(65), 64)).toBe(true);
    expect(jsonNestsDeeperThan(`${'{"a":'.repeat(64)}1${'}'.repeat(64)}`, 64)).toBe(false);
    expect(jsonNestsDeeperThan(`${'{"a":'.repeat(65)}1${'}'.repeat(65)}`, 64)).toBe(true);
    expect(jsonNestsDeeperThan(nested(200_000), 64)).toBe(true);
  });

  it('counts depth, not how many objects there are', () => {
    expect(jsonNestsDeeperThan(JSON.stringify(Array.from({ length: 10_000 }, () => ({ items: [{ a: [1] }] }))), 64)).toBe(false);
  });

  it('skips brackets inside strings, escaped quotes included', () => {
    expect(jsonNestsDeeperThan(JSON.stringify({ note: '['.repeat(1_000) }), 64)).toBe(false);
    expect(jsonNestsDeeperThan(JSON.stringify({ note: `"${'{'.repeat(1_000)}\\"[` }), 64)).toBe(false);
    expect(jsonNestsDeeperThan(`{"note":"\\"","z":${nested(65)}}`, 64)).toBe(true);
  });
});
