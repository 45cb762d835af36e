import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { posCatalogueQuerySchema, posCatalogueResponseSchema, type PosCatalogueResponse } from '@pharmapoint/domain/pos-catalogue';
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
      // The database writes the JSON text itself (pos.repository.ts); the tests parse it with the schema. Parsing
      // and validating 1,000,000 values again on every load would cost more than the query (decision 0024).
      serializerCompiler: () => (data) => (typeof data === 'string' ? data : JSON.stringify(data)),
    },
    async (request, reply) => {
      const body = await app.inTenant(request, reply, (q, ctx) => branchCatalogue(q, ctx, request.query));
      // JSON text of a PosCatalogueResponse, sent as it is.
      return reply.type('application/json; charset=utf-8').send(body as unknown as PosCatalogueResponse);
    },
  );
};
