import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SupplierOpenInvoices, SupplierReport, SupplierReportSettings, SupplierReportSettingsInput } from '@pharmapoint/domain/supplier-payments';
import { api } from '@/lib/api';

/** The supplier balances report and its per-user settings (GET/PUT /api/reports/suppliers[/settings]). */
export const supplierReportKeys = {
  all: ['contacts', 'supplier-report'] as const,
  report: (query: Record<string, string>) => ['contacts', 'supplier-report', query] as const,
  invoices: (supplierId: string) => ['contacts', 'supplier-report', 'invoices', supplierId] as const,
};

export function useSupplierReport(query: Record<string, string>) {
  return useQuery({
    queryKey: supplierReportKeys.report(query),
    queryFn: ({ signal }) => api.get<SupplierReport>('/api/reports/suppliers', { query, signal }),
    placeholderData: keepPreviousData,
  });
}

/** A report row's open invoices (GET /api/reports/suppliers/:supplierId/invoices), loaded when the row is opened. */
export function useSupplierOpenInvoices(supplierId: string) {
  return useQuery({
    queryKey: supplierReportKeys.invoices(supplierId),
    queryFn: ({ signal }) => api.get<SupplierOpenInvoices>(`/api/reports/suppliers/${supplierId}/invoices`, { signal }),
  });
}

export function useSaveSupplierReportSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SupplierReportSettingsInput) => api.put<SupplierReportSettings>('/api/reports/suppliers/settings', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: supplierReportKeys.all }),
  });
}
