import { createHmac, timingSafeEqual } from 'node:crypto';
import type { KopoKopoConfig } from './k2-config.ts';

/**
 * The Kopo Kopo K2 calls the server makes (integrations reference section 1): OAuth client credentials with the
 * token cached until shortly before it expires, the STK push (incoming payment request) and its status query, and
 * the verification of X-KopoKopo-Signature. Secrets never go into errors or logs.
 */

export class K2Error extends Error {
  constructor(
    message: string,
    /** K2 refused the request itself (4xx other than 401): retrying will not help. */
    readonly permanent: boolean,
  ) {
    super(message);
  }
}

interface CachedToken {
  token: string;
  expiresAt: number;
}

const tokenCache = new Map<string, CachedToken>();
/** Refresh this long before K2's expiry. */
const TOKEN_MARGIN_MS = 60_000;
const TIMEOUT_MS = 15_000;

function cacheKey(config: KopoKopoConfig): string {
  return `${config.baseUrl}\u0000${config.clientId}`;
}

/** A bearer token, from the cache while it is valid. */
export async function accessToken(config: KopoKopoConfig, options: { timeoutMs?: number; fresh?: boolean } = {}): Promise<string> {
  const key = cacheKey(config);
  const cached = tokenCache.get(key);
  if (!options.fresh && cached && cached.expiresAt - TOKEN_MARGIN_MS > Date.now()) return cached.token;
  const response = await fetch(`${config.baseUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', 'user-agent': 'PharmaPoint' },
    body: new URLSearchParams({ client_id: config.clientId, client_secret: config.clientSecret, grant_type: 'client_credentials' }).toString(),
    signal: AbortSignal.timeout(options.timeoutMs ?? TIMEOUT_MS),
  });
  if (!response.ok) {
    tokenCache.delete(key);
    throw new K2Error(`K2 refused the OAuth token request (HTTP ${response.status})`, false);
  }
  const body = (await response.json()) as { access_token?: unknown; expires_in?: unknown };
  if (typeof body.access_token !== 'string') throw new K2Error('K2 answered the OAuth token request without an access_token', false);
  const seconds = Number(body.expires_in ?? 3600);
  tokenCache.set(key, { token: body.access_token, expiresAt: Date.now() + (Number.isFinite(seconds) ? seconds : 3600) * 1000 });
  return body.access_token;
}

/** Forget cached tokens (tests). */
export function clearTokenCache(): void {
  tokenCache.clear();
}

async function authorized(config: KopoKopoConfig, url: string, init: RequestInit): Promise<Response> {
  for (let attempt = 0; attempt < 2; attempt += 1) {
    const token = await accessToken(config, { fresh: attempt > 0 });
    const response = await fetch(url, {
      ...init,
      headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${token}`, accept: 'application/json' },
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    // A 401 is a bad or expired token: fetch a fresh one once.
    if (response.status !== 401) return response;
  }
  throw new K2Error('K2 refused the access token', false);
}

export interface IncomingPaymentRequest {
  phoneNumber: string;
  firstName: string;
  lastName: string;
  email?: string;
  amountShillings: number;
  metadata: Record<string, string>;
}

/** POST /api/v2/incoming_payments: the STK push. Answers the resource URL K2 puts in Location. */
export async function requestIncomingPayment(config: KopoKopoConfig, input: IncomingPaymentRequest): Promise<string> {
  const response = await authorized(config, `${config.baseUrl}/api/v2/incoming_payments`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      payment_channel: 'M-PESA STK Push',
      till_number: config.tillNumber,
      subscriber: {
        first_name: input.firstName,
        last_name: input.lastName,
        phone_number: input.phoneNumber,
        ...(input.email ? { email: input.email } : {}),
      },
      amount: { currency: 'KES', value: input.amountShillings },
      metadata: input.metadata,
      _links: { callback_url: config.callbackUrl },
    }),
  });
  if (response.status === 201) {
    const location = response.headers.get('location');
    if (!location) throw new K2Error('K2 accepted the STK push without a Location', false);
    return location;
  }
  const text = await response.text().catch(() => '');
  let message = `HTTP ${response.status}`;
  try {
    const body = JSON.parse(text) as { error_message?: unknown };
    if (typeof body.error_message === 'string') message = body.error_message;
  } catch {
    // not JSON
  }
  throw new K2Error(`K2 refused the STK push: ${message}`.slice(0, 300), response.status >= 400 && response.status < 500);
}

/** GET <location>: the incoming payment's status, as K2 answers it (the callback's shape). */
export async function queryIncomingPayment(config: KopoKopoConfig, location: string): Promise<string> {
  // Only ever the K2 we are configured with: a stored location elsewhere is refused.
  if (!location.startsWith(`${config.baseUrl}/`)) throw new K2Error('The payment location is not on the configured K2', true);
  const response = await authorized(config, location, { method: 'GET' });
  if (!response.ok) throw new K2Error(`K2 answered the status query with HTTP ${response.status}`, response.status === 404);
  return response.text();
}

/** Is the X-KopoKopo-Signature the hex HMAC-SHA256 of exactly these bytes with the API key? Constant time. */
export function verifySignature(apiKey: string, rawBody: Buffer | string, signature: unknown): boolean {
  if (typeof signature !== 'string' || !/^[0-9a-f]{64}$/i.test(signature)) return false;
  const expected = createHmac('sha256', apiKey).update(rawBody).digest();
  const got = Buffer.from(signature, 'hex');
  return got.length === expected.length && timingSafeEqual(got, expected);
}

/** What a result (callback or status answer) says, read defensively. */
export interface K2Result {
  /** The incoming payment's id (data.id). */
  id: string | null;
  status: 'Pending' | 'Success' | 'Failed' | 'Reversed' | 'Unknown';
  reference: string | null;
  amount: number | null;
  errors: string | null;
  /** Our payment id echoed in metadata. */
  paymentId: string | null;
  /** The metadata we sent, echoed (till payments name their request in it). */
  metadata: Record<string, unknown> | null;
  self: string | null;
}

const asText = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 ? v : null);

/** A value deep in parsed JSON, or undefined. */
function dig(value: unknown, ...keys: string[]): unknown {
  let current = value;
  for (const key of keys) {
    if (!current || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

const amountOf = (v: unknown): number | null => (v === undefined || v === null ? null : Number(v));

/** Reads an STK result (section 1.6) or a buygoods reversal webhook (section 1.8). */
export function readK2Result(body: unknown): K2Result {
  if (dig(body, 'topic') === 'buygoods_transaction_reversed' || dig(body, 'event', 'resource', 'status') === 'Reversed') {
    return {
      id: asText(dig(body, 'id')),
      status: 'Reversed',
      reference: asText(dig(body, 'event', 'resource', 'reference')),
      amount: amountOf(dig(body, 'event', 'resource', 'amount')),
      errors: null,
      paymentId: null,
      metadata: null,
      self: null,
    };
  }
  const attributes = dig(body, 'data', 'attributes');
  const statusText = asText(dig(attributes, 'status'));
  const status = statusText === 'Pending' || statusText === 'Success' || statusText === 'Failed' || statusText === 'Reversed' ? statusText : 'Unknown';
  const resource = dig(attributes, 'event', 'resource');
  const errors = dig(attributes, 'event', 'errors');
  const errorText = typeof errors === 'string' ? errors : errors && typeof errors === 'object' ? (asText(dig(errors, 'description')) ?? JSON.stringify(errors)) : null;
  return {
    id: asText(dig(body, 'data', 'id')),
    status,
    reference: resource ? asText(dig(resource, 'reference')) : null,
    amount: resource ? amountOf(dig(resource, 'amount')) : null,
    errors: errorText ? errorText.slice(0, 500) : null,
    paymentId: asText(dig(attributes, 'metadata', 'payment_id')),
    metadata: ((m) => (m && typeof m === 'object' && !Array.isArray(m) ? (m as Record<string, unknown>) : null))(dig(attributes, 'metadata')),
    self: asText(dig(attributes, '_links', 'self')),
  };
}
