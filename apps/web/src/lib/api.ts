import { ERRORS } from '@pharmapoint/domain/errors';
import i18n from '@/i18n';

/**
 * The one HTTP client of the browser: JSON in and out, the session cookie, the CSRF double-submit header on
 * every state-changing request, and ApiError with the server's { error: { code, message, values, details } }.
 */

export type ErrorValues = Record<string, string | number>;

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: unknown;
  /** The placeholders of the code's message (e.g. { limit, usage } for LIMIT_EXCEEDED). */
  readonly values: ErrorValues | undefined;

  /** `message` is what the user reads: see errorText(). */
  constructor(status: number, code: string, message: string, details?: unknown, values?: ErrorValues) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.details = details;
    this.values = values;
  }
}

const CATALOGUE = ERRORS as Record<string, { message: string }>;

/**
 * The text of a server error in the user's language: the errors catalogue's sentence for the code with its values.
 * The server's own message is kept when the code is unknown here, for VALIDATION_FAILED (its message is the
 * field's sentence), and whenever the server sent a message more specific than the code's generic one.
 */
export function errorText(code: string, serverMessage: string | undefined, values?: ErrorValues): string {
  const known = CATALOGUE[code];
  if (!known || code === 'VALIDATION_FAILED') return serverMessage || known?.message || i18n.t('errors.unexpected');
  const generic = known.message.replace(/\{(\w+)\}/g, (placeholder, name: string) => (values && name in values ? String(values[name]) : placeholder));
  if (serverMessage && serverMessage !== generic) return serverMessage;
  return i18n.t(`errors:${code}`, { ...values, defaultValue: generic });
}

/** Message shown when the request never reached the server (seed 000 section 8, Login: Network). */
export const NETWORK_ERROR_MESSAGE = 'Network error. Please check your internet connection.';

type Listener = () => void;
const lockListeners = new Set<Listener>();
const unauthenticatedListeners = new Set<Listener>();

/** Called whenever the server answers 423 SESSION_LOCKED: the shell shows the Session Locked overlay. */
export function onSessionLocked(listener: Listener): () => void {
  lockListeners.add(listener);
  return () => lockListeners.delete(listener);
}

/** Called whenever the server answers 401 NOT_AUTHENTICATED to a request other than GET /api/me. */
export function onUnauthenticated(listener: Listener): () => void {
  unauthenticatedListeners.add(listener);
  return () => unauthenticatedListeners.delete(listener);
}

function readCookie(name: string): string | undefined {
  for (const part of document.cookie.split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return decodeURIComponent(value.join('='));
  }
  return undefined;
}

/**
 * A check every state-changing request passes before it leaves (the demo's read-only mode): it returns the error to
 * throw instead of sending, or undefined. One guard at a time; the returned function removes it.
 */
export type WriteGuard = (method: string, path: string) => ApiError | undefined;
let writeGuard: WriteGuard | undefined;

export function setWriteGuard(guard: WriteGuard): () => void {
  writeGuard = guard;
  return () => {
    if (writeGuard === guard) writeGuard = undefined;
  };
}

export interface RequestOptions {
  /** Extra headers, e.g. { 'Idempotency-Key': saleId }. */
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Query parameters; undefined and empty values are left out. */
  query?: Record<string, string | number | boolean | null | undefined>;
}

function withQuery(path: string, query: RequestOptions['query']): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    params.set(key, String(value));
  }
  const text = params.toString();
  if (!text) return path;
  return `${path}${path.includes('?') ? '&' : '?'}${text}`;
}

async function ensureCsrfCookie(): Promise<string | undefined> {
  const existing = readCookie('pp_csrf');
  if (existing) return existing;
  // The server sets pp_csrf on any /api response; a cheap public GET primes it.
  await fetch('/api/auth/providers', { credentials: 'same-origin' }).catch(() => undefined);
  return readCookie('pp_csrf');
}

async function request<T>(method: string, path: string, body?: unknown, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  const isForm = typeof FormData !== 'undefined' && body instanceof FormData;
  if (body !== undefined && !isForm) headers['Content-Type'] = 'application/json';
  if (method !== 'GET') {
    const refusal = writeGuard?.(method, path);
    if (refusal) throw refusal;
    const csrf = await ensureCsrfCookie();
    if (csrf) headers['x-csrf-token'] = csrf;
  }
  let response: Response;
  try {
    response = await fetch(withQuery(path, options.query), {
      method,
      credentials: 'same-origin',
      headers,
      body: body === undefined ? undefined : isForm ? (body as FormData) : JSON.stringify(body),
      signal: options.signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, 'NETWORK_ERROR', NETWORK_ERROR_MESSAGE);
  }

  const text = await response.text();
  let data: unknown = undefined;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = text;
    }
  }
  if (!response.ok) {
    const envelope = (data && typeof data === 'object' && 'error' in data ? (data as { error: unknown }).error : undefined) as
      | { code?: string; message?: string; values?: ErrorValues; details?: unknown }
      | undefined;
    const code = envelope?.code ?? `HTTP_${response.status}`;
    const error = new ApiError(
      response.status,
      code,
      errorText(code, envelope?.message ?? (response.statusText || `Request failed (${response.status})`), envelope?.values),
      envelope?.details,
      envelope?.values,
    );
    if (response.status === 423 && error.code === 'SESSION_LOCKED') lockListeners.forEach((listener) => listener());
    // Only a lost session signals (a wrong unlock PIN or password is a 401 too, but the session lives on).
    if (response.status === 401 && error.code === 'NOT_AUTHENTICATED' && path !== '/api/me') unauthenticatedListeners.forEach((listener) => listener());
    throw error;
  }
  return data as T;
}

export const api = {
  get: <T>(path: string, options?: RequestOptions) => request<T>('GET', path, undefined, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('POST', path, body ?? {}, options),
  put: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('PUT', path, body ?? {}, options),
  patch: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('PATCH', path, body ?? {}, options),
  delete: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('DELETE', path, body, options),
};

/** The text to show for any thrown value: the server's message, or the fallback. */
export function errorMessage(error: unknown, fallback = 'An unexpected error occurred.'): string {
  if (error instanceof Error && error.message) return error.message;
  return fallback;
}
