import { useQuery } from '@tanstack/react-query';
import type { CompleteSaleInput, Sale } from '@pharmapoint/domain/sales';
import type { SettingsResponse } from '@pharmapoint/domain/settings';
import { api } from '@/lib/api';
import { settingsQueryKey } from '@/lib/pharmacy-settings';

/**
 * POST /api/sales: the sale's id is the UUID the browser made, sent again as the Idempotency-Key, so a retry after
 * a lost answer returns the first sale and never records a second one (decision 0023).
 */
export function completeSale(body: CompleteSaleInput & Record<string, unknown>): Promise<Sale> {
  return api.post<Sale>('/api/sales', body, { headers: { 'Idempotency-Key': body.id } });
}

/** GET /api/sales/:id: a receipt read back (reprint). */
export function getSale(id: string, signal?: AbortSignal): Promise<Sale> {
  return api.get<Sale>(`/api/sales/${encodeURIComponent(id)}`, { signal });
}

/** The pharmacy's whole settings document (the till reads payment methods, margins, receipt and tax settings). */
export function useTillSettings() {
  return useQuery({
    queryKey: settingsQueryKey,
    queryFn: () => api.get<SettingsResponse>('/api/settings'),
    staleTime: 60_000,
  });
}
