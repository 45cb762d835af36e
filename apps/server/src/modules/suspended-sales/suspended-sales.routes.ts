import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  cancelSuspendedSaleResponseSchema,
  suspendedSaleIdParamsSchema,
  suspendedSaleListQuerySchema,
  suspendedSaleListResponseSchema,
  suspendedSaleSchema,
  suspendSaleSchema,
} from '@pharmapoint/domain/suspended-sales';
import type { ModuleRegistrar } from '../../platform/module.ts';
import { cancelSuspendedSale, getSuspendedSale, listSuspendedSales, suspendSale } from './suspended-sales.service.ts';

const tags = ['suspended-sales'];
/** The till resumes with pos:access; the back office reads with sales:read. */
const READ = { anyOf: ['sales:read', 'pos:access'] } as const;

/**
 * Suspended sales with reserved stock (decision 0028): suspending (one transaction, idempotent by the body's id sent
 * as Idempotency-Key), the list, one sale (for resuming) and cancelling (stock released). Completing a resumed sale
 * is POST /api/sales with suspendedSaleId. Contracts in packages/domain/src/suspended-sales.ts.
 */
export const registerSuspendedSales: ModuleRegistrar = (app) => {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/api/suspended-sales',
    {
      config: { access: { permission: 'pos:access' }, idempotent: true },
      schema: { tags, summary: 'Suspend a sale and reserve its stock (send its id as Idempotency-Key)', body: suspendSaleSchema, response: { 201: suspendedSaleSchema } },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => suspendSale(q, ctx, request.body), { status: 201 }),
  );
  r.get(
    '/api/suspended-sales',
    { config: { access: READ }, schema: { tags, summary: 'Suspended sales, newest first', querystring: suspendedSaleListQuerySchema, response: { 200: suspendedSaleListResponseSchema } } },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => listSuspendedSales(q, ctx, request.query)),
  );
  r.get(
    '/api/suspended-sales/:id',
    { config: { access: READ }, schema: { tags, summary: 'One suspended sale (to resume it)', params: suspendedSaleIdParamsSchema, response: { 200: suspendedSaleSchema } } },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => getSuspendedSale(q, ctx, request.params.id)),
  );
  r.post(
    '/api/suspended-sales/:id/cancel',
    {
      config: { access: { permission: 'pos:access' } },
      schema: { tags, summary: 'Cancel a suspended sale and release its stock', params: suspendedSaleIdParamsSchema, response: { 200: cancelSuspendedSaleResponseSchema } },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => cancelSuspendedSale(q, ctx, request.params.id)),
  );
};
