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
import { businessDate } from '@pharmapoint/domain/stock';
import type { Queryable } from '../../db/database.ts';
import type { RequestContext } from '../../platform/context.ts';
import { AppError, isDatabaseError } from '../../platform/errors.ts';
import { notifyProductsChanged } from '../../platform/events.ts';
import type { WrapOptions } from '../../platform/transaction.ts';
import { applyOpeningStock, stockSettings, type StockChange } from '../stock/stock.service.ts';
import { assertPlanLimitAllows, assertWithinPlanLimit } from '../subscription/subscription.service.ts';
import { parseImportCsv, type ParsedCsv } from './import.csv.ts';
import {
  abandonedImportRuns,
  activeBranches,
  advanceImportRun,
  existingSkus,
  finishImportRun,
  insertImportChunk,
  insertImportRun,
  undoImportRunChunk,
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
 * calls it before any transaction opens, so a large file is parsed without holding a database connection.
 */
export function parseImport(request: ImportRequest): ParsedImport {
  return { parsed: parseImportCsv(request.csv, request.mapping), mode: request.mode, dryRun: request.dryRun };
}

/** Rows per progress report while validating. */
export const IMPORT_CHUNK = 1000;

/**
 * How long one write transaction of an import may take (ms). The embedded database has one connection: between
 * two chunks the requests that queued get in (issue 6 item 13). The chunk size adapts to reach this.
 */
export const IMPORT_CHUNK_TARGET_MS = 40;
const FIRST_CHUNK = 20;
const MAX_CHUNK = 1000;
/** Products an undo removes per transaction. */
const UNDO_CHUNK = 200;
/** A run 'importing' without progress for this long was abandoned (its process died): the next import undoes it. */
export const ABANDONED_IMPORT_MS = 5 * 60_000;

/** A product of the file with its rows: the first row gives the product fields, every row its branch data. */
interface ProductGroup {
  key: string;
  rows: NormalizedImportRow[];
}

/** One product of a run: its row, its branch rows (prices) and its opening stock changes. */
interface PlannedProduct {
  product: ImportProduct;
  branchProducts: ImportBranchProduct[];
  stock: StockChange[];
  /** Accepted rows of the file it covers (progress). */
  rows: number;
}

/** An import that has taken its plan places and recorded its run: what its chunks write. */
export interface ImportRun {
  importId: string;
  result: ImportResult;
  products: PlannedProduct[];
  branchIds: string[];
  accepted: number;
}

export type ImportStart = { kind: 'final'; result: ImportResult } | { kind: 'run'; run: ImportRun };

/**
 * The first step of an import (one short transaction): validates the parsed file against the pharmacy (branches,
 * categories, existing SKUs) before any write. A dry run, a file with nothing to write, or an all-or-nothing file
 * with errors ends here ('final'). Otherwise it takes the plan places of every product of the file in one step
 * (assertWithinPlanLimit: concurrent imports cannot pass the limit together) and records the run 'importing'.
 */
export async function beginImport(
  q: Queryable,
  ctx: RequestContext,
  request: ParsedImport & { idempotencyKey: string | null },
  onProgress: (progress: ImportProgress) => void = () => undefined,
): Promise<ImportStart> {
  const { parsed } = request;
  const total = parsed.records.length;
  const skus = [...new Set(parsed.records.map((r) => r.values.sku?.trim()).filter((s): s is string => !!s))];
  const branches = await activeBranches(q, ctx.pharmacyId);
  const { categories, timeZone } = await stockSettings(q, ctx);
  const context = { branches, categories, existingSkus: await existingSkus(q, ctx.pharmacyId, skus) };
  const branchByName = new Map(context.branches.map((b) => [b.name.toLowerCase(), b.id] as const));
  const defaultBranchId = ctx.branchId ?? context.branches.find((b) => b.isDefault)?.id ?? context.branches[0]?.id ?? null;

  const errors: ImportRowError[] = [];
  const accepted: { row: NormalizedImportRow; branchId: string }[] = [];
  const groups = new Map<string, ProductGroup>();
  const today = businessDate(ctx.now, timeZone);
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
    const result = normalizeImportRow(record.values, record.row, { categories: context.categories, today });
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
    return { kind: 'final', result: { ...base, imported: 0, skipped: total, productsCreated: 0 } };
  }
  const result: ImportResult = { ...base, imported: accepted.length, skipped: invalidRows, productsCreated: groups.size };
  if (accepted.length === 0) return { kind: 'final', result: { ...result, imported: 0 } };

  if (request.dryRun) {
    // The limit as the import would meet it now, taking nothing.
    await assertPlanLimitAllows(q, ctx, 'products', groups.size);
    return { kind: 'final', result };
  }

  // What the chunks write: per product its row, its branch rows (first row per branch: the prices) and its
  // opening stock, one ledger change per row with stock, in file order.
  const importId = randomUUID();
  const planned = new Map<string, PlannedProduct>();
  for (const group of groups.values()) {
    planned.set(group.key, { product: { id: randomUUID(), row: group.rows[0]! }, branchProducts: [], stock: [], rows: 0 });
  }
  for (const { row, branchId } of accepted) {
    const p = planned.get(row.sku ? `sku:${row.sku.toLowerCase()}` : `row:${row.row}`)!;
    const productId = p.product.id;
    p.rows += 1;
    if (!p.branchProducts.some((bp) => bp.branchId === branchId)) p.branchProducts.push({ productId, branchId, row, quantity: 0 });
    if (row.openingQuantity > 0) {
      p.stock.push({
        kind: 'import',
        branchId,
        productId,
        delta: row.openingQuantity,
        batch: { batchNumber: row.batchNumber, expiryDate: row.expiryDate, unitCostCents: row.unitCostCents ?? row.purchasePriceCents ?? 0, source: 'import' },
        reason: 'Import',
        reference: { type: 'import', id: importId },
      });
    }
  }
  await assertWithinPlanLimit(q, ctx, 'products', groups.size);
  await insertImportRun(q, ctx.pharmacyId, { id: importId, userId: ctx.userId, idempotencyKey: request.idempotencyKey, products: groups.size, now: ctx.now });
  const branchIds = [...new Set(accepted.map((a) => a.branchId))];
  return { kind: 'run', run: { importId, result, products: [...planned.values()], branchIds, accepted: accepted.length } };
}

/**
 * Writes some products of a run (one short transaction): the products and branch rows set-based, then their
 * opening stock through the stock ledger (batches, 'import' movements, branch quantities), and the run's progress.
 */
export async function writeImportChunk(q: Queryable, ctx: RequestContext, run: ImportRun, part: readonly PlannedProduct[]): Promise<void> {
  await insertImportChunk(q, ctx.pharmacyId, {
    importId: run.importId,
    products: part.map((p) => p.product),
    branchProducts: part.flatMap((p) => p.branchProducts),
    now: ctx.now,
  });
  const changes = part.flatMap((p) => p.stock);
  if (changes.length) await applyOpeningStock(q, ctx, changes);
  await advanceImportRun(q, ctx.pharmacyId, run.importId, part.length, ctx.now);
}

/** The last step of a run: marks it done and tells the browsers that many products changed. */
export async function finishImport(q: Queryable, ctx: RequestContext, run: ImportRun): Promise<ImportResult> {
  if (!(await finishImportRun(q, ctx.pharmacyId, run.importId, ctx.now))) {
    throw new AppError('CONFLICT', { details: { reason: 'The import was undone before it finished.' } });
  }
  notifyProductsChanged(q, ctx.pharmacyId, { reason: 'Import', count: run.products.length, branchIds: run.branchIds, at: ctx.now });
  return run.result;
}

/** Undoes up to UNDO_CHUNK products of an unfinished run (one short transaction); returns how many are left. */
export function undoImportChunk(q: Queryable, _ctx: RequestContext, importId: string): Promise<number> {
  return undoImportRunChunk(q, importId, UNDO_CHUNK);
}

/** Runs of the pharmacy left 'importing' by a process that died. */
export function abandonedImports(q: Queryable, ctx: RequestContext): Promise<string[]> {
  return abandonedImportRuns(q, ctx.pharmacyId, new Date(ctx.now.getTime() - ABANDONED_IMPORT_MS));
}

/** Runs one step of an import in a transaction of its own (the route gives app.inTenant). */
export type ImportStep = <T>(work: (q: Queryable, ctx: RequestContext) => Promise<T>, options?: WrapOptions) => Promise<T>;

const yieldToRequests = () => new Promise<void>((resolve) => setImmediate(resolve));

async function undoRun(step: ImportStep, importId: string): Promise<void> {
  while ((await step((q, ctx) => undoImportChunk(q, ctx, importId), { key: 'none' })) > 0) await yieldToRequests();
}

/**
 * Validates and imports a parsed CSV of products (POST /api/products/import) in short transactions (decision
 * 0021): `step` runs each in its own. The first claims the Idempotency-Key, validates and takes the plan places;
 * the products are then written in chunks of about IMPORT_CHUNK_TARGET_MS each; the last marks the run done and
 * stores the key's answer. All or nothing still holds: a failing chunk undoes what the run wrote (and a run
 * abandoned by a crash is undone by the next import), so the file can be sent again. `replayed()` says whether
 * the first step answered from the key's stored answer (then that answer is returned as it is).
 */
export async function importProducts(
  step: ImportStep,
  replayed: () => boolean,
  request: ParsedImport & { idempotencyKey: string | null },
  onProgress: (progress: ImportProgress) => void = () => undefined,
): Promise<ImportResult> {
  for (const id of await step((q, ctx) => abandonedImports(q, ctx), { key: 'none' })) await undoRun(step, id);
  const start = await step((q, ctx) => beginImport(q, ctx, request, onProgress), {
    key: 'claim',
    answer: (value) => ((value as ImportStart).kind === 'final' ? (value as Extract<ImportStart, { kind: 'final' }>).result : undefined),
  });
  if (replayed()) return start as unknown as ImportResult;
  if (start.kind === 'final') return start.result;

  const { run } = start;
  let next = 0;
  let size = FIRST_CHUNK;
  let rowsDone = 0;
  onProgress({ type: 'progress', phase: 'writing', done: 0, total: run.accepted });
  try {
    while (next < run.products.length) {
      const part = run.products.slice(next, next + size);
      const took = await step(
        async (q, ctx) => {
          const began = performance.now();
          await writeImportChunk(q, ctx, run, part);
          return performance.now() - began;
        },
        { key: 'none' },
      );
      next += part.length;
      rowsDone += part.reduce((n, p) => n + p.rows, 0);
      onProgress({ type: 'progress', phase: 'writing', done: rowsDone, total: run.accepted });
      // Never below the first chunk's size: on a busy machine every transaction is slow for reasons of its own, and
      // chunks of a few rows only multiply the transactions (a 4,000-row import took 115 of them for 2,000 rows).
      size = Math.max(FIRST_CHUNK, Math.min(MAX_CHUNK, Math.round((part.length * IMPORT_CHUNK_TARGET_MS) / Math.max(took, 1))));
      await yieldToRequests();
    }
    const result = await step((q, ctx) => finishImport(q, ctx, run), { key: 'answer' });
    onProgress({ type: 'progress', phase: 'done', done: run.accepted, total: run.accepted });
    return result;
  } catch (error) {
    await undoRun(step, run.importId);
    // Another request created one of these SKUs after validation: nothing is kept; the file can be sent again.
    if (isDatabaseError(error) && error.code === '23505') throw new AppError('CONFLICT', { details: { reason: 'A product of the file was created meanwhile.' } });
    throw error;
  }
}

/** Raised for an import whose body is neither CSV nor { csv }. */
export function notCsv(): AppError {
  return new AppError('VALIDATION_FAILED', { message: 'Send the file as text/csv, or as JSON { "csv": "..." }.' });
}
