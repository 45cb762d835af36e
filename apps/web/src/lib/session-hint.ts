/**
 * Whether this browser may hold a session, so public pages ask GET /api/me only then (no 401 in a visitor's console).
 * The session cookie is httpOnly; the hint is the readable marker cookie the server sets beside it (pp_signed_in,
 * same lifetime), or this browser's own note of its last answer (kept in localStorage: set when a user is known,
 * cleared on a 401 or sign-out). Signed-in paths (/app, /pos) ask regardless.
 */
export const SESSION_MARKER_COOKIE = 'pp_signed_in';
const STORAGE_KEY = 'pp_session_hint';

function markerCookie(): boolean {
  if (typeof document === 'undefined') return false;
  return document.cookie.split(';').some((part) => part.trim().startsWith(`${SESSION_MARKER_COOKIE}=`));
}

export function hasSessionHint(): boolean {
  if (markerCookie()) return true;
  try {
    return localStorage.getItem(STORAGE_KEY) === '1';
  } catch {
    return false;
  }
}

export function setSessionHint(signedIn: boolean): void {
  try {
    if (signedIn) localStorage.setItem(STORAGE_KEY, '1');
    else localStorage.removeItem(STORAGE_KEY);
  } catch {
    // Storage unavailable (private mode): public pages simply do not know about the session.
  }
}
