import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ContactListResponse } from '@pharmapoint/domain/contacts';
import type {
  BulkDeleteResult,
  CreatePurchaseReturn,
  Purchase,
  PurchaseDefaults,
  PurchaseListQueryInput,
  PurchaseListResponse,
  PurchaseResult,
  PurchaseReturn,
  PurchaseReturnListResponse,
  ReceivePurchase,
  SavePurchase,
} from '@pharmapoint/domain/purchases';
import { api } from '@/lib/api';

/** Every type here is z.infer of the domain schemas the server answers with (packages/domain/src/purchases.ts). */

export const purchaseKeys = {
  all: ['purchases'] as const,
  list: (query: PurchaseListQueryInput) => ['purchases', 'list', query] as const,
  detail: (id: string) => ['purchases', 'detail', id] as const,
  defaults: ['purchases', 'defaults'] as const,
  suppliers: (search: string) => ['purchases', 'suppliers', search] as const,
  returns: (query: Record<string, unknown>) => ['purchases', 'returns', query] as const,
};

function queryOf(input: Record<string, unknown>): Record<string, string | number | undefined> {
  const out: Record<string, string | number | undefined> = {};
  for (const [key, value] of Object.entries(input)) if (value !== undefined && value !== null && value !== '') out[key] = value as string | number;
  return out;
}

/** GET /api/purchases: one page, filtered on the server. */
export function usePurchases(query: PurchaseListQueryInput, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: purchaseKeys.list(query),
    queryFn: ({ signal }) => api.get<PurchaseListResponse>('/api/purchases', { query: queryOf(query), signal }),
    placeholderData: keepPreviousData,
    enabled: options.enabled ?? true,
  });
}

export function usePurchase(id: string | undefined) {
  return useQuery({
    queryKey: purchaseKeys.detail(id ?? ''),
    queryFn: ({ signal }) => api.get<Purchase>(`/api/purchases/${encodeURIComponent(id ?? '')}`, { signal }),
    enabled: Boolean(id),
  });
}

export function usePurchaseDefaults() {
  return useQuery({ queryKey: purchaseKeys.defaults, queryFn: ({ signal }) => api.get<PurchaseDefaults>('/api/purchases/defaults', { signal }) });
}

/** Suppliers for the picker: the first page, or the server's matches of what is typed. */
export function useSuppliers(search: string) {
  return useQuery({
    queryKey: purchaseKeys.suppliers(search),
    queryFn: ({ signal }) => api.get<ContactListResponse>('/api/contacts', { query: queryOf({ type: 'supplier', search, limit: 100 }), signal }),
    placeholderData: keepPreviousData,
  });
}

async function refreshAfterStock(queryClient: ReturnType<typeof useQueryClient>) {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: ['purchases'] }),
    queryClient.invalidateQueries({ queryKey: ['products'] }),
    queryClient.invalidateQueries({ queryKey: ['stock'] }),
  ]);
}

/** POST /api/purchases (with the form's Idempotency-Key) or PUT /api/purchases/:id. */
export function useSavePurchase() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input, key }: { id?: string; input: SavePurchase; key: string }) =>
      id
        ? api.put<PurchaseResult>(`/api/purchases/${encodeURIComponent(id)}`, input)
        : api.post<PurchaseResult>('/api/purchases', input, { headers: { 'Idempotency-Key': key } }),
    onSettled: () => refreshAfterStock(queryClient),
  });
}

export function useReceivePurchase() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: ReceivePurchase }) => api.post<PurchaseResult>(`/api/purchases/${encodeURIComponent(id)}/receive`, input),
    onSettled: () => refreshAfterStock(queryClient),
  });
}

export function useDeletePurchase() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<{ id: string; message: string }>(`/api/purchases/${encodeURIComponent(id)}`),
    onSettled: () => refreshAfterStock(queryClient),
  });
}

export function useBulkDeletePurchases() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ids: string[]) => api.post<BulkDeleteResult>('/api/purchases/bulk-delete', { ids }),
    onSettled: () => refreshAfterStock(queryClient),
  });
}

export function usePurchaseReturns(query: { limit: number; offset: number; supplierId?: string }) {
  return useQuery({
    queryKey: purchaseKeys.returns(query),
    queryFn: ({ signal }) => api.get<PurchaseReturnListResponse>('/api/purchase-returns', { query: queryOf(query), signal }),
    placeholderData: keepPreviousData,
  });
}

export function useCreatePurchaseReturn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ input, key }: { input: CreatePurchaseReturn; key: string }) =>
      api.post<{ purchaseReturn: PurchaseReturn; message: string }>('/api/purchase-returns', input, { headers: { 'Idempotency-Key': key } }),
    onSettled: () => refreshAfterStock(queryClient),
  });
}
