import { del, get, set } from 'idb-keyval';
import {
  buildCatalogueIndex,
  decodeCatalogue,
  type CatalogueIndex,
  type PosCatalogueItem,
  type PosCatalogueResponse,
  withItems,
} from '@pharmapoint/domain/pos-catalogue';
import i18n from '@/i18n';
import { api, ApiError } from '@/lib/api';
import { onLiveStock, whenLiveStockReady, type LiveStockSignal } from '@/lib/live-stock/live-stock';
import { applyStockChange, positionsOf, type StockChange } from '@/features/pos/catalogue/catalogue-state';
import { forgetKeptEtag, rememberKeptEtag, takePreloadedCatalogue } from '@/features/pos/catalogue/catalogue-preload';

/**
 * The till's catalogue of one branch, shared by every component of the tab that shows it (decision 0024): read
 * from IndexedDB at once when a copy is there, fetched from GET /api/pos/catalogue (always, in the background when
 * the copy is shown), kept current by the live stream's 'stock' events, and fetched again on 'products' and after
 * a reconnect. Optimistic cross-tab values are laid over it by the hook (they belong to live-stock).
 */

export type CatalogueStatus = 'loading' | 'ready' | 'error';

export interface CatalogueState {
  status: CatalogueStatus;
  error: string | null;
  items: readonly PosCatalogueItem[];
  index: CatalogueIndex;
  positions: ReadonlyMap<string, number>;
  version: number;
  /** When the server read the catalogue shown (ISO 8601), null before the first copy. */
  at: string | null;
}

/**
 * The copy kept in IndexedDB: the answer as it came, with its ETag (decision 0064; copies from before have none).
 * Kept parsed: reading it back (a structured clone) was faster than parsing its text again, and reading is what the
 * till waits for; the write waits until the page is idle.
 */
type StoredCatalogue = PosCatalogueResponse & { etag?: string | null };

/** The IndexedDB key of a branch's copy (bump the version when the wire shape changes). */
export const cacheKey = (branchId: string) => `pp:pos-catalogue:v1:${branchId}`;

/** An answer of the server, parsed, with its ETag. */
interface Fetched {
  response: PosCatalogueResponse;
  etag: string | null;
}

/**
 * Before reading the catalogue, wait this long at most for the live stream to listen, so that no sale committed
 * between the read and the stream's start is missed (the IndexedDB copy is shown meanwhile).
 */
const STREAM_WAIT_MS = 1500;

/** A stock event of an unknown product: wait this long for more before fetching again. */
const UNKNOWN_REFETCH_MS = 1000;

const EMPTY: readonly PosCatalogueItem[] = [];

/** A User Timing mark of the catalogue's load (read by bench/pos-first-search.ts; visible in DevTools). */
function mark(name: string): void {
  try {
    performance.mark(`pp:catalogue:${name}`);
  } catch {
    // No User Timing here: nothing to mark.
  }
}
let versions = 0;

/** The state before anything is known. */
export function loadingState(): CatalogueState {
  return { status: 'loading', error: null, items: EMPTY, index: buildCatalogueIndex(EMPTY), positions: new Map(), version: ++versions, at: null };
}

export class BranchCatalogueStore {
  readonly branchId: string;
  private state: CatalogueState;
  private readonly listeners = new Set<() => void>();
  private users = 0;
  private started = false;
  private inFlight: Promise<void> | null = null;
  /** Stock changes heard while a fetch is under way: applied again on top of its answer (values are absolute). */
  private heard: StockChange[] | null = null;
  private again = false;
  private unknownTimer: ReturnType<typeof setTimeout> | null = null;
  private unsubscribe: (() => void) | null = null;
  /** The ETag of the server's answer shown (null: none, or a copy from before ETags). */
  private etag: string | null = null;

  constructor(branchId: string) {
    this.branchId = branchId;
    this.state = loadingState();
  }

  getState = (): CatalogueState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private update(patch: Partial<CatalogueState>): void {
    this.state = { ...this.state, ...patch, version: ++versions };
    for (const listener of this.listeners) listener();
  }

  private setItems(items: readonly PosCatalogueItem[], patch: Partial<CatalogueState> = {}): void {
    const sameProducts = items.length === this.state.items.length && items.every((item, i) => item.id === this.state.items[i]!.id);
    const positions = sameProducts ? this.state.positions : positionsOf(items);
    this.update({ ...patch, items, positions, index: buildCatalogueIndex(items) });
  }

  /** A component starts showing the catalogue: the first one loads it and starts listening. */
  retain(): () => void {
    this.users += 1;
    if (!this.unsubscribe) this.unsubscribe = onLiveStock((s) => this.onSignal(s));
    if (!this.started) {
      this.started = true;
      void this.start();
    }
    return () => {
      this.users -= 1;
      if (this.users > 0) return;
      // Nobody shows it: stop listening; the data stays in memory, and is fetched again when shown again.
      this.unsubscribe?.();
      this.unsubscribe = null;
      this.started = false;
      if (this.unknownTimer) clearTimeout(this.unknownTimer);
      this.unknownTimer = null;
    };
  }

  private async start(): Promise<void> {
    mark('start');
    if (this.state.items === EMPTY) {
      const cached = await readCache(this.branchId);
      mark(cached ? 'cache-hit' : 'cache-miss');
      // A fetch that answered first wins over the copy.
      if (cached && this.state.at === null) {
        try {
          this.setItems(decodeCatalogue(cached), { status: 'ready', error: null, at: cached.at });
          this.etag = cached.etag ?? null;
          mark('cache-shown');
        } catch {
          void del(cacheKey(this.branchId)).catch(() => undefined);
        }
      }
    }
    await this.load(false);
  }

  /** Fetches the catalogue again. Never rejects: a failure shows as `error`. */
  refresh = (): Promise<void> => this.load(true);

  private load(manual: boolean): Promise<void> {
    if (this.inFlight) {
      // A fetch is under way: one more after it, so changes made meanwhile are not lost.
      this.again = true;
      return this.inFlight;
    }
    this.heard = [];
    // The answer the page asked for before the till's code loaded (catalogue-preload.ts), once, when it is ours.
    const preloaded = manual ? null : takePreloadedCatalogue(this.branchId);
    const run = async () => {
      try {
        const early = preloaded ? await preloaded : null;
        // The preload's answer, or its 304 for the copy shown (it named the ETag of the last copy kept).
        const fromPreload = early !== null && ('response' in early || (early.unchanged === this.etag && this.state.items !== EMPTY));
        let fresh: Fetched | null = early && 'response' in early ? early : null;
        if (fromPreload) {
          mark('preload-used');
        } else {
          await whenLiveStockReady(STREAM_WAIT_MS);
          mark('stream-ready');
          fresh = await fetchCatalogue(this.branchId, this.state.items === EMPTY ? null : this.etag);
        }
        mark('response');
        // The same answer as the copy shown (the preload could not name it): nothing to decode again.
        if (fresh && !(fresh.etag && fresh.etag === this.etag && this.state.items !== EMPTY)) this.show(fresh);
        else if (this.state.status !== 'ready' || this.state.error) this.update({ status: 'ready', error: null });
        if (fromPreload) {
          // Read before the live stream listened: a sale committed in between would be missed. Ask again once it
          // listens, naming this answer (304 when nothing changed: a few bytes, nothing decoded again).
          this.heard = [];
          await whenLiveStockReady(STREAM_WAIT_MS);
          mark('stream-ready');
          const again = await fetchCatalogue(this.branchId, this.etag);
          mark('revalidated');
          if (again) this.show(again);
        }
      } catch (error) {
        const refused = error instanceof ApiError && [401, 403, 404].includes(error.status);
        if (refused) {
          // Not this user's branch (or not any more): no copy of it stays in this browser.
          void del(cacheKey(this.branchId)).catch(() => undefined);
          forgetKeptEtag();
          this.update({ status: 'error', error: error.message, items: EMPTY, positions: new Map(), index: buildCatalogueIndex(EMPTY), at: null });
        } else if (this.state.items !== EMPTY) {
          this.update({ status: 'ready', error: i18n.t('posSearch:refreshFailed') });
        } else {
          this.update({ status: 'error', error: i18n.t(manual ? 'posSearch:refreshFailed' : 'posSearch:loadFailed') });
        }
      } finally {
        this.heard = null;
      }
    };
    const promise = run().finally(() => {
      this.inFlight = null;
      if (this.again) {
        this.again = false;
        void this.load(manual);
      }
    });
    this.inFlight = promise;
    return promise;
  }

  /** A fresh answer shown: decoded, the stock events heard while it was on its way applied, indexed, kept. */
  private show({ response, etag }: Fetched): void {
    let items: readonly PosCatalogueItem[] = decodeCatalogue(response);
    const positions = positionsOf(items);
    for (const change of this.heard ?? []) items = applyStockChange(items, positions, this.branchId, change).items;
    this.etag = etag;
    this.update({ status: 'ready', error: null, items, positions, index: buildCatalogueIndex(items), at: response.at });
    mark('fetched');
    // When the page is idle: the copy's structured clone must not hold up the first results.
    whenIdle(() => void writeCache(this.branchId, { ...response, etag }).then(() => mark('cache-written')));
  }

  private onSignal(signal: LiveStockSignal): void {
    if (signal.type === 'resync') {
      if (signal.branchIds === null || signal.branchIds.includes(this.branchId)) void this.load(false);
      return;
    }
    const change = signal.event;
    if (change.branchId !== this.branchId) return;
    this.heard?.push(change);
    const { items, unknown } = applyStockChange(this.state.items, this.state.positions, this.branchId, change);
    if (items !== this.state.items) this.update({ items, index: withItems(this.state.index, items) });
    if (unknown && this.state.items !== EMPTY && !this.unknownTimer) {
      // A product this copy does not have (new in the branch): fetch again, once for a burst of them.
      this.unknownTimer = setTimeout(() => {
        this.unknownTimer = null;
        void this.load(false);
      }, UNKNOWN_REFETCH_MS);
    }
  }
}

const stores = new Map<string, BranchCatalogueStore>();

/** The one store of a branch in this tab. */
export function branchCatalogueStore(branchId: string): BranchCatalogueStore {
  let store = stores.get(branchId);
  if (!store) {
    store = new BranchCatalogueStore(branchId);
    stores.set(branchId, store);
  }
  return store;
}

/**
 * GET /api/pos/catalogue of a branch; with the ETag of the copy shown, null when the server says it is current
 * (304). A refusal or failure throws the ApiError of the one HTTP client (asked again through it: error answers are
 * small, and it is what signals a lost session).
 */
async function fetchCatalogue(branchId: string, etag: string | null): Promise<Fetched | null> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (etag) headers['If-None-Match'] = etag;
  let res: Response | null = null;
  try {
    res = await fetch(`/api/pos/catalogue?branchId=${encodeURIComponent(branchId)}`, { credentials: 'same-origin', headers });
  } catch {
    res = null;
  }
  if (res?.status === 304) return null;
  if (res?.ok) return { response: (await res.json()) as PosCatalogueResponse, etag: res.headers.get('etag') };
  return { response: await api.get<PosCatalogueResponse>('/api/pos/catalogue', { query: { branchId } }), etag: null };
}

async function readCache(branchId: string): Promise<StoredCatalogue | undefined> {
  try {
    const value = (await get(cacheKey(branchId))) as StoredCatalogue | undefined;
    return value && value.branchId === branchId && value.columns ? value : undefined;
  } catch {
    // No IndexedDB (private mode, tests): the catalogue is fetched every time.
    return undefined;
  }
}

/** Runs `work` when the page is idle (at most 2 s later). */
function whenIdle(work: () => void): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(() => work(), { timeout: 2000 });
  else setTimeout(work, 200);
}

async function writeCache(branchId: string, copy: StoredCatalogue): Promise<void> {
  try {
    await set(cacheKey(branchId), copy);
    rememberKeptEtag(copy.etag ?? null);
  } catch {
    // Storage full or unavailable: the next reload fetches.
  }
}
