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

export interface PreloadedCatalogue {
  response: PosCatalogueResponse;
  etag: string | null;
  /** The JSON text as it came (the store keeps it in IndexedDB as it is). */
  text: string;
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
  preloaded = fetch('/api/pos/catalogue', { credentials: 'same-origin', headers: { Accept: 'application/json' } })
    .then(async (res) => {
      if (!res.ok) return null;
      const text = await res.text();
      return { response: JSON.parse(text) as PosCatalogueResponse, etag: res.headers.get('etag'), text };
    })
    .catch(() => null);
}

/** The preloaded answer when it is this branch's (once: later loads ask the server). */
export function takePreloadedCatalogue(branchId: string): Promise<PreloadedCatalogue | null> | null {
  const pending = preloaded;
  if (!pending) return null;
  preloaded = null;
  return pending.then((p) => (p && p.response?.branchId === branchId && p.response.columns ? p : null));
}

/** Tests: forget any preload. */
export function resetPreloadedCatalogue(): void {
  preloaded = null;
}

preloadPosCatalogue();
