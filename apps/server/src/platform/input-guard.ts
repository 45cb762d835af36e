import type { FastifyInstance } from 'fastify';
import { findUnstorableText, UNSTORABLE_TEXT_MESSAGE } from '@pharmapoint/domain/text';
import { AppError } from './errors.ts';

/** The parts of a request the guard reads, in the order it reads them. */
const PARTS = ['query', 'params', 'body'] as const;

/**
 * The last line against text the database cannot store (issue 7, bad input): before any route's validation, every
 * string of the query, the path parameters and a JSON body is checked for a NUL character or a lone UTF-16
 * surrogate; one answers 400 naming the field, before anything is read or written, for every route present and
 * future. The domain's text() schema says the same per field; this guard holds where a schema forgot.
 * A plain hook (no promise): a request with nothing to read (GET /api/me) costs a few property reads.
 */
export function registerInputGuard(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => {
    for (const where of PARTS) {
      const value: unknown = request[where];
      if (value === undefined || value === null) continue;
      const path = findUnstorableText(value);
      if (path) {
        throw new AppError('VALIDATION_FAILED', {
          message: `${path}: ${UNSTORABLE_TEXT_MESSAGE}`,
          details: { issues: [{ path, message: UNSTORABLE_TEXT_MESSAGE }], context: where },
        });
      }
    }
    done();
  });
}
