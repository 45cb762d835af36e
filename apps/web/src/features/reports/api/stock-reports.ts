import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ExpiringQueryInput, ExpiringResponse, LowStockQueryInput, LowStockResponse } from '@pharmapoint/domain/stock-reports';
import { api } from '@/lib/api';

/** Query keys start with 'stock': the live stock stream refreshes them by prefix. */
export const stockReportKeys = {
  expiring: (query: ExpiringQueryInput) => ['stock', 'reports', 'expiring', query] as const,
  lowStock: (query: LowStockQueryInput) => ['stock', 'reports', 'low-stock', query] as const,
};

function clean(input: Record<string, unknown>): Record<string, string | number | undefined> {
  const out: Record<string, string | number | undefined> = {};
  for (const [key, value] of Object.entries(input)) if (value !== undefined && value !== null && value !== '') out[key] = value as string | number;
  return out;
}

/** GET /api/stock/expiring (report:inventory). */
export function useExpiringBatches(query: ExpiringQueryInput) {
  return useQuery({
    queryKey: stockReportKeys.expiring(query),
    queryFn: ({ signal }) => api.get<ExpiringResponse>('/api/stock/expiring', { query: clean(query), signal }),
    placeholderData: keepPreviousData,
  });
}

/** GET /api/stock/low-stock (report:inventory). */
export function useLowStock(query: LowStockQueryInput) {
  return useQuery({
    queryKey: stockReportKeys.lowStock(query),
    queryFn: ({ signal }) => api.get<LowStockResponse>('/api/stock/low-stock', { query: clean(query), signal }),
    placeholderData: keepPreviousData,
  });
}
