import { z } from 'zod';
import { businessDateSchema } from './products.ts';

/**
 * The inventory reports of issue 3 ("expiry alerts across branches", "stock status per product and branch"):
 * GET /api/stock/expiring (the expiry report) and GET /api/stock/low-stock (the low stock report), both
 * report:inventory, over every branch the user may see unless branchId narrows it.
 */

/** Page size of the stock reports. */
export const STOCK_REPORT_PAGE_SIZE = 25;
/** The longest expiry window a report may ask for (about three years). */
export const MAX_EXPIRY_WINDOW_DAYS = 1095;

/** GET /api/stock/expiring query: batches holding stock that are expired or expire within `days` (default the settings' expiry alert days). */
export const expiringQuerySchema = z.strictObject({
  days: z.coerce.number().int('Enter whole days').min(0, 'Days cannot be negative').max(MAX_EXPIRY_WINDOW_DAYS).optional(),
  branchId: z.uuid().optional(),
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(STOCK_REPORT_PAGE_SIZE),
});
export type ExpiringQueryInput = z.input<typeof expiringQuerySchema>;
export type ExpiringQuery = z.output<typeof expiringQuerySchema>;

export const expiringBatchSchema = z.object({
  batchId: z.uuid(),
  productId: z.uuid(),
  productName: z.string(),
  sku: z.string().nullable(),
  branchId: z.uuid(),
  branchName: z.string(),
  batchNumber: z.string().nullable(),
  expiryDate: businessDateSchema,
  /** Days from today to the expiry date; negative once expired. */
  daysLeft: z.number().int(),
  isExpired: z.boolean(),
  quantity: z.number().int(),
  unitCostCents: z.number().int(),
  /** quantity × unit cost. */
  valueCents: z.number().int(),
});
export type ExpiringBatch = z.infer<typeof expiringBatchSchema>;

export const expiringResponseSchema = z.object({
  today: businessDateSchema,
  days: z.number().int(),
  expiryAlertDays: z.number().int(),
  items: z.array(expiringBatchSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  /** Over every row of the report, not only this page. */
  totals: z.object({
    expiredBatches: z.number().int(),
    expiredQuantity: z.number().int(),
    expiredValueCents: z.number().int(),
    nearBatches: z.number().int(),
    nearQuantity: z.number().int(),
    nearValueCents: z.number().int(),
  }),
});
export type ExpiringResponse = z.infer<typeof expiringResponseSchema>;

export const LOW_STOCK_STATUSES = ['low', 'out'] as const;

/** GET /api/stock/low-stock query: active products at or below their threshold per branch (status low or out). */
export const lowStockQuerySchema = z.strictObject({
  branchId: z.uuid().optional(),
  status: z.enum(LOW_STOCK_STATUSES).optional(),
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(STOCK_REPORT_PAGE_SIZE),
});
export type LowStockQueryInput = z.input<typeof lowStockQuerySchema>;
export type LowStockQuery = z.output<typeof lowStockQuerySchema>;

export const lowStockItemSchema = z.object({
  productId: z.uuid(),
  productName: z.string(),
  sku: z.string().nullable(),
  category: z.string().nullable(),
  branchId: z.uuid(),
  branchName: z.string(),
  quantity: z.number().int(),
  lowStockThreshold: z.number().int(),
  reorderLevel: z.number().int(),
  status: z.enum(LOW_STOCK_STATUSES),
});
export type LowStockItem = z.infer<typeof lowStockItemSchema>;

export const lowStockResponseSchema = z.object({
  items: z.array(lowStockItemSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  counts: z.object({ low: z.number().int(), out: z.number().int() }),
});
export type LowStockResponse = z.infer<typeof lowStockResponseSchema>;
