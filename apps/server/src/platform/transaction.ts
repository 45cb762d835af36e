import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Database, Queryable, TransactionScope } from '../db/database.ts';
import type { RequestAuth } from './access.ts';
import { tenantContext, type RequestContext } from './context.ts';
import { AppError, isRetryableDatabaseError } from './errors.ts';

/**
 * One transaction per request, opened at the edge. A route hands its use case to app.inTenant (or app.inUser for
 * signed-in routes outside a pharmacy); the wrapper opens the transaction as the application role with the tenant
 * set, builds the request context once, honours the Idempotency-Key of routes that declare `idempotent`, and runs
 * the work again once when PostgreSQL reports a deadlock or a serialisation failure. Use cases never open
 * transactions: they take (q, ctx, input), so two of them compose in one transaction.
 */
export type TenantWork<T> = (q: Queryable, ctx: RequestContext) => Promise<T>;
export type UserWork<T> = (q: Queryable, user: RequestAuth) => Promise<T>;

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
  }
}

/** Runs work in one transaction; a deadlock or serialisation failure runs it once more, then surfaces (409). */
export async function runTransaction<T>(db: Database, scope: TransactionScope, work: (q: Queryable) => Promise<T>): Promise<T> {
  try {
    return await db.transaction(scope, work);
  } catch (error) {
    if (!isRetryableDatabaseError(error)) throw error;
    return db.transaction(scope, work);
  }
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
 * Claims the key in this transaction. A concurrent request with the same key waits on the primary key until this
 * transaction ends: when it commits, that one reads the stored answer; when it rolls back, that one runs instead.
 */
async function claimKey(q: Queryable, ctx: RequestContext, key: string, hash: string): Promise<StoredAnswer | null> {
  const claimed = await q.query(
    `INSERT INTO idempotency_keys (pharmacy_id, key, user_id, request_hash) VALUES ($1, $2, $3, $4)
     ON CONFLICT (pharmacy_id, key) DO NOTHING RETURNING key`,
    [ctx.pharmacyId, key, ctx.userId, hash],
  );
  if (claimed.length > 0) return null;
  const [stored] = await q.query<StoredAnswer>(
    `SELECT request_hash, status_code, response FROM idempotency_keys WHERE pharmacy_id = $1 AND key = $2`,
    [ctx.pharmacyId, key],
  );
  // No row: it was freed meanwhile. No answer yet: work of several transactions under this key is still going on.
  if (!stored || (stored.status_code === null && stored.request_hash === hash)) throw new AppError('BUSY_TRY_AGAIN');
  return stored;
}

async function storeAnswer(q: Queryable, ctx: RequestContext, key: string, status: number, answer: unknown): Promise<void> {
  await q.query(`UPDATE idempotency_keys SET status_code = $3, response = $4 WHERE pharmacy_id = $1 AND key = $2`, [
    ctx.pharmacyId,
    key,
    status,
    JSON.stringify(answer ?? null),
  ]);
}

export const transactionPlugin = fp<{ db: Database }>(async (app: FastifyInstance, { db }) => {
  app.decorate('inTenant', async function inTenant<T>(request: FastifyRequest, reply: FastifyReply, work: TenantWork<T>, options: WrapOptions = {}) {
    const ctx = tenantContext(request.auth);
    const mode = options.key ?? 'once';
    const key = mode === 'none' ? null : idempotencyKey(request);
    const hash = key ? requestHash(request) : '';
    let replayed: { status: number; body: unknown } | null = null;
    const value = await runTransaction(db, { pharmacyId: ctx.pharmacyId, userId: ctx.userId }, async (q) => {
      replayed = null;
      if (key && mode !== 'answer') {
        const stored = await claimKey(q, ctx, key, hash);
        if (stored) {
          if (stored.request_hash !== hash) throw new AppError('IDEMPOTENCY_KEY_REUSED');
          replayed = { status: stored.status_code ?? 200, body: stored.response };
          return undefined as T;
        }
      }
      const result = await work(q, ctx);
      if (key && mode !== 'claim') await storeAnswer(q, ctx, key, options.status ?? 200, result);
      if (key && mode === 'claim' && options.answer) {
        const answer = options.answer(result);
        if (answer !== undefined) await storeAnswer(q, ctx, key, options.status ?? 200, answer);
      }
      return result;
    });
    if (replayed) {
      const { status, body } = replayed as { status: number; body: unknown };
      reply.status(status).header('idempotent-replayed', 'true');
      return body as T;
    }
    if (options.status) reply.status(options.status);
    return value;
  });

  app.decorate('inUser', async function inUser<T>(request: FastifyRequest, reply: FastifyReply, work: UserWork<T>, options: WrapOptions = {}) {
    const auth = request.auth;
    if (!auth) throw new AppError('NOT_AUTHENTICATED');
    const value = await runTransaction(db, { pharmacyId: auth.pharmacyId, userId: auth.userId }, (q) => work(q, auth));
    if (options.status) reply.status(options.status);
    return value;
  });
});
