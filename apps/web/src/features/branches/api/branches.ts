import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Branch as BranchOfPharmacy } from '@pharmapoint/domain/tenancy';
import { api } from '@/lib/api';
import { meQueryKey } from '@/features/auth/api/get-me';
import { withKey } from '@/lib/idempotency';

/** A branch as GET /api/branches returns it (the server's schema, packages/domain/src/tenancy.ts). */
export type Branch = BranchOfPharmacy;

export interface BranchInput {
  name: string;
  address: string | null;
  phone: string | null;
  isDefault?: boolean;
}

export type BranchPatch = Partial<BranchInput> & { isActive?: boolean };

export const branchesQueryKey = ['branches'] as const;

export function useBranches() {
  return useQuery({ queryKey: branchesQueryKey, queryFn: async () => (await api.get<{ branches: Branch[] }>('/api/branches')).branches });
}

/** After any branch change: the list, the user's allowed branches (/api/me), settings and plan usage. */
function useInvalidateBranches() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all(
      [branchesQueryKey, meQueryKey, ['settings'], ['subscription']].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
    );
}

export function useCreateBranch() {
  const invalidate = useInvalidateBranches();
  return useMutation({
    mutationFn: async ({ input, key }: { input: BranchInput; key: string }) => (await api.post<{ branch: Branch }>('/api/branches', input, withKey(key))).branch,
    onSuccess: invalidate,
  });
}

export function useUpdateBranch() {
  const invalidate = useInvalidateBranches();
  return useMutation({
    mutationFn: async ({ id, patch }: { id: string; patch: BranchPatch }) => (await api.patch<{ branch: Branch }>(`/api/branches/${id}`, patch)).branch,
    onSuccess: invalidate,
  });
}
