import type { FastifyInstance } from 'fastify';
import { findUnstorableText, UNSTORABLE_TEXT_MESSAGE } from '@pharmapoint/domain/text';
import { AppError } from './errors.ts';

/** The deepest a JSON body may nest objects and arrays (no request of this API needs more than a handful); the
 * JSON_TOO_DEEP message says the same number. */
export const MAX_JSON_DEPTH = 64;

/**
 * Whether JSON text nests objects and arrays deeper than `limit`, found without recursion and without parsing (a
 * loop over the characters, skipping strings): the text is judged before JSON.parse or any recursive walk of the
 * value could run out of stack. Malformed text is left for the parser to refuse.
 */
export function jsonNestsDeeperThan(text: string, limit: number): boolean {
  if (text.length <= limit) return false; // each level takes at least one character
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > limit) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/**
 * The JSON body parser of every route: Fastify's own (an empty body, malformed JSON and prototype poisoning refused
 * as before), after a depth check of the raw text. A body nested deeper than MAX_JSON_DEPTH answers 400 before it is
 * parsed, so neither JSON.parse nor the guard below nor any schema ever walks it.
 */
export function registerJsonParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (jsonNestsDeeperThan(body as string, MAX_JSON_DEPTH)) {
      done(new AppError('JSON_TOO_DEEP'), undefined);
      return;
    }
    parseJson(request, body as string, done);
  });
}

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
