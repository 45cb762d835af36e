import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { InviteMember, Member as MemberOfPharmacy, PatchMember } from '@pharmapoint/domain/users';
import { api } from '@/lib/api';
import { withKey } from '@/lib/idempotency';

/** A member of the pharmacy as GET /api/users returns it (the server's schema, packages/domain/src/users.ts). */
export type Member = MemberOfPharmacy;

/** POST /api/users/invite and PATCH /api/users/:id: the domain's request types (a patch edits the membership, never the person). */
export type InviteInput = InviteMember;
export type MemberPatch = PatchMember;

export const usersQueryKey = ['users'] as const;

export function useMembers() {
  return useQuery({ queryKey: usersQueryKey, queryFn: async () => (await api.get<{ users: Member[] }>('/api/users')).users });
}

function useInvalidateUsers() {
  const queryClient = useQueryClient();
  return () => Promise.all([usersQueryKey, ['subscription']].map((queryKey) => queryClient.invalidateQueries({ queryKey })));
}

export function useInviteMember() {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: ({ input, key }: { input: InviteInput; key: string }) => api.post<{ user: Member; message: string }>('/api/users/invite', input, withKey(key)),
    onSuccess: invalidate,
  });
}

export function useResendInvite() {
  return useMutation({
    mutationFn: (id: string) => api.post<{ user: Member; message: string }>(`/api/users/${id}/resend-invite`),
  });
}

export function useUpdateMember() {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: async ({ id, patch }: { id: string; patch: MemberPatch }) => (await api.patch<{ user: Member }>(`/api/users/${id}`, patch)).user,
    onSuccess: invalidate,
  });
}
