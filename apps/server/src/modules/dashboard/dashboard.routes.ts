import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { dashboardSalesQuerySchema, dashboardSalesResponseSchema } from '@pharmapoint/domain/dashboard';
import type { ModuleRegistrar } from '../../platform/module.ts';
import { dismissGettingStartedSchema, gettingStartedResponseSchema } from '@pharmapoint/domain/getting-started';
import { getDashboardSales } from './dashboard.service.ts';
import { dismissGettingStarted, getGettingStarted } from './getting-started.service.ts';

/**
 * The dashboard's reads (decision 0094): the sales overview of a filter, from the per-day summaries. The financial
 * cards and the chart need report:sales (seed 002 section 6, dashboard gating). Contracts in
 * packages/domain/src/dashboard.ts.
 */
export const registerDashboard: ModuleRegistrar = (app) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/dashboard/sales',
    {
      config: { access: { permission: 'report:sales' } },
      schema: {
        tags: ['dashboard'],
        summary: 'Sales totals, chart series and top expense categories of a date filter, branch and payment method',
        querystring: dashboardSalesQuerySchema,
        response: { 200: dashboardSalesResponseSchema },
      },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => getDashboardSales(q, ctx, request.query)),
  );

  // The getting-started checklist (decision 0097): owners and admins, who set the pharmacy up.
  r.get(
    '/api/dashboard/getting-started',
    {
      config: { access: { permission: 'settings:system' } },
      schema: { tags: ['dashboard'], summary: "The getting-started checklist's steps, ticked from the pharmacy's data", response: { 200: gettingStartedResponseSchema } },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => getGettingStarted(q, ctx)),
  );
  r.post(
    '/api/dashboard/getting-started/dismiss',
    {
      config: { access: { permission: 'settings:system' } },
      schema: {
        tags: ['dashboard'],
        summary: 'Hide the getting-started checklist for good (repeating it changes nothing)',
        body: dismissGettingStartedSchema,
        response: { 200: gettingStartedResponseSchema },
      },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => dismissGettingStarted(q, ctx)),
  );
};
