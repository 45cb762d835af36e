import { useQuery, type QueryClient } from '@tanstack/react-query';
import type { MeResponse } from '@pharmapoint/domain/auth';
import { api, ApiError } from '@/lib/api';

export const meQueryKey = ['me'] as const;

/** GET /api/me; null when signed out (401). */
export async function getMe(): Promise<MeResponse | null> {
  try {
    return await api.get<MeResponse>('/api/me');
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
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
  queryClient.setQueryData(meQueryKey, me);
}
