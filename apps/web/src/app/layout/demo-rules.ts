/**
 * The demo is view-only (seed 000 section 4, Demo mode). The browser enforces it on the request, not on button
 * labels: every state-changing call is refused before it leaves, with the specification's 'Demo mode: Changes are
 * not saved', except the calls the server allows a demo visitor too (its routes marked allowForDemo, and public
 * ones): signing out, locking and unlocking the session, switching branch, and the pharmacy creation whose own
 * refusal ('Demo users cannot create pharmacies') the server gives. The server refuses the rest anyway (403).
 */
export const DEMO_ALLOWED_WRITES: readonly string[] = [
  '/api/auth/logout',
  '/api/auth/lock',
  '/api/auth/unlock',
  '/api/auth/verify-email',
  '/api/auth/resend-verification',
  '/api/me/branch',
  '/api/pharmacies',
];

/** Is this request refused for a demo visitor? Reads are never refused. */
export function isDemoBlockedRequest(method: string, path: string): boolean {
  if (method.toUpperCase() === 'GET' || method.toUpperCase() === 'HEAD') return false;
  const bare = path.split('?')[0] ?? path;
  return !DEMO_ALLOWED_WRITES.includes(bare);
}
