import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MeResponse } from '@pharmapoint/domain/auth';
import type { MyPharmaciesResponse } from '@pharmapoint/domain/memberships';
import { api } from '@/lib/api';

/** The signed-in person's pharmacies and invitations, switching pharmacy, and their own name (decision 0015). */

export const myPharmaciesQueryKey = ['me', 'pharmacies'] as const;

interface PharmacyAnswer {
  pharmacy: { id: string; name: string };
  message: string;
}

/** GET /api/me/pharmacies: where the person works and the invitations waiting for their answer. */
export function useMyPharmacies(enabled = true) {
  return useQuery({
    queryKey: myPharmaciesQueryKey,
    queryFn: () => api.get<MyPharmaciesResponse>('/api/me/pharmacies'),
    enabled,
    staleTime: 10_000,
  });
}

export const switchPharmacy = (pharmacyId: string) => api.post<PharmacyAnswer>('/api/me/pharmacy', { pharmacyId });
export const acceptInvitation = (pharmacyId: string) => api.post<PharmacyAnswer>('/api/me/invitations/accept', { pharmacyId });
export const declineInvitation = (pharmacyId: string) => api.post<PharmacyAnswer>('/api/me/invitations/decline', { pharmacyId });
export const updateProfile = (name: string) => api.patch<MeResponse>('/api/me', { name });

/**
 * Switches the session to another pharmacy: every cached answer belonged to the old one, so all of them are dropped
 * and read again (the me document first).
 */
export function useSwitchPharmacy() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: switchPharmacy,
    onSuccess: async () => {
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== 'me' });
      await queryClient.invalidateQueries();
    },
  });
}

/** Accept or decline an invitation; the person's lists are read again. */
export function useAnswerInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ pharmacyId, accept }: { pharmacyId: string; accept: boolean }) => (accept ? acceptInvitation(pharmacyId) : declineInvitation(pharmacyId)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: myPharmaciesQueryKey }),
  });
}
