import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { IMPORT_HEADERS } from '@pharmapoint/domain/product-import';
import { DEFAULT_LOW_STOCK_THRESHOLD, stockStatus } from '@pharmapoint/domain/stock-status';
import type { Database } from '../../db/database.ts';
import type { RequestContext } from '../../platform/access.ts';
import { AppError } from '../../platform/errors.ts';

/** Filters of the export: those of the product list (GET /api/products). */
export const exportQuerySchema = z.strictObject({
  q: z.string().max(200).optional(),
  category: z.string().max(60).optional(),
  status: z.enum(['out', 'low', 'good']).optional(),
  /** A branch id, or 'all' for one line per product and branch. Default: the session's branch (else all). */
  branchId: z.union([z.uuid(), z.literal('all')]).optional(),
  active: z.enum(['true', 'false']).optional(),
  dda: z.enum(['true', 'false']).optional(),
});
export type ExportQuery = z.infer<typeof exportQuerySchema>;

/** The export's columns: the import template's (so an export can be imported again) and stock figures. */
export const EXPORT_HEADERS = [
  IMPORT_HEADERS.name,
  IMPORT_HEADERS.sku,
  IMPORT_HEADERS.barcodes,
  IMPORT_HEADERS.category,
  IMPORT_HEADERS.packageSize,
  IMPORT_HEADERS.packageType,
  IMPORT_HEADERS.unit,
  IMPORT_HEADERS.isDda,
  IMPORT_HEADERS.taxApplied,
  IMPORT_HEADERS.taxRate,
  IMPORT_HEADERS.minMargin,
  IMPORT_HEADERS.lowStockThreshold,
  IMPORT_HEADERS.reorderLevel,
  IMPORT_HEADERS.branch,
  IMPORT_HEADERS.sellingPrice,
  IMPORT_HEADERS.purchasePrice,
  'Quantity',
  'Reserved Quantity',
  'Stock Status',
  'Active',
] as const;

const PAGE = 1000;

/** One CSV cell (RFC 4180), defused against spreadsheet formulas (=, +, -, @ at the start of text). */
export function csvCell(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  let text = value;
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const money = (cents: string | number | null) => (cents === null ? '' : (Number(cents) / 100).toFixed(2));
const percent = (bp: number | null) => (bp === null ? '' : String(bp / 100));

interface ExportRow {
  id: string;
  name: string;
  sku: string | null;
  barcodes: string[] | null;
  category: string | null;
  package_size: number | null;
  package_type: string | null;
  unit: string | null;
  is_dda: boolean;
  tax_applied: boolean;
  tax_rate_basis_points: number | null;
  min_margin_basis_points: number | null;
  low_stock_threshold: number | null;
  reorder_level: number | null;
  is_active: boolean;
  branch_id: string;
  branch_name: string;
  selling_price_cents: string | number | null;
  purchase_price_cents: string | number | null;
  quantity: number;
  reserved_quantity: number;
  threshold: number;
}

/** Streams the filtered product list as CSV, a page at a time (keyset by name, id, branch). */
export async function streamProductsCsv(db: Database, ctx: RequestContext, query: ExportQuery, reply: FastifyReply): Promise<FastifyReply> {
  const scope = { pharmacyId: ctx.pharmacyId, userId: ctx.userId };
  const branchId = query.branchId === 'all' ? null : (query.branchId ?? ctx.branchId);
  if (branchId) {
    const found = await db.transaction(scope, (q) => q.query(`SELECT 1 FROM branches WHERE pharmacy_id = $1 AND id = $2`, [ctx.pharmacyId, branchId]));
    if (!found.length) throw new AppError('NOT_FOUND');
  }
  const conditions = ['p.pharmacy_id = $1'];
  const params: unknown[] = [ctx.pharmacyId];
  const add = (sql: (n: string) => string, value: unknown) => {
    params.push(value);
    conditions.push(sql(`$${params.length}`));
  };
  if (branchId) add((n) => `bp.branch_id = ${n}`, branchId);
  if (query.q) add((n) => `(p.name ILIKE ${n} OR p.sku ILIKE ${n} OR ${n} ILIKE ANY (p.barcodes))`, `%${query.q.replace(/[\\%_]/g, '\\$&')}%`);
  if (query.category) add((n) => `lower(p.category) = lower(${n})`, query.category);
  if (query.active) add((n) => `p.is_active = ${n}`, query.active === 'true');
  if (query.dda) add((n) => `p.is_dda = ${n}`, query.dda === 'true');
  const threshold = `COALESCE(p.low_stock_threshold, ${DEFAULT_LOW_STOCK_THRESHOLD})`;
  if (query.status === 'out') conditions.push('bp.quantity <= 0');
  if (query.status === 'low') conditions.push(`bp.quantity > 0 AND bp.quantity <= ${threshold}`);
  if (query.status === 'good') conditions.push(`bp.quantity > ${threshold}`);

  async function* lines(): AsyncGenerator<string> {
    yield `\uFEFF${EXPORT_HEADERS.map(csvCell).join(',')}\r\n`;
    let after: [string, string, string] | null = null;
    for (;;) {
      const pageParams = [...params];
      let keyset = '';
      if (after) {
        pageParams.push(after[0], after[1], after[2]);
        const n = pageParams.length;
        keyset = ` AND (p.name, p.id, bp.branch_id) > ($${n - 2}, $${n - 1}::uuid, $${n}::uuid)`;
      }
      const rows: ExportRow[] = await db.transaction(scope, (q) =>
        q.query<ExportRow>(
          `SELECT p.id, p.name, p.sku, p.barcodes, p.category, p.package_size, p.package_type, p.unit, p.is_dda, p.tax_applied,
                  p.tax_rate_basis_points, p.min_margin_basis_points, p.low_stock_threshold, p.reorder_level, p.is_active,
                  bp.branch_id, b.name AS branch_name, bp.selling_price_cents, bp.purchase_price_cents, bp.quantity,
                  bp.reserved_quantity, ${threshold} AS threshold
             FROM products p
             JOIN branch_products bp ON bp.pharmacy_id = p.pharmacy_id AND bp.product_id = p.id
             JOIN branches b ON b.pharmacy_id = bp.pharmacy_id AND b.id = bp.branch_id
            WHERE ${conditions.join(' AND ')}${keyset}
            ORDER BY p.name, p.id, bp.branch_id
            LIMIT ${PAGE}`,
          pageParams,
        ),
      );
      if (rows.length === 0) return;
      let chunk = '';
      for (const r of rows) {
        chunk += [
          r.name,
          r.sku,
          (r.barcodes ?? []).join(';'),
          r.category,
          r.package_size,
          r.package_type,
          r.unit,
          r.is_dda,
          r.tax_applied,
          percent(r.tax_rate_basis_points),
          percent(r.min_margin_basis_points),
          r.low_stock_threshold,
          r.reorder_level,
          r.branch_name,
          money(r.selling_price_cents),
          money(r.purchase_price_cents),
          r.quantity,
          r.reserved_quantity,
          stockStatus(r.quantity, r.threshold),
          r.is_active,
        ]
          .map(csvCell)
          .join(',');
        chunk += '\r\n';
      }
      yield chunk;
      const last = rows[rows.length - 1]!;
      after = [last.name, last.id, last.branch_id];
      if (rows.length < PAGE) return;
    }
  }

  const date = new Date().toISOString().slice(0, 10);
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="products-${date}.csv"`)
    .header('cache-control', 'no-store')
    .send(Readable.from(lines()));
}
