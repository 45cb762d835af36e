import { randomUUID } from 'node:crypto';
import {
  normalizeImportRow,
  type ImportMapping,
  type ImportMode,
  type ImportProgress,
  type ImportResult,
  type ImportRowError,
  type NormalizedImportRow,
} from '@pharmapoint/domain/product-import';
import type { Queryable } from '../../db/database.ts';
import type { RequestContext } from '../../platform/context.ts';
import { AppError, isDatabaseError } from '../../platform/errors.ts';
import { notifyProductsChanged } from '../../platform/events.ts';
import { stockSettings } from '../stock/stock.service.ts';
import { assertWithinPlanLimit } from '../subscription/subscription.service.ts';
import { parseImportCsv, type ParsedCsv } from './import.csv.ts';
import {
  activeBranches,
  existingSkus,
  insertImport,
  thenRolledBack,
  type ImportBatch,
  type ImportBranchProduct,
  type ImportProduct,
} from './import.repository.ts';

export interface ImportRequest {
  csv: string;
  mapping?: ImportMapping;
  mode: ImportMode;
  dryRun: boolean;
}

/** An import whose file has been read: the parsed records, the mode and whether it is a dry run. */
export interface ParsedImport {
  parsed: ParsedCsv;
  mode: ImportMode;
  dryRun: boolean;
}

/**
 * Reads the file of an import (400 when it is not CSV or its mapping names a missing column). Pure: the route
 * calls it before the transaction opens, so a large file is parsed without holding a database connection.
 */
export function parseImport(request: ImportRequest): ParsedImport {
  return { parsed: parseImportCsv(request.csv, request.mapping), mode: request.mode, dryRun: request.dryRun };
}

/** Rows per multi-row INSERT and per progress report. */
export const IMPORT_CHUNK = 1000;

/** A product of the file with its rows: the first row gives the product fields, every row its branch data. */
interface ProductGroup {
  key: string;
  rows: NormalizedImportRow[];
}

/**
 * Validates and imports a parsed CSV of products (see POST /api/products/import), in the caller's transaction.
 * Validation happens before any write; then, unless it is a dry run, every accepted row is written with
 * set-based INSERTs (products, branch prices and stock, batches and their 'import' ledger movements, a chunk of
 * rows per statement), so a failure leaves nothing when the transaction rolls back, and 10,000 rows take
 * seconds. onProgress is called as phases advance.
 */
export async function importProducts(
  q: Queryable,
  ctx: RequestContext,
  request: ParsedImport,
  onProgress: (progress: ImportProgress) => void = () => undefined,
): Promise<ImportResult> {
  const { parsed } = request;
  const total = parsed.records.length;
  const skus = [...new Set(parsed.records.map((r) => r.values.sku?.trim()).filter((s): s is string => !!s))];
  const branches = await activeBranches(q, ctx.pharmacyId);
  const { categories } = await stockSettings(q, ctx);
  const context = { branches, categories, existingSkus: await existingSkus(q, ctx.pharmacyId, skus) };
  const branchByName = new Map(context.branches.map((b) => [b.name.toLowerCase(), b.id] as const));
  const defaultBranchId = ctx.branchId ?? context.branches.find((b) => b.isDefault)?.id ?? context.branches[0]?.id ?? null;

  const errors: ImportRowError[] = [];
  const accepted: { row: NormalizedImportRow; branchId: string }[] = [];
  const groups = new Map<string, ProductGroup>();
  let lastReport = 0;
  onProgress({ type: 'progress', phase: 'validating', done: 0, total });
  for (const [i, record] of parsed.records.entries()) {
    if (i - lastReport >= IMPORT_CHUNK) {
      lastReport = i;
      onProgress({ type: 'progress', phase: 'validating', done: i, total });
    }
    if (record.shapeError) {
      errors.push({ row: record.row, field: 'row', message: record.shapeError });
      continue;
    }
    const result = normalizeImportRow(record.values, record.row, { categories: context.categories });
    const row = result.row;
    if (!row) {
      errors.push(...result.errors);
      continue;
    }
    const rowErrors: ImportRowError[] = [];
    const branchId = row.branch ? branchByName.get(row.branch.toLowerCase()) : defaultBranchId;
    if (!branchId) {
      rowErrors.push({ row: row.row, field: 'branch', message: row.branch ? `Unknown branch '${row.branch}'` : 'No branch to import into' });
    }
    const key = row.sku ? `sku:${row.sku.toLowerCase()}` : `row:${row.row}`;
    if (row.sku && context.existingSkus.has(row.sku.toLowerCase())) {
      rowErrors.push({ row: row.row, field: 'sku', message: `A product with SKU '${row.sku}' already exists` });
    }
    const group = groups.get(key);
    if (group && group.rows[0]!.name.toLowerCase() !== row.name.toLowerCase()) {
      rowErrors.push({ row: row.row, field: 'sku', message: `SKU '${row.sku}' is already used by row ${group.rows[0]!.row} for another product` });
    }
    if (rowErrors.length || !branchId) {
      errors.push(...rowErrors);
      continue;
    }
    accepted.push({ row, branchId });
    if (group) group.rows.push(row);
    else groups.set(key, { key, rows: [row] });
  }
  onProgress({ type: 'progress', phase: 'validating', done: total, total });

  const invalidRows = new Set(errors.map((e) => e.row)).size;
  const base = { errors, total, mode: request.mode, dryRun: request.dryRun };
  if (request.mode === 'all-or-nothing' && errors.length) {
    return { ...base, imported: 0, skipped: total, productsCreated: 0 };
  }
  const result: ImportResult = { ...base, imported: accepted.length, skipped: invalidRows, productsCreated: groups.size };
  if (accepted.length === 0) return { ...result, imported: 0 };

  if (request.dryRun) {
    // The limit as the import would meet it; the places the check takes are given back.
    await thenRolledBack(q, () => assertWithinPlanLimit(q, ctx, 'products', groups.size));
    return result;
  }

  // Build the set-based rows: products, per-branch prices and stock, batches and movements.
  const importId = randomUUID();
  const productIdOf = new Map<string, string>();
  const products: ImportProduct[] = [];
  for (const group of groups.values()) {
    const first = group.rows[0]!;
    const id = randomUUID();
    productIdOf.set(group.key, id);
    products.push({ id, row: first });
  }
  const branchProducts = new Map<string, ImportBranchProduct>();
  const batches: ImportBatch[] = [];
  for (const { row, branchId } of accepted) {
    const productId = productIdOf.get(row.sku ? `sku:${row.sku.toLowerCase()}` : `row:${row.row}`)!;
    const bpKey = `${productId}:${branchId}`;
    let bp = branchProducts.get(bpKey);
    if (!bp) {
      bp = { productId, branchId, row, quantity: 0 };
      branchProducts.set(bpKey, bp);
    }
    if (row.openingQuantity > 0) {
      bp.quantity += row.openingQuantity;
      batches.push({
        id: randomUUID(),
        productId,
        branchId,
        batchNumber: row.batchNumber,
        expiryDate: row.expiryDate,
        quantity: row.openingQuantity,
        quantityAfter: bp.quantity,
        unitCostCents: row.unitCostCents ?? row.purchasePriceCents ?? 0,
      });
    }
  }

  const totalWrites = products.length + branchProducts.size + batches.length;
  let written = 0;
  onProgress({ type: 'progress', phase: 'writing', done: 0, total: accepted.length });
  await assertWithinPlanLimit(q, ctx, 'products', groups.size);
  try {
    await insertImport(q, ctx, { importId, products, branchProducts: [...branchProducts.values()], batches, now: ctx.now }, IMPORT_CHUNK, (n) => {
      written += n;
      onProgress({ type: 'progress', phase: 'writing', done: Math.round((written / totalWrites) * accepted.length), total: accepted.length });
    });
  } catch (error) {
    // Another request created one of these SKUs after validation: nothing is kept; the file can be sent again.
    if (isDatabaseError(error) && error.code === '23505') throw new AppError('CONFLICT', { details: { reason: 'A product of the file was created meanwhile.' } });
    throw error;
  }
  const branchIds = [...new Set([...branchProducts.values()].map((bp) => bp.branchId))];
  await notifyProductsChanged(q, ctx.pharmacyId, { reason: 'Import', count: products.length, branchIds, at: ctx.now });
  onProgress({ type: 'progress', phase: 'done', done: accepted.length, total: accepted.length });
  return result;
}

/** Raised for an import whose body is neither CSV nor { csv }. */
export function notCsv(): AppError {
  return new AppError('VALIDATION_FAILED', { message: 'Send the file as text/csv, or as JSON { "csv": "..." }.' });
}
