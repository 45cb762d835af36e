import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SupplierReport, SupplierReportSettings, SupplierReportSettingsInput } from '@pharmapoint/domain/supplier-payments';
import { api } from '@/lib/api';

/** The supplier balances report and its per-user settings (GET/PUT /api/reports/suppliers[/settings]). */
export const supplierReportKeys = {
  all: ['contacts', 'supplier-report'] as const,
  report: (query: Record<string, string>) => ['contacts', 'supplier-report', query] as const,
};

export function useSupplierReport(query: Record<string, string>) {
  return useQuery({
    queryKey: supplierReportKeys.report(query),
    queryFn: ({ signal }) => api.get<SupplierReport>('/api/reports/suppliers', { query, signal }),
    placeholderData: keepPreviousData,
  });
}

export function useSaveSupplierReportSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SupplierReportSettingsInput) => api.put<SupplierReportSettings>('/api/reports/suppliers/settings', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: supplierReportKeys.all }),
  });
}
