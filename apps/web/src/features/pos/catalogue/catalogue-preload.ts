import type { PosCatalogueResponse } from '@pharmapoint/domain/pos-catalogue';
import { hasSessionHint } from '@/lib/session-hint';

/**
 * The till's catalogue asked for as soon as the page starts (decision 0064), before the till route's code, the
 * session and the live stream are there: imported first by the app, it only sends GET /api/pos/catalogue (the
 * session's branch) when the page opened is /pos and this browser may hold a session. The catalogue store of that
 * branch takes the answer instead of asking again (and revalidates it, with its ETag, once the live stream listens);
 * any other answer (another branch, a refusal, a network error) is dropped and the store asks as before.
 * Type-only imports: nothing of the till loads with the entry.
 */

/** The answer, or the server's 304 for the ETag named (the last copy this browser kept). */
export type PreloadedCatalogue = { response: PosCatalogueResponse; etag: string | null } | { unchanged: string };

/** The ETag of the last catalogue copy kept in IndexedDB (any branch): named by the preload (304 when current). */
const KEPT_ETAG_KEY = 'pp:pos-catalogue:etag';

export function rememberKeptEtag(etag: string | null): void {
  try {
    if (etag) localStorage.setItem(KEPT_ETAG_KEY, etag);
    else localStorage.removeItem(KEPT_ETAG_KEY);
  } catch {
    // No storage: the preload asks for the whole answer.
  }
}

export function forgetKeptEtag(): void {
  rememberKeptEtag(null);
}

function keptEtag(): string | null {
  try {
    return localStorage.getItem(KEPT_ETAG_KEY);
  } catch {
    return null;
  }
}

let preloaded: Promise<PreloadedCatalogue | null> | null = null;

/** True for the till's own paths. */
export function isTillPath(pathname: string): boolean {
  return /^\/pos(\/|$)/.test(pathname);
}

export function preloadPosCatalogue(): void {
  if (typeof window === 'undefined' || typeof fetch !== 'function' || preloaded) return;
  if (!isTillPath(window.location.pathname) || !hasSessionHint()) return;
  try {
    performance.mark('pp:catalogue:preload');
  } catch {
    // No User Timing: nothing to mark.
  }
  const etag = keptEtag();
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (etag) headers['If-None-Match'] = etag;
  preloaded = fetch('/api/pos/catalogue', { credentials: 'same-origin', headers })
    .then(async (res): Promise<PreloadedCatalogue | null> => {
      if (res.status === 304 && etag) return { unchanged: etag };
      return res.ok ? { response: (await res.json()) as PosCatalogueResponse, etag: res.headers.get('etag') } : null;
    })
    .catch(() => null);
}

/** The preloaded answer when it is this branch's (once: later loads ask the server). */
export function takePreloadedCatalogue(branchId: string): Promise<PreloadedCatalogue | null> | null {
  const pending = preloaded;
  if (!pending) return null;
  preloaded = null;
  // A 304 names the copy kept: the store checks it is the one it shows (and so of its branch).
  return pending.then((p) => (p && ('unchanged' in p || (p.response?.branchId === branchId && p.response.columns)) ? p : null));
}

/** Tests: forget any preload. */
export function resetPreloadedCatalogue(): void {
  preloaded = null;
}

preloadPosCatalogue();
