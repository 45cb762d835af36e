import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ERRORS, formatMessage, type ErrorBody, type ErrorCode } from '@pharmapoint/domain/errors';

/** A failure the user should see: a catalogue code, its message (with placeholders filled) and details. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details?: unknown;
  readonly values?: Record<string, string | number>;

  constructor(code: ErrorCode, options: { values?: Record<string, string | number>; details?: unknown; message?: string } = {}) {
    super(options.message ?? formatMessage(ERRORS[code].message, options.values));
    this.code = code;
    this.status = ERRORS[code].status;
    this.details = options.details;
    this.values = options.values;
  }
}

export function errorBody(code: ErrorCode, message: string, details?: unknown, values?: Record<string, string | number>): ErrorBody {
  return { error: { code, message, ...(values === undefined ? {} : { values }), ...(details === undefined ? {} : { details }) } };
}

/** A PostgreSQL error as both drivers raise it: the SQLSTATE and, for constraint violations, the constraint. */
export interface DatabaseErrorLike {
  code: string;
  constraint?: string;
  message: string;
}

export function isDatabaseError(error: unknown): error is DatabaseErrorLike {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && !(error instanceof AppError);
}

/** Serialisation failures and deadlocks: the transaction wrapper runs the work again once. */
export function isRetryableDatabaseError(error: unknown): boolean {
  return isDatabaseError(error) && (error.code === '40001' || error.code === '40P01');
}

/**
 * Unique constraints whose violation has a message of its own (a concurrent duplicate that the service's own
 * check could not see yet). Others answer the generic CONFLICT.
 */
const UNIQUE_CONSTRAINT_ERRORS: Record<string, ErrorCode> = {
  products_sku: 'SKU_TAKEN',
  branches_pharmacy_id_name_key: 'BRANCH_NAME_TAKEN',
  users_email_key: 'DUPLICATE_EMAIL',
};

/**
 * The refusals SQL raises on purpose with a SQLSTATE of its own, as the AppError the server gave before it moved the
 * check into SQL, or null for any other error: take_plan_places (migration 0041, decision 0080) says
 * 'Subscription not active' (PPL01) or that the places do not fit (PPL02, DETAIL {"limit": L, "usage": U}).
 */
export function raisedAppError(error: unknown): AppError | null {
  if (!isDatabaseError(error)) return null;
  if (error.code === 'PPL01') return new AppError('SUBSCRIPTION_NOT_ACTIVE');
  if (error.code === 'PPL02') {
    const detail = (error as { detail?: unknown }).detail;
    const { limit, usage } = JSON.parse(typeof detail === 'string' ? detail : '{}') as { limit?: unknown; usage?: unknown };
    if (typeof limit === 'number' && typeof usage === 'number') return new AppError('LIMIT_EXCEEDED', { values: { limit, usage } });
  }
  return null;
}

/**
 * What a database error means to the caller, for the errors a request can cause with what it sends: a duplicate
 * (23505) is 409; a row it names that vanished (23503) is 409; a value the column cannot hold (too long, out of
 * range, an impossible date, a NUL byte) is 400; a deadlock or serialisation failure that survived the retry is 409.
 * null for anything else (a defect: 500).
 */
export function databaseErrorToAppError(error: unknown): AppError | null {
  if (!isDatabaseError(error)) return null;
  const raised = raisedAppError(error);
  if (raised) return raised;
  switch (error.code) {
    case '23505': {
      const known = error.constraint ? UNIQUE_CONSTRAINT_ERRORS[error.constraint] : undefined;
      return new AppError(known ?? 'CONFLICT', { details: error.constraint ? { constraint: error.constraint } : undefined });
    }
    case '23503':
      return new AppError('REFERENCE_NOT_FOUND');
    case '40001':
    case '40P01':
      return new AppError('BUSY_TRY_AGAIN');
    case '22001':
      return new AppError('VALUE_NOT_STORABLE', { values: { reason: 'a text is too long' } });
    case '22003':
      return new AppError('VALUE_NOT_STORABLE', { values: { reason: 'a number is out of range' } });
    case '22007':
    case '22008':
      return new AppError('VALUE_NOT_STORABLE', { values: { reason: 'a date does not exist' } });
    case '22021':
    case '22P05':
      return new AppError('VALUE_NOT_STORABLE', { values: { reason: 'a text contains a character that cannot be stored' } });
    case '22P02':
      return new AppError('VALUE_NOT_STORABLE', { values: { reason: 'a value has the wrong form' } });
    case '23514':
      return new AppError('VALUE_NOT_STORABLE', { values: { reason: 'a value is outside what is allowed' } });
    default:
      return null;
  }
}

/**
 * Of the branches of a failed union, the first problem of the one that got deepest into the value (for
 * `string | { csv }` given { csv: 5 }: 'csv: expected string'), or null when no branch got past the top.
 */
function closestUnionIssue(params: unknown): { path: string; message: string } | null {
  const branches = (params as { errors?: unknown } | undefined)?.errors;
  if (!Array.isArray(branches)) return null;
  let best: { path: PropertyKey[]; message: string } | null = null;
  for (const branch of branches) {
    const first = Array.isArray(branch) ? (branch[0] as { path?: PropertyKey[]; message?: string } | undefined) : undefined;
    if (first?.path && typeof first.message === 'string' && first.path.length > (best?.path.length ?? 0)) best = { path: first.path, message: first.message };
  }
  return best ? { path: best.path.map(String).join('.'), message: best.message } : null;
}

/** The one error handler: catalogue errors as they are, validation as 400, everything else as 500 without internals. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      return reply.status(error.status).send(errorBody(error.code, error.message, error.details, error.values));
    }
    const fromDatabase = databaseErrorToAppError(error);
    if (fromDatabase) {
      request.log.warn({ code: (error as DatabaseErrorLike).code, constraint: (error as DatabaseErrorLike).constraint }, 'database refused a value');
      return reply.status(fromDatabase.status).send(errorBody(fromDatabase.code, fromDatabase.message, fromDatabase.details, fromDatabase.values));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issues = error.validation.map((v) => {
        const path = (v.instancePath || '').replace(/^\//, '').replace(/\//g, '.') || String(v.params?.issue && (v.params.issue as { path?: unknown[] }).path?.join('.') || '');
        // A value that matches no branch of a union: name the field of the branch it came closest to.
        const inner = v.keyword === 'invalid_union' ? closestUnionIssue(v.params) : null;
        if (inner) return { path: [path, inner.path].filter(Boolean).join('.'), message: inner.message };
        return { path, message: v.message ?? 'Invalid value' };
      });
      const first = issues[0];
      // The sentence alone ('Tax rate must be between 0 and 100 %.'): the field's path is for programs, in details.issues.
      const message = first ? first.message : ERRORS.VALIDATION_FAILED.message;
      return reply.status(400).send(errorBody('VALIDATION_FAILED', message, { issues, context: error.validationContext }));
    }
    if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || (error.statusCode === 400 && error instanceof SyntaxError)) {
      return reply.status(400).send(errorBody('MALFORMED_JSON', ERRORS.MALFORMED_JSON.message));
    }
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return reply.status(ERRORS.BODY_TOO_LARGE.status).send(errorBody('BODY_TOO_LARGE', ERRORS.BODY_TOO_LARGE.message));
    }
    if (error.statusCode === 429) {
      return reply.status(429).send(errorBody('RATE_LIMITED', ERRORS.RATE_LIMITED.message));
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      return reply.status(400).send(errorBody('VALIDATION_FAILED', error.message));
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send(errorBody('INTERNAL', ERRORS.INTERNAL.message));
  });
}

/** The landing page's paths: the build's prerendered landing.html answers them (docs/decisions/0057). */
const LANDING_PATHS = new Set(['/', '/landing']);

/**
 * Unknown paths: with the web app built, every GET outside /api answers the single-page app (client-side
 * routing), except / and /landing, which answer the prerendered landing page when the build has one; everything
 * else is a 404 in the error format.
 */
export function registerNotFound(app: FastifyInstance, serveSpa: boolean): void {
  app.setNotFoundHandler((request, reply) => {
    // A missing hashed asset (an old chunk after a deploy) is a 404, never the app's HTML with 200: the browser
    // would try to run index.html as JavaScript, and the lazy-route loader could not tell it failed.
    if (serveSpa && request.method === 'GET' && !request.url.startsWith('/api') && !request.url.startsWith('/assets/')) {
      // @fastify/static (wildcard: false) has a route for every file of the build, landing.html among them when built.
      const landing = LANDING_PATHS.has(request.url.split('?')[0]!) && request.server.hasRoute({ method: 'GET', url: '/landing.html' });
      return reply.header('cache-control', 'no-cache').sendFile(landing ? 'landing.html' : 'index.html');
    }
    return reply.status(404).send(errorBody('NOT_FOUND', ERRORS.NOT_FOUND.message));
  });
}
