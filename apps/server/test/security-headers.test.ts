import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import helmet from '@fastify/helmet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HELMET_OPTIONS } from '../src/app.ts';
import { createTestApp, type TestApp } from './app.ts';
import { createUser, FIXTURE_PASSWORD } from './fixtures.ts';

/**
 * Issue 7 ('Also'): the security headers and cookie flags found good in the attack stay so. Every answer (API, the web
 * app's page, an error) carries the Content-Security-Policy and helmet's headers; the session cookie is HttpOnly,
 * SameSite=Lax, path /, and Secure behind HTTPS; the CSRF cookie is readable by the page (double submit) but SameSite.
 * docs/security.md (ASVS V3, V14) points here.
 */

let dist: string;
let t: TestApp;
let https: TestApp;

beforeAll(async () => {
  dist = mkdtempSync(path.join(os.tmpdir(), 'pp-sec-dist-'));
  writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>PharmaPoint</title>');
  t = await createTestApp('pglite', { webDist: dist });
  https = await createTestApp('pglite', { publicUrl: 'https://pharmapoint.example', secureCookies: true });
  await createUser(t.db, { email: 'headers@sec.test' });
  await createUser(https.db, { email: 'headers@sec.test' });
});

afterAll(async () => {
  await t?.close();
  await https?.close();
  rmSync(dist, { recursive: true, force: true });
});

function expectSecurityHeaders(headers: Record<string, unknown>, what: string): void {
  const csp = String(headers['content-security-policy'] ?? '');
  expect(csp, what).toContain("default-src 'self'");
  expect(csp, what).toContain("script-src 'self'");
  expect(csp, what).toContain("object-src 'none'");
  expect(csp, what).toContain("frame-ancestors 'self'");
  expect(headers['x-content-type-options'], what).toBe('nosniff');
  expect(headers['x-frame-options'], what).toBe('SAMEORIGIN');
  expect(headers['referrer-policy'], what).toBe('no-referrer');
  expect(headers['strict-transport-security'], what).toMatch(/max-age=\d{7,}/);
  expect(headers['cross-origin-opener-policy'], what).toBe('same-origin');
  expect(headers['x-powered-by'], what).toBeUndefined();
}

const setCookies = (headers: Record<string, unknown>) => [headers['set-cookie']].flat().filter(Boolean) as string[];

describe('security headers and cookie flags', () => {
  it('are on every kind of answer: the API, the web app, a 404 and a refused request', async () => {
    for (const url of ['/api/auth/providers', '/', '/app/products', '/api/no-such-route', '/api/me']) {
      const response = await t.app.inject({ method: 'GET', url });
      expectSecurityHeaders(response.headers, url);
    }
  });

  it("are exactly those @fastify/helmet sends per request with the app's options (the app works them out once, decision 0073)", async () => {
    const probe = Fastify();
    await probe.register(helmet, HELMET_OPTIONS);
    probe.get('/x', async () => ({ ok: true }));
    const expected = (await probe.inject({ method: 'GET', url: '/x' })).headers;
    await probe.close();
    const own = new Set(['content-type', 'content-length', 'date', 'connection', 'keep-alive']);
    const names = Object.keys(expected).filter((name) => !own.has(name));
    expect(names.length).toBeGreaterThanOrEqual(10);
    const signedIn = await t.client().login('headers@sec.test', FIXTURE_PASSWORD);
    const answers = {
      'GET /api/me (cached session)': await signedIn.get('/api/me'),
      'GET /api/me again': await signedIn.get('/api/me'),
      'GET /api/no-such-route': await t.app.inject({ method: 'GET', url: '/api/no-such-route' }),
      'POST /api/products without the CSRF token': await t.app.inject({ method: 'POST', url: '/api/products', payload: {} }),
      'GET / (the web app)': await t.app.inject({ method: 'GET', url: '/' }),
    };
    for (const [what, answer] of Object.entries(answers)) {
      for (const name of names) expect(answer.headers[name], `${what}: ${name}`).toBe(expected[name]);
    }
  });

  it('make the session cookie HttpOnly, SameSite=Lax and path /, and the CSRF cookie SameSite without HttpOnly', async () => {
    const c = t.client();
    const response = await c.post('/api/auth/login', { email: 'headers@sec.test', password: FIXTURE_PASSWORD });
    expect(response.status).toBe(200);
    const session = setCookies(response.headers).find((h) => h.startsWith('pp_session='))!;
    expect(session).toMatch(/; HttpOnly/i);
    expect(session).toMatch(/; SameSite=Lax/i);
    expect(session).toMatch(/; Path=\//i);
    expect(session).not.toMatch(/; Secure/i);
    // The readable hint beside it says only that a session may exist (public pages ask /api/me only then).
    const hint = setCookies(response.headers).find((h) => h.startsWith('pp_signed_in='))!;
    expect(hint).toMatch(/^pp_signed_in=1;/);
    expect(hint).not.toMatch(/HttpOnly/i);
    const out = await c.post('/api/auth/logout', {});
    expect(setCookies(out.headers).find((h) => h.startsWith('pp_signed_in='))).toMatch(/Expires=Thu, 01 Jan 1970/i);

    const first = await t.app.inject({ method: 'GET', url: '/api/auth/providers' });
    const csrf = setCookies(first.headers).find((h) => h.startsWith('pp_csrf='))!;
    expect(csrf).toMatch(/; SameSite=Lax/i);
    expect(csrf).not.toMatch(/HttpOnly/i);
  });

  it('mark both cookies Secure behind HTTPS', async () => {
    const c = https.client();
    const response = await c.post('/api/auth/login', { email: 'headers@sec.test', password: FIXTURE_PASSWORD });
    expect(response.status).toBe(200);
    const session = setCookies(response.headers).find((h) => h.startsWith('pp_session='))!;
    expect(session).toMatch(/; Secure/i);
    const first = await https.app.inject({ method: 'GET', url: '/api/auth/providers' });
    expect(setCookies(first.headers).find((h) => h.startsWith('pp_csrf='))).toMatch(/; Secure/i);
  });
});
