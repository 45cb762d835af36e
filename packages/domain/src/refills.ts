import { z } from 'zod';

/**
 * Refill reminders set on sale lines at the till (seed 001 section 5; seed 002 'Refill alert' and 'Refill status'):
 * the read the back office's refill alerts and the dashboard card use. A reminder is open until it is completed.
 */

/** 'Upcoming' is within the next 7 days (seed 002, Refill status and Dashboard and refills). */
export const REFILL_UPCOMING_DAYS = 7;

export const REFILL_STATUSES = ['overdue', 'due', 'upcoming', 'later'] as const;
export type RefillStatus = (typeof REFILL_STATUSES)[number];

/** overdue (days left below 0), due (0), upcoming (within 7 days), later. */
export function refillStatus(daysLeft: number): RefillStatus {
  if (daysLeft < 0) return 'overdue';
  if (daysLeft === 0) return 'due';
  return daysLeft <= REFILL_UPCOMING_DAYS ? 'upcoming' : 'later';
}

/**
 * Which reminders: `window` (overdue, today or the next 7 days: the dashboard's refill window), `overdue`, `today`,
 * `upcoming` (the next 7 days, today excluded), or `all` open reminders.
 */
export const REFILL_DUE_FILTERS = ['window', 'overdue', 'today', 'upcoming', 'all'] as const;

/** GET /api/refill-reminders */
export const refillReminderListQuerySchema = z.strictObject({
  due: z.enum(REFILL_DUE_FILTERS).default('window'),
  branchId: z.uuid().optional(),
  clientId: z.uuid().optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});
export type RefillReminderListQuery = z.output<typeof refillReminderListQuerySchema>;

export const refillReminderSchema = z.object({
  saleId: z.string(),
  /** The line of the sale (1-based), the item's index of seed 002. */
  line: z.number().int(),
  invoiceNumber: z.string(),
  saleDate: z.string(),
  branchId: z.string(),
  branchName: z.string(),
  client: z.object({ id: z.string(), name: z.string(), phone: z.string().nullable() }),
  productId: z.string(),
  productName: z.string(),
  refillDays: z.number().int(),
  refillDate: z.string(),
  daysLeft: z.number().int(),
  status: z.enum(REFILL_STATUSES),
});
export type RefillReminder = z.infer<typeof refillReminderSchema>;

export const refillReminderListResponseSchema = z.object({
  items: z.array(refillReminderSchema),
  total: z.number().int(),
  /** The pharmacy's business day the days are counted from. */
  today: z.string(),
  limit: z.number().int(),
  offset: z.number().int(),
});
export type RefillReminderListResponse = z.infer<typeof refillReminderListResponseSchema>;
