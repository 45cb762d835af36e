import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { posCatalogueQuerySchema, posCatalogueResponseSchema } from '@pharmapoint/domain/pos-catalogue';
import type { ModuleRegistrar } from '../../platform/module.ts';
import { branchCatalogue } from './pos.service.ts';

const tags = ['pos'];

/** The till's reads: the branch catalogue its search runs over (contract in packages/domain/src/pos-catalogue.ts). */
export const registerPos: ModuleRegistrar = (app) => {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/pos/catalogue',
    {
      config: { access: { permission: 'pos:access' } },
      schema: {
        tags,
        summary: "The branch's catalogue for the till: every active product with price, stock and nearest expiry (columnar)",
        querystring: posCatalogueQuerySchema,
        response: { 200: posCatalogueResponseSchema },
      },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => branchCatalogue(q, ctx, request.query)),
  );
};
