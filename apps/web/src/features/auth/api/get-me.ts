import { useQuery, type QueryClient } from '@tanstack/react-query';
import type { MeResponse } from '@pharmapoint/domain/auth';
import { api, ApiError } from '@/lib/api';
import { hasSessionHint, setSessionHint } from '@/lib/session-hint';

export const meQueryKey = ['me'] as const;

/** Paths that need a signed-in user: asking there is right even without a hint (a 401 sends the visitor to sign in). */
function onSignedInPath(): boolean {
  const path = typeof window === 'undefined' ? '' : window.location.pathname;
  return path === '/pos' || path.startsWith('/pos/') || path === '/app' || path.startsWith('/app/');
}

/**
 * GET /api/me; null when signed out (401). On public pages the question is asked only when this browser may hold a
 * session (lib/session-hint.ts), so a visitor's console shows no 401 from /api/me.
 */
export async function getMe(): Promise<MeResponse | null> {
  if (!hasSessionHint() && !onSignedInPath()) return null;
  try {
    const me = await api.get<MeResponse>('/api/me');
    setSessionHint(true);
    return me;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      setSessionHint(false);
      return null;
    }
    throw error;
  }
}

/** Who is signed in. `data` is null when signed out; refreshed every 30 s (seed 000 section 6, Other rules). */
export function useMe() {
  return useQuery({
    queryKey: meQueryKey,
    queryFn: getMe,
    staleTime: 5_000,
    // Permissions are re-read every 30 s while signed in; visitors are not polled.
    refetchInterval: (query) => (query.state.data ? 30_000 : false),
    refetchOnWindowFocus: true,
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 1,
  });
}

/** Replace the cached user (after login, unlock, branch switch). */
export function setMe(queryClient: QueryClient, me: MeResponse | null): void {
  setSessionHint(me !== null);
  queryClient.setQueryData(meQueryKey, me);
}
