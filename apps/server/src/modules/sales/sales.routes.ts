import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  completeSaleSchema,
  lastPrescriptionQuerySchema,
  lastPrescriptionResponseSchema,
  saleIdParamsSchema, saleListQuerySchema, saleListResponseSchema, saleSchema } from '@pharmapoint/domain/sales';
import type { ModuleRegistrar } from '../../platform/module.ts';
import { completeSale, getSale, lastPrescription, listSales } from './sales.service.ts';

const tags = ['sales'];
/** The till reads back its own receipts with pos:access; the back office with sales:read. */
const SALE_READ = { anyOf: ['sales:read', 'pos:access'] } as const;

/**
 * Sales: completing a sale at the till (one transaction, idempotent by the sale's UUID sent as Idempotency-Key), the
 * receipt, and the list. Contracts in packages/domain/src/sales.ts.
 */
export const registerSales: ModuleRegistrar = (app) => {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/api/sales',
    {
      config: { access: { permission: 'pos:access' }, idempotent: true },
      schema: { tags, summary: 'Complete a sale (send its id as Idempotency-Key)', body: completeSaleSchema, response: { 201: saleSchema } },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => completeSale(q, ctx, request.body), { status: 201 }),
  );
  r.get(
    '/api/sales',
    { config: { access: { permission: 'sales:read' } }, schema: { tags, summary: 'Sales, newest first', querystring: saleListQuerySchema, response: { 200: saleListResponseSchema } } },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => listSales(q, ctx, request.query)),
  );
  r.get(
    '/api/sales/last-prescription',
    {
      config: { access: SALE_READ },
      schema: { tags, summary: "A client's latest DDA prescription (prefills the DDA modal)", querystring: lastPrescriptionQuerySchema, response: { 200: lastPrescriptionResponseSchema } },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => lastPrescription(q, ctx, request.query.clientId)),
  );
  r.get(
    '/api/sales/:id',
    { config: { access: SALE_READ }, schema: { tags, summary: 'One sale (the receipt)', params: saleIdParamsSchema, response: { 200: saleSchema } } },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => getSale(q, ctx, request.params.id)),
  );
};
