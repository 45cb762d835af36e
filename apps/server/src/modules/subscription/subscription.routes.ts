import { z } from 'zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ModuleRegistrar } from '../index.ts';
import { requireContext } from '../../platform/auth-plugin.ts';
import { loadSubscriptionOverview } from './subscription.service.ts';

const isoDate = z.iso.datetime().nullable();
const count = z.number().int().min(0);
/** A plan limit: -1 is unlimited (seed 000 section 5). */
const limit = z.number().int().min(-1);

export const usageSchema = z.object({ products: count, transactions: count, users: count, branches: count });

export const subscriptionViewSchema = z.object({
  planId: z.enum(['trial', 'standard']),
  status: z.enum(['trial', 'active', 'inactive']),
  startDate: isoDate,
  trialEndDate: isoDate,
  endDate: isoDate,
  hostingPaidUntil: isoDate,
  maxProducts: limit,
  maxTransactions: limit,
  maxUsers: limit,
  maxBranches: limit,
});

export const subscriptionSummarySchema = z.object({
  isTrial: z.boolean(),
  trialExpired: z.boolean(),
  trialDaysLeft: count,
  licenseActive: z.boolean(),
  hostingActive: z.boolean(),
  systemActive: z.boolean(),
  licenseActiveHostingExpired: z.boolean(),
  hostingDaysLeft: count,
  hostingDueSoon: z.boolean(),
  hostingUrgent: z.boolean(),
  /** One of the status messages of seed 000 section 8. */
  statusMessage: z.string(),
  /** One of the next-action prompts of seed 000 section 8, or null when nothing is needed. */
  nextAction: z.string().nullable(),
  nextActionUrgent: z.boolean(),
  banner: z.enum(['upgrade', 'upgrade_soon', 'pay_hosting', 'renew_hosting']).nullable(),
  /** The reminder, 3 days before the trial or hosting ends. */
  reminderDate: isoDate,
});

export const subscriptionResponseSchema = z.object({
  subscription: subscriptionViewSchema.nullable(),
  summary: subscriptionSummarySchema,
  usage: usageSchema,
});

/**
 * The pharmacy's subscription: plan and limits, the licence and hosting states with their messages, and usage
 * counted from real rows. Every member reads it (the banner shows on every /app screen); buying the licence or
 * paying hosting (M-Pesa) comes with the public side's payments, so there is nothing to write here yet.
 */
export const registerSubscription: ModuleRegistrar = (app, { db }) => {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/subscription',
    {
      config: { access: 'tenant' },
      schema: {
        tags: ['subscription'],
        summary: 'The subscription, what it means now, and usage against the plan limits',
        response: { 200: subscriptionResponseSchema },
      },
    },
    async (request) => {
      const ctx = requireContext(request);
      return db.transaction({ pharmacyId: ctx.pharmacyId, userId: ctx.userId }, (q) =>
        loadSubscriptionOverview(q, ctx.pharmacyId, new Date()),
      );
    },
  );
};
