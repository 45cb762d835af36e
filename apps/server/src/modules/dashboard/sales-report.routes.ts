import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  salesReportProductsQuerySchema,
  salesReportProductsResponseSchema,
  salesReportQuerySchema,
  salesReportResponseSchema,
  slowMoversQuerySchema,
  slowMoversResponseSchema,
} from '@pharmapoint/domain/sales-report';
import type { ModuleRegistrar } from '../../platform/module.ts';
import { getSalesReport, getSalesReportProducts, getSlowMovers } from './sales-report.service.ts';

/**
 * The sales report's reads (decision 0096), all behind report:sales and read from the per-day summaries: the
 * report of a date filter and branch, one page of its products, one page of slow movers. Contracts in
 * packages/domain/src/sales-report.ts.
 */
export const registerSalesReport: ModuleRegistrar = (app) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/reports/sales',
    {
      config: { access: { permission: 'report:sales' } },
      schema: {
        tags: ['reports'],
        summary: 'Sales by period, hour, branch, cashier, payment method and category, the VAT summary and top sellers of a date filter and branch',
        querystring: salesReportQuerySchema,
        response: { 200: salesReportResponseSchema },
      },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => getSalesReport(q, ctx, request.query)),
  );
  r.get(
    '/api/reports/sales/products',
    {
      config: { access: { permission: 'report:sales' } },
      schema: {
        tags: ['reports'],
        summary: 'One page of the products sold in a date filter and branch',
        querystring: salesReportProductsQuerySchema,
        response: { 200: salesReportProductsResponseSchema },
      },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => getSalesReportProducts(q, ctx, request.query)),
  );
  r.get(
    '/api/reports/sales/slow-movers',
    {
      config: { access: { permission: 'report:sales' } },
      schema: {
        tags: ['reports'],
        summary: 'One page of the products in stock in a branch and not sold there in the last N days',
        querystring: slowMoversQuerySchema,
        response: { 200: slowMoversResponseSchema },
      },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => getSlowMovers(q, ctx, request.query)),
  );
};
