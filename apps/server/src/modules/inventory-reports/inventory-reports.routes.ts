import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  inventoryReportQuerySchema,
  inventoryReportResponseSchema,
  stockAdjustmentReportQuerySchema,
  stockAdjustmentReportResponseSchema,
  stockTransferReportQuerySchema,
  stockTransferReportResponseSchema,
} from '@pharmapoint/domain/inventory-report';
import type { ModuleRegistrar } from '../../platform/module.ts';
import { inventoryReport, stockAdjustmentReport, stockTransferReport } from './inventory-reports.service.ts';

const tags = ['reports'];
/** reports/inventory, stock-adjustments and stock-transfers need report:inventory. */
const access = { permission: 'report:inventory' } as const;

/** The inventory report, the stock adjustments report and the stock transfers summary. Contracts in packages/domain/src/inventory-report.ts. */
export const registerInventoryReports: ModuleRegistrar = (app) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/reports/inventory',
    {
      config: { access },
      schema: {
        tags,
        summary: 'Stock on hand and its value at cost and selling price per branch and category, reorder suggestions, stock expiring before it sells',
        querystring: inventoryReportQuerySchema,
        response: { 200: inventoryReportResponseSchema },
      },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => inventoryReport(q, ctx, request.query)),
  );
  r.get(
    '/api/reports/stock-adjustments',
    {
      config: { access },
      schema: { tags, summary: 'Stock adjustment lines of a date range with totals by reason type and branch', querystring: stockAdjustmentReportQuerySchema, response: { 200: stockAdjustmentReportResponseSchema } },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => stockAdjustmentReport(q, ctx, request.query)),
  );
  r.get(
    '/api/reports/stock-transfers',
    {
      config: { access },
      schema: { tags, summary: 'Stock transfers of a date range by branch pair and status', querystring: stockTransferReportQuerySchema, response: { 200: stockTransferReportResponseSchema } },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => stockTransferReport(q, ctx, request.query)),
  );
};
