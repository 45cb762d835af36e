import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** A random, URL-safe secret (session tokens, one-time links, CSRF tokens). */
export function newSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** What we store of a secret: its SHA-256, so a database leak reveals no usable token. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/**
 * The CSRF token of a session (decision 0089): an HMAC-SHA256 keyed by the session token itself. The session token is
 * a 256-bit secret that only the browser holds (HttpOnly cookie) and every server instance reads from the request,
 * so each instance derives the same token with no shared secret, and nobody without the session can: neither a
 * value of one's choosing nor another session's token passes.
 */
export function sessionCsrfToken(sessionToken: string): string {
  return createHmac('sha256', sessionToken).update('pharmapoint csrf v1').digest('base64url');
}

/** Are the two secrets the same (compared in constant time)? */
export function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
