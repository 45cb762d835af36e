import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TillMpesaListQueryInput, TillMpesaListResponse, TillMpesaResolveInput, TillMpesaResponse } from '@pharmapoint/domain/till-mpesa';
import { api } from '@/lib/api';

/**
 * The till's M-Pesa requests for the owner (decisions 0058 and 0068): the paged, filtered list, how many unmatched
 * payments wait, and reconciling one (its Idempotency-Key made once per dialog, so a retry never records it twice).
 */

export const tillMpesaKeys = {
  all: ['till-payments'] as const,
  list: (query: TillMpesaListQueryInput) => ['till-payments', 'list', query] as const,
  unmatched: ['till-payments', 'unmatched-count'] as const,
};

function clean(input: Record<string, unknown>): Record<string, string | number | undefined> {
  const out: Record<string, string | number | undefined> = {};
  for (const [key, value] of Object.entries(input)) if (value !== undefined && value !== null && value !== '') out[key] = value as string | number;
  return out;
}

export function useTillMpesaPayments(query: TillMpesaListQueryInput) {
  return useQuery({
    queryKey: tillMpesaKeys.list(query),
    queryFn: ({ signal }) => api.get<TillMpesaListResponse>('/api/till-payments', { query: clean(query), signal }),
    placeholderData: keepPreviousData,
  });
}

/** How many unmatched M-Pesa payments wait for the owner (the list's total, one row fetched); only when allowed. */
export function useUnmatchedTillMpesaCount(enabled: boolean) {
  return useQuery({
    queryKey: tillMpesaKeys.unmatched,
    queryFn: async ({ signal }) => (await api.get<TillMpesaListResponse>('/api/till-payments', { query: { status: 'unmatched', limit: 1 }, signal })).total,
    enabled,
    staleTime: 30_000,
  });
}

export function useResolveTillMpesa() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, key, body }: { id: string; key: string; body: TillMpesaResolveInput }) =>
      api.post<TillMpesaResponse>(`/api/till-payments/${encodeURIComponent(id)}/resolve`, body, { headers: { 'Idempotency-Key': key } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: tillMpesaKeys.all }),
  });
}
