import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdminPharmacy } from '@pharmapoint/domain/subscription';
import type { AdminAnalyticsResponse, AdminOverviewResponse, OfflinePaymentRequest, OfflinePaymentResponse, PharmacyActionResponse } from '@pharmapoint/domain/admin';
import type { AdminDemosResponse, Lead, UpdateLeadRequest } from '@pharmapoint/domain/demo';
import { api } from '@/lib/api';

/** The operator's calls (apps/server/src/modules/admin; decision 0047). */
export const adminKeys = {
  pharmacies: ['admin', 'pharmacies'] as const,
  overview: ['admin', 'overview'] as const,
  demos: ['admin', 'demos'] as const,
};

export function usePharmacies() {
  return useQuery({ queryKey: adminKeys.pharmacies, queryFn: async () => (await api.get<{ pharmacies: AdminPharmacy[] }>('/api/admin/pharmacies')).pharmacies });
}

export function useOverview() {
  return useQuery({ queryKey: adminKeys.overview, queryFn: () => api.get<AdminOverviewResponse>('/api/admin/overview') });
}

export function useDemos() {
  return useQuery({ queryKey: adminKeys.demos, queryFn: () => api.get<AdminDemosResponse>('/api/admin/demos') });
}

/** Extending a trial carries the Idempotency-Key made when its dialog opened: a retry extends once (decision 0055). */
export type PharmacyAction = { kind: 'extend-trial'; days: number; idempotencyKey: string } | { kind: 'deactivate' } | { kind: 'reactivate' } | { kind: 'resend-invitation' };

/** An operator's action on a pharmacy; the lists and the dashboard are read again afterwards. */
export function usePharmacyAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ pharmacyId, action }: { pharmacyId: string; action: PharmacyAction }) =>
      action.kind === 'extend-trial'
        ? api.post<PharmacyActionResponse>(`/api/admin/pharmacies/${encodeURIComponent(pharmacyId)}/extend-trial`, { days: action.days }, { headers: { 'Idempotency-Key': action.idempotencyKey } })
        : api.post<PharmacyActionResponse>(`/api/admin/pharmacies/${encodeURIComponent(pharmacyId)}/${action.kind}`, {}),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: adminKeys.pharmacies });
      void queryClient.invalidateQueries({ queryKey: adminKeys.overview });
    },
  });
}

/**
 * Records a payment made outside the M-Pesa prompt (decision 0060). The Idempotency-Key is the dialog's: sending the
 * same payment again (a double click, a retry after a lost answer) records it once and answers the first answer.
 */
export function useRecordOfflinePayment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ pharmacyId, payment, idempotencyKey }: { pharmacyId: string; payment: OfflinePaymentRequest; idempotencyKey: string }) =>
      api.post<OfflinePaymentResponse>(`/api/admin/pharmacies/${encodeURIComponent(pharmacyId)}/offline-payments`, payment, { headers: { 'Idempotency-Key': idempotencyKey } }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: adminKeys.pharmacies });
      void queryClient.invalidateQueries({ queryKey: adminKeys.overview });
      void queryClient.invalidateQueries({ queryKey: ['admin', 'analytics'] });
    },
  });
}

export function useUpdateLead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, patch }: { id: string; patch: UpdateLeadRequest }) => api.patch<{ lead: Lead }>(`/api/admin/leads/${id}`, patch),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: adminKeys.demos });
      void queryClient.invalidateQueries({ queryKey: adminKeys.overview });
    },
  });
}

export function useAnalytics(month: string) {
  return useQuery({
    queryKey: ['admin', 'analytics', month],
    queryFn: () => api.get<AdminAnalyticsResponse>(`/api/admin/analytics?month=${encodeURIComponent(month)}`),
    enabled: /^\d{4}-(0[1-9]|1[0-2])$/.test(month),
  });
}

/** This month as YYYY-MM (the browser's clock, UTC like the server's months). */
export function currentMonth(now = new Date()): string {
  return now.toISOString().slice(0, 7);
}
