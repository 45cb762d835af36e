import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  CancelSuspendedSaleResponse,
  SuspendSaleInput,
  SuspendedSale,
  SuspendedSaleListQueryInput,
  SuspendedSaleListResponse,
} from '@pharmapoint/domain/suspended-sales';
import { api } from '@/lib/api';

/** Suspended sales (decision 0028): the list, one sale, suspending (idempotent by its id) and cancelling. */

export const suspendedKeys = {
  all: ['suspended-sales'] as const,
  list: (query: SuspendedSaleListQueryInput) => ['suspended-sales', 'list', query] as const,
  one: (id: string) => ['suspended-sales', 'one', id] as const,
};

function clean(input: Record<string, unknown>): Record<string, string | number | undefined> {
  const out: Record<string, string | number | undefined> = {};
  for (const [key, value] of Object.entries(input)) if (value !== undefined && value !== null && value !== '') out[key] = value as string | number;
  return out;
}

export function useSuspendedSales(query: SuspendedSaleListQueryInput) {
  return useQuery({
    queryKey: suspendedKeys.list(query),
    queryFn: ({ signal }) => api.get<SuspendedSaleListResponse>('/api/suspended-sales', { query: clean(query), signal }),
    placeholderData: keepPreviousData,
  });
}

export function fetchSuspendedSale(id: string): Promise<SuspendedSale> {
  return api.get<SuspendedSale>(`/api/suspended-sales/${id}`);
}

async function refreshAfterStockChange(queryClient: ReturnType<typeof useQueryClient>) {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: suspendedKeys.all }),
    queryClient.invalidateQueries({ queryKey: ['products'] }),
    queryClient.invalidateQueries({ queryKey: ['stock'] }),
  ]);
}

/** POST /api/suspended-sales: the body's id is also the Idempotency-Key (a retry answers the first suspension). */
export function useSuspendSale() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SuspendSaleInput) => api.post<SuspendedSale>('/api/suspended-sales', input, { headers: { 'Idempotency-Key': input.id } }),
    onSettled: () => refreshAfterStockChange(queryClient),
  });
}

/** POST /api/suspended-sales/:id/cancel: the reserved stock goes back to the shelf. */
export function useCancelSuspendedSale() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.post<CancelSuspendedSaleResponse>(`/api/suspended-sales/${id}/cancel`, {}),
    onSettled: () => refreshAfterStockChange(queryClient),
  });
}
