import type { Database } from '../../db/database.ts';
import { countUsageOf, findSubscriptionsOf, type Usage } from '../subscription/subscription.repository.ts';
import type { SubscriptionOverview, SubscriptionView } from '@pharmapoint/domain/subscription';
import { describeSubscription, pharmacyTimeZones } from '../subscription/subscription.service.ts';

/**
 * The operator's one-word state of a pharmacy: trial (running), active (licence and hosting), expired (trial
 * ended, or licence with hosting expired), inactive (stored as inactive) or none (no subscription yet).
 */
export type OperatorStatus = 'trial' | 'active' | 'expired' | 'inactive' | 'none';

export function operatorStatus(overview: Pick<SubscriptionOverview, 'subscription' | 'summary'>): OperatorStatus {
  const { subscription, summary } = overview;
  if (!subscription) return 'none';
  if (summary.isTrial) return summary.trialExpired ? 'expired' : 'trial';
  if (subscription.status === 'active') return summary.systemActive ? 'active' : 'expired';
  return 'inactive';
}

/** One pharmacy as the operator's SaaS dashboard lists it. */
export interface AdminPharmacy {
  id: string;
  name: string;
  isDemo: boolean;
  ownerEmail: string | null;
  createdAt: string;
  /** The plan id (trial or standard), null without a subscription. */
  plan: SubscriptionView['planId'] | null;
  subscription: {
    status: OperatorStatus;
    /** The stored status (trial, active, inactive), null without a subscription. */
    storedStatus: SubscriptionView['status'] | null;
    statusMessage: string;
    systemActive: boolean;
    trialEndDate: string | null;
    hostingPaidUntil: string | null;
    limits: Pick<SubscriptionView, 'maxProducts' | 'maxTransactions' | 'maxUsers' | 'maxBranches'> | null;
  };
  usage: Usage;
}

interface PharmacyRow {
  id: string;
  name: string;
  is_demo: boolean;
  owner_email: string | null;
  created_at: Date | string;
}

/**
 * Every pharmacy of the platform with its plan, state and usage counted from real rows, newest first.
 * Platform work through the owner connection (across tenants), and read-only: a pharmacy without a subscription
 * shows 'No subscription data' here instead of getting a trial created by the operator's visit.
 */
export async function listPharmaciesForOperator(db: Database, now: Date = new Date()): Promise<AdminPharmacy[]> {
  const rows = await db.owner.query<PharmacyRow>(
    `SELECT id, name, is_demo, owner_email, created_at FROM pharmacies ORDER BY created_at DESC, id`,
  );
  const ids = rows.map((row) => row.id);
  // A handful of queries for the whole platform, not a handful per pharmacy.
  const subscriptions = await findSubscriptionsOf(db.owner, ids);
  const usages = await countUsageOf(db.owner, ids);
  const timeZones = await pharmacyTimeZones(db.owner, ids);
  const pharmacies: AdminPharmacy[] = [];
  for (const row of rows) {
    const usage = usages.get(row.id) ?? { products: 0, transactions: 0, users: 0, branches: 0 };
    const overview = describeSubscription(subscriptions.get(row.id) ?? null, usage, now, timeZones.get(row.id) ?? 'Africa/Nairobi');
    pharmacies.push({
      id: row.id,
      name: row.name,
      isDemo: row.is_demo,
      ownerEmail: row.owner_email,
      createdAt: new Date(row.created_at).toISOString(),
      plan: overview.subscription?.planId ?? null,
      subscription: {
        status: operatorStatus(overview),
        storedStatus: overview.subscription?.status ?? null,
        statusMessage: overview.summary.statusMessage,
        systemActive: overview.summary.systemActive,
        trialEndDate: overview.subscription?.trialEndDate ?? null,
        hostingPaidUntil: overview.subscription?.hostingPaidUntil ?? null,
        limits: overview.subscription
          ? {
              maxProducts: overview.subscription.maxProducts,
              maxTransactions: overview.subscription.maxTransactions,
              maxUsers: overview.subscription.maxUsers,
              maxBranches: overview.subscription.maxBranches,
            }
          : null,
      },
      usage,
    });
  }
  return pharmacies;
}
