import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ExpenseReportQueryInput, ExpenseReportResponse, VoidExpenseInput } from '@pharmapoint/domain/expense-report';
import type { CreateExpense, Expense } from '@pharmapoint/domain/expenses';
import type {
  InventoryReportQueryInput,
  InventoryReportResponse,
  StockAdjustmentReportQueryInput,
  StockAdjustmentReportResponse,
  StockTransferReportQueryInput,
  StockTransferReportResponse,
} from '@pharmapoint/domain/inventory-report';
import { api, type RequestOptions } from '@/lib/api';
import { withKey } from '@/lib/idempotency';

function clean(input: object): Record<string, string | number | undefined> {
  const out: Record<string, string | number | undefined> = {};
  for (const [key, value] of Object.entries(input)) if (value !== undefined && value !== null && value !== '') out[key] = value as string | number;
  return out;
}

/** Query keys: the expense report under 'expenses' (the till's expense dialog refreshes it), the stock ones under 'stock' (the live stock stream refreshes them). */
export const reportPageKeys = {
  expenses: (query: ExpenseReportQueryInput) => ['expenses', 'report', query] as const,
  inventory: (query: InventoryReportQueryInput) => ['stock', 'reports', 'inventory', query] as const,
  adjustments: (query: StockAdjustmentReportQueryInput) => ['stock', 'reports', 'adjustments', query] as const,
  transfers: (query: StockTransferReportQueryInput) => ['stock', 'reports', 'transfers', query] as const,
};

function report<T>(path: string, key: readonly unknown[], query: object, enabled = true) {
  return {
    queryKey: key,
    queryFn: ({ signal }: { signal: AbortSignal }) => api.get<T>(path, { query: clean(query), signal } as RequestOptions),
    placeholderData: keepPreviousData,
    enabled,
  };
}

/** GET /api/reports/expenses (report:financial). Not asked while the range is wrong (the page says why). */
export function useExpenseReport(query: ExpenseReportQueryInput, enabled: boolean) {
  return useQuery(report<ExpenseReportResponse>('/api/reports/expenses', reportPageKeys.expenses(query), query, enabled));
}

/** GET /api/reports/inventory (report:inventory). */
export function useInventoryReport(query: InventoryReportQueryInput) {
  return useQuery(report<InventoryReportResponse>('/api/reports/inventory', reportPageKeys.inventory(query), query));
}

/** GET /api/reports/stock-adjustments (report:inventory). */
export function useStockAdjustmentReport(query: StockAdjustmentReportQueryInput, enabled: boolean) {
  return useQuery(report<StockAdjustmentReportResponse>('/api/reports/stock-adjustments', reportPageKeys.adjustments(query), query, enabled));
}

/** GET /api/reports/stock-transfers (report:inventory). */
export function useStockTransferReport(query: StockTransferReportQueryInput, enabled: boolean) {
  return useQuery(report<StockTransferReportResponse>('/api/reports/stock-transfers', reportPageKeys.transfers(query), query, enabled));
}

/** POST /api/expenses/manual with the form's Idempotency-Key, or PUT /api/expenses/:id. */
export function useSaveExpense() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input, key }: { id: string | null; input: CreateExpense; key: string }) =>
      id ? api.put<Expense>(`/api/expenses/${id}`, input) : api.post<Expense>('/api/expenses/manual', input, withKey(key)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['expenses'] }),
  });
}

/** POST /api/expenses/:id/void with an Idempotency-Key. */
export function useVoidExpense() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input, key }: { id: string; input: VoidExpenseInput; key: string }) => api.post<Expense>(`/api/expenses/${id}/void`, input, withKey(key)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['expenses'] }),
  });
}
