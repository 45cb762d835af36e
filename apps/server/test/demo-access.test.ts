import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './app.ts';
import { testDatabaseKinds } from './database.ts';
import { createPharmacyWithStaff, type PharmacyFixture } from './fixtures.ts';
import type { TestClient } from './http.ts';

const DEMO_ID = 'demo_pharmacy_shared';

/** The newest email to `to` with a link to `path`: the link, read from the jobs table (no SMTP in tests). */
async function linkTo(t: TestApp, to: string, path: string): Promise<URL> {
  const rows = await t.db.owner.query<{ payload: { to: string; text: string } }>(
    `SELECT payload FROM jobs WHERE kind = 'email' AND payload->>'to' = $1 ORDER BY created_at DESC, id DESC`,
    [to],
  );
  for (const row of rows) {
    const match = row.payload.text.match(new RegExp(`https?://\\S+${path}\\?\\S+`));
    if (match) return new URL(match[0]);
  }
  throw new Error(`no email to ${to} with a ${path} link`);
}

const count = async (t: TestApp, sql: string, params: unknown[] = []) => (await t.db.owner.query<{ n: number }>(sql, params))[0]!.n;

describe.each(testDatabaseKinds())('demo registration and access on %s', (kind) => {
  let t: TestApp;
  let demoPharmacy: PharmacyFixture;
  let ipCounter = 0;
  /** A client from an address of its own (the per-address limits stay out of each other's way). */
  const fresh = (): TestClient => t.client(`10.0.0.${++ipCounter}`);
  const form = (email: string) => ({ name: 'Jane Wanjiku', email, phone: '0712 345 678', pharmacyName: 'Jane Chemists' });

  beforeAll(async () => {
    t = await createTestApp(kind);
    demoPharmacy = await createPharmacyWithStaff(t.db, { id: DEMO_ID, name: 'Afya Bora Pharmacy', plan: 'standard', roles: ['owner', 'demo'] });
  });
  afterAll(async () => t?.close());

  it("refuses a bad form with the specification's messages and writes nothing", async () => {
    const c = fresh();
    const cases: [Record<string, unknown>, string][] = [
      [{ name: '', email: 'a@b.co', phone: '0712345678' }, 'Please fill in all required fields'],
      [{ name: 'Jane', email: '', phone: '0712345678' }, 'Please fill in all required fields'],
      [{ name: 'Jane', email: 'a@b.co', phone: ' ' }, 'Please fill in all required fields'],
      [{ name: 'Jane', email: 'not-an-email', phone: '0712345678' }, 'Please enter a valid email address'],
      [{ name: 'Jane', email: 'a@b.co', phone: '07123' }, 'Please enter a valid phone number'],
      [{ name: 'Jane', email: 'a@b.co', phone: '0712abc3456' }, 'Please enter a valid phone number'],
    ];
    for (const [body, message] of cases) {
      const res = await c.post('/api/demo/register', body);
      expect(res.status, message).toBe(400);
      expect(res.body.error.message).toBe(message);
    }
    expect(await count(t, `SELECT count(*)::int AS n FROM demo_registrations`)).toBe(0);
    expect(await count(t, `SELECT count(*)::int AS n FROM users WHERE email = 'a@b.co'`)).toBe(0);
  });

  it('registers: the account, the read-only place in the demo pharmacy, the demo record, the lead and the verification email', async () => {
    const c = fresh();
    const res = await c.post('/api/demo/register', { ...form(' Jane.Demo@Example.com '), pharmacyName: ' Jane Chemists ' });
    expect(res.status).toBe(201);
    expect(res.body.email).toBe('jane.demo@example.com');
    const [reg] = await t.db.owner.query<Record<string, unknown>>(`SELECT * FROM demo_registrations WHERE email = 'jane.demo@example.com'`);
    expect(reg).toMatchObject({ name: 'Jane Wanjiku', phone: '0712 345 678', pharmacy_name: 'Jane Chemists', source: 'website', email_verified: false, demo_access_granted: false, access_count: 0, last_access_at: null });
    const [lead] = await t.db.owner.query<Record<string, unknown>>(`SELECT * FROM leads WHERE email = 'jane.demo@example.com'`);
    expect(lead).toMatchObject({ lead_type: 'demo_interest', lead_source: 'website', lead_status: 'new', status: 'demo', email_verified: false, demo_accessed: false, follow_up_required: true });
    const [user] = await t.db.owner.query<{ password_hash: string | null; email_verified_at: string | null }>(`SELECT password_hash, email_verified_at FROM users WHERE email = 'jane.demo@example.com'`);
    expect(user).toEqual({ password_hash: null, email_verified_at: null });
    expect(await count(t, `SELECT count(*)::int AS n FROM memberships m JOIN users u ON u.id = m.user_id WHERE u.email = 'jane.demo@example.com' AND m.pharmacy_id = $1 AND m.role = 'demo'`, [DEMO_ID])).toBe(1);
    const link = await linkTo(t, 'jane.demo@example.com', '/verify-email');
    expect(link.searchParams.get('mode')).toBe('verifyEmail');

    // The same email again, in any case: the specification's sentence, and nothing more written.
    const again = await fresh().post('/api/demo/register', form('JANE.DEMO@example.com'));
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe('This email is already registered. Click Already Registered? below to access the demo.');
    // An email of any existing account is refused too.
    const staff = await fresh().post('/api/demo/register', form(demoPharmacy.users.owner!.email));
    expect(staff.body.error.code).toBe('DEMO_EMAIL_REGISTERED');
    expect(await count(t, `SELECT count(*)::int AS n FROM demo_registrations`)).toBe(1);
  });

  it('follows the verification link: verified, access granted, signed in; Enter Demo counts each access; the demo stays read-only', async () => {
    const c = fresh();
    expect((await c.get('/api/demo/access')).body).toEqual({ state: 'signed_out' });
    const email = 'verify.flow@example.com';
    expect((await c.post('/api/demo/register', form(email))).status).toBe(201);
    const link = await linkTo(t, email, '/verify-email');
    const verified = await c.post('/api/auth/verify-email', { mode: 'verifyEmail', oobCode: link.searchParams.get('oobCode') });
    expect(verified.status).toBe(200);
    expect(verified.body.demo).toBe(true);
    const [reg] = await t.db.owner.query<Record<string, unknown>>(`SELECT email_verified, demo_access_granted, verified_at, last_access_at FROM demo_registrations WHERE email = $1`, [email]);
    expect(reg!.email_verified).toBe(true);
    expect(reg!.demo_access_granted).toBe(true);
    expect(reg!.verified_at).not.toBeNull();
    expect(reg!.last_access_at).not.toBeNull();
    expect((await t.db.owner.query(`SELECT email_verified FROM leads WHERE email = $1`, [email]))[0]).toEqual({ email_verified: true });

    const access = await c.get('/api/demo/access');
    expect(access.body).toMatchObject({ state: 'welcome', name: 'Jane Wanjiku', email, accessCount: 0 });
    const me = await c.get('/api/me');
    expect(me.body.isDemo).toBe(true);
    expect(me.body.pharmacy.id).toBe(DEMO_ID);

    const first = await c.post('/api/demo/enter', {});
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ accessCount: 1, redirectTo: '/app/dashboard' });
    const second = await c.post('/api/demo/enter', {});
    expect(second.body.accessCount).toBe(2);
    expect(new Date(second.body.lastAccessAt).getTime()).toBeGreaterThanOrEqual(new Date(first.body.lastAccessAt).getTime());
    expect((await t.db.owner.query(`SELECT demo_accessed FROM leads WHERE email = $1`, [email]))[0]).toEqual({ demo_accessed: true });
    expect((await c.get('/api/demo/access')).body.accessCount).toBe(2);

    // Read-only, as for every demo session.
    const write = await c.post('/api/branches', { name: 'Visitor Branch' });
    expect(write.status).toBe(403);
    expect(write.body.error.message).toBe('Demo mode: Changes are not saved');
    // The verification link works once.
    const reused = await fresh().post('/api/auth/verify-email', { mode: 'verifyEmail', oobCode: link.searchParams.get('oobCode') });
    expect(reused.body.error.message).toBe('This link has expired or already been used.');
  });

  it('a demo visitor whose address is not verified sees verification required and cannot enter', async () => {
    const c = fresh();
    const email = 'unverified.flow@example.com';
    await c.post('/api/demo/register', form(email));
    const link = await linkTo(t, email, '/verify-email');
    await c.post('/api/auth/verify-email', { mode: 'verifyEmail', oobCode: link.searchParams.get('oobCode') });
    await t.db.owner.query(`UPDATE users SET email_verified_at = NULL WHERE email = $1`, [email]);
    expect((await c.get('/api/demo/access')).body).toEqual({ state: 'verification_required', email });
    const enter = await c.post('/api/demo/enter', {});
    expect(enter.status).toBe(403);
    expect(enter.body.error.message).toBe('Please verify your email before accessing the demo.');
    expect((await t.db.owner.query(`SELECT access_count FROM demo_registrations WHERE email = $1`, [email]))[0]).toEqual({ access_count: 0 });
  });

  it('signs in by a single-use emailed link to /demo-access, with the address it was sent to', async () => {
    const email = 'link.flow@example.com';
    await fresh().post('/api/demo/register', form(email));
    const c = fresh();
    expect((await c.post('/api/demo/sign-in-link', { email: '' })).body.error.message).toBe('Please enter your email');
    const unknown = await c.post('/api/demo/sign-in-link', { email: 'nobody@example.com' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toBe('No demo account found with this email. Please register first.');
    const sent = await c.post('/api/demo/sign-in-link', { email: ' LINK.flow@example.com ' });
    expect(sent.status).toBe(200);
    const link = await linkTo(t, email, '/demo-access');
    expect(link.searchParams.get('mode')).toBe('signIn');
    const oobCode = link.searchParams.get('oobCode')!;

    const wrong = await c.post('/api/demo/sign-in', { email: 'someone.else@example.com', oobCode });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.message).toBe('Failed to sign in. Please try requesting a new link.');
    expect((await c.get('/api/demo/access')).body.state).toBe('signed_out');

    const ok = await c.post('/api/demo/sign-in', { email, oobCode, mode: 'signIn' });
    expect(ok.status).toBe(200);
    expect(ok.body.isDemo).toBe(true);
    // The link proved the mailbox: the demo record is verified and access granted.
    expect((await c.get('/api/demo/access')).body.state).toBe('welcome');
    expect((await t.db.owner.query(`SELECT email_verified, demo_access_granted FROM demo_registrations WHERE email = $1`, [email]))[0]).toEqual({ email_verified: true, demo_access_granted: true });

    const reused = await fresh().post('/api/demo/sign-in', { email, oobCode });
    expect(reused.body.error.code).toBe('DEMO_SIGN_IN_FAILED');
  });

  it('limits registrations and sign-in links per address and per email', async () => {
    // Per email: the fourth request for one address in an hour is refused, from wherever it comes.
    const email = 'limit.flow@example.com';
    expect((await fresh().post('/api/demo/register', form(email))).status).toBe(201);
    expect((await fresh().post('/api/demo/register', form(email))).status).toBe(409);
    expect((await fresh().post('/api/demo/register', form(email))).status).toBe(409);
    const limited = await fresh().post('/api/demo/register', form(email));
    expect(limited.status).toBe(429);
    expect(limited.body.error.message).toBe('Too many requests. Please try again later.');
    // Per address: one address may register at most 10 times an hour, whatever the emails.
    const one = fresh();
    for (let i = 0; i < 10; i += 1) expect((await one.post('/api/demo/register', form(`ip${i}.limit@example.com`))).status).toBe(201);
    const eleventh = await one.post('/api/demo/register', form('ip10.limit@example.com'));
    expect(eleventh.status).toBe(429);
    expect(await count(t, `SELECT count(*)::int AS n FROM users WHERE email = 'ip10.limit@example.com'`)).toBe(0);
    // Sign-in links: 5 per email an hour.
    const links = fresh();
    for (let i = 0; i < 5; i += 1) expect((await fresh().post('/api/demo/sign-in-link', { email })).status).toBe(200);
    expect((await links.post('/api/demo/sign-in-link', { email })).status).toBe(429);
  });
});
