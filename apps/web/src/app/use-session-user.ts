import { useEffect, useState } from 'react';
import { useMe } from '@/features/auth/api/get-me';

/** Loading of the signed-in user ends after at most 5 seconds (seed 000 section 4, Sign-in and session). */
export const AUTH_LOADING_CAP_MS = 5_000;

/** The signed-in user for guards: `loading` while GET /api/me is pending (capped), then `me` (null when signed out). */
export function useSessionUser() {
  const query = useMe();
  const [timedOut, setTimedOut] = useState(false);
  const pending = query.isPending;
  useEffect(() => {
    if (!pending) return;
    const timer = window.setTimeout(() => setTimedOut(true), AUTH_LOADING_CAP_MS);
    return () => window.clearTimeout(timer);
  }, [pending]);
  return { me: query.data ?? null, loading: pending && !timedOut };
}
