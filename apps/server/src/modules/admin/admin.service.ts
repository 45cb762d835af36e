import type { AdminPharmacy, SubscriptionOverview } from '@pharmapoint/domain/subscription';
import type { Queryable } from '../../db/database.ts';
import { overviewsOf } from '../subscription/subscription.service.ts';
import { findAllPharmacies } from './admin.repository.ts';

/**
 * The operator's one-word state of a pharmacy: trial (running), active (licence and hosting), expired (trial
 * ended, or licence with hosting expired), inactive (stored as inactive) or none (no subscription yet).
 */
export type OperatorStatus = AdminPharmacy['subscription']['status'];

export function operatorStatus(overview: Pick<SubscriptionOverview, 'subscription' | 'summary'>): OperatorStatus {
  const { subscription, summary } = overview;
  if (!subscription) return 'none';
  if (summary.isTrial) return summary.trialExpired ? 'expired' : 'trial';
  if (subscription.status === 'active') return summary.systemActive ? 'active' : 'expired';
  return 'inactive';
}

/**
 * Every pharmacy of the platform with its plan, state and usage (from the usage counters), newest first.
 * Platform work across tenants: `owner` is the owner connection (the operator's view is the one place a request
 * reads every tenant), and it is read-only.
 */
export async function listPharmaciesForOperator(owner: Queryable, now: Date): Promise<AdminPharmacy[]> {
  const pharmacies = await findAllPharmacies(owner);
  // A handful of queries for the whole platform, not a handful per pharmacy.
  const overviews = await overviewsOf(owner, pharmacies.map((p) => p.id), now);
  return pharmacies.map((pharmacy) => {
    const overview = overviews.get(pharmacy.id)!;
    const sub = overview.subscription;
    return {
      ...pharmacy,
      plan: sub?.planId ?? null,
      subscription: {
        status: operatorStatus(overview),
        storedStatus: sub?.status ?? null,
        statusMessage: overview.summary.statusMessage,
        systemActive: overview.summary.systemActive,
        trialEndDate: sub?.trialEndDate ?? null,
        hostingPaidUntil: sub?.hostingPaidUntil ?? null,
        limits: sub
          ? { maxProducts: sub.maxProducts, maxTransactions: sub.maxTransactions, maxUsers: sub.maxUsers, maxBranches: sub.maxBranches }
          : null,
      },
      usage: overview.usage,
    };
  });
}
