import { afterEach, describe, expect, it, vi } from 'vitest';
import { newUuid } from './idempotency.ts';

const V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('newUuid', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('makes v4 UUIDs where crypto.randomUUID is missing (a till opened on a LAN address over http)', () => {
    const { getRandomValues } = globalThis.crypto;
    vi.stubGlobal('crypto', { getRandomValues: getRandomValues.bind(globalThis.crypto) });
    expect(typeof (globalThis.crypto as { randomUUID?: unknown }).randomUUID).toBe('undefined');
    const ids = new Set(Array.from({ length: 200 }, () => newUuid()));
    expect(ids.size).toBe(200);
    for (const id of ids) expect(id).toMatch(V4);
  });

  it('uses crypto.randomUUID where it exists', () => {
    expect(newUuid()).toMatch(V4);
  });
});
