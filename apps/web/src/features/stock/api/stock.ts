import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  Adjustment,
  AdjustmentListQueryInput,
  AdjustmentListResponse,
  CreateAdjustmentInput,
  CreateTransferInput,
  ReceiveTransferInput,
  Transfer,
  TransferListQueryInput,
  TransferListResponse,
} from '@pharmapoint/domain/stock';
import { api } from '@/lib/api';
import { withKey } from '@/lib/idempotency';

/** Every type here is z.infer of the domain schemas the server answers with (packages/domain/src/stock.ts). */

/** Query keys: every stock query starts with 'stock' (the live stream refreshes them by prefix). */
export const stockKeys = {
  adjustments: (query: AdjustmentListQueryInput) => ['stock', 'adjustments', query] as const,
  transfers: (query: TransferListQueryInput) => ['stock', 'transfers', query] as const,
};

function clean(input: Record<string, unknown>): Record<string, string | number | undefined> {
  const out: Record<string, string | number | undefined> = {};
  for (const [key, value] of Object.entries(input)) if (value !== undefined && value !== null && value !== '') out[key] = value as string | number;
  return out;
}

export function useAdjustments(query: AdjustmentListQueryInput) {
  return useQuery({
    queryKey: stockKeys.adjustments(query),
    queryFn: ({ signal }) => api.get<AdjustmentListResponse>('/api/stock/adjustments', { query: clean(query), signal }),
    placeholderData: keepPreviousData,
  });
}

export function useCreateAdjustment() {
  const queryClient = useQueryClient();
  return useMutation({
    /** key: the form's Idempotency-Key (lib/idempotency.ts): a retried submission adjusts once. */
    mutationFn: ({ input, key }: { input: CreateAdjustmentInput; key: string }) => api.post<Adjustment>('/api/stock/adjustments', input, withKey(key)),
    onSettled: async () => {
      await Promise.all([queryClient.invalidateQueries({ queryKey: ['stock'] }), queryClient.invalidateQueries({ queryKey: ['products'] })]);
    },
  });
}

export function useTransfers(query: TransferListQueryInput) {
  return useQuery({
    queryKey: stockKeys.transfers(query),
    queryFn: ({ signal }) => api.get<TransferListResponse>('/api/stock/transfers', { query: clean(query), signal }),
    placeholderData: keepPreviousData,
  });
}

export function useCreateTransfer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ input, key }: { input: CreateTransferInput; key: string }) => api.post<Transfer>('/api/stock/transfers', input, withKey(key)),
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: ['stock', 'transfers'] });
    },
  });
}

export type TransferStep = 'approve' | 'dispatch' | 'cancel';

/** approve, dispatch, cancel (with an optional note) and receive (all, or some pieces per line). */
export function useTransferAction() {
  const queryClient = useQueryClient();
  return useMutation({
    // Receiving takes the dialog's Idempotency-Key (key): a retried receipt adds the pieces once.
    mutationFn: ({ id, action, receive, key }: { id: string; action: TransferStep | 'receive'; receive?: ReceiveTransferInput; key?: string }) =>
      api.post<Transfer>(`/api/stock/transfers/${encodeURIComponent(id)}/${action}`, action === 'receive' ? (receive ?? {}) : {}, key ? withKey(key) : undefined),
    onSettled: async () => {
      await Promise.all([queryClient.invalidateQueries({ queryKey: ['stock'] }), queryClient.invalidateQueries({ queryKey: ['products'] })]);
    },
  });
}
