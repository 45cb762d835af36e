import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './app.ts';
import { testDatabaseKinds } from './database.ts';
import { createPharmacyWithStaff, createUser, FIXTURE_PASSWORD, type PharmacyFixture } from './fixtures.ts';
import { linkIn, startSmtpServer } from './smtp.ts';

type Smtp = Awaited<ReturnType<typeof startSmtpServer>>;

describe.each(testDatabaseKinds())('sign-in and sessions on %s', (kind) => {
  let t: TestApp;
  let smtp: Smtp;
  let fx: PharmacyFixture;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await createTestApp(kind, { smtpUrl: smtp.url });
    fx = await createPharmacyWithStaff(t.db, { id: 'authpharm', roles: ['owner', 'cashier', 'demo'] });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const userRow = async (email: string) =>
    (
      await t.db.owner.query<{ last_login_at: Date | null; session_active: boolean; login_attempts: number; locked_until: Date | null; last_logout_at: Date | null }>(
        `SELECT last_login_at, session_active, login_attempts, locked_until, last_logout_at FROM users WHERE email = $1`,
        [email],
      )
    )[0]!;

  it('signs in with the right password: Welcome back!, the me document, and the sign-in fields', async () => {
    const c = t.client();
    const response = await c.post('/api/auth/login', { email: ' Owner@AuthPharm.test ', password: FIXTURE_PASSWORD });
    expect(response.status).toBe(200);
    expect(response.body.message).toBe('Welcome back!');
    expect(response.body.user.email).toBe('owner@authpharm.test');
    expect(response.body.pharmacy.id).toBe('authpharm');
    expect(response.body.permissions).toContain('*');
    expect(response.body.branch.name).toBe('Main Branch');
    const cookie = ([response.headers['set-cookie']].flat() as string[]).find((h) => h.startsWith('pp_session='))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    // Only the hash of the token is stored.
    const token = c.cookies.get('pp_session')!;
    const stored = await t.db.owner.query<{ token_hash: string }>(`SELECT token_hash FROM sessions`);
    expect(stored.map((s) => s.token_hash)).not.toContain(token);
    const row = await userRow('owner@authpharm.test');
    expect(row.session_active).toBe(true);
    expect(row.last_login_at).not.toBeNull();
    expect((await c.get('/api/me')).body.user.email).toBe('owner@authpharm.test');
  });

  it('refuses missing fields, a bad email, an unknown account and a wrong password with the specification messages', async () => {
    const c = t.client('10.0.0.2');
    expect((await c.post('/api/auth/login', { email: '', password: 'x' })).body.error.message).toBe('Please enter both email and password');
    expect((await c.post('/api/auth/login', { email: 'a@b.co', password: '' })).body.error.message).toBe('Please enter both email and password');
    expect((await c.post('/api/auth/login', { email: 'not-an-email', password: 'x' })).body.error.message).toBe('Please enter a valid email address.');
    const unknown = await c.post('/api/auth/login', { email: 'nobody@nowhere.test', password: 'x' });
    expect(unknown.status).toBe(401);
    expect(unknown.body.error.message).toBe('No account found with this email address.');
    const wrong = await c.post('/api/auth/login', { email: fx.users.cashier!.email, password: 'wrong-password' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error.message).toBe('Invalid email or password. Please check your credentials.');
    expect(c.cookies.has('pp_session')).toBe(false);
    expect((await c.get('/api/me')).status).toBe(401);
  });

  it('locks the account for 15 minutes after 5 failures, even with the right password, and a good sign-in resets the count', async () => {
    const user = await createUser(t.db, { email: 'locky@auth.test' });
    const c = t.client('10.0.0.3');
    for (let i = 1; i <= 4; i++) {
      const r = await c.post('/api/auth/login', { email: user.email, password: 'wrong' });
      expect(r.body.error.code).toBe('LOGIN_INVALID_CREDENTIALS');
      expect((await userRow(user.email)).login_attempts).toBe(i);
    }
    const fifth = await c.post('/api/auth/login', { email: user.email, password: 'wrong' });
    expect(fifth.status).toBe(423);
    expect(fifth.body.error.message).toBe('Account is temporarily locked. Please try again later.');
    const lockedUntil = (await userRow(user.email)).locked_until!;
    const minutes = (new Date(lockedUntil).getTime() - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(14);
    expect(minutes).toBeLessThanOrEqual(15);
    const right = await c.post('/api/auth/login', { email: user.email, password: user.password });
    expect(right.body.error.message).toBe('Account is temporarily locked. Please try again later.');
    expect(c.cookies.has('pp_session')).toBe(false);
    // After the lock has passed, the right password signs in and clears the counters.
    await t.db.owner.query(`UPDATE users SET locked_until = now() - interval '1 minute' WHERE email = $1`, [user.email]);
    expect((await c.post('/api/auth/login', { email: user.email, password: user.password })).status).toBe(200);
    const row = await userRow(user.email);
    expect(row.login_attempts).toBe(0);
    expect(row.locked_until).toBeNull();
  });

  it('limits failed attempts per IP address', async () => {
    const c = t.client('10.9.9.9');
    for (let i = 0; i < 20; i++) {
      const r = await c.post('/api/auth/login', { email: `nobody${i}@nowhere.test`, password: 'x' });
      expect(r.status).toBe(401);
    }
    const blocked = await c.post('/api/auth/login', { email: fx.users.owner!.email, password: FIXTURE_PASSWORD });
    expect(blocked.status).toBe(429);
    expect(blocked.body.error.message).toBe('Too many failed attempts. Please try again later or reset your password.');
    // Another address is not affected.
    expect((await t.client('10.9.9.10').post('/api/auth/login', { email: fx.users.owner!.email, password: FIXTURE_PASSWORD })).status).toBe(200);
  });

  it('refuses disabled, deactivated and unverified accounts; the unverified one gets a fresh verification email', async () => {
    const disabled = await createUser(t.db, { email: 'disabled@auth.test' });
    await t.db.owner.query(`UPDATE users SET is_disabled = true WHERE id = $1`, [disabled.id]);
    const inactive = await createUser(t.db, { email: 'inactive@auth.test' });
    await t.db.owner.query(`UPDATE users SET is_active = false WHERE id = $1`, [inactive.id]);
    const c = t.client('10.0.0.4');
    expect((await c.post('/api/auth/login', { email: disabled.email, password: disabled.password })).body.error.message).toBe(
      'This account has been disabled. Contact your administrator.',
    );
    expect((await c.post('/api/auth/login', { email: inactive.email, password: inactive.password })).body.error.message).toBe(
      'Your account has been deactivated. Contact your administrator.',
    );
    // A member whose membership was deactivated.
    await t.db.owner.query(`UPDATE memberships SET is_active = false WHERE user_id = $1`, [fx.users.cashier!.id]);
    expect((await c.post('/api/auth/login', { email: fx.users.cashier!.email, password: FIXTURE_PASSWORD })).body.error.message).toBe(
      'Your account has been deactivated. Contact your administrator.',
    );
    await t.db.owner.query(`UPDATE memberships SET is_active = true WHERE user_id = $1`, [fx.users.cashier!.id]);

    const unverified = await createUser(t.db, { email: 'unverified@auth.test', verified: false });
    const refused = await c.post('/api/auth/login', { email: unverified.email, password: unverified.password });
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe('Please verify your email before logging in. Check your inbox for the verification link.');
    expect(c.cookies.has('pp_session')).toBe(false);
    const [mail] = await smtp.waitFor(unverified.email);
    const link = new URL(linkIn(mail!.raw, '/verify-email'));
    expect(link.searchParams.get('mode')).toBe('verifyEmail');
    const code = link.searchParams.get('oobCode')!;
    expect((await c.post('/api/auth/verify-email', { mode: 'resetPassword', oobCode: code })).body.error.message).toBe(
      'Invalid verification link. Please request a new verification email.',
    );
    expect((await c.post('/api/auth/verify-email', { mode: 'verifyEmail', oobCode: code })).status).toBe(200);
    // Single use.
    expect((await c.post('/api/auth/verify-email', { mode: 'verifyEmail', oobCode: code })).body.error.message).toBe(
      'This link has expired or already been used.',
    );
    expect((await c.post('/api/auth/login', { email: unverified.email, password: unverified.password })).status).toBe(200);
  });

  it('expired verification links say so; resending needs a signed-in user', async () => {
    const user = await createUser(t.db, { email: 'expiring@auth.test', verified: false });
    const c = t.client('10.0.0.5');
    await c.post('/api/auth/login', { email: user.email, password: user.password });
    const [mail] = await smtp.waitFor(user.email);
    const code = new URL(linkIn(mail!.raw, '/verify-email')).searchParams.get('oobCode')!;
    await t.db.owner.query(`UPDATE one_time_tokens SET expires_at = now() - interval '1 second' WHERE user_id = $1`, [user.id]);
    expect((await c.post('/api/auth/verify-email', { mode: 'verifyEmail', oobCode: code })).body.error.message).toBe(
      'This link has expired. Please request a new one.',
    );
    expect((await c.post('/api/auth/resend-verification')).body.error.message).toBe('Please sign in first to resend verification email.');
    const signedIn = await t.client('10.0.0.6').login(fx.users.owner!.email, FIXTURE_PASSWORD);
    const resent = await signedIn.post('/api/auth/resend-verification');
    expect(resent.body.message).toBe('Verification email sent! Please check your inbox.');
    await smtp.waitFor(fx.users.owner!.email);
  });

  it('resets a password by emailed link: single use, rules checked, old sessions signed out, rate limited', async () => {
    const user = await createUser(t.db, { email: 'forgetful@auth.test' });
    const old = await t.client('10.0.1.1').login(user.email, user.password);
    const c = t.client('10.0.1.2');
    expect((await c.post('/api/auth/forgot-password', { email: '' })).body.error.message).toBe('Please enter your email address');
    expect((await c.post('/api/auth/forgot-password', { email: 'bad' })).body.error.message).toBe('Please enter a valid email address.');
    expect((await c.post('/api/auth/forgot-password', { email: 'ghost@auth.test' })).body.error.message).toBe('No account found with this email address.');
    expect((await c.post('/api/auth/forgot-password', { email: ' Forgetful@Auth.test ' })).status).toBe(200);
    const [mail] = await smtp.waitFor(user.email);
    const token = new URL(linkIn(mail!.raw, '/reset-password')).searchParams.get('token')!;

    expect((await c.post('/api/auth/reset-password', { token, password: 'short', confirmPassword: 'short' })).body.error.message).toBe(
      'Password does not meet requirements',
    );
    expect((await c.post('/api/auth/reset-password', { token, password: 'NewPass#2026', confirmPassword: 'NewPass#2027' })).body.error.message).toBe(
      'Passwords do not match',
    );
    expect((await c.post('/api/auth/reset-password', { token, password: 'NewPass#2026', confirmPassword: 'NewPass#2026' })).status).toBe(200);
    expect((await c.post('/api/auth/reset-password', { token, password: 'NewPass#2026', confirmPassword: 'NewPass#2026' })).body.error.message).toBe(
      'This link has expired or already been used.',
    );
    expect((await old.get('/api/me')).status).toBe(401);
    expect((await c.post('/api/auth/login', { email: user.email, password: user.password })).status).toBe(401);
    expect((await c.post('/api/auth/login', { email: user.email, password: 'NewPass#2026' })).status).toBe(200);

    await c.post('/api/auth/forgot-password', { email: user.email });
    await c.post('/api/auth/forgot-password', { email: user.email });
    const tooMany = await c.post('/api/auth/forgot-password', { email: user.email });
    expect(tooMany.status).toBe(429);
    expect(tooMany.body.error.message).toBe('Too many requests. Please try again later.');
  });

  it('signs out: Logged out successfully, the session revoked, sessionActive false and lastLogout set', async () => {
    const c = await t.client('10.0.2.1').login(fx.users.owner!.email, FIXTURE_PASSWORD);
    const token = c.cookies.get('pp_session')!;
    const out = await c.post('/api/auth/logout');
    expect(out.body.message).toBe('Logged out successfully');
    expect(c.cookies.has('pp_session')).toBe(false);
    // The old token no longer works even if replayed.
    const replay = await t.app.inject({ method: 'GET', url: '/api/me', cookies: { pp_session: token } });
    expect(replay.statusCode).toBe(401);
    const row = await userRow(fx.users.owner!.email);
    expect(row.last_logout_at).not.toBeNull();
  });

  it('locks the session and unlocks it by PIN or password with the specification messages', async () => {
    const c = await t.client('10.0.3.1').login(fx.users.cashier!.email, FIXTURE_PASSWORD);
    expect((await c.put('/api/me/pin', { pin: '12a4', currentPassword: FIXTURE_PASSWORD })).status).toBe(400);
    expect((await c.put('/api/me/pin', { pin: '2468', currentPassword: 'wrong' })).status).toBe(401);
    expect((await c.put('/api/me/pin', { pin: '2468', currentPassword: FIXTURE_PASSWORD })).status).toBe(200);
    expect((await c.get('/api/me')).body.user.hasPin).toBe(true);

    expect((await c.post('/api/auth/lock')).status).toBe(200);
    const me = await c.get('/api/me');
    expect(me.body.session.locked).toBe(true);
    expect(me.body.session.lockAfterMinutes).toBe(15);
    const blocked = await c.get('/api/branches');
    expect(blocked.status).toBe(423);

    expect((await c.post('/api/auth/unlock', { method: 'pin', secret: '' })).body.error.message).toBe('Please enter your PIN');
    expect((await c.post('/api/auth/unlock', { method: 'password', secret: '' })).body.error.message).toBe('Please enter your password');
    expect((await c.post('/api/auth/unlock', { method: 'pin', secret: '12' })).body.error.message).toBe('PIN must be at least 4 digits');
    expect((await c.post('/api/auth/unlock', { method: 'pin', secret: '1234567' })).body.error.message).toBe('PIN must be at least 4 digits');
    expect((await c.post('/api/auth/unlock', { method: 'pin', secret: '1111' })).status).toBe(401);
    const unlocked = await c.post('/api/auth/unlock', { method: 'pin', secret: '2468' });
    expect(unlocked.status).toBe(200);
    expect(unlocked.body.session.locked).toBe(false);
    expect((await c.get('/api/branches')).status).toBe(200);

    await c.post('/api/auth/lock');
    expect((await c.post('/api/auth/unlock', { method: 'password', secret: FIXTURE_PASSWORD })).status).toBe(200);

    // Five wrong unlocks sign the session out.
    await c.post('/api/auth/lock');
    for (let i = 0; i < 4; i++) expect((await c.post('/api/auth/unlock', { method: 'pin', secret: '0000' })).status).toBe(401);
    expect((await c.post('/api/auth/unlock', { method: 'pin', secret: '0000' })).status).toBe(401);
    expect((await c.get('/api/me')).status).toBe(401);
  });

  it('ends a locked session once the auto-logout countdown has run out', async () => {
    const c = await t.client('10.0.3.2').login(fx.users.owner!.email, FIXTURE_PASSWORD);
    await c.post('/api/auth/lock');
    await t.db.owner.query(`UPDATE sessions SET locked_at = now() - interval '6 minutes' WHERE locked_at IS NOT NULL AND revoked_at IS NULL`);
    expect((await c.get('/api/me')).status).toBe(401);
  });

  it('needs the CSRF header on every write', async () => {
    const c = await t.client('10.0.4.1').login(fx.users.owner!.email, FIXTURE_PASSWORD);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      cookies: { pp_session: c.cookies.get('pp_session')!, pp_csrf: c.cookies.get('pp_csrf')! },
    });
    expect(response.statusCode).toBe(403);
    expect(JSON.parse(response.body).error.code).toBe('CSRF_FAILED');
    expect((await c.get('/api/me')).status).toBe(200);
  });

  it('accepts an invitation: the emailed link sets the password and signs the new member in', async () => {
    const owner = await t.client('10.0.5.1').login(fx.users.owner!.email, FIXTURE_PASSWORD);
    const invited = await owner.post('/api/users/invite', { email: 'newbie@auth.test', name: 'New Bie', role: 'inventory', hasPosAccess: false });
    expect(invited.status, JSON.stringify(invited.body)).toBe(201);
    const [mail] = await smtp.waitFor('newbie@auth.test');
    const token = new URL(linkIn(mail!.raw, '/accept-invite')).searchParams.get('token')!;
    const c = t.client('10.0.5.2');
    // The invited person cannot sign in before choosing a password.
    expect((await c.post('/api/auth/login', { email: 'newbie@auth.test', password: 'anything' })).status).toBe(401);
    const details = await c.get(`/api/auth/invite/${encodeURIComponent(token)}`);
    expect(details.body).toEqual({ email: 'newbie@auth.test', name: 'New Bie', pharmacyName: 'Pharmacy authpharm', pharmacyId: 'authpharm', hasAccount: false });
    expect((await c.post('/api/auth/accept-invite', { token, password: 'weak', confirmPassword: 'weak' })).body.error.message).toBe(
      'Password does not meet requirements',
    );
    const accepted = await c.post('/api/auth/accept-invite', { token, password: 'Newbie#2026', confirmPassword: 'Newbie#2026' });
    expect(accepted.status).toBe(200);
    expect(accepted.body.membership.role).toBe('inventory');
    expect(accepted.body.pharmacy.id).toBe('authpharm');
    expect((await c.post('/api/auth/accept-invite', { token, password: 'Newbie#2026', confirmPassword: 'Newbie#2026' })).body.error.message).toBe(
      'This link has expired or already been used.',
    );
    expect((await t.client('10.0.5.3').post('/api/auth/login', { email: 'newbie@auth.test', password: 'Newbie#2026' })).status).toBe(200);
  });

  it('lets a demo user sign in, out, lock and unlock, but not set a PIN', async () => {
    const c = await t.client('10.0.6.1').login(fx.users.demo!.email, FIXTURE_PASSWORD);
    const me = await c.get('/api/me');
    expect(me.body.isDemo).toBe(true);
    const pin = await c.put('/api/me/pin', { pin: '1234', currentPassword: FIXTURE_PASSWORD });
    expect(pin.status).toBe(403);
    expect(pin.body.error.message).toBe('Demo mode: Changes are not saved');
    expect((await c.post('/api/auth/lock')).status).toBe(200);
    expect((await c.post('/api/auth/unlock', { method: 'password', secret: FIXTURE_PASSWORD })).status).toBe(200);
    expect((await c.post('/api/auth/logout')).status).toBe(200);
  });

  it('offers Google only when it is configured', async () => {
    expect((await t.client().get('/api/auth/providers')).body).toEqual({ google: false, devMailbox: false }); // SMTP is configured: no dev mailbox
  });
});

describe('session cookie behind HTTPS', () => {
  it('is Secure when the public URL is https', async () => {
    const t = await createTestApp('pglite', { publicUrl: 'https://pharmacy.example', secureCookies: true });
    try {
      const fx = await createPharmacyWithStaff(t.db, { id: 'httpspharm', roles: ['owner'] });
      const response = await t.client().post('/api/auth/login', { email: fx.users.owner!.email, password: FIXTURE_PASSWORD });
      expect(response.status).toBe(200);
      const cookie = ([response.headers['set-cookie']].flat() as string[]).find((h) => h.startsWith('pp_session='))!;
      expect(cookie).toMatch(/; Secure/i);
      expect(cookie).toMatch(/HttpOnly/i);
    } finally {
      await t.close();
    }
  });

  it('follows PUBLIC_URL unless SECURE_COOKIES says otherwise', async () => {
    const { loadConfig } = await import('../src/config.ts');
    expect(loadConfig({ PUBLIC_URL: 'https://a.example' }).secureCookies).toBe(true);
    expect(loadConfig({ PUBLIC_URL: 'http://localhost:3000' }).secureCookies).toBe(false);
    expect(loadConfig({ PUBLIC_URL: 'https://a.example', SECURE_COOKIES: 'false' }).secureCookies).toBe(false);
  });
});
