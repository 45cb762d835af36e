import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { DashboardSalesQuery, DashboardSalesResponse } from '@pharmapoint/domain/dashboard';
import type { ExpenseListResponse } from '@pharmapoint/domain/expenses';
import type { RefillReminderListResponse } from '@pharmapoint/domain/refills';
import type { CreditOutstandingResponse } from '@pharmapoint/domain/sales-history';
import type { TillMpesaListResponse } from '@pharmapoint/domain/till-mpesa';
import { api } from '@/lib/api';

function search(query: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== '') params.set(key, String(value));
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** GET /api/dashboard/sales: the Sales totals object and the chart's series of the filter (from the per-day summaries). */
export function useDashboardSales(query: DashboardSalesQuery, enabled: boolean) {
  return useQuery({
    queryKey: ['dashboard', 'sales', query] as const,
    queryFn: ({ signal }) => api.get<DashboardSalesResponse>(`/api/dashboard/sales${search({ ...query })}`, { signal }),
    enabled,
    placeholderData: keepPreviousData,
    retry: false,
  });
}

/** GET /api/expenses: the newest expenses from a day on (the recent expenses card). */
export function useRecentExpenses(from: string, branchId: string | undefined, enabled: boolean) {
  return useQuery({
    queryKey: ['dashboard', 'recent-expenses', from, branchId ?? ''] as const,
    queryFn: ({ signal }) => api.get<ExpenseListResponse>(`/api/expenses${search({ from, branchId, limit: 5 })}`, { signal }),
    enabled,
  });
}

/** GET /api/refill-reminders: the refill window (overdue, today, next 7 days). */
export function useRefillWindow(enabled: boolean) {
  return useQuery({
    queryKey: ['dashboard', 'refill-reminders'] as const,
    queryFn: ({ signal }) => api.get<RefillReminderListResponse>('/api/refill-reminders?due=window&limit=50', { signal }),
    enabled,
  });
}

/** GET /api/sales/credit-outstanding: what customers owe on credit sales. */
export function useCreditOutstanding(enabled: boolean) {
  return useQuery({
    queryKey: ['dashboard', 'credit-outstanding'] as const,
    queryFn: ({ signal }) => api.get<CreditOutstandingResponse>('/api/sales/credit-outstanding', { signal }),
    enabled,
  });
}

/** GET /api/till-payments?status=unmatched: M-Pesa money that completed no sale, waiting to be reconciled. */
export function useUnmatchedMpesa(enabled: boolean) {
  return useQuery({
    queryKey: ['dashboard', 'unmatched-mpesa'] as const,
    queryFn: ({ signal }) => api.get<TillMpesaListResponse>('/api/till-payments?status=unmatched&limit=1', { signal }),
    enabled,
  });
}
