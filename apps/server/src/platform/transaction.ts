import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { deferWrite, holdAnswers, openingRows, type Database, type Queryable, type Statement, type TransactionScope } from '../db/database.ts';
import type { RequestAuth } from './access.ts';
import { tenantContext, type RequestContext } from './context.ts';
import { AppError, isRetryableDatabaseError, raisedAppError } from './errors.ts';

/**
 * One transaction per request, opened at the edge. A route hands its use case to app.inTenant (or app.inUser for
 * signed-in routes outside a pharmacy, app.inOperator for an operator's change of one pharmacy, app.inPlatform for
 * public and platform flows: sign-in, demo registration, the licence purchase, callbacks); the wrapper opens the
 * transaction as the application role with the tenant set, builds the request context once, honours the
 * Idempotency-Key of routes that declare `idempotent`, and runs the work again once when PostgreSQL reports a
 * deadlock or a serialisation failure. Use cases never open transactions: they take (q, ctx, input), so two of them
 * compose in one transaction. Job handlers (no request) open theirs with runTransaction in their *.jobs.ts file.
 * A flow that needs several transactions (a slow password hash or a call to another service between them, a
 * callback that must keep its receipt when the rest fails) is written at the edge as calls one after the other,
 * each with its own use case; services and repositories never import this file's runTransaction (lint-enforced,
 * eslint.config.js; decision 0070).
 */
export type TenantWork<T> = (q: Queryable, ctx: RequestContext) => Promise<T>;
export type UserWork<T> = (q: Queryable, user: RequestAuth) => Promise<T>;
/** An operator's change of one pharmacy (the admin area): the transaction's tenant is that pharmacy. */
export type OperatorWork<T> = (q: Queryable, operator: RequestAuth) => Promise<T>;

/**
 * What a platform use case knows of its caller (app.inPlatform): a public or platform flow has no tenant context.
 * `auth` is the signed-in caller when there is one (a public route may be called with or without a session; an
 * operator route always has one), `ip` and `userAgent` the client's (rate limits, sessions), `now` the request's clock.
 */
export interface PlatformContext {
  auth: RequestAuth | null;
  ip: string;
  userAgent: string | undefined;
  now: Date;
}
export type PlatformWork<T> = (q: Queryable, ctx: PlatformContext) => Promise<T>;

export interface WrapOptions {
  /** The success status (201 for creates); replayed answers keep the status they were first given. */
  status?: number;
  /**
   * What this call does with the route's Idempotency-Key, for work that spans several transactions (the CSV
   * import, decision 0021). 'once' (the default): claim the key, run the work and store its answer, in one
   * transaction. 'claim': claim the key (a repeat while the work goes on answers BUSY_TRY_AGAIN) and store an
   * answer only when `answer` gives one. 'none': leave the key alone. 'answer': store the work's answer on the key
   * claimed earlier. After a call that replayed a stored answer, `isReplayed(reply)` is true.
   */
  key?: 'once' | 'claim' | 'none' | 'answer';
  /** With key 'claim': the answer to store for this result (undefined: the work is not finished). */
  answer?: (value: unknown) => unknown;
}

export interface PlatformOptions extends WrapOptions {
  /**
   * The transaction's tenant and user. Default none: platform tables only (users, sessions, tokens, payments), which
   * the request role reaches as before. A flow that names a pharmacy (the demo pharmacy, the pharmacy of a callback's
   * path, the pharmacy whose owner sets a first password) or a user (their own memberships) passes it here. A route
   * that declares `idempotent` must name both: its key is claimed in that pharmacy for that user — unless it passes
   * `key: 'none'` and keys the work itself (the licence purchase keys its payment row, decision 0076).
   */
  scope?: TransactionScope;
}

/** Did app.inTenant answer this request from its stored Idempotency-Key answer? */
export function isReplayed(reply: FastifyReply): boolean {
  return reply.getHeader('idempotent-replayed') === 'true';
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Runs a use case in one tenant transaction with the request's context (see platform/transaction.ts). */
    inTenant<T>(request: FastifyRequest, reply: FastifyReply, work: TenantWork<T>, options?: WrapOptions): Promise<T>;
    /** Runs work in one transaction for a signed-in user, in their pharmacy when they work in one. */
    inUser<T>(request: FastifyRequest, reply: FastifyReply, work: UserWork<T>, options?: WrapOptions): Promise<T>;
    /**
     * Runs a platform operator's change of one pharmacy in one transaction with that pharmacy as tenant (row-level
     * security holds the change to it), honouring the route's Idempotency-Key as inTenant does: the key is claimed
     * in that pharmacy and a retry gets the first answer, stored with the change (decision 0060). An unknown
     * pharmacy is 404 and writes nothing.
     */
    inOperator<T>(request: FastifyRequest, reply: FastifyReply, pharmacyId: string, work: OperatorWork<T>, options?: WrapOptions): Promise<T>;
    /**
     * Runs a public or platform use case (no tenant context: sign-in, password reset, demo registration, the licence
     * purchase, a provider's callback) in one transaction with options.scope (default: no tenant, no user), the
     * PlatformContext built once, the route's Idempotency-Key honoured in the scope's pharmacy, and the work run
     * once more on a deadlock or serialisation failure (decision 0070).
     */
    inPlatform<T>(request: FastifyRequest, reply: FastifyReply, work: PlatformWork<T>, options?: PlatformOptions): Promise<T>;
  }
}

/**
 * Runs work in one transaction; a deadlock or serialisation failure runs it once more, then surfaces (409). The
 * wrappers below use it; so do job handlers (*.jobs.ts), which have no request. Never a service or a repository.
 */
export async function runTransaction<T>(db: Database, scope: TransactionScope, work: (q: Queryable) => Promise<T>, opening?: Statement): Promise<T> {
  try {
    return await db.transaction(scope, work, opening);
  } catch (error) {
    // A refusal the SQL raised on purpose (a deferred write's, decision 0080) is the AppError it stands for, for every
    // caller (a streamed import's error line, a till payment's failure reason), not only for the error handler.
    if (!isRetryableDatabaseError(error)) throw raisedAppError(error) ?? error;
    return db.transaction(scope, work, opening).catch((again: unknown) => {
      throw raisedAppError(again) ?? again;
    });
  }
}

/**
 * Opens one transaction of a flow of several, at the edge (decision 0070): each step runs one use case in its own
 * transaction with the step's scope, one after the other. A route gets its steps from routeSteps (each an
 * app.inPlatform transaction); a job handler builds them on runTransaction.
 */
export type Steps = <T>(scope: TransactionScope, work: (q: Queryable) => Promise<T>) => Promise<T>;

/** A route's Steps: each step is one app.inPlatform transaction (deadlock retry included) with the step's scope. */
export function routeSteps(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply): Steps {
  return (scope, work) => app.inPlatform(request, reply, (q) => work(q), { scope });
}

export const IDEMPOTENCY_HEADER = 'idempotency-key';
const KEY_PATTERN = /^[A-Za-z0-9_-]{1,100}$/;

/** JSON with object keys sorted, so the same request always hashes the same. */
function stableJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
}

/** What makes two requests "the same request" for an idempotency key: route, parameters, query and body. */
export function requestHash(request: FastifyRequest): string {
  const text = stableJson({ m: request.method, r: request.routeOptions.url, p: request.params, q: request.query, b: request.body });
  return createHash('sha256').update(text).digest('hex');
}

/** The request's Idempotency-Key when its route honours one; 400 for a malformed key. */
export function idempotencyKey(request: FastifyRequest): string | null {
  if (!request.routeOptions.config?.idempotent) return null;
  const header = request.headers[IDEMPOTENCY_HEADER];
  if (header === undefined) return null;
  if (typeof header !== 'string' || !KEY_PATTERN.test(header)) throw new AppError('IDEMPOTENCY_KEY_INVALID');
  return header;
}

interface StoredAnswer {
  request_hash: string;
  status_code: number | null;
  response: unknown;
}

/**
 * Where an Idempotency-Key lives: the pharmacy the change is made in (idempotency_keys is a tenant table, under
 * row-level security) and who sent it. A tenant request's scope is its context; an operator's is the pharmacy the
 * operator changes.
 */
export interface KeyScope {
  pharmacyId: string;
  userId: string;
}

/**
 * Claims the key in this transaction. A concurrent request with the same key waits on the primary key until this
 * transaction ends: when it commits, that one reads the stored answer; when it rolls back, that one runs instead.
 */
async function claimKey(q: Queryable, scope: KeyScope, key: string, hash: string): Promise<StoredAnswer | null> {
  // Sent with BEGIN when the wrapper could (app.inTenant: the key's scope is known before the transaction opens).
  let claimed = await openingRows(q);
  if (!claimed) {
    const claim = claimStatement(scope, key, hash);
    claimed = await q.query(claim.sql, claim.params);
  }
  if (claimed.length > 0) return null;
  const [stored] = await q.query<StoredAnswer>(
    `SELECT request_hash, status_code, response FROM idempotency_keys WHERE pharmacy_id = $1 AND key = $2`,
    [scope.pharmacyId, key],
  );
  // No row: it was freed meanwhile. No answer yet: work of several transactions under this key is still going on.
  if (!stored || (stored.status_code === null && stored.request_hash === hash)) throw new AppError('BUSY_TRY_AGAIN');
  return stored;
}

/**
 * Stores the answer on the claimed key, at the end of the transaction in COMMIT's own round trip (deferWrite, decision
 * 0077): a request waiting on the key reads it only once this transaction has committed.
 */
/** The claim of a key: a row when this transaction claimed it, none when another request holds or held it. */
function claimStatement(scope: KeyScope, key: string, hash: string): Statement {
  return {
    sql: `INSERT INTO idempotency_keys (pharmacy_id, key, user_id, request_hash) VALUES ($1, $2, $3, $4)
     ON CONFLICT (pharmacy_id, key) DO NOTHING RETURNING key`,
    params: [scope.pharmacyId, key, scope.userId, hash],
  };
}

async function storeAnswer(q: Queryable, scope: KeyScope, key: string, status: number, answer: unknown): Promise<void> {
  deferWrite(q, `UPDATE idempotency_keys SET status_code = $3, response = $4 WHERE pharmacy_id = $1 AND key = $2`, [
    scope.pharmacyId,
    key,
    status,
    JSON.stringify(answer ?? null),
  ]);
}

type Replay = { status: number; body: unknown };

/**
 * Thrown out of a transaction whose work started before its key's claim was answered (WrapOptions' overlap) when the
 * claim found the key taken: the transaction rolls back whatever the work sent, and the wrapper runs it again the
 * sequential way (claim, then replay or refuse).
 */
class KeyTakenMeanwhile extends Error {
  constructor() {
    super('the Idempotency-Key was taken: the work started with the claim is rolled back');
  }
}

/**
 * The one Idempotency-Key mechanism, inside the caller's transaction (app.inTenant and app.inOperator): claim the
 * key in its scope, and either replay the first answer stored under it (the same request again; another request
 * under the same key is IDEMPOTENCY_KEY_REUSED) or run the work and store its answer with it, per `mode`.
 */
async function onceForKey<T>(
  q: Queryable,
  scope: KeyScope,
  idempotency: { key: string; hash: string } | null,
  options: WrapOptions,
  work: () => Promise<T>,
  overlap = false,
): Promise<{ value: T; replayed: null } | { value: undefined; replayed: Replay }> {
  const mode = options.key ?? 'once';
  const key = idempotency?.key ?? null;
  const opened = openingRows(q);
  let value: T;
  // Only for a one-transaction write ('once'): a key claimed for work of several transactions ('claim', the CSV
  // import) is often asked again while that work goes on, which the sequential way answers at once (BUSY_TRY_AGAIN).
  if (key && mode === 'once' && overlap && opened) {
    // The claim went with BEGIN and the work starts now (decision 0086): its first statements follow the claim on the
    // wire, but their answers are held until the claim's is known, so the work acts on nothing before the key is
    // this request's. A taken key rolls back whatever the work sent (KeyTakenMeanwhile) and the wrapper runs again
    // the sequential way, which replays or refuses.
    const claimed = opened.then((rows) => rows.length > 0);
    holdAnswers(q, claimed, () => new KeyTakenMeanwhile());
    const working = work();
    working.catch(() => undefined);
    // Taken (or the claim failed): no code of the work runs once the transaction has ended, as every answer it waits
    // for is refused; then the transaction rolls back.
    const isOurs = await claimed.catch(async (error: unknown) => {
      await working.catch(() => undefined);
      throw error;
    });
    if (!isOurs) {
      await working.catch(() => undefined);
      throw new KeyTakenMeanwhile();
    }
    value = await working;
  } else {
    if (key && mode !== 'answer') {
      const stored = await claimKey(q, scope, key, idempotency!.hash);
      if (stored) {
        if (stored.request_hash !== idempotency!.hash) throw new AppError('IDEMPOTENCY_KEY_REUSED');
        return { value: undefined, replayed: { status: stored.status_code ?? 200, body: stored.response } };
      }
    }
    value = await work();
  }
  if (key && mode !== 'claim') await storeAnswer(q, scope, key, options.status ?? 200, value);
  if (key && mode === 'claim' && options.answer) {
    const answer = options.answer(value);
    if (answer !== undefined) await storeAnswer(q, scope, key, options.status ?? 200, answer);
  }
  return { value, replayed: null };
}

/** Sends a replayed answer as it was first given (status, body) and marks it; else the work's status. */
function answerWith<T>(reply: FastifyReply, value: T, replayed: Replay | null, options: WrapOptions): T {
  if (replayed) {
    reply.status(replayed.status).header('idempotent-replayed', 'true');
    return replayed.body as T;
  }
  if (options.status) reply.status(options.status);
  return value;
}

/** Does the pharmacy exist? (An operator's key is claimed in it; an unknown id is 404 before anything is written.) */
async function pharmacyExists(q: Queryable, pharmacyId: string): Promise<boolean> {
  return (await q.query(`SELECT 1 FROM pharmacies WHERE id = $1`, [pharmacyId])).length > 0;
}

export const transactionPlugin = fp<{ db: Database }>(async (app: FastifyInstance, { db }) => {
  app.decorate('inTenant', async function inTenant<T>(request: FastifyRequest, reply: FastifyReply, work: TenantWork<T>, options: WrapOptions = {}) {
    const ctx = tenantContext(request.auth);
    const key = options.key === 'none' ? null : idempotencyKey(request);
    const idempotency = key ? { key, hash: requestHash(request) } : null;
    // The key's claim goes with BEGIN (one round trip less; decision 0077), and the work starts without waiting for
    // its answer (decision 0086); when the key turns out taken, the work is rolled back and the request runs again
    // the sequential way: the claim's answer first, then the replay (or the refusal).
    const opening = idempotency && options.key !== 'answer' ? claimStatement(ctx, idempotency.key, idempotency.hash) : undefined;
    const run = (overlap: boolean) =>
      runTransaction(db, { pharmacyId: ctx.pharmacyId, userId: ctx.userId }, (q) => onceForKey(q, ctx, idempotency, options, () => work(q, ctx), overlap), opening);
    const { value, replayed } = await run(true).catch((error: unknown) => {
      if (error instanceof KeyTakenMeanwhile) return run(false);
      throw error;
    });
    return answerWith(reply, value as T, replayed, options);
  });

  app.decorate(
    'inOperator',
    async function inOperator<T>(request: FastifyRequest, reply: FastifyReply, pharmacyId: string, work: OperatorWork<T>, options: WrapOptions = {}) {
      const operator = request.auth;
      if (!operator) throw new AppError('NOT_AUTHENTICATED');
      if (!operator.isPlatformOperator) throw new AppError('FORBIDDEN');
      const key = options.key === 'none' ? null : idempotencyKey(request);
      const idempotency = key ? { key, hash: requestHash(request) } : null;
      const scope: KeyScope = { pharmacyId, userId: operator.userId };
      const { value, replayed } = await runTransaction(db, scope, async (q) => {
        if (!(await pharmacyExists(q, pharmacyId))) throw new AppError('PHARMACY_NOT_FOUND');
        return onceForKey(q, scope, idempotency, options, () => work(q, operator));
      });
      return answerWith(reply, value as T, replayed, options);
    },
  );

  app.decorate(
    'inPlatform',
    async function inPlatform<T>(request: FastifyRequest, reply: FastifyReply, work: PlatformWork<T>, options: PlatformOptions = {}) {
      const ua = request.headers['user-agent'];
      const ctx: PlatformContext = { auth: request.auth ?? null, ip: request.ip, userAgent: typeof ua === 'string' ? ua : undefined, now: new Date() };
      const scope = options.scope ?? {};
      const key = options.key === 'none' ? null : idempotencyKey(request);
      let keyScope: KeyScope | null = null;
      if (key) {
        const userId = scope.userId ?? ctx.auth?.userId;
        if (!scope.pharmacyId || !userId) throw new Error(`${request.routeOptions.url}: an idempotent platform route must name the pharmacy and user of its key (options.scope)`);
        keyScope = { pharmacyId: scope.pharmacyId, userId };
      }
      const idempotency = key ? { key, hash: requestHash(request) } : null;
      const { value, replayed } = await runTransaction(db, scope, (q) =>
        keyScope ? onceForKey(q, keyScope, idempotency, options, () => work(q, ctx)) : work(q, ctx).then((v) => ({ value: v, replayed: null })),
      );
      return answerWith(reply, value as T, replayed, options);
    },
  );

  app.decorate('inUser', async function inUser<T>(request: FastifyRequest, reply: FastifyReply, work: UserWork<T>, options: WrapOptions = {}) {
    const auth = request.auth;
    if (!auth) throw new AppError('NOT_AUTHENTICATED');
    const value = await runTransaction(db, { pharmacyId: auth.pharmacyId, userId: auth.userId }, (q) => work(q, auth));
    if (options.status) reply.status(options.status);
    return value;
  });
});
