import type { TillMpesaResponse, TillMpesaStartInput } from '@pharmapoint/domain/till-mpesa';
import { api } from '@/lib/api';

/**
 * M-Pesa at the till (decision 0058). POST /api/till-payments asks the customer's phone for the sale's total; the
 * request's own UUID is the Idempotency-Key (a retry after a lost answer sends one prompt), the sale keeps its UUID.
 */
export function startTillMpesa(body: TillMpesaStartInput, requestId: string): Promise<TillMpesaResponse> {
  return api.post<TillMpesaResponse>('/api/till-payments', body, { headers: { 'Idempotency-Key': requestId } });
}

/** GET /api/till-payments/:id: the till polls it while the customer answers. */
export function getTillMpesa(id: string, signal?: AbortSignal): Promise<TillMpesaResponse> {
  return api.get<TillMpesaResponse>(`/api/till-payments/${encodeURIComponent(id)}`, { signal });
}

/** POST /api/till-payments/:id/cancel: stop waiting (an answered request comes back as it is). */
export function cancelTillMpesa(id: string, reason: 'cashier' | 'timeout' = 'cashier'): Promise<TillMpesaResponse> {
  return api.post<TillMpesaResponse>(`/api/till-payments/${encodeURIComponent(id)}/cancel`, { reason });
}
