import { useCallback, useRef } from 'react';

/**
 * A new v4 UUID: a sale's id, an Idempotency-Key. crypto.randomUUID exists only in a secure context (https or
 * localhost); a till opened on a LAN address over http has crypto.getRandomValues alone, so this makes the UUID from it.
 */
export function newUuid(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export interface IdempotencyKeys {
  /**
   * The Idempotency-Key to send with this body: the key sent last time when the body is the same (a retry after a
   * network error or a second press is the same request, and the server answers it with the first answer), a new
   * key when the body changed (the person corrected something: a new request).
   */
  keyFor: (body: unknown) => string;
  /** After a success: the next submission is a new request even with the same body (two identical adjustments). */
  renew: () => void;
}

/**
 * The Idempotency-Key of one form's create (decision 0084): every create the server accepts a key for sends one, so a
 * submission retried after a lost answer is made once. The key lives as long as the form and its content.
 */
export function useIdempotencyKey(): IdempotencyKeys {
  const sent = useRef<{ body: string; key: string } | null>(null);
  const keyFor = useCallback((body: unknown) => {
    const text = JSON.stringify(body ?? null);
    if (sent.current?.body !== text) sent.current = { body: text, key: newUuid() };
    return sent.current.key;
  }, []);
  const renew = useCallback(() => {
    sent.current = null;
  }, []);
  return { keyFor, renew };
}

/** The request option that carries a key (api.post's third argument). */
export function withKey(key: string): { headers: Record<string, string> } {
  return { headers: { 'Idempotency-Key': key } };
}
