import { Readable } from 'node:stream';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  csvFileSchema,
  exportQuerySchema,
  IMPORT_TEMPLATE_CSV,
  importBodySchema,
  importJsonBodySchema,
  importMappingSchema,
  importQuerySchema,
  importResultSchema,
  type ImportMapping,
  type ImportProgress,
} from '@pharmapoint/domain/product-import';
import type { ModuleRegistrar } from '../../platform/module.ts';
import { AppError } from '../../platform/errors.ts';
import { requestAnalyze } from '../../platform/maintenance.ts';
import { idempotencyKey, isReplayed } from '../../platform/transaction.ts';
import { exportCsvPage, planExport } from './export.service.ts';
import type { ExportCursor } from './export.repository.ts';
import { importProducts, notCsv, parseImport } from './import.service.ts';

/** Largest import body: 10,000 rows of a full template are about 2 MB; leave room for 50,000. */
export const IMPORT_BODY_LIMIT = 20 * 1024 * 1024;

const tags = ['products'];
/** A CSV answer, documented as text/csv (the serializer leaves text with a non-JSON content type as it is). */
const csvResponse = { 200: { description: 'A CSV file', content: { 'text/csv': { schema: csvFileSchema } } } };

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
 *   line (or { type: 'error', error } if the import failed after the stream began). Honours Idempotency-Key
 *   (a replayed import answers its stored result as JSON).
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
        config: { access: { permission: 'product:create' }, idempotent: true },
        schema: {
          tags,
          summary: 'Import products from CSV (dry run, all-or-nothing or valid rows only)',
          querystring: importQuerySchema,
          // The file as text/csv, or JSON { csv, mapping? }.
          consumes: ['text/csv', 'application/json'],
          body: importBodySchema,
          response: { 200: importResultSchema },
        },
      },
      async (request, reply) => {
        let csv: string;
        let mapping = parseMapping(request.query.mapping);
        if (typeof request.body === 'string') {
          csv = request.body;
        } else {
          const parsed = importJsonBodySchema.safeParse(request.body);
          if (!parsed.success) throw notCsv();
          csv = parsed.data.csv;
          mapping = parsed.data.mapping ?? mapping;
        }
        // The file is read before any transaction opens; then validation, the chunks of writes and the last step
        // each run in a short transaction of their own (decision 0021).
        const input = { ...parseImport({ csv, mapping, mode: request.query.mode, dryRun: request.query.dryRun === 'true' }), idempotencyKey: idempotencyKey(request) };
        const wantsStream = (request.headers.accept ?? '').includes('application/x-ndjson');
        let streaming = false;
        const line = (value: unknown) => reply.raw.write(`${JSON.stringify(value)}\n`);
        const onProgress = (progress: ImportProgress) => {
          if (!wantsStream) return;
          if (!streaming) {
            streaming = true;
            reply.hijack();
            reply.raw.writeHead(200, { 'content-type': 'application/x-ndjson; charset=utf-8', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' });
          }
          line(progress);
        };
        try {
          const result = await importProducts(
            (work, options) => app.inTenant(request, reply, work, options),
            () => isReplayed(reply),
            input,
            onProgress,
          );
          // Thousands of new rows: fresh planner statistics soon (PGlite has no autovacuum; a no-op on PostgreSQL).
          requestAnalyze(db);
          if (!streaming) return result;
          reply.raw.end(`${JSON.stringify({ type: 'result', ...result })}\n`);
        } catch (error) {
          if (!streaming) throw error;
          const body =
            error instanceof AppError ? { code: error.code, message: error.message, details: error.details } : { code: 'INTERNAL', message: 'An unexpected error occurred.' };
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
        schema: { tags, summary: 'The CSV template for product import', response: csvResponse },
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
        schema: { tags, summary: 'The product list as CSV (same filters as GET /api/products)', querystring: exportQuerySchema, response: csvResponse },
      },
      async (request, reply) => {
        const plan = await app.inTenant(request, reply, (q, ctx) => planExport(q, ctx, request.query));
        // Each page is read in a short transaction of its own while the client downloads, so a slow download
        // never holds a database connection (PGlite has only one).
        async function* lines(): AsyncGenerator<string> {
          yield plan.header;
          let after: ExportCursor | null = null;
          do {
            const page: { text: string; next: ExportCursor | null } = await app.inTenant(request, reply, (q, ctx) => exportCsvPage(q, ctx, plan, after));
            if (page.text) yield page.text;
            after = page.next;
          } while (after);
        }
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${plan.fileName}"`)
          .header('cache-control', 'no-store')
          // A stream is sent as it is (the CSV schema above documents it; the typed reply expects the text).
          .send(Readable.from(lines()) as unknown as string);
      },
    );
  });
};
