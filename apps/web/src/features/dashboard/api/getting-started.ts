import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { GettingStartedResponse } from '@pharmapoint/domain/getting-started';
import { api } from '@/lib/api';

const key = ['dashboard', 'getting-started'] as const;

/** GET /api/dashboard/getting-started (settings:system): the checklist's steps, ticked from the pharmacy's data. */
export function useGettingStarted(enabled: boolean) {
  return useQuery({
    queryKey: key,
    queryFn: ({ signal }) => api.get<GettingStartedResponse>('/api/dashboard/getting-started', { signal }),
    enabled,
    refetchOnMount: 'always',
  });
}

/** POST /api/dashboard/getting-started/dismiss: hides the checklist for the whole pharmacy (repeating it is harmless). */
export function useDismissGettingStarted() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<GettingStartedResponse>('/api/dashboard/getting-started/dismiss'),
    onSuccess: (answer) => queryClient.setQueryData(key, answer),
  });
}
