import { z } from 'zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  adjustmentListQuerySchema,
  createAdjustmentSchema,
  createTransferSchema,
  receiveTransferSchema,
  transferActionSchema,
  transferListQuerySchema,
} from '@pharmapoint/domain/stock';
import { expiringQuerySchema, lowStockQuerySchema } from '@pharmapoint/domain/stock-reports';
import type { ModuleRegistrar } from '../index.ts';
import { requireContext } from '../../platform/auth-plugin.ts';
import { createAdjustment, getAdjustment, listAdjustments } from './adjustments.ts';
import { expiringBatches, lowStockProducts } from './reports.ts';
import { branchSummary } from './summary.ts';
import { approveTransfer, cancelTransfer, createTransfer, dispatchTransfer, getTransfer, listTransfers, receiveTransfer } from './transfers.ts';

const idParams = z.strictObject({ id: z.uuid() });
const tags = ['stock'];
/**
 * Transfer work (create, dispatch, receive, cancel) needs inventory:transfer:create; the role defaults of
 * managers and inventory staff carry the umbrella inventory:transfer, which counts too. Approval needs
 * inventory:transfer:approve.
 */
const TRANSFER_WORK = { anyOf: ['inventory:transfer:create', 'inventory:transfer'] } as const;

/** Stock adjustments, transfers and the per-branch stock summary (issue 3). Contracts in packages/domain/src/stock.ts. */
export const registerStock: ModuleRegistrar = (app, { db }) => {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/api/stock/adjustments',
    { config: { access: { permission: 'inventory:adjust' } }, schema: { tags, summary: 'Adjust stock (all lines or none)', body: createAdjustmentSchema } },
    async (request, reply) => reply.status(201).send(await createAdjustment(db, requireContext(request), request.auth, request.body)),
  );
  r.get(
    '/api/stock/adjustments',
    {
      config: { access: { anyOf: ['report:inventory', 'inventory:adjust'] } },
      schema: { tags, summary: 'Stock adjustments with their lines', querystring: adjustmentListQuerySchema },
    },
    async (request) => listAdjustments(db, requireContext(request), request.auth, request.query),
  );
  r.get(
    '/api/stock/adjustments/:id',
    { config: { access: { anyOf: ['report:inventory', 'inventory:adjust'] } }, schema: { tags, summary: 'One stock adjustment', params: idParams } },
    async (request) => getAdjustment(db, requireContext(request), request.auth, request.params.id),
  );

  r.post(
    '/api/stock/transfers',
    { config: { access: TRANSFER_WORK }, schema: { tags, summary: 'Request a transfer between branches', body: createTransferSchema } },
    async (request, reply) => reply.status(201).send(await createTransfer(db, requireContext(request), request.auth, request.body)),
  );
  r.get(
    '/api/stock/transfers',
    {
      config: { access: { anyOf: ['inventory:transfer:create', 'inventory:transfer', 'inventory:transfer:approve', 'report:inventory'] } },
      schema: { tags, summary: 'Transfers', querystring: transferListQuerySchema },
    },
    async (request) => listTransfers(db, requireContext(request), request.auth, request.query),
  );
  r.get(
    '/api/stock/transfers/:id',
    {
      config: { access: { anyOf: ['inventory:transfer:create', 'inventory:transfer', 'inventory:transfer:approve', 'report:inventory'] } },
      schema: { tags, summary: 'One transfer', params: idParams },
    },
    async (request) => getTransfer(db, requireContext(request), request.auth, request.params.id),
  );
  r.post(
    '/api/stock/transfers/:id/approve',
    { config: { access: { permission: 'inventory:transfer:approve' } }, schema: { tags, summary: 'Approve a transfer', params: idParams, body: transferActionSchema } },
    async (request) => approveTransfer(db, requireContext(request), request.auth, request.params.id),
  );
  r.post(
    '/api/stock/transfers/:id/dispatch',
    { config: { access: TRANSFER_WORK }, schema: { tags, summary: 'Dispatch a transfer (source stock leaves, FEFO)', params: idParams, body: transferActionSchema } },
    async (request) => dispatchTransfer(db, requireContext(request), request.auth, request.params.id),
  );
  r.post(
    '/api/stock/transfers/:id/receive',
    { config: { access: TRANSFER_WORK }, schema: { tags, summary: 'Receive a transfer (all or part)', params: idParams, body: receiveTransferSchema } },
    async (request) => receiveTransfer(db, requireContext(request), request.auth, request.params.id, request.body),
  );
  r.post(
    '/api/stock/transfers/:id/cancel',
    { config: { access: TRANSFER_WORK }, schema: { tags, summary: 'Cancel a transfer (undelivered stock returns)', params: idParams, body: transferActionSchema } },
    async (request) => cancelTransfer(db, requireContext(request), request.auth, request.params.id),
  );

  r.get(
    '/api/stock/branch-summary',
    {
      // The dashboard's stock health card: whoever may read products sees their stock status and expiry there already.
      config: { access: { anyOf: ['report:inventory', 'product:read'] } },
      schema: { tags, summary: 'Stock status and expiry alerts per branch' },
    },
    async (request) => branchSummary(db, requireContext(request), request.auth),
  );
  r.get(
    '/api/stock/expiring',
    {
      config: { access: { permission: 'report:inventory' } },
      schema: { tags, summary: 'Expiry report: batches with stock, expired or expiring within days', querystring: expiringQuerySchema },
    },
    async (request) => expiringBatches(db, requireContext(request), request.auth, request.query),
  );
  r.get(
    '/api/stock/low-stock',
    {
      config: { access: { permission: 'report:inventory' } },
      schema: { tags, summary: 'Low stock report: products at or below their threshold per branch', querystring: lowStockQuerySchema },
    },
    async (request) => lowStockProducts(db, requireContext(request), request.auth, request.query),
  );
};
