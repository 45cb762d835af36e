import { IMPORT_HEADERS, type ExportQuery } from '@pharmapoint/domain/product-import';
import { stockStatus } from '@pharmapoint/domain/stock-status';
import type { Queryable } from '../../db/database.ts';
import type { RequestContext } from '../../platform/context.ts';
import { pharmacyToday } from '../settings/settings.service.ts';
import { resolveBranch } from '../stock/stock.service.ts';
import { exportPage, type ExportCursor, type ExportRow } from './export.repository.ts';

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

/** Lines per page (and per transaction) of the export. */
export const EXPORT_PAGE = 1000;

/** One CSV cell (RFC 4180), defused against spreadsheet formulas (=, +, -, @ at the start of text). */
export function csvCell(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  let text = value;
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const money = (cents: number | null) => (cents === null ? '' : (cents / 100).toFixed(2));
const percent = (bp: number | null) => (bp === null ? '' : String(bp / 100));

/** What an export reads: the filters, and one branch or the branches the user may see. */
export interface ExportPlan {
  query: ExportQuery;
  /** One branch; null = every branch in branchIds. */
  branchId: string | null;
  /** The branches the user may see; null = every branch. */
  branchIds: readonly string[] | null;
  /** The file name, dated by the request. */
  fileName: string;
  /** The first line: a byte-order mark (spreadsheets then read UTF-8) and the headers. */
  header: string;
}

/**
 * GET /api/products/export, first step: which branches the file covers. The branch asked for, else the session's;
 * 'all' (or no session branch) = every branch the user may see. 404 for an unknown branch, 403 for one not allowed.
 */
export async function planExport(q: Queryable, ctx: RequestContext, query: ExportQuery): Promise<ExportPlan> {
  const requested = query.branchId === 'all' ? null : (query.branchId ?? ctx.branchId);
  const branchId = requested ? (await resolveBranch(q, ctx, requested)).id : null;
  return {
    query,
    branchId,
    branchIds: ctx.visibleBranchIds,
    fileName: `products-${await pharmacyToday(q, ctx)}.csv`,
    header: `\uFEFF${EXPORT_HEADERS.map(csvCell).join(',')}\r\n`,
  };
}

function csvLine(r: ExportRow): string {
  return [
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
}

/** One page of the export as CSV lines, and where the next page starts (null after the last). */
export async function exportCsvPage(
  q: Queryable,
  ctx: RequestContext,
  plan: ExportPlan,
  after: ExportCursor | null,
): Promise<{ text: string; next: ExportCursor | null }> {
  const rows = await exportPage(q, ctx.pharmacyId, plan, after, EXPORT_PAGE);
  const text = rows.map((r) => `${csvLine(r)}\r\n`).join('');
  const last = rows[rows.length - 1];
  return { text, next: last && rows.length === EXPORT_PAGE ? [last.name, last.id, last.branch_id] : null };
}
