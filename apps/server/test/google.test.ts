import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './app.ts';
import { testDatabaseKinds } from './database.ts';
import { createPharmacyWithStaff, type PharmacyFixture } from './fixtures.ts';
import { startOidcProvider, type FakeIdentity } from './oidc-provider.ts';
import type { TestClient } from './http.ts';

const CLIENT_ID = 'pharmapoint-test.apps.googleusercontent.com';
const CLIENT_SECRET = 'test-secret';

describe.each(testDatabaseKinds())('Google sign-in (OpenID Connect) on %s', (kind) => {
  let t: TestApp;
  let provider: Awaited<ReturnType<typeof startOidcProvider>>;
  let fx: PharmacyFixture;

  beforeAll(async () => {
    provider = await startOidcProvider(CLIENT_ID, CLIENT_SECRET);
    t = await createTestApp(kind, { googleClientId: CLIENT_ID, googleClientSecret: CLIENT_SECRET, googleIssuer: provider.issuer });
    fx = await createPharmacyWithStaff(t.db, { id: 'googlepharm', roles: ['owner'] });
  });
  afterAll(async () => {
    await t?.close();
    await provider?.close();
  });

  /** Start, consent at the provider, come back: returns where the browser is sent. */
  async function signInWithGoogle(c: TestClient, identity: FakeIdentity, from?: string): Promise<string> {
    const start = await c.get(`/api/auth/google/start${from ? `?from=${encodeURIComponent(from)}` : ''}`);
    expect(start.status).toBe(302);
    const authorizationUrl = String(start.headers.location);
    expect(authorizationUrl.startsWith(`${provider.issuer}/authorize?`)).toBe(true);
    expect(new URL(authorizationUrl).searchParams.get('scope')).toBe('openid email profile');
    const { code, state } = provider.consent(authorizationUrl, identity);
    const back = await c.get(`/api/auth/google/callback?code=${encodeURIComponent(code)}&state=${encodeURIComponent(state)}`);
    expect(back.status).toBe(302);
    return String(back.headers.location);
  }

  async function invite(email: string): Promise<void> {
    const owner = await t.client().login(fx.users.owner!.email, fx.users.owner!.password);
    const response = await owner.post('/api/users/invite', { email, name: 'Google Person', role: 'inventory', hasPosAccess: false });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
  }

  it('is offered when GOOGLE_CLIENT_ID is set', async () => {
    expect((await t.client().get('/api/auth/providers')).body).toEqual({ google: true, devMailbox: true });
  });

  it('signs an invited person in with their Google account, links it, and signs them in again by it', async () => {
    await invite('gina@gmail.test');
    const c = t.client();
    // Signed in, but the invitation waits for their answer in their own session (decision 0015): they choose first.
    const where = await signInWithGoogle(c, { sub: 'google-sub-1', email: 'Gina@gmail.test', email_verified: true, name: 'Gina' }, '/app/products');
    expect(where).toBe('/choose-pharmacy');
    const me = await c.get('/api/me');
    expect(me.status).toBe(200);
    expect(me.body.user.email).toBe('gina@gmail.test');
    expect(me.body.user.emailVerified).toBe(true);
    expect(me.body.pharmacy).toBeNull();
    expect((await c.get('/api/me/pharmacies')).body.invitations).toEqual([expect.objectContaining({ pharmacyId: 'googlepharm' })]);
    expect((await c.post('/api/me/invitations/accept', { pharmacyId: 'googlepharm' })).status).toBe(200);
    expect((await c.post('/api/me/pharmacy', { pharmacyId: 'googlepharm' })).status).toBe(200);
    expect((await c.get('/api/me')).body.pharmacy.id).toBe('googlepharm');
    const [row] = await t.db.owner.query<{ google_subject: string; session_active: boolean }>(
      `SELECT google_subject, session_active FROM users WHERE email = 'gina@gmail.test'`,
    );
    expect(row).toEqual({ google_subject: 'google-sub-1', session_active: true });

    const again = t.client();
    // Same Google account, even if its email changed since.
    expect(await signInWithGoogle(again, { sub: 'google-sub-1', email: 'gina.new@gmail.test', email_verified: true })).toBe('/app/dashboard');
    expect((await again.get('/api/me')).body.user.email).toBe('gina@gmail.test');
  });

  it('refuses an email with a password account, an unknown email, a cancelled consent and a forged state', async () => {
    const c = t.client();
    expect(await signInWithGoogle(c, { sub: 'google-sub-2', email: fx.users.owner!.email, email_verified: true })).toBe('/login?error=other_method');
    expect(await signInWithGoogle(c, { sub: 'google-sub-3', email: 'stranger@gmail.test', email_verified: true })).toBe('/login?error=account_not_found');
    await invite('unverified@gmail.test');
    expect(await signInWithGoogle(c, { sub: 'google-sub-4', email: 'unverified@gmail.test', email_verified: false })).toBe('/login?error=account_not_found');
    expect((await c.get('/api/me')).status).toBe(401);

    await c.get('/api/auth/google/start');
    const cancelled = await c.get('/api/auth/google/callback?error=access_denied&state=x');
    expect(cancelled.headers.location).toBe('/login?error=access_denied');

    const start = await c.get('/api/auth/google/start');
    const { code } = provider.consent(String(start.headers.location), { sub: 'google-sub-1', email: 'gina@gmail.test', email_verified: true });
    const forged = await c.get(`/api/auth/google/callback?code=${code}&state=not-the-state`);
    expect(forged.headers.location).toBe('/login?error=google_failed');
    expect((await c.get('/api/me')).status).toBe(401);
  });

  it('never redirects outside the app after sign-in', async () => {
    const c = t.client();
    await invite('redirect@gmail.test');
    const first = t.client();
    expect(await signInWithGoogle(first, { sub: 'google-sub-5', email: 'redirect@gmail.test', email_verified: true }, 'https://evil.example/')).toBe('/choose-pharmacy');
    expect((await first.post('/api/me/invitations/accept', { pharmacyId: 'googlepharm' })).status).toBe(200);
    expect(await signInWithGoogle(c, { sub: 'google-sub-5', email: 'redirect@gmail.test', email_verified: true }, 'https://evil.example/')).toBe('/app/dashboard');
  });
});

describe('Google sign-in when not configured', () => {
  it('is hidden and its start route sends people back to the login page', async () => {
    const t = await createTestApp('pglite');
    try {
      expect((await t.client().get('/api/auth/providers')).body).toEqual({ google: false, devMailbox: true });
      const start = await t.client().get('/api/auth/google/start');
      expect(start.status).toBe(302);
      expect(start.headers.location).toBe('/login?error=google_failed');
    } finally {
      await t.close();
    }
  });
});
