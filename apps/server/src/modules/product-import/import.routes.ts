import { z } from 'zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { IMPORT_MODES, IMPORT_TEMPLATE_CSV, importMappingSchema, type ImportMapping } from '@pharmapoint/domain/product-import';
import type { ModuleRegistrar } from '../index.ts';
import { requireContext } from '../../platform/auth-plugin.ts';
import { AppError } from '../../platform/errors.ts';
import { importProducts, notCsv } from './import.service.ts';
import { exportQuerySchema, streamProductsCsv } from './export.service.ts';

/** Largest import body: 10,000 rows of a full template are about 2 MB; leave room for 50,000. */
export const IMPORT_BODY_LIMIT = 20 * 1024 * 1024;

const importQuery = z.strictObject({
  mode: z.enum(IMPORT_MODES).default('all-or-nothing'),
  dryRun: z.enum(['true', 'false']).default('false'),
  /** JSON object: field → CSV header, e.g. {"name":"Product","openingQuantity":"Qty"}. Default: automatic. */
  mapping: z.string().max(10_000).optional(),
});

const importJsonBody = z.strictObject({
  csv: z.string(),
  mapping: importMappingSchema.optional(),
});

function parseMapping(text: string | undefined): ImportMapping | undefined {
  if (text === undefined || text === '') return undefined;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new AppError('VALIDATION_FAILED', { message: 'mapping: must be a JSON object of field to CSV header' });
  }
  const parsed = importMappingSchema.safeParse(json);
  if (!parsed.success) throw new AppError('VALIDATION_FAILED', { message: `mapping: ${parsed.error.issues[0]?.message ?? 'invalid'}`, details: parsed.error.issues });
  return parsed.data;
}

/**
 * Bulk import and export of products:
 * - POST /api/products/import?mode=all-or-nothing|valid-only&dryRun=true|false&mapping={json}
 *   body: the CSV as text/csv, or JSON { csv, mapping? }. Answers ImportResult as JSON; with
 *   `Accept: application/x-ndjson` it streams progress lines, then one { type: 'result', ...ImportResult }
 *   line (or { type: 'error', error } if the import failed after the stream began).
 * - GET /api/products/import/template: the CSV template.
 * - GET /api/products/export: the product list as CSV, streamed (filters as the product list).
 */
export const registerProductImport: ModuleRegistrar = async (app, { db }) => {
  await app.register(async (plain) => {
    const scope = plain.withTypeProvider<ZodTypeProvider>();
    scope.addContentTypeParser(['text/csv', 'text/plain', 'application/csv'], { parseAs: 'string', bodyLimit: IMPORT_BODY_LIMIT }, (_request, body, done) =>
      done(null, body),
    );

    scope.post(
      '/api/products/import',
      {
        bodyLimit: IMPORT_BODY_LIMIT,
        config: { access: { permission: 'product:create' } },
        schema: {
          tags: ['products'],
          summary: 'Import products from CSV (dry run, all-or-nothing or valid rows only)',
          querystring: importQuery,
          // The file as text/csv, or JSON { csv, mapping? }.
          consumes: ['text/csv', 'application/json'],
          body: z.union([z.string().describe('The CSV file'), importJsonBody]),
        },
      },
      async (request, reply) => {
        const ctx = requireContext(request);
        let csv: string;
        let mapping = parseMapping(request.query.mapping);
        if (typeof request.body === 'string') {
          csv = request.body;
        } else {
          const parsed = importJsonBody.safeParse(request.body);
          if (!parsed.success) throw notCsv();
          csv = parsed.data.csv;
          mapping = parsed.data.mapping ?? mapping;
        }
        const wantsStream = (request.headers.accept ?? '').includes('application/x-ndjson');
        let streaming = false;
        const line = (value: unknown) => reply.raw.write(`${JSON.stringify(value)}\n`);
        const input = { csv, mapping, mode: request.query.mode, dryRun: request.query.dryRun === 'true' };
        try {
          const result = await importProducts(db, ctx, input, (progress) => {
            if (!wantsStream) return;
            if (!streaming) {
              streaming = true;
              reply.hijack();
              reply.raw.writeHead(200, { 'content-type': 'application/x-ndjson; charset=utf-8', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' });
            }
            line(progress);
          });
          if (!streaming) return result;
          reply.raw.end(`${JSON.stringify({ type: 'result', ...result })}\n`);
        } catch (error) {
          if (!streaming) throw error;
          const body = error instanceof AppError
            ? { code: error.code, message: error.message, details: error.details }
            : { code: 'INTERNAL', message: 'An unexpected error occurred.' };
          if (!(error instanceof AppError)) request.log.error({ err: error }, 'import failed');
          reply.raw.end(`${JSON.stringify({ type: 'error', error: body })}\n`);
        }
        return reply;
      },
    );

    scope.get(
      '/api/products/import/template',
      {
        config: { access: { permission: 'product:create' } },
        schema: { tags: ['products'], summary: 'The CSV template for product import' },
      },
      async (_request, reply) =>
        reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', 'attachment; filename="pharmapoint-products-template.csv"')
          .send(IMPORT_TEMPLATE_CSV),
    );

    scope.get(
      '/api/products/export',
      {
        config: { access: { anyOf: ['product:read', 'product:export'] } },
        schema: { tags: ['products'], summary: 'The product list as CSV (same filters as GET /api/products)', querystring: exportQuerySchema },
      },
      async (request, reply) => {
        const ctx = requireContext(request);
        return streamProductsCsv(db, ctx, request.query, reply);
      },
    );
  });
};
