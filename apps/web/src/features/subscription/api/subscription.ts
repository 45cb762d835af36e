import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { subscriptionQueryKey } from '@/app/layout/subscription-banner';

export type ResourceKey = 'products' | 'transactions' | 'users' | 'branches';

/** GET /api/subscription (dates as ISO strings). */
export interface SubscriptionResponse {
  subscription: {
    planId: 'trial' | 'standard';
    status: 'trial' | 'active' | 'inactive';
    startDate: string | null;
    trialEndDate: string | null;
    endDate: string | null;
    hostingPaidUntil: string | null;
    maxProducts: number;
    maxTransactions: number;
    maxUsers: number;
    maxBranches: number;
  } | null;
  summary: {
    isTrial: boolean;
    trialExpired: boolean;
    trialDaysLeft: number;
    licenseActive: boolean;
    hostingActive: boolean;
    systemActive: boolean;
    licenseActiveHostingExpired: boolean;
    hostingDaysLeft: number;
    hostingDueSoon: boolean;
    hostingUrgent: boolean;
    statusMessage: string;
    nextAction: string | null;
    nextActionUrgent: boolean;
    banner: 'upgrade' | 'upgrade_soon' | 'pay_hosting' | 'renew_hosting' | null;
  };
  usage: Record<ResourceKey, number>;
}

export function useSubscription() {
  return useQuery({
    queryKey: subscriptionQueryKey,
    queryFn: () => api.get<SubscriptionResponse>('/api/subscription'),
    retry: false,
    staleTime: 60_000,
  });
}
