import { createHash, randomBytes } from 'node:crypto';

/** A random, URL-safe secret (session tokens, one-time links, CSRF tokens). */
export function newSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** What we store of a secret: its SHA-256, so a database leak reveals no usable token. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}
