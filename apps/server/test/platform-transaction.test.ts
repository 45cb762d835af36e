import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deferWrite, inlineParameters, readAtCommit, type Database } from '../src/db/database.ts';
import { throttleDemoRequest } from '../src/modules/demo/demo.service.ts';
import { AppError, registerErrorHandler } from '../src/platform/errors.ts';
import { transactionPlugin } from '../src/platform/transaction.ts';
import { createTestDatabase, testDatabaseKinds } from './database.ts';
import { createPharmacyWithStaff } from './fixtures.ts';

/**
 * app.inPlatform (issue 6 item 1, decision 0070): the edge wrapper of public and platform flows. It opens the one
 * transaction as the application role with no tenant (or the pharmacy the flow names), gives the use case a
 * PlatformContext, rolls every write of a failed use case back, runs the work once more on a serialisation failure,
 * and honours a declared Idempotency-Key in the named pharmacy. Shown on a bare Fastify with only the platform's
 * transaction plugin and error handler, so the wrapper alone is under test.
 */
describe.each(testDatabaseKinds())('app.inPlatform on %s', (kind) => {
  let db: Database;
  let app: FastifyInstance;
  let pharmacyId: string;
  let ownerId: string;
  let runs = 0;
  let attempts = 0;

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    const fixture = await createPharmacyWithStaff(db, { id: 'pharm_platform_tx' });
    pharmacyId = fixture.pharmacyId;
    ownerId = fixture.users.owner!.id;
    app = Fastify();
    app.decorateRequest('auth', null);
    registerErrorHandler(app);
    await app.register(transactionPlugin, { db });
    const body = (request: { body: unknown }) => request.body as { email: string; fail?: boolean };

    // Who the transaction runs as, and which tenant and user it names.
    app.post('/t/scope', async (request, reply) => {
      const named = (request.query as { pharmacy?: string }).pharmacy;
      return app.inPlatform(
        request,
        reply,
        async (q, ctx) => {
          const [row] = await q.query<{ role: string; pharmacy: string; user_id: string }>(
            `SELECT current_user AS role, current_setting('app.pharmacy_id', true) AS pharmacy, current_setting('app.user_id', true) AS user_id`,
          );
          return { ...row, ip: ctx.ip, signedIn: ctx.auth !== null, now: ctx.now.toISOString() };
        },
        named ? { scope: { pharmacyId: named, userId: ownerId } } : {},
      );
    });

    // A use case that writes (the demo throttle's count), then fails when asked: nothing of it may stay.
    app.post('/t/write', async (request, reply) =>
      app.inPlatform(request, reply, async (q, ctx) => {
        await throttleDemoRequest(q, ctx, 'register', body(request).email);
        await throttleDemoRequest(q, ctx, 'sign_in_link', body(request).email);
        if (body(request).fail) throw new AppError('CONFLICT', { message: 'The second step failed.' });
        return { ok: true };
      }),
    );

    // A serialisation failure on the first attempt: the wrapper runs the work again, once.
    app.post('/t/retry', async (request, reply) =>
      app.inPlatform(request, reply, async (q, ctx) => {
        attempts += 1;
        await throttleDemoRequest(q, ctx, 'register', body(request).email);
        if (attempts === 1) throw Object.assign(new Error('could not serialize access'), { code: '40001' });
        return { attempts };
      }),
    );

    // A create a client may retry, in the pharmacy the flow names.
    app.post('/t/keyed', { config: { idempotent: true } }, async (request, reply) =>
      app.inPlatform(request, reply, async () => ({ run: (runs += 1) }), { status: 201, scope: { pharmacyId, userId: ownerId } }),
    );
    // A route that declares idempotent but names no pharmacy: a programming error, never a silent ignore.
    app.post('/t/keyed-nowhere', { config: { idempotent: true } }, async (request, reply) => app.inPlatform(request, reply, async () => ({ run: 0 })));
    await app.ready();
  });

  afterAll(async () => {
    await app?.close();
    await db?.close();
  });

  const post = (url: string, payload: unknown, headers: Record<string, string> = {}) => app.inject({ method: 'POST', url, payload: payload as object, headers });

  it('runs as the application role with no tenant by default, and in the pharmacy a flow names', async () => {
    const none = await post('/t/scope', {});
    expect(none.statusCode).toBe(200);
    expect(none.json()).toMatchObject({ role: 'pharmapoint_app', pharmacy: '', user_id: '', signedIn: false });
    const named = await post(`/t/scope?pharmacy=${pharmacyId}`, {});
    expect(named.json()).toMatchObject({ role: 'pharmapoint_app', pharmacy: pharmacyId, user_id: ownerId });
  });

  it('is one transaction: two use cases compose, and a failure in the second rolls the first back', async () => {
    const count = async (email: string) =>
      (await db.owner.query<{ n: number }>(`SELECT count(*)::int AS n FROM demo_requests WHERE email = $1`, [email]))[0]!.n;
    const failed = await post('/t/write', { email: 'rolled-back@example.test', fail: true });
    expect(failed.statusCode).toBe(409);
    expect(failed.json().error.message).toBe('The second step failed.');
    expect(await count('rolled-back@example.test')).toBe(0);
    expect((await post('/t/write', { email: 'kept@example.test' })).statusCode).toBe(200);
    expect(await count('kept@example.test')).toBe(2);
  });

  it('runs the work once more after a serialisation failure, keeping only the second attempt', async () => {
    const res = await post('/t/retry', { email: 'retried@example.test' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ attempts: 2 });
    const [row] = await db.owner.query<{ n: number }>(`SELECT count(*)::int AS n FROM demo_requests WHERE email = 'retried@example.test'`);
    expect(row!.n).toBe(1);
  });

  it("honours a declared Idempotency-Key in the named pharmacy: a repeat replays the first answer, another body is 422", async () => {
    const first = await post('/t/keyed', { a: 1 }, { 'idempotency-key': 'platform-key-1' });
    expect(first.statusCode).toBe(201);
    const again = await post('/t/keyed', { a: 1 }, { 'idempotency-key': 'platform-key-1' });
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(runs).toBe(1);
    const other = await post('/t/keyed', { a: 2 }, { 'idempotency-key': 'platform-key-1' });
    expect(other.statusCode).toBe(422);
    expect(other.json().error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    const [stored] = await db.owner.query<{ user_id: string }>(`SELECT user_id FROM idempotency_keys WHERE pharmacy_id = $1 AND key = 'platform-key-1'`, [pharmacyId]);
    expect(stored?.user_id).toBe(ownerId);
    // Without a key the route runs each time.
    expect((await post('/t/keyed', { a: 1 })).json()).toEqual({ run: 2 });
  });

  it('refuses to run an idempotent route that names no pharmacy for its key (500, nothing run)', async () => {
    const res = await post('/t/keyed-nowhere', {}, { 'idempotency-key': 'platform-key-2' });
    expect(res.statusCode).toBe(500);
  });
});

/** readAtCommit (decision 0073): a transaction setting read with COMMIT, handed over only once committed. */
describe.each(testDatabaseKinds())('readAtCommit on %s', (kind) => {
  let db: Database;
  beforeAll(async () => {
    db = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await db?.close();
  });

  it('hands the setting a statement set in the transaction to its callback after COMMIT, and nothing after a rollback', async () => {
    const seen: string[] = [];
    const committed = await db.transaction({}, async (q) => {
      readAtCommit(q, 'pharmapoint.test_read', (value) => seen.push(`first:${value}`));
      await q.query(`SELECT set_config('pharmapoint.test_read', 'u:1 u:2', true)`);
      expect(seen).toEqual([]);
      return 'done';
    });
    expect(committed).toBe('done');
    expect(seen).toEqual(['first:u:1 u:2']);

    // Unset in the transaction: ''.
    await db.transaction({}, async (q) => readAtCommit(q, 'pharmapoint.test_unset', (value) => seen.push(`unset:${value}`)));
    expect(seen).toEqual(['first:u:1 u:2', 'unset:']);

    // A failed transaction hands nothing over.
    await expect(
      db.transaction({}, async (q) => {
        readAtCommit(q, 'pharmapoint.test_read', (value) => seen.push(`failed:${value}`));
        await q.query(`SELECT set_config('pharmapoint.test_read', 'x', true)`);
        throw new Error('the work failed');
      }),
    ).rejects.toThrow('the work failed');
    expect(seen).toEqual(['first:u:1 u:2', 'unset:']);
    await expect(db.transaction({}, async (q) => readAtCommit(q, "x'; DROP TABLE users; --", () => undefined))).rejects.toThrow('not a custom setting name');
  });
});

/** deferWrite (decision 0077): writes run at the end of the transaction, in COMMIT's own round trip on PostgreSQL. */
describe.each(testDatabaseKinds())('deferWrite on %s', (kind) => {
  let db: Database;
  let pharmacyId: string;
  let ownerId: string;
  beforeAll(async () => {
    db = await createTestDatabase(kind);
    const fixture = await createPharmacyWithStaff(db, { id: 'pharm_deferred' });
    pharmacyId = fixture.pharmacyId;
    ownerId = fixture.users.owner!.id;
  });
  afterAll(async () => {
    await db?.close();
  });

  const auditRows = (entity: string) =>
    db.owner.query<{ action: string; entity_id: string | null; after: unknown }>(
      `SELECT action, entity_id, after FROM audit_log WHERE pharmacy_id = $1 AND entity = $2 ORDER BY action`,
      [pharmacyId, entity],
    );
  const insert = `INSERT INTO audit_log (pharmacy_id, user_id, action, entity, entity_id, before, after) VALUES ($1, $2, $3, $4, $5, NULL, $6)`;

  it('runs the writes after the work, in order, with the settings read and COMMIT; none after a failure', async () => {
    const seen: string[] = [];
    await db.transaction({ pharmacyId, userId: ownerId }, async (q) => {
      deferWrite(q, insert, [pharmacyId, ownerId, 'first', 'deferred-order', null, JSON.stringify({ n: 1 })]);
      deferWrite(q, insert, [pharmacyId, ownerId, 'second', 'deferred-order', "it's \\ 'quoted' $1 \u00e9", JSON.stringify({ text: "O'Brien \\ $2" })]);
      readAtCommit(q, 'pharmapoint.test_deferred', (value) => seen.push(value));
      await q.query(`SELECT set_config('pharmapoint.test_deferred', 'read', true)`);
      // Not written yet: the work's own reads do not see them.
      expect(await q.query(`SELECT 1 FROM audit_log WHERE entity = 'deferred-order'`)).toEqual([]);
    });
    expect(seen).toEqual(['read']);
    expect(await auditRows('deferred-order')).toEqual([
      { action: 'first', entity_id: null, after: { n: 1 } },
      { action: 'second', entity_id: "it's \\ 'quoted' $1 \u00e9", after: { text: "O'Brien \\ $2" } },
    ]);

    // The work fails: nothing deferred is written.
    await expect(
      db.transaction({ pharmacyId, userId: ownerId }, async (q) => {
        deferWrite(q, insert, [pharmacyId, ownerId, 'never', 'deferred-failed', null, null]);
        throw new Error('the work failed');
      }),
    ).rejects.toThrow('the work failed');
    // A deferred write fails (a user that does not exist): the whole transaction rolls back, the work's writes too.
    await expect(
      db.transaction({ pharmacyId, userId: ownerId }, async (q) => {
        await q.query(insert, [pharmacyId, ownerId, 'work', 'deferred-failed', null, null]);
        deferWrite(q, insert, [pharmacyId, ownerId, 'ok', 'deferred-failed', null, null]);
        deferWrite(q, insert, [pharmacyId, '00000000-0000-4000-8000-000000000000', 'bad', 'deferred-failed', null, null]);
      }),
    ).rejects.toMatchObject({ code: '23503' });
    expect(await auditRows('deferred-failed')).toEqual([]);
    // Outside a transaction it is refused.
    expect(() => deferWrite(db.owner, insert, [])).toThrow('not inside Database.transaction');
  });

  it('inlines parameters with the meaning node-postgres gives them', async () => {
    const sql = `SELECT $1::text AS a, $2::int AS b, $3::uuid[] AS c, $4::timestamptz AS d, $5::jsonb AS e, $6::boolean AS f,
      $7::text AS g, $8::text[] AS h, $9::bigint AS i, $10::date AS j, '$1' AS k, $11::int[] AS l`;
    const params = [
      "a'b\\c\n\t é 😀 $2",
      -42,
      ['6f1c6a0e-6a4b-4c6e-9a53-0c9b1f1f0a01', '6f1c6a0e-6a4b-4c6e-9a53-0c9b1f1f0a02'],
      new Date('2026-11-26T14:30:01.123Z'),
      JSON.stringify({ x: "y'z", n: [1, 2] }),
      false,
      null,
      ['plain', "qu'ote", 'back\\slash', 'com,ma', 'br{ace}', null],
      '9007199254740993',
      '2026-02-28',
      [1, -2, 3],
    ];
    const [viaParameters] = await db.owner.query(sql, params);
    const [viaLiterals] = await db.owner.query(inlineParameters(sql, params));
    expect(viaLiterals).toEqual(viaParameters);
    expect((viaLiterals as { k: string }).k).toBe('$1');
    expect(() => inlineParameters('SELECT $3', [1])).toThrow('$3 has no parameter');
  });
});
