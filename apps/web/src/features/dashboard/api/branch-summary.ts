import { useQuery } from '@tanstack/react-query';
import type { BranchSummaryResponse } from '@pharmapoint/domain/stock';
import { api } from '@/lib/api';

/** GET /api/stock/branch-summary: stock status and expiry alerts per visible branch (key under 'stock' for live refresh). */
export function useBranchSummary(enabled: boolean) {
  return useQuery({
    queryKey: ['stock', 'branch-summary'] as const,
    queryFn: ({ signal }) => api.get<BranchSummaryResponse>('/api/stock/branch-summary', { signal }),
    enabled,
  });
}
