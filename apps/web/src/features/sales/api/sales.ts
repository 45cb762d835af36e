import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreateSaleReturnInput, SaleReturn, SaleReturnListResponse, VoidSaleInput } from '@pharmapoint/domain/sale-returns';
import type { Sale } from '@pharmapoint/domain/sales';
import type {
  CreditOutstandingResponse,
  CustomerPayment,
  CustomerPaymentInput,
  PaymentSummaryQueryInput,
  PaymentSummaryResponse,
  SaleFilterOptionsQueryInput,
  SaleFilterOptionsResponse,
  SaleHistoryQueryInput,
  SaleHistoryResponse,
} from '@pharmapoint/domain/sales-history';
import type { SettingsResponse } from '@pharmapoint/domain/settings';
import { api } from '@/lib/api';

/**
 * The back office's sales (issue 10 items 7-10): the filtered list with its totals, one sale and its returns,
 * returning and voiding, the payment summary, credit owed and a customer's later payment. Creates send their
 * browser-made id as the Idempotency-Key.
 */

export const salesKeys = {
  all: ['sales'] as const,
  list: (query: SaleHistoryQueryInput) => ['sales', 'list', query] as const,
  one: (id: string) => ['sales', 'one', id] as const,
  returns: (id: string) => ['sales', 'returns', id] as const,
  summary: (query: PaymentSummaryQueryInput) => ['sales', 'payment-summary', query] as const,
  credit: (branchId: string | undefined) => ['sales', 'credit', branchId ?? ''] as const,
};

function clean(input: Record<string, unknown>): Record<string, string | number | undefined> {
  const out: Record<string, string | number | undefined> = {};
  for (const [key, value] of Object.entries(input)) if (value !== undefined && value !== null && value !== '') out[key] = value as string | number;
  return out;
}

export function useSalesHistory(query: SaleHistoryQueryInput, enabled = true) {
  return useQuery({
    queryKey: salesKeys.list(query),
    queryFn: ({ signal }) => api.get<SaleHistoryResponse>('/api/sales', { query: clean(query), signal }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** The cashiers and clients of the sales in the range and branch (the list filters' choices). */
export function useSaleFilterOptions(query: SaleFilterOptionsQueryInput) {
  return useQuery({
    queryKey: ['sales', 'filter-options', query] as const,
    queryFn: ({ signal }) => api.get<SaleFilterOptionsResponse>('/api/sales/filter-options', { query: clean(query), signal }),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
}

export function fetchSale(id: string): Promise<Sale> {
  return api.get<Sale>(`/api/sales/${id}`);
}

export function useSale(id: string | null) {
  return useQuery({ queryKey: salesKeys.one(id ?? ''), queryFn: ({ signal }) => api.get<Sale>(`/api/sales/${id}`, { signal }), enabled: Boolean(id) });
}

export function useSaleReturns(id: string | null) {
  return useQuery({
    queryKey: salesKeys.returns(id ?? ''),
    queryFn: ({ signal }) => api.get<SaleReturnListResponse>(`/api/sales/${id}/returns`, { signal }),
    enabled: Boolean(id),
  });
}

/** GET /api/settings (every member may read it): the pharmacy's name and receipt texts for documents. */
export function useDocumentSettings() {
  return useQuery({ queryKey: ['settings'], queryFn: () => api.get<SettingsResponse>('/api/settings'), staleTime: 60_000 });
}

async function refreshAfterChange(queryClient: ReturnType<typeof useQueryClient>) {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: salesKeys.all }),
    queryClient.invalidateQueries({ queryKey: ['products'] }),
    queryClient.invalidateQueries({ queryKey: ['stock'] }),
  ]);
}

export function useCreateSaleReturn(saleId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateSaleReturnInput) => api.post<SaleReturn>(`/api/sales/${saleId}/returns`, input, { headers: { 'Idempotency-Key': input.id } }),
    onSettled: () => refreshAfterChange(queryClient),
  });
}

export function useVoidSale(saleId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: VoidSaleInput) => api.post<SaleReturn>(`/api/sales/${saleId}/void`, input, { headers: { 'Idempotency-Key': input.id } }),
    onSettled: () => refreshAfterChange(queryClient),
  });
}

export function usePaymentSummary(query: PaymentSummaryQueryInput) {
  return useQuery({
    queryKey: salesKeys.summary(query),
    queryFn: ({ signal }) => api.get<PaymentSummaryResponse>('/api/sales/payment-summary', { query: clean(query), signal }),
    placeholderData: keepPreviousData,
  });
}

export function useCreditOutstanding(branchId: string | undefined) {
  return useQuery({
    queryKey: salesKeys.credit(branchId),
    queryFn: ({ signal }) => api.get<CreditOutstandingResponse>('/api/sales/credit-outstanding', { query: clean({ branchId }), signal }),
  });
}

export function useRecordCustomerPayment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CustomerPaymentInput) => api.post<CustomerPayment>('/api/customer-payments', input, { headers: { 'Idempotency-Key': input.id } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: salesKeys.all }),
  });
}
