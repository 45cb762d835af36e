import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { dashboardSalesQuerySchema, dashboardSalesResponseSchema } from '@pharmapoint/domain/dashboard';
import type { ModuleRegistrar } from '../../platform/module.ts';
import { getDashboardSales } from './dashboard.service.ts';

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
};
