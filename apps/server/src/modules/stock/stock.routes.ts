import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  adjustmentListQuerySchema,
  adjustmentListResponseSchema,
  adjustmentSchema,
  branchSummaryResponseSchema,
  createAdjustmentSchema,
  createTransferSchema,
  receiveTransferSchema,
  stockIdParamsSchema,
  transferActionSchema,
  transferListQuerySchema,
  transferListResponseSchema,
  transferSchema,
} from '@pharmapoint/domain/stock';
import { expiringQuerySchema, expiringResponseSchema, lowStockQuerySchema, lowStockResponseSchema } from '@pharmapoint/domain/stock-reports';
import { ddaRegisterQuerySchema, ddaRegisterResponseSchema } from '@pharmapoint/domain/dda-register';
import type { ModuleRegistrar } from '../../platform/module.ts';
import { ddaRegister } from './dda-register.service.ts';
import { createAdjustment, getAdjustment, listAdjustments } from './adjustments.service.ts';
import { branchSummary, expiringBatches, lowStockProducts } from './reports.service.ts';
import { approveTransfer, cancelTransfer, createTransfer, dispatchTransfer, getTransfer, listTransfers, receiveTransfer } from './transfers.service.ts';

const params = stockIdParamsSchema;
const tags = ['stock'];
/**
 * Transfer work (create, dispatch, receive, cancel) needs inventory:transfer:create; the role defaults of
 * managers and inventory staff carry the umbrella inventory:transfer, which counts too. Approval needs
 * inventory:transfer:approve.
 */
const TRANSFER_WORK = { anyOf: ['inventory:transfer:create', 'inventory:transfer'] } as const;
const TRANSFER_READ = { anyOf: ['inventory:transfer:create', 'inventory:transfer', 'inventory:transfer:approve', 'report:inventory'] } as const;
const ADJUSTMENT_READ = { anyOf: ['report:inventory', 'inventory:adjust'] } as const;

/** Stock adjustments, transfers, the per-branch stock summary and the inventory reports. Contracts in packages/domain/src/stock.ts and stock-reports.ts. */
export const registerStock: ModuleRegistrar = (app) => {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/api/stock/adjustments',
    {
      config: { access: { permission: 'inventory:adjust' }, idempotent: true },
      schema: { tags, summary: 'Adjust stock (all lines or none)', body: createAdjustmentSchema, response: { 201: adjustmentSchema } },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => createAdjustment(q, ctx, request.body), { status: 201 }),
  );
  r.get(
    '/api/stock/adjustments',
    {
      config: { access: ADJUSTMENT_READ },
      schema: { tags, summary: 'Stock adjustments with their lines', querystring: adjustmentListQuerySchema, response: { 200: adjustmentListResponseSchema } },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => listAdjustments(q, ctx, request.query)),
  );
  r.get(
    '/api/stock/adjustments/:id',
    { config: { access: ADJUSTMENT_READ }, schema: { tags, summary: 'One stock adjustment', params, response: { 200: adjustmentSchema } } },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => getAdjustment(q, ctx, request.params.id)),
  );

  r.post(
    '/api/stock/transfers',
    {
      config: { access: TRANSFER_WORK, idempotent: true },
      schema: { tags, summary: 'Request a transfer between branches', body: createTransferSchema, response: { 201: transferSchema } },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => createTransfer(q, ctx, request.body), { status: 201 }),
  );
  r.get(
    '/api/stock/transfers',
    { config: { access: TRANSFER_READ }, schema: { tags, summary: 'Transfers', querystring: transferListQuerySchema, response: { 200: transferListResponseSchema } } },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => listTransfers(q, ctx, request.query)),
  );
  r.get(
    '/api/stock/transfers/:id',
    { config: { access: TRANSFER_READ }, schema: { tags, summary: 'One transfer', params, response: { 200: transferSchema } } },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => getTransfer(q, ctx, request.params.id)),
  );
  r.post(
    '/api/stock/transfers/:id/approve',
    {
      config: { access: { permission: 'inventory:transfer:approve' } },
      schema: { tags, summary: 'Approve a transfer', params, body: transferActionSchema, response: { 200: transferSchema } },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => approveTransfer(q, ctx, request.params.id)),
  );
  r.post(
    '/api/stock/transfers/:id/dispatch',
    {
      config: { access: TRANSFER_WORK },
      schema: { tags, summary: 'Dispatch a transfer (source stock leaves, FEFO)', params, body: transferActionSchema, response: { 200: transferSchema } },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => dispatchTransfer(q, ctx, request.params.id)),
  );
  r.post(
    '/api/stock/transfers/:id/receive',
    {
      // A retried partial receipt must not add its quantities twice.
      config: { access: TRANSFER_WORK, idempotent: true },
      schema: { tags, summary: 'Receive a transfer (all or part)', params, body: receiveTransferSchema, response: { 200: transferSchema } },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => receiveTransfer(q, ctx, request.params.id, request.body)),
  );
  r.post(
    '/api/stock/transfers/:id/cancel',
    {
      config: { access: TRANSFER_WORK },
      schema: { tags, summary: 'Cancel a transfer (undelivered stock returns)', params, body: transferActionSchema, response: { 200: transferSchema } },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => cancelTransfer(q, ctx, request.params.id)),
  );

  r.get(
    '/api/stock/branch-summary',
    {
      // The dashboard's stock health card: whoever may read products sees their stock status and expiry there already.
      config: { access: { anyOf: ['report:inventory', 'product:read'] } },
      schema: { tags, summary: 'Stock status and expiry alerts per branch', response: { 200: branchSummaryResponseSchema } },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => branchSummary(q, ctx)),
  );
  r.get(
    '/api/stock/expiring',
    {
      config: { access: { permission: 'report:inventory' } },
      schema: {
        tags,
        summary: 'Expiry report: batches with stock, expired or expiring within days',
        querystring: expiringQuerySchema,
        response: { 200: expiringResponseSchema },
      },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => expiringBatches(q, ctx, request.query)),
  );
  r.get(
    '/api/stock/low-stock',
    {
      config: { access: { permission: 'report:inventory' } },
      schema: {
        tags,
        summary: 'Low stock report: products at or below their threshold per branch',
        querystring: lowStockQuerySchema,
        response: { 200: lowStockResponseSchema },
      },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => lowStockProducts(q, ctx, request.query)),
  );
  r.get(
    '/api/reports/dda',
    {
      config: { access: { permission: 'report:advanced' } },
      schema: {
        tags,
        summary: 'DDA register: per controlled product and branch, the ledger with running balance for a date range',
        querystring: ddaRegisterQuerySchema,
        response: { 200: ddaRegisterResponseSchema },
      },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => ddaRegister(q, ctx, request.query)),
  );
};
