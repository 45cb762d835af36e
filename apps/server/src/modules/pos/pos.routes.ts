import type { FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { posCatalogueQuerySchema, posCatalogueResponseSchema, type PosCatalogueResponse } from '@pharmapoint/domain/pos-catalogue';
import type { ModuleRegistrar } from '../../platform/module.ts';
import { CatalogueCache, type CatalogueEncoding } from './pos.cache.ts';
import { branchCatalogue } from './pos.service.ts';

const tags = ['pos'];

/** The encoding to send: brotli, else gzip, else none, as Accept-Encoding allows (q=0 refuses). */
export function catalogueEncoding(request: FastifyRequest): CatalogueEncoding {
  const header = String(request.headers['accept-encoding'] ?? '').toLowerCase();
  const accepted = new Set(
    header
      .split(',')
      .map((part) => part.trim().split(';'))
      .filter(([, ...params]) => !params.some((p) => /^\s*q\s*=\s*0(\.0*)?\s*$/.test(p)))
      .map(([name]) => name!.trim()),
  );
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return 'identity';
}

/** True when If-None-Match names this ETag (or '*'). */
function notModified(request: FastifyRequest, etag: string): boolean {
  const header = request.headers['if-none-match'];
  if (!header) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag || t === `W/${etag}`;
  });
}

/** The till's reads: the branch catalogue its search runs over (contract in packages/domain/src/pos-catalogue.ts). */
export const registerPos: ModuleRegistrar = async (app) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // Decisions 0064, 0072: the answer kept per branch, compressed once, found by the exact version of its rows.
  const cache = new CatalogueCache();
  app.addHook('onClose', async () => cache.clear());

  r.get(
    '/api/pos/catalogue',
    {
      config: { access: { permission: 'pos:access' } },
      schema: {
        tags,
        summary: "The branch's catalogue for the till: every active product with price, stock and nearest expiry (columnar)",
        description:
          'Sent with an ETag; a request with If-None-Match naming it answers 304 without a body when the catalogue has not changed.',
        querystring: posCatalogueQuerySchema,
        response: { 200: posCatalogueResponseSchema, 304: z.null().describe('Not modified: the copy named by If-None-Match is current') },
      },
      // The database writes the JSON text itself (pos.repository.ts); the tests parse it with the schema. Parsing
      // and validating 1,000,000 values again on every load would cost more than the query (decision 0024).
      serializerCompiler: () => (data) => (typeof data === 'string' ? data : JSON.stringify(data)),
    },
    async (request, reply) => {
      const entry = await app.inTenant(request, reply, (q, ctx) => branchCatalogue(q, ctx, { ...request.query, cache }));
      reply.type('application/json; charset=utf-8').header('cache-control', 'private, no-cache').header('vary', 'Accept-Encoding');
      if (typeof entry === 'string') return reply.send(entry as unknown as PosCatalogueResponse);
      reply.header('etag', entry.etag);
      if (notModified(request, entry.etag)) return reply.code(304).send(null);
      const encoding = catalogueEncoding(request);
      const body = await entry.encode(encoding);
      // Already compressed: @fastify/compress leaves an answer with a Content-Encoding alone.
      if (encoding !== 'identity') reply.header('content-encoding', encoding);
      return reply.send(body as unknown as PosCatalogueResponse);
    },
  );
};
