import type { ProductsChangedEvent, StockEvent } from '@pharmapoint/domain/events';
import { notifyOnCommit, type Database, type Queryable } from '../db/database.ts';

/**
 * Live events across server instances. A transaction that changes stock calls notifyStockChange() (the
 * stock ledger does it for every change); the events are published only when that transaction commits
 * (db/database.ts notifyOnCommit: to this instance at once, to the others through one NOTIFY shared by the
 * transactions that committed within a few milliseconds, decision 0067), so every server instance on the database
 * hears them, and a rolled-back change is never announced. Each instance LISTENs once (EventHub) and fans the
 * events out to its own SSE clients of the same pharmacy.
 */
export const EVENTS_CHANNEL = 'pharmapoint_events';

/** A stock change to announce: the stock of one product in one branch after the change. */
export interface StockChange {
  pharmacyId: string;
  productId: string;
  branchId: string;
  quantity: number;
  reservedQuantity: number;
  reason: string;
  /** Defaults to now. */
  at?: Date | string;
  /** The ledger sequence of the change (StockEvent.seq). */
  seq?: number;
}

/** What travels through NOTIFY (kept short: a payload must stay under 8000 bytes). */
export type EventMessage =
  | { t: 'stock'; p: string; e: StockEvent[] }
  | { t: 'products'; p: string; e: ProductsChangedEvent };

// PostgreSQL refuses NOTIFY payloads of 8000 bytes or more; leave room for the envelope.
const MAX_PAYLOAD_BYTES = 7000;

function iso(at: Date | string | undefined): string {
  if (at === undefined) return new Date().toISOString();
  return typeof at === 'string' ? at : at.toISOString();
}

/** Splits the stock events of one pharmacy into NOTIFY payloads under the size limit. */
export function stockPayloads(pharmacyId: string, events: readonly StockEvent[]): string[] {
  const payloads: string[] = [];
  // Each event is written as JSON once: the payload is the message { t, p, e } with the batch's texts as its array,
  // character for character what JSON.stringify of the message gives.
  const head = `{"t":"stock","p":${JSON.stringify(pharmacyId)},"e":[`;
  let batch: string[] = [];
  let size = 0;
  const flush = () => {
    if (batch.length) payloads.push(`${head}${batch.join(',')}]}`);
    batch = [];
    size = 0;
  };
  for (const event of events) {
    const text = JSON.stringify(event);
    const length = Buffer.byteLength(text) + 1;
    if (size + length > MAX_PAYLOAD_BYTES) flush();
    batch.push(text);
    size += length;
  }
  flush();
  return payloads;
}

/**
 * Announces stock changes from inside the caller's transaction: delivered to every server instance when,
 * and only if, the transaction commits. Several changes go in as few NOTIFYs as the size limit allows.
 */
export function notifyStockChange(q: Queryable, change: StockChange | readonly StockChange[]): void {
  const changes = Array.isArray(change) ? (change as readonly StockChange[]) : [change as StockChange];
  const byPharmacy = new Map<string, StockEvent[]>();
  for (const c of changes) {
    let list = byPharmacy.get(c.pharmacyId);
    if (!list) byPharmacy.set(c.pharmacyId, (list = []));
    list.push({
      productId: c.productId,
      branchId: c.branchId,
      quantity: c.quantity,
      reservedQuantity: c.reservedQuantity,
      reason: c.reason,
      at: iso(c.at),
      ...(c.seq === undefined ? {} : { seq: c.seq }),
    });
  }
  const payloads = [...byPharmacy].flatMap(([pharmacyId, events]) => stockPayloads(pharmacyId, events));
  notifyOnCommit(q, EVENTS_CHANNEL, payloads);
}

/** Announces that many products changed at once (bulk import): browsers refetch rather than take one event each. */
export function notifyProductsChanged(
  q: Queryable,
  pharmacyId: string,
  event: { reason: string; count: number; branchIds: readonly string[]; at?: Date | string },
): void {
  const message: EventMessage = {
    t: 'products',
    p: pharmacyId,
    e: { reason: event.reason, count: event.count, branchIds: [...event.branchIds], at: iso(event.at) },
  };
  notifyOnCommit(q, EVENTS_CHANNEL, [JSON.stringify(message)]);
}

/** One SSE client's subscription: its pharmacy, the branches it may hear (null = all) and its sink. */
export interface EventSubscriber {
  pharmacyId: string;
  branchIds: ReadonlySet<string> | null;
  send(event: 'stock', data: StockEvent): void;
  send(event: 'products', data: ProductsChangedEvent): void;
}

/** Parses a NOTIFY payload; null for anything that is not one of ours. */
export function parseEventMessage(payload: string): EventMessage | null {
  try {
    const message = JSON.parse(payload) as Partial<EventMessage>;
    if (typeof message.p !== 'string') return null;
    if (message.t === 'stock' && Array.isArray(message.e)) return message as EventMessage;
    if (message.t === 'products' && message.e && typeof message.e === 'object') return message as EventMessage;
    return null;
  } catch {
    return null;
  }
}

/** The per-instance listener: one LISTEN on the database, fanned out to this instance's subscribers. */
export class EventHub {
  private readonly subscribers = new Set<EventSubscriber>();
  private unlisten: (() => Promise<void>) | null = null;

  constructor(private readonly db: Database) {}

  /** Starts listening (once). */
  async start(): Promise<void> {
    if (this.unlisten) return;
    this.unlisten = await this.db.listen(EVENTS_CHANNEL, (payload) => this.dispatch(payload));
  }

  async stop(): Promise<void> {
    const unlisten = this.unlisten;
    this.unlisten = null;
    this.subscribers.clear();
    if (unlisten) await unlisten();
  }

  get size(): number {
    return this.subscribers.size;
  }

  /** Adds a subscriber; returns its removal. */
  subscribe(subscriber: EventSubscriber): () => void {
    this.subscribers.add(subscriber);
    return () => void this.subscribers.delete(subscriber);
  }

  /** Delivers one NOTIFY payload to the subscribers of its pharmacy (and branch). */
  dispatch(payload: string): void {
    // Nobody listening (no till or screen of this instance has a stream open): nothing to read the payload for.
    if (this.subscribers.size === 0) return;
    const message = parseEventMessage(payload);
    if (!message) return;
    for (const s of this.subscribers) {
      if (s.pharmacyId !== message.p) continue;
      const branches = s.branchIds;
      try {
        if (message.t === 'stock') {
          for (const event of message.e) if (!branches || branches.has(event.branchId)) s.send('stock', event);
        } else if (!branches || message.e.branchIds.length === 0 || message.e.branchIds.some((b) => branches.has(b))) {
          s.send('products', message.e);
        }
      } catch {
        // A client whose socket broke is removed by its own close handler; the others still get the event.
      }
    }
  }
}
