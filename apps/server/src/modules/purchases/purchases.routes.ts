import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  bulkDeletePurchasesSchema,
  bulkDeleteResultSchema,
  createPurchaseReturnSchema,
  purchaseDefaultsSchema,
  purchaseDeleteResultSchema,
  purchaseIdParamsSchema,
  purchaseListQuerySchema,
  purchaseListResponseSchema,
  purchaseResultSchema,
  purchaseReturnListQuerySchema,
  purchaseReturnListResponseSchema,
  purchaseReturnResultSchema,
  purchaseReturnSchema,
  purchaseSchema,
  receivePurchaseSchema,
  savePurchaseSchema,
} from '@pharmapoint/domain/purchases';
import type { ModuleRegistrar } from '../../platform/module.ts';
import {
  bulkDeletePurchases,
  createPurchase,
  createPurchaseReturn,
  deletePurchase,
  getPurchase,
  getPurchaseReturn,
  listPurchaseReturns,
  listPurchases,
  purchaseDefaults,
  receivePurchase,
  updatePurchase,
} from './purchases.service.ts';

const tags = ['purchases'];
/** purchases/new and purchases/edit/{id} need purchase:create (seed 000 section 2); purchase:update also edits (decision 0034). */
const PURCHASE_WRITE = { anyOf: ['purchase:create', 'purchase:update'] } as const;
const PURCHASE_READ = { anyOf: ['purchase:read', 'purchase:create', 'purchase:return'] } as const;
const returnIdParamsSchema = z.strictObject({ id: z.uuid() });

/** Purchases, receiving and purchase returns. Contracts in packages/domain/src/purchases.ts. */
export const registerPurchases: ModuleRegistrar = (app) => {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/purchases',
    {
      config: { access: PURCHASE_READ },
      schema: { tags, summary: 'Purchases newest first: status, branch, supplier, date range and text search, paged', querystring: purchaseListQuerySchema, response: { 200: purchaseListResponseSchema } },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => listPurchases(q, ctx, request.query)),
  );
  r.get(
    '/api/purchases/defaults',
    { config: { access: PURCHASE_READ }, schema: { tags, summary: "A new line's defaults: minimum margin and tax rate from the settings, the branch, today", response: { 200: purchaseDefaultsSchema } } },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => purchaseDefaults(q, ctx)),
  );
  r.get(
    '/api/purchases/:id',
    { config: { access: PURCHASE_READ }, schema: { tags, summary: 'One purchase with its lines', params: purchaseIdParamsSchema, response: { 200: purchaseSchema } } },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => getPurchase(q, ctx, request.params.id)),
  );
  r.post(
    '/api/purchases',
    {
      config: { access: { permission: 'purchase:create' }, idempotent: true },
      schema: { tags, summary: 'Create a purchase (received: its stock too; send an Idempotency-Key)', body: savePurchaseSchema, response: { 201: purchaseResultSchema } },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => createPurchase(q, ctx, request.body), { status: 201 }),
  );
  r.put(
    '/api/purchases/:id',
    {
      config: { access: PURCHASE_WRITE },
      schema: { tags, summary: 'Edit a purchase (received stock corrected by the difference)', params: purchaseIdParamsSchema, body: savePurchaseSchema, response: { 200: purchaseResultSchema } },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => updatePurchase(q, ctx, request.params.id, request.body)),
  );
  r.post(
    '/api/purchases/:id/receive',
    {
      config: { access: PURCHASE_WRITE },
      schema: { tags, summary: 'Receive some or all remaining pieces into batches', params: purchaseIdParamsSchema, body: receivePurchaseSchema, response: { 200: purchaseResultSchema } },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => receivePurchase(q, ctx, request.params.id, request.body)),
  );
  r.delete(
    '/api/purchases/:id',
    {
      config: { access: { permission: 'purchase:delete' } },
      schema: { tags, summary: 'Delete a purchase and remove its stock (never below zero)', params: purchaseIdParamsSchema, response: { 200: purchaseDeleteResultSchema } },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => deletePurchase(q, ctx, request.params.id)),
  );
  r.post(
    '/api/purchases/bulk-delete',
    {
      config: { access: { permission: 'purchase:delete' } },
      schema: { tags, summary: 'Delete several purchases: {n} deleted, {m} failed', body: bulkDeletePurchasesSchema, response: { 200: bulkDeleteResultSchema } },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => bulkDeletePurchases(q, ctx, request.body)),
  );

  r.get(
    '/api/purchase-returns',
    {
      config: { access: { permission: 'purchase:return' } },
      schema: { tags, summary: 'Purchase returns newest first', querystring: purchaseReturnListQuerySchema, response: { 200: purchaseReturnListResponseSchema } },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => listPurchaseReturns(q, ctx, request.query)),
  );
  r.get(
    '/api/purchase-returns/:id',
    { config: { access: { permission: 'purchase:return' } }, schema: { tags, summary: 'One purchase return', params: returnIdParamsSchema, response: { 200: purchaseReturnSchema } } },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => getPurchaseReturn(q, ctx, request.params.id)),
  );
  r.post(
    '/api/purchase-returns',
    {
      config: { access: { permission: 'purchase:return' }, idempotent: true },
      schema: { tags, summary: 'Return received pieces to the supplier, batch by batch (send an Idempotency-Key)', body: createPurchaseReturnSchema, response: { 201: purchaseReturnResultSchema } },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => createPurchaseReturn(q, ctx, request.body), { status: 201 }),
  );
};
