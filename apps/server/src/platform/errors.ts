import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ERRORS, formatMessage, type ErrorBody, type ErrorCode } from '@pharmapoint/domain/errors';

/** A failure the user should see: a catalogue code, its message (with placeholders filled) and details. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details?: unknown;

  constructor(code: ErrorCode, options: { values?: Record<string, string | number>; details?: unknown; message?: string } = {}) {
    super(options.message ?? formatMessage(ERRORS[code].message, options.values));
    this.code = code;
    this.status = ERRORS[code].status;
    this.details = options.details;
  }
}

export function errorBody(code: ErrorCode, message: string, details?: unknown): ErrorBody {
  return { error: { code, message, ...(details === undefined ? {} : { details }) } };
}

/** The one error handler: catalogue errors as they are, validation as 400, everything else as 500 without internals. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      return reply.status(error.status).send(errorBody(error.code, error.message, error.details));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issues = error.validation.map((v) => ({
        path: (v.instancePath || '').replace(/^\//, '').replace(/\//g, '.') || String(v.params?.issue && (v.params.issue as { path?: unknown[] }).path?.join('.') || ''),
        message: v.message ?? 'Invalid value',
      }));
      const first = issues[0];
      const message = first ? (first.path ? `${first.path}: ${first.message}` : first.message) : ERRORS.VALIDATION_FAILED.message;
      return reply.status(400).send(errorBody('VALIDATION_FAILED', message, { issues, context: error.validationContext }));
    }
    if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || (error.statusCode === 400 && error instanceof SyntaxError)) {
      return reply.status(400).send(errorBody('MALFORMED_JSON', ERRORS.MALFORMED_JSON.message));
    }
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return reply.status(400).send(errorBody('BODY_TOO_LARGE', ERRORS.BODY_TOO_LARGE.message));
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

/**
 * Unknown paths: with the web app built, every GET outside /api answers the single-page app (client-side
 * routing); everything else is a 404 in the error format.
 */
export function registerNotFound(app: FastifyInstance, serveSpa: boolean): void {
  app.setNotFoundHandler((request, reply) => {
    if (serveSpa && request.method === 'GET' && !request.url.startsWith('/api')) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return reply.status(404).send(errorBody('NOT_FOUND', ERRORS.NOT_FOUND.message));
  });
}
