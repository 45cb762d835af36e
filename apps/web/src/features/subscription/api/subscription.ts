import type { LimitedResource, SubscriptionOverview } from '@pharmapoint/domain/subscription';
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { subscriptionQueryKey } from '@/app/layout/subscription-banner';

export type ResourceKey = LimitedResource;

/** GET /api/subscription: the shape the server declares in packages/domain. */
export type SubscriptionResponse = SubscriptionOverview;

export function useSubscription() {
  return useQuery({
    queryKey: subscriptionQueryKey,
    queryFn: () => api.get<SubscriptionResponse>('/api/subscription'),
    retry: false,
    staleTime: 60_000,
  });
}
