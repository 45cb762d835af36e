import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { parseTrustProxy } from '../src/config.ts';
import { createTestApp, type TestApp } from './app.ts';
import { testDatabaseKinds } from './database.ts';
import { createPharmacyWithStaff, createUser, FIXTURE_PASSWORD, type PharmacyFixture } from './fixtures.ts';
import { TestClient } from './http.ts';

/**
 * Issue 7 items 1, 3, 4, 7 and 10: the lockout race, sign-in limits per address and account kept in the database,
 * X-Forwarded-For believed only from configured proxies, the dev mailbox closed to other machines, and the health
 * endpoints. Decision 0013.
 */

const login = (c: TestClient, email: string, password: string, headers: Record<string, string> = {}) =>
  c.request('POST', '/api/auth/login', { email, password }, headers);

describe.each(testDatabaseKinds())('sign-in limits on %s', (kind) => {
  let t: TestApp;
  let fx: PharmacyFixture;

  beforeAll(async () => {
    t = await createTestApp(kind);
    fx = await createPharmacyWithStaff(t.db, { id: 'secpharm', roles: ['owner', 'cashier', 'manager'] });
  });
  afterAll(async () => t?.close());

  it('judges at most 5 attempts of 30 wrong passwords and the right one sent at the same moment: the right one is refused, every answer after the 5th failure is locked', async () => {
    const user = await createUser(t.db, { email: 'race@sec.test' });
    // Real HTTP on a port: every request its own connection, handled concurrently.
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
      const first = await fetch(`${base}/api/auth/providers`);
      const csrf = /pp_csrf=([^;]+)/.exec(first.headers.get('set-cookie') ?? '')![1]!;
      const attempt = async (password: string) => {
        const response = await fetch(`${base}/api/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', cookie: `pp_csrf=${csrf}`, 'x-csrf-token': csrf },
          body: JSON.stringify({ email: user.email, password }),
        });
        const body = (await response.json()) as { error?: { code: string } };
        return { status: response.status, code: body.error?.code ?? 'OK' };
      };
      const answers = await Promise.all([...Array.from({ length: 30 }, (_, i) => attempt(`Wrong#${i}pw`)), attempt(user.password)]);
      const right = answers.pop()!;
      const codes = answers.map((a) => a.code);
      // The right password came after 5 attempts had been claimed: refused as locked.
      expect(right).toEqual({ status: 423, code: 'LOGIN_LOCKED' });
      // Four failures say 'invalid'; the 5th and every later one say 'locked'.
      expect(codes.filter((c) => c === 'LOGIN_INVALID_CREDENTIALS')).toHaveLength(4);
      expect(codes.filter((c) => c === 'LOGIN_LOCKED')).toHaveLength(26);
      const [row] = await t.db.owner.query<{ login_attempts: number; locked_until: string | null }>(
        `SELECT login_attempts, locked_until FROM users WHERE id = $1`,
        [user.id],
      );
      expect(row!.login_attempts).toBe(5);
      expect(new Date(row!.locked_until!).getTime()).toBeGreaterThan(Date.now() + 14 * 60_000);
    } finally {
      await t.app.server.close();
    }
  });

  it('does not let 20 failures from one address on one account lock the owner out from that address', async () => {
    const c = t.client('10.20.0.1');
    // A colleague at the same till mistypes their email 20 times.
    for (let i = 0; i < 20; i++) {
      const r = await login(c, 'cashier@secpharm.tset', 'whatever');
      expect(r.status).toBeGreaterThanOrEqual(400);
    }
    // That pair is now held back…
    expect((await login(c, 'cashier@secpharm.tset', 'whatever')).body.error.code).toBe('LOGIN_TOO_MANY_ATTEMPTS');
    // …but the owner's correct password from the same address signs in.
    expect((await login(c, fx.users.owner!.email, FIXTURE_PASSWORD)).status).toBe(200);
    // And another address may still try that account name.
    expect((await login(t.client('10.20.0.2'), 'cashier@secpharm.tset', 'whatever')).body.error.code).toBe('LOGIN_NO_ACCOUNT');
  });

  it('slows a password-spraying address, but an account that signed in from that address before still signs in', async () => {
    const ip = '10.21.0.1';
    expect((await login(t.client(ip), fx.users.manager!.email, FIXTURE_PASSWORD)).status).toBe(200);
    const sprayer = t.client(ip);
    for (let i = 0; i < 20; i++) expect((await login(sprayer, `spray${i}@secpharm.test`, 'Password1')).status).toBe(401);
    // New accounts from this address are held back, whatever the password…
    expect((await login(sprayer, 'spray-next@secpharm.test', 'Password1')).body.error.code).toBe('LOGIN_TOO_MANY_ATTEMPTS');
    expect((await login(t.client(ip), fx.users.cashier!.email, FIXTURE_PASSWORD)).body.error.code).toBe('LOGIN_TOO_MANY_ATTEMPTS');
    // …while the manager, known at this address, signs in with the right password.
    expect((await login(t.client(ip), fx.users.manager!.email, FIXTURE_PASSWORD)).status).toBe(200);
  });

  it('ignores X-Forwarded-For by default: a client changing the header is still limited', async () => {
    const c = t.client('10.22.0.1');
    for (let i = 0; i < 20; i++) {
      const r = await login(c, `xff${i}@secpharm.test`, 'x', { 'x-forwarded-for': `198.51.100.${i + 1}` });
      expect(r.body.error.code).toBe('LOGIN_NO_ACCOUNT');
    }
    const next = await login(c, 'xff-next@secpharm.test', 'x', { 'x-forwarded-for': '198.51.100.99' });
    expect(next.status).toBe(429);
  });

  it('keeps the limits in the database, so they hold across server instances', async () => {
    const second = await buildApp({ db: t.db, config: t.config, mailer: t.mailer });
    await second.ready();
    try {
      const ip = '10.23.0.1';
      for (let i = 0; i < 10; i++) expect((await login(t.client(ip), `multi${i}@secpharm.test`, 'x')).status).toBe(401);
      for (let i = 10; i < 20; i++) expect((await login(new TestClient(second, ip), `multi${i}@secpharm.test`, 'x')).status).toBe(401);
      expect((await login(t.client(ip), 'multi-next@secpharm.test', 'x')).status).toBe(429);
      expect((await login(new TestClient(second, ip), 'multi-next@secpharm.test', 'x')).status).toBe(429);
    } finally {
      await second.close();
    }
  });
});

describe('TRUST_PROXY', () => {
  it('parses off, a hop count and a list of addresses', () => {
    expect(parseTrustProxy(undefined)).toBe(false);
    expect(parseTrustProxy('')).toBe(false);
    expect(parseTrustProxy('false')).toBe(false);
    const hops = parseTrustProxy('1');
    expect(typeof hops).toBe('function');
    expect((hops as (a: string, h: number) => boolean)('127.0.0.1', 0)).toBe(true);
    expect((hops as (a: string, h: number) => boolean)('10.0.0.1', 1)).toBe(false);
    expect(parseTrustProxy(' 10.0.0.1, 10.0.0.0/8 ')).toEqual(['10.0.0.1', '10.0.0.0/8']);
  });

  it('honours X-Forwarded-For from a trusted proxy (TRUST_PROXY=1): each client behind it has its own limit', async () => {
    const t = await createTestApp('pglite', { trustProxy: parseTrustProxy('1') });
    try {
      const fx = await createPharmacyWithStaff(t.db, { id: 'proxypharm', roles: ['owner'] });
      const proxy = t.client('127.0.0.1');
      const from = (ip: string) => ({ 'x-forwarded-for': ip });
      for (let i = 0; i < 20; i++) expect((await login(proxy, `p${i}@proxy.test`, 'x', from('203.0.113.7'))).status).toBe(401);
      expect((await login(proxy, 'p-next@proxy.test', 'x', from('203.0.113.7'))).status).toBe(429);
      // Another client behind the same proxy is not held back, and its session records its own address.
      expect((await login(proxy, fx.users.owner!.email, FIXTURE_PASSWORD, from('203.0.113.8'))).status).toBe(200);
      const [session] = await t.db.owner.query<{ ip: string }>(`SELECT ip FROM sessions ORDER BY created_at DESC LIMIT 1`);
      expect(session!.ip).toBe('203.0.113.8');
    } finally {
      await t.close();
    }
  });
});

describe.each(testDatabaseKinds())('the dev mailbox on %s', (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(kind);
    await createUser(t.db, { email: 'operator@platform.test', isPlatformOperator: true });
    await createUser(t.db, { email: 'resetme@mailbox.test' });
    expect((await t.client().post('/api/auth/forgot-password', { email: 'resetme@mailbox.test' })).status).toBe(200);
  });
  afterAll(async () => t?.close());

  it('is readable from the machine itself, and says so on the sign-in page', async () => {
    const page = await t.client('127.0.0.1').get('/dev/mailbox');
    expect(page.status).toBe(200);
    expect(String(page.body)).toContain('resetme@mailbox.test');
    expect(String(page.body)).toContain('/reset-password?token=');
    expect((await t.client('::1').get('/dev/mailbox')).status).toBe(200);
    expect((await t.client('10.30.0.1').get('/api/auth/providers')).body).toEqual({ google: false, devMailbox: true });
  });

  it('answers 404 to a request from another machine, even one claiming to be local', async () => {
    for (const headers of [{}, { 'x-forwarded-for': '127.0.0.1' }] as Record<string, string>[]) {
      const response = await t.client('192.0.2.10').request('GET', '/dev/mailbox', undefined, headers);
      expect(response.status).toBe(404);
      expect(JSON.stringify(response.body)).not.toContain('resetme@mailbox.test');
    }
  });

  it('is readable by a signed-in platform operator from anywhere, not by other signed-in users', async () => {
    const operator = await t.client('192.0.2.11').login('operator@platform.test', FIXTURE_PASSWORD);
    expect((await operator.get('/dev/mailbox')).status).toBe(200);
    const someone = await createUser(t.db, { email: 'someone@mailbox.test' });
    const user = await t.client('192.0.2.12').login(someone.email, someone.password);
    expect((await user.get('/dev/mailbox')).status).toBe(404);
  });

  it('behind a trusted proxy, a loopback peer is not enough (every proxied request would look local)', async () => {
    const proxied = await createTestApp(kind, { trustProxy: parseTrustProxy('1') });
    try {
      expect((await proxied.client('127.0.0.1').get('/dev/mailbox')).status).toBe(404);
    } finally {
      await proxied.close();
    }
  });
});

describe.each(testDatabaseKinds())('health checks on %s', (kind) => {
  it('answer JSON without a session lookup, and readiness fails when the database does not answer', async () => {
    const t = await createTestApp(kind);
    // The same database, which can be made to stop answering (a hung server or a cut network: queries never return).
    const outage = { on: false };
    const db = new Proxy(t.db, {
      get(target, prop, receiver) {
        if (prop === 'transaction' && outage.on) return () => new Promise(() => undefined);
        const value = Reflect.get(target, prop, receiver) as unknown;
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    const app = await buildApp({ db, config: t.config, mailer: t.mailer });
    await app.ready();
    try {
      const health = await app.inject({ method: 'GET', url: '/health', headers: { cookie: 'pp_session=not-a-session' } });
      expect(health.statusCode).toBe(200);
      expect(health.headers['content-type']).toMatch(/^application\/json/);
      expect(health.json()).toEqual({ status: 'ok', version: '0.1.0', database: { reachable: true }, kopokopo: { configured: false, status: 'offline', simulator: false } });
      // The auth plugin left it alone: no CSRF cookie handed out, no session read.
      expect(health.headers['set-cookie']).toBeUndefined();
      const ready = await app.inject({ method: 'GET', url: '/health/ready' });
      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toEqual({ ready: true, database: { reachable: true } });

      outage.on = true;
      const down = await app.inject({ method: 'GET', url: '/health/ready' });
      expect(down.statusCode).toBe(503);
      expect(down.json()).toEqual({ ready: false, database: { reachable: false } });
      const degraded = await app.inject({ method: 'GET', url: '/health' });
      expect(degraded.statusCode).toBe(200);
      expect(degraded.json()).toMatchObject({ status: 'degraded', database: { reachable: false } });
    } finally {
      await app.close();
      await t.close();
    }
  });
});
