import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { subscriptionResponseSchema } from '@pharmapoint/domain/subscription';
import type { ModuleRegistrar } from '../../platform/module.ts';
import { loadSubscriptionOverview } from './subscription.service.ts';

/**
 * The pharmacy's subscription: plan and limits, the licence and hosting states with their messages, and usage
 * from the usage counters. Every member reads it (the banner shows on every /app screen); buying the licence or
 * paying hosting (M-Pesa) comes with the public side's payments, so there is nothing to write here yet.
 */
export const registerSubscription: ModuleRegistrar = (app) => {
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
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => loadSubscriptionOverview(q, ctx)),
  );
};
