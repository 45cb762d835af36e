import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

/**
 * The per-instance cache of the till's catalogue (decisions 0064, 0072): the JSON text of a branch's answer and its
 * compressed forms, made once and sent as they are until something they were read from changes.
 *
 * An entry is found by a key read in the request's own transaction: pharmacy, branch, business date, default margin
 * and the exact version of the rows the answer is read from (pos.repository.ts branchCatalogueVersion: for products,
 * the branch's rows and its batches, the count and the sum of the transaction ids that wrote each row). Any committed
 * insert, update or delete of one of those rows moves that version, on whichever instance it was made, so an entry
 * is never used for data it was not built from, and nothing has to be told to drop it: no notification, no listener,
 * nothing in the writing transactions (the sale's path stays free of NOTIFY, decision 0067). The answer is built after
 * its key was read, so it is never older than its key.
 */

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

/** The kept answers, most recently used last; at most maxEntries. */
export class CatalogueCache {
  private readonly entries = new Map<string, CatalogueEntry>();

  constructor(private readonly maxEntries = MAX_ENTRIES) {}

  get size(): number {
    return this.entries.size;
  }

  clear(): void {
    this.entries.clear();
  }

  get(key: string): CatalogueEntry | undefined {
    const entry = this.entries.get(key);
    if (entry) {
      // Most recently used last.
      this.entries.delete(key);
      this.entries.set(key, entry);
    }
    return entry;
  }

  /** Keeps the answer built for this key (read before the answer in the same transaction). */
  put(key: string, pharmacyId: string, body: string): CatalogueEntry {
    const entry = new CatalogueEntry(key, pharmacyId, body);
    this.entries.delete(key);
    this.entries.set(key, entry);
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    return entry;
  }
}
