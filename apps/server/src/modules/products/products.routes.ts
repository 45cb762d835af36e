import { z } from 'zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  branchPricesSchema,
  branchQuerySchema,
  createProductSchema,
  movementListQuerySchema,
  productListQuerySchema,
  receiveBatchSchema,
  updateProductSchema,
} from '@pharmapoint/domain/products';
import type { ModuleRegistrar } from '../index.ts';
import { requireContext } from '../../platform/auth-plugin.ts';
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

const idParams = z.strictObject({ id: z.uuid() });
const branchParams = z.strictObject({ id: z.uuid(), branchId: z.uuid() });
const tags = ['products'];

/**
 * The product catalogue (issue 3): list with search, filters and sort; detail with every branch and batch;
 * create, update, deactivate; per-branch prices; opening stock; the product's ledger. Contracts in
 * packages/domain/src/products.ts.
 */
export const registerProducts: ModuleRegistrar = (app, { db }) => {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/products',
    { config: { access: { permission: 'product:read' } }, schema: { tags, summary: 'Products with their values in a branch (paged)', querystring: productListQuerySchema } },
    async (request) => searchProducts(db, requireContext(request), request.auth, request.query),
  );

  r.get(
    '/api/products/:id',
    { config: { access: { permission: 'product:read' } }, schema: { tags, summary: 'A product with every branch and batch', params: idParams } },
    async (request) => {
      const ctx = requireContext(request);
      return db.transaction({ pharmacyId: ctx.pharmacyId, userId: ctx.userId }, (q) => productDetail(q, ctx, request.auth, request.params.id));
    },
  );

  r.post(
    '/api/products',
    { config: { access: { permission: 'product:create' } }, schema: { tags, summary: 'Create a product', body: createProductSchema } },
    async (request, reply) => reply.status(201).send(await createProduct(db, requireContext(request), request.auth, request.body)),
  );

  r.patch(
    '/api/products/:id',
    {
      config: { access: { permission: 'product:update' } },
      schema: { tags, summary: 'Update a product (price fields need product:manage_price)', params: idParams, querystring: branchQuerySchema, body: updateProductSchema },
    },
    async (request) => updateProduct(db, requireContext(request), request.auth, request.params.id, request.body, request.query.branchId),
  );

  r.delete(
    '/api/products/:id',
    { config: { access: { permission: 'product:delete' } }, schema: { tags, summary: 'Deactivate a product', params: idParams } },
    async (request) => deactivateProduct(db, requireContext(request), request.auth, request.params.id),
  );

  r.put(
    '/api/products/:id/branches/:branchId',
    {
      config: { access: { anyOf: ['product:update', 'product:manage_price'] } },
      schema: { tags, summary: "A product's prices and availability in a branch", params: branchParams, body: branchPricesSchema },
    },
    async (request) => setBranchValues(db, requireContext(request), request.auth, request.params.id, request.params.branchId, request.body),
  );

  r.post(
    '/api/products/:id/batches',
    { config: { access: { permission: 'inventory:update' } }, schema: { tags, summary: 'Receive opening stock into a batch', params: idParams, body: receiveBatchSchema } },
    async (request, reply) => reply.status(201).send(await receiveOpeningBatch(db, requireContext(request), request.auth, request.params.id, request.body)),
  );

  r.get(
    '/api/products/:id/movements',
    {
      config: { access: { permission: 'product:read' } },
      schema: { tags, summary: "A product's stock ledger (history)", params: idParams, querystring: movementListQuerySchema },
    },
    async (request) => productMovements(db, requireContext(request), request.auth, request.params.id, request.query),
  );
};
