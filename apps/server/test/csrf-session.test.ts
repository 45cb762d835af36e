import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../src/app.ts';
import { createTestApp, type TestApp } from './app.ts';
import { testDatabaseKinds } from './database.ts';
import { createUser, FIXTURE_PASSWORD } from './fixtures.ts';
import type { TestClient } from './http.ts';
import { expectError } from './security-helpers.ts';

/**
 * The CSRF token belongs to the session (decision 0089): signed in, a write must carry the session's own token
 * (handed out in the pp_csrf cookie); a value of one's choosing in cookie and header, another session's token and
 * the token of a signed-out browser are refused with 403 and change nothing. Signed out, the anonymous flows
 * (sign-in, password reset) pass with the pre-session token, and a new session's token arrives with the sign-in.
 */
describe.each(testDatabaseKinds())('the CSRF token of a session on %s', (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(kind);
    for (const name of ['alice', 'bob', 'carol']) await createUser(t.db, { email: `${name}@csrf.test` });
  });
  afterAll(async () => t?.close());

  /** A browser that signed in through the form's endpoint: its token before and after. */
  async function signIn(name: string): Promise<{ client: TestClient; before: string; after: string; session: string }> {
    const client = t.client();
    await client.get('/api/auth/providers');
    const before = client.cookies.get('pp_csrf')!;
    expect(before).toBeTruthy();
    await client.login(`${name}@csrf.test`, FIXTURE_PASSWORD); // sent with the pre-session token
    const after = client.cookies.get('pp_csrf')!;
    return { client, before, after, session: client.cookies.get('pp_session')! };
  }

  /** POST /api/auth/lock (a write of the signed-in user) with exactly these cookies and header. */
  function lock(app: App, session: string, cookie: string | undefined, header: string | undefined) {
    return app.inject({
      method: 'POST',
      url: '/api/auth/lock',
      headers: {
        cookie: [`pp_session=${session}`, cookie === undefined ? '' : `pp_csrf=${cookie}`].filter(Boolean).join('; '),
        'content-type': 'application/json',
        ...(header === undefined ? {} : { 'x-csrf-token': header }),
      },
      payload: '{}',
    });
  }

  const lockedAt = async (email: string) =>
    (await t.db.owner.query<{ locked_at: unknown }>(`SELECT s.locked_at FROM sessions s JOIN users u ON u.id = s.user_id WHERE u.email = $1 AND s.revoked_at IS NULL`, [email])).map((r) => r.locked_at);

  it("signing in hands out the session's own token; a chosen value, another session's token and a signed-out token are refused", async () => {
    const alice = await signIn('alice');
    const bob = await signIn('bob');
    expect(alice.after).not.toBe(alice.before);
    expect(bob.after).not.toBe(alice.after);
    const anonymous = t.client();
    await anonymous.get('/api/auth/providers');
    const signedOut = anonymous.cookies.get('pp_csrf')!;

    const refused: [string, string | undefined, string | undefined][] = [
      ['a value of one’s choosing as cookie and header', 'chosen-by-the-attacker', 'chosen-by-the-attacker'],
      ['another session’s token as cookie and header', bob.after, bob.after],
      ['another session’s token in the header only', alice.after, bob.after],
      ['a signed-out browser’s token as cookie and header', signedOut, signedOut],
      ['the token Alice held before she signed in', alice.before, alice.before],
      ['the cookie without the header', alice.after, undefined],
      ['the header without the cookie', undefined, 'chosen-by-the-attacker'],
    ];
    for (const [label, cookie, header] of refused) {
      const res = await lock(t.app, alice.session, cookie, header);
      expectError({ status: res.statusCode, body: res.json(), headers: res.headers }, 403, 'CSRF_FAILED', label);
    }
    // Nothing was written: Alice's session is not locked.
    expect(await lockedAt('alice@csrf.test')).toEqual([null]);

    // Her own token passes, whether the cookie holds it or not (the header is what counts), as the browser sends it.
    expect((await lock(t.app, alice.session, 'stale', alice.after)).statusCode).toBe(200);
    expect((await bob.client.post('/api/auth/lock', {})).status).toBe(200);
    expect((await lockedAt('alice@csrf.test'))[0]).not.toBeNull();
  });

  it('a browser holding an older token is handed its session’s token by its next answer', async () => {
    const alice = await signIn('alice');
    const res = await t.app.inject({ method: 'GET', url: '/api/me', headers: { cookie: `pp_session=${alice.session}; pp_csrf=old-token` } });
    expect(res.statusCode).toBe(200);
    expect(res.cookies.find((c) => c.name === 'pp_csrf')?.value).toBe(alice.after);
    // With the right token already, no cookie is set again.
    const again = await t.app.inject({ method: 'GET', url: '/api/me', headers: { cookie: `pp_session=${alice.session}; pp_csrf=${alice.after}` } });
    expect(again.cookies.find((c) => c.name === 'pp_csrf')).toBeUndefined();
  });

  it('the anonymous flows pass with the pre-session token, and signing out hands out a new one', async () => {
    const anonymous = t.client();
    expect((await anonymous.post('/api/auth/forgot-password', { email: 'carol@csrf.test' })).status).toBe(200);
    const carol = await signIn('carol');
    expect((await carol.client.post('/api/auth/logout', {})).status).toBe(200);
    const next = carol.client.cookies.get('pp_csrf');
    expect(next).toBeTruthy();
    expect(next).not.toBe(carol.after);
    // Signed out, the same browser signs in again with its new pre-session token.
    await carol.client.login('carol@csrf.test', FIXTURE_PASSWORD);
    expect(carol.client.cookies.get('pp_csrf')).not.toBe(next);
  });

  it('another server instance (no memory shared) takes the same session token', async () => {
    const second = await buildApp({ db: t.db, config: t.config });
    try {
      await second.ready();
      const bob = await signIn('bob');
      const res = await lock(second, bob.session, bob.after, bob.after);
      expect(res.statusCode).toBe(200);
      const other = await signIn('carol');
      expect((await lock(second, bob.session, other.after, other.after)).statusCode).toBe(403);
    } finally {
      await second.close();
    }
  });
});
