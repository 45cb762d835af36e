import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type {
  SalesReportProductsQuery,
  SalesReportProductsResponse,
  SalesReportQuery,
  SalesReportResponse,
  SlowMoversQuery,
  SlowMoversResponse,
} from '@pharmapoint/domain/sales-report';
import { api } from '@/lib/api';

/** The sales report's reads (report:sales): GET /api/reports/sales, /products and /slow-movers. */
export const salesReportKeys = {
  all: ['sales-report'] as const,
  report: (query: SalesReportQuery) => ['sales-report', 'report', query] as const,
  products: (query: SalesReportProductsQuery) => ['sales-report', 'products', query] as const,
  slowMovers: (query: SlowMoversQuery) => ['sales-report', 'slow-movers', query] as const,
};

function clean(input: Record<string, unknown>): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const [key, value] of Object.entries(input)) if (value !== undefined && value !== null && value !== '') out[key] = value as string | number;
  return out;
}

export function useSalesReport(query: SalesReportQuery, enabled: boolean) {
  return useQuery({
    queryKey: salesReportKeys.report(query),
    queryFn: ({ signal }) => api.get<SalesReportResponse>('/api/reports/sales', { query: clean(query), signal }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function useSalesReportProducts(query: SalesReportProductsQuery, enabled: boolean) {
  return useQuery({
    queryKey: salesReportKeys.products(query),
    queryFn: ({ signal }) => api.get<SalesReportProductsResponse>('/api/reports/sales/products', { query: clean(query), signal }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function useSlowMovers(query: SlowMoversQuery) {
  return useQuery({
    queryKey: salesReportKeys.slowMovers(query),
    queryFn: ({ signal }) => api.get<SlowMoversResponse>('/api/reports/sales/slow-movers', { query: clean(query), signal }),
    placeholderData: keepPreviousData,
  });
}
