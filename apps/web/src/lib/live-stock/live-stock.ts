import { useCallback, useEffect, useSyncExternalStore } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { productsChangedEventSchema, stockEventSchema, type StockEvent } from '@pharmapoint/domain/events';
import type { ProductListResponse } from '@pharmapoint/domain/products';
import {
  acceptInOrder,
  applyUpdate,
  displayedQuantity,
  expireUpdates,
  nextExpiry,
  parseChannelMessage,
  patchStockRows,
  removeUpdate,
  STOCK_UPDATE_CHANNEL,
  stockUpdateMessage,
  type PendingMap,
} from '@/lib/live-stock/optimistic-stock';

/**
 * The browser side of live stock: one store of optimistic values per tab (shared with the other tabs through the
 * 'STOCK_UPDATE' BroadcastChannel), and one server-sent events stream (GET /api/events) that confirms them and
 * refreshes the product and stock queries.
 */

let pending: PendingMap = new Map();
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setTimeout> | null = null;
let channel: BroadcastChannel | null = null;

function emit(): void {
  for (const listener of listeners) listener();
}

function setPending(next: PendingMap): void {
  if (next === pending) return;
  pending = next;
  schedule();
  emit();
}

/** One timer for the soonest expiry: values are dropped 10 seconds after they were shown. */
function schedule(): void {
  if (timer) clearTimeout(timer);
  timer = null;
  const at = nextExpiry(pending);
  if (at === null) return;
  timer = setTimeout(() => setPending(expireUpdates(pending, Date.now())), Math.max(0, at - Date.now()) + 5);
}

function getChannel(): BroadcastChannel | null {
  if (channel || typeof BroadcastChannel === 'undefined') return channel;
  channel = new BroadcastChannel(STOCK_UPDATE_CHANNEL);
  channel.onmessage = (event: MessageEvent) => {
    const message = parseChannelMessage(event.data);
    if (!message) return;
    if (message.type === 'STOCK_UPDATE') setPending(applyUpdate(pending, message, Date.now()));
    else setPending(removeUpdate(pending, message.productId, message.branch));
  };
  return channel;
}

/** Shows a stock value at once here and in the other tabs. Returns the rollback for a failed write. */
export function showStockChange(input: { productId: string; branchId: string; stockValue: number; reason: string }): () => void {
  const message = stockUpdateMessage(input);
  setPending(applyUpdate(pending, message, Date.now()));
  getChannel()?.postMessage(message);
  return () => {
    setPending(removeUpdate(pending, input.productId, input.branchId));
    getChannel()?.postMessage({ type: 'STOCK_ROLLBACK', productId: input.productId, branch: input.branchId });
  };
}

/** The server confirmed the stock of a product in a branch: the optimistic value gives way to the real one. */
export function confirmStock(productId: string, branchId: string): void {
  setPending(removeUpdate(pending, productId, branchId));
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  getChannel();
  return () => listeners.delete(listener);
}

/** The quantity to show for a product in a branch (optimistic value first). Re-renders when values change. */
export function useDisplayedQuantity(): (productId: string, branchId: string, serverQuantity: number) => { quantity: number; pending: boolean } {
  const snapshot = useSyncExternalStore(subscribe, () => pending, () => pending);
  return useCallback(
    (productId: string, branchId: string, serverQuantity: number) => {
      const quantity = displayedQuantity(snapshot, productId, branchId, serverQuantity, Date.now());
      return { quantity, pending: snapshot.has(`${productId}:${branchId}`) };
    },
    [snapshot],
  );
}

/** The optimistic values themselves (every product and branch); re-renders when they change. */
export function usePendingStock(): PendingMap {
  return useSyncExternalStore(subscribe, () => pending, () => pending);
}

// ------------------------------------------------------------------------------------------- server events

/**
 * What the stream says, for stores other than the query cache (the till's catalogue): a committed stock change,
 * or 'resync' when many products changed at once ('products', with the branches) or events may have been missed
 * (a reconnect's 'ready'; branchIds null).
 */
export type LiveStockSignal = { type: 'stock'; event: StockEvent } | { type: 'resync'; branchIds: readonly string[] | null };
const signalListeners = new Set<(signal: LiveStockSignal) => void>();

/** Hears the stream's stock events and resyncs (the stream is kept open by useLiveStock). */
export function onLiveStock(listener: (signal: LiveStockSignal) => void): () => void {
  signalListeners.add(listener);
  return () => signalListeners.delete(listener);
}

function signal(value: LiveStockSignal): void {
  for (const listener of signalListeners) listener(value);
}

/** Is the stream open and listening ('ready' received)? Events committed from then on reach this tab. */
let streamReady = false;
const readyWaiters = new Set<() => void>();

function setStreamReady(ready: boolean): void {
  streamReady = ready;
  if (!ready) return;
  for (const wake of readyWaiters) wake();
  readyWaiters.clear();
}

/**
 * Resolves once the stream is listening (at once if it is), or after timeoutMs: a store that reads a snapshot after
 * this misses no event committed after its read.
 */
export function whenLiveStockReady(timeoutMs: number): Promise<void> {
  if (streamReady || typeof EventSource === 'undefined') return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      readyWaiters.delete(done);
      resolve();
    };
    const timer = setTimeout(done, timeoutMs);
    readyWaiters.add(done);
  });
}

/** Applies a committed stock change to the cached queries. */
export function applyStockEvent(queryClient: QueryClient, event: { productId: string; branchId: string; quantity: number; reservedQuantity: number }): void {
  confirmStock(event.productId, event.branchId);
  queryClient.setQueriesData<ProductListResponse>({ queryKey: ['products', 'list'] }, (data) => {
    if (!data) return data;
    const items = patchStockRows(data.items, event);
    return items === data.items ? data : { ...data, items };
  });
  void queryClient.invalidateQueries({ queryKey: ['products', 'detail', event.productId] });
  void queryClient.invalidateQueries({ queryKey: ['products', 'movements', event.productId] });
  void queryClient.invalidateQueries({ queryKey: ['stock'] });
}

let source: EventSource | null = null;
/** The ledger sequence of the last stock event applied, per branch and product (acceptInOrder). */
const appliedSequences = new Map<string, number>();
let users = 0;
let everReady = false;
let reopen: ReturnType<typeof setTimeout> | null = null;
/** Wait before opening a refused stream again. */
const REOPEN_MS = 15_000;

function openStream(queryClient: QueryClient, reopened = false): void {
  if (source || typeof EventSource === 'undefined') return;
  everReady = reopened;
  const stream = new EventSource('/api/events', { withCredentials: true });
  source = stream;
  stream.addEventListener('ready', () => {
    setStreamReady(true);
    // After a reconnect events may have been missed: read again what is shown.
    if (everReady) {
      void queryClient.invalidateQueries({ queryKey: ['products'] });
      signal({ type: 'resync', branchIds: null });
    }
    everReady = true;
  });
  stream.addEventListener('stock', (event) => {
    try {
      const parsed = stockEventSchema.safeParse(JSON.parse((event as MessageEvent<string>).data));
      if (parsed.success && acceptInOrder(appliedSequences, parsed.data)) {
        applyStockEvent(queryClient, parsed.data);
        signal({ type: 'stock', event: parsed.data });
      }
    } catch {
      // Not JSON: ignore.
    }
  });
  // The browser retries by itself after a dropped connection; a refusal (signed out, locked) closes the stream
  // for good: try again later while a screen still wants it.
  stream.addEventListener('error', () => {
    if (source === stream) setStreamReady(false);
    if (source !== stream || stream.readyState !== EventSource.CLOSED) return;
    source = null;
    if (reopen) clearTimeout(reopen);
    reopen = setTimeout(() => {
      reopen = null;
      if (users > 0) openStream(queryClient, true);
    }, REOPEN_MS);
  });
  stream.addEventListener('products', (event) => {
    try {
      const parsed = productsChangedEventSchema.safeParse(JSON.parse((event as MessageEvent<string>).data));
      if (parsed.success) {
        void queryClient.invalidateQueries({ queryKey: ['products'] });
        void queryClient.invalidateQueries({ queryKey: ['stock'] });
        signal({ type: 'resync', branchIds: parsed.data.branchIds });
      }
    } catch {
      // Not JSON: ignore.
    }
  });
}

/** Keeps the live stream open while a product or stock screen is shown (one stream per tab). */
export function useLiveStock(): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    users += 1;
    openStream(queryClient);
    getChannel();
    return () => {
      users -= 1;
      if (users > 0) return;
      if (reopen) clearTimeout(reopen);
      reopen = null;
      source?.close();
      source = null;
      setStreamReady(false);
    };
  }, [queryClient]);
}
