import { createHash, randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Database } from '../../db/database.ts';

/**
 * The per-instance cache of the till's catalogue (decision 0064): the JSON text of a branch's answer and its
 * compressed forms, made once and sent as they are until something they were read from changes.
 *
 * An entry is found by a key read in the request's own transaction (pharmacy, branch, business date, default margin
 * and the version of the branch's rows: the latest change and count of its products and branch rows), so a change
 * committed before the request is never hidden by an older entry, on whichever instance it was made. A change that
 * commits while an entry is being built, or whose version does not move the key (two transactions committing out of
 * the order of their timestamps), is caught by the notifications the database sends on commit for every row of
 * products, branch_products and batches (migration 0030): they drop every entry of the pharmacy, and an entry whose
 * build began before a notification of its pharmacy arrived is not kept. On PostgreSQL, before an entry is used,
 * a ping sent through the same channel must come back: notifications arrive in commit order, so every change
 * committed before the request has been heard by then (several instances share one database). Without a working
 * listener nothing is cached.
 */

export const CATALOGUE_CHANNEL = 'pharmapoint_catalogue';
/** A payload that is not a pharmacy id: the barrier's ping ('~' never starts an id). */
const PING_PREFIX = '~ping:';
/** How long the barrier waits for its ping before it stops trusting the cache. */
const PING_TIMEOUT_MS = 2000;
/** Branches kept (each about 10 MiB of text and 2 × 2 MiB compressed at 50,000 products). */
const MAX_ENTRIES = 6;

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

export type CatalogueEncoding = 'br' | 'gzip' | 'identity';

export class CatalogueEntry {
  readonly etag: string;
  private readonly encoded = new Map<CatalogueEncoding, Promise<Buffer>>();

  constructor(
    readonly key: string,
    readonly pharmacyId: string,
    readonly body: string,
  ) {
    this.etag = `"${createHash('sha1').update(body).digest('base64url')}"`;
  }

  /** The body in this encoding, compressed once (off the event loop, in libuv's thread pool). */
  encode(encoding: CatalogueEncoding): Promise<Buffer> {
    let done = this.encoded.get(encoding);
    if (!done) {
      const raw = Buffer.from(this.body, 'utf8');
      done =
        encoding === 'br'
          ? brotli(raw, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length } })
          : encoding === 'gzip'
            ? gzip(raw, { level: 6 })
            : Promise.resolve(raw);
      // A failed compression is not kept: the next request tries again.
      done.catch(() => this.encoded.delete(encoding));
      this.encoded.set(encoding, done);
    }
    return done;
  }
}

export class CatalogueCache {
  private readonly entries = new Map<string, CatalogueEntry>();
  private readonly epochs = new Map<string, number>();
  private readonly pings = new Map<string, () => void>();
  private unlisten: (() => Promise<void>) | null = null;
  private readonly instance = randomUUID();
  private pingCount = 0;

  constructor(
    private readonly db: Database,
    private readonly maxEntries = MAX_ENTRIES,
  ) {}

  /** Starts listening; until it does (or when it cannot) nothing is cached. */
  async start(): Promise<void> {
    if (this.unlisten) return;
    try {
      this.unlisten = await this.db.listen(CATALOGUE_CHANNEL, (payload) => this.heard(payload));
    } catch {
      this.unlisten = null;
    }
  }

  async stop(): Promise<void> {
    const unlisten = this.unlisten;
    this.unlisten = null;
    this.entries.clear();
    if (unlisten) await unlisten();
  }

  get size(): number {
    return this.entries.size;
  }

  private heard(payload: string): void {
    if (payload.startsWith(PING_PREFIX)) {
      this.pings.get(payload)?.();
      return;
    }
    this.invalidate(payload);
  }

  /** Drops every entry of a pharmacy; an entry being built for it now is not kept. */
  invalidate(pharmacyId: string): void {
    this.epochs.set(pharmacyId, this.epoch(pharmacyId) + 1);
    for (const [key, entry] of this.entries) if (entry.pharmacyId === pharmacyId) this.entries.delete(key);
  }

  clear(): void {
    for (const pharmacyId of new Set([...this.entries.values()].map((e) => e.pharmacyId))) this.invalidate(pharmacyId);
  }

  /** The count of notifications heard for the pharmacy: read before building, compared when keeping. */
  epoch(pharmacyId: string): number {
    return this.epochs.get(pharmacyId) ?? 0;
  }

  /**
   * Waits until every change committed before now has been heard (PostgreSQL: a ping through the channel comes
   * back after them). False when the listener is not working: the caller must not use the cache then.
   */
  async barrier(): Promise<boolean> {
    if (!this.unlisten) return false;
    // One process owns a PGlite database: its notifications are delivered before the committing query returns.
    if (this.db.kind === 'pglite') return true;
    const payload = `${PING_PREFIX}${this.instance}:${++this.pingCount}`;
    const back = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => {
        this.pings.delete(payload);
        resolve(false);
      }, PING_TIMEOUT_MS);
      this.pings.set(payload, () => {
        clearTimeout(timer);
        this.pings.delete(payload);
        resolve(true);
      });
    });
    try {
      await this.db.transaction({}, (q) => q.query(`SELECT pg_notify($1, $2)`, [CATALOGUE_CHANNEL, payload]));
    } catch {
      this.pings.delete(payload);
      this.clear();
      return false;
    }
    const ok = await back;
    // A lost ping means notifications may have been lost too (the listener reconnected): trust nothing kept.
    if (!ok) this.clear();
    return ok;
  }

  get(key: string): CatalogueEntry | undefined {
    if (!this.unlisten) return undefined;
    const entry = this.entries.get(key);
    if (entry) {
      // Most recently used last.
      this.entries.delete(key);
      this.entries.set(key, entry);
    }
    return entry;
  }

  /** An entry for a body built after `epoch` was read; kept only when nothing of the pharmacy was heard since. */
  put(key: string, pharmacyId: string, epoch: number, body: string): CatalogueEntry {
    const entry = new CatalogueEntry(key, pharmacyId, body);
    if (this.unlisten && epoch === this.epoch(pharmacyId)) {
      this.entries.delete(key);
      this.entries.set(key, entry);
      while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    }
    return entry;
  }
}
