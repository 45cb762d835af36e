import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  branchPricesSchema,
  branchQuerySchema,
  createProductSchema,
  movementListQuerySchema,
  movementListResponseSchema,
  productBranchParamsSchema,
  productDetailResponseSchema,
  productIdParamsSchema,
  productListQuerySchema,
  productListResponseSchema,
  receiveBatchResponseSchema,
  receiveBatchSchema,
  updateProductSchema,
} from '@pharmapoint/domain/products';
import type { ModuleRegistrar } from '../../platform/module.ts';
import {
  createProduct,
  deactivateProduct,
  productDetail,
  productMovements,
  receiveOpeningBatch,
  searchProducts,
  setBranchValues,
  updateProduct,
} from './products.service.ts';

const tags = ['products'];

/**
 * The product catalogue (issue 3): list with search, filters and sort; detail with every branch and batch;
 * create, update, deactivate; per-branch prices; opening stock; the product's ledger. Contracts in
 * packages/domain/src/products.ts. Each request is one transaction (app.inTenant); creates honour Idempotency-Key.
 */
export const registerProducts: ModuleRegistrar = (app) => {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/products',
    {
      config: { access: { permission: 'product:read' } },
      schema: { tags, summary: 'Products with their values in a branch (paged)', querystring: productListQuerySchema, response: { 200: productListResponseSchema } },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => searchProducts(q, ctx, request.query)),
  );

  r.get(
    '/api/products/:id',
    {
      config: { access: { permission: 'product:read' } },
      schema: { tags, summary: 'A product with every branch and batch', params: productIdParamsSchema, response: { 200: productDetailResponseSchema } },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => productDetail(q, ctx, request.params.id)),
  );

  r.post(
    '/api/products',
    {
      config: { access: { permission: 'product:create' }, idempotent: true },
      schema: { tags, summary: 'Create a product', body: createProductSchema, response: { 201: productDetailResponseSchema } },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => createProduct(q, ctx, request.body), { status: 201 }),
  );

  r.patch(
    '/api/products/:id',
    {
      config: { access: { permission: 'product:update' } },
      schema: {
        tags,
        summary: 'Update a product (price fields need product:manage_price)',
        params: productIdParamsSchema,
        querystring: branchQuerySchema,
        body: updateProductSchema,
        response: { 200: productDetailResponseSchema },
      },
    },
    async (request, reply) =>
      app.inTenant(request, reply, (q, ctx) => updateProduct(q, ctx, { id: request.params.id, changes: request.body, branchId: request.query.branchId })),
  );

  r.delete(
    '/api/products/:id',
    {
      config: { access: { permission: 'product:delete' } },
      schema: { tags, summary: 'Deactivate a product', params: productIdParamsSchema, response: { 200: productDetailResponseSchema } },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => deactivateProduct(q, ctx, request.params.id)),
  );

  r.put(
    '/api/products/:id/branches/:branchId',
    {
      config: { access: { anyOf: ['product:update', 'product:manage_price'] } },
      schema: {
        tags,
        summary: "A product's prices and availability in a branch",
        params: productBranchParamsSchema,
        body: branchPricesSchema,
        response: { 200: productDetailResponseSchema },
      },
    },
    async (request, reply) =>
      app.inTenant(request, reply, (q, ctx) => setBranchValues(q, ctx, { id: request.params.id, branchId: request.params.branchId, values: request.body })),
  );

  r.post(
    '/api/products/:id/batches',
    {
      config: { access: { permission: 'inventory:update' }, idempotent: true },
      schema: {
        tags,
        summary: 'Receive opening stock into a batch',
        params: productIdParamsSchema,
        body: receiveBatchSchema,
        response: { 201: receiveBatchResponseSchema },
      },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => receiveOpeningBatch(q, ctx, { id: request.params.id, batch: request.body }), { status: 201 }),
  );

  r.get(
    '/api/products/:id/movements',
    {
      config: { access: { permission: 'product:read' } },
      schema: {
        tags,
        summary: "A product's stock ledger (history)",
        params: productIdParamsSchema,
        querystring: movementListQuerySchema,
        response: { 200: movementListResponseSchema },
      },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => productMovements(q, ctx, { id: request.params.id, query: request.query })),
  );
};
