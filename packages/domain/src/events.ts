import { z } from 'zod';

/**
 * Live updates (GET /api/events, server-sent events). Every committed stock change is published through
 * PostgreSQL NOTIFY, heard by every server instance and streamed to the browsers of the same pharmacy.
 */

/** SSE event 'stock': the stock of one product in one branch after a committed change. */
export const stockEventSchema = z.object({
  productId: z.string(),
  branchId: z.string(),
  /** Sellable quantity on hand after the change (pieces). */
  quantity: z.number().int(),
  /** Quantity held in reservations after the change (pieces). */
  reservedQuantity: z.number().int(),
  /** Why it changed: the ledger reason ('Sale: INV-000001', 'Import', 'Adjustment: damage', ...). */
  reason: z.string(),
  /** When it was committed (ISO 8601). */
  at: z.string(),
  /**
   * The ledger sequence of the change: for one product in one branch a later change has a larger seq. Events reach
   * a browser through different server instances, so one can arrive after a later one: the browser drops an event
   * whose seq is below the last it applied for that product and branch.
   */
  seq: z.number().int().optional(),
});
export type StockEvent = z.infer<typeof stockEventSchema>;

/**
 * SSE event 'products': many products changed at once (a bulk import); the browser refetches its lists
 * instead of receiving thousands of 'stock' events. branchIds lists the branches whose stock changed.
 */
export const productsChangedEventSchema = z.object({
  reason: z.string(),
  count: z.number().int(),
  branchIds: z.array(z.string()),
  at: z.string(),
});
export type ProductsChangedEvent = z.infer<typeof productsChangedEventSchema>;

/** SSE event 'ready': sent once when the stream opens (and after every reconnect): refetch what is shown. */
export const readyEventSchema = z.object({ at: z.string() });

/** Names of the SSE events of GET /api/events. */
export const SSE_EVENTS = ['ready', 'stock', 'products'] as const;

/** Seconds between heartbeat comments on the stream (keeps proxies from closing it). */
export const SSE_HEARTBEAT_SECONDS = 15;

/** Milliseconds the browser waits before reconnecting (the stream's retry: field). */
export const SSE_RETRY_MS = 3000;

/** How long an optimistic stock change is shown before it is dropped (seed 000: 10 seconds). */
export const OPTIMISTIC_STOCK_EXPIRY_MS = 10_000;

/** The cross-tab BroadcastChannel message of seed 001 ('STOCK_UPDATE' with productId, stockValue, branch, reason). */
export interface StockUpdateMessage {
  type: 'STOCK_UPDATE';
  productId: string;
  stockValue: number;
  branch: string;
  reason: string;
}

/** GET /api/events: only this branch's events (default: every branch the user may work in). */
export const eventsQuerySchema = z.strictObject({ branchId: z.uuid().optional() });

/** GET /api/events answers text/event-stream (documentation only: the stream is written by hand). */
export const eventStreamResponseSchema = z.string().describe('text/event-stream: retry, then ready, stock and products events');
