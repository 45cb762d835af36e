import { z } from 'zod';
import { stockStatus, type StockStatus } from './stock-status.ts';

/**
 * The till's catalogue of one branch (issue 9, item 3): every active product of the branch with what the till needs
 * to search, price and check it, loaded once by the browser (GET /api/pos/catalogue) and kept current by the live
 * stock events. The search over it runs in the browser (searchCatalogue, below), by the rules of seed 001 section 5.
 * Decision 0024.
 */

export const posCatalogueItemSchema = z.object({
  id: z.string(),
  name: z.string(),
  sku: z.string().nullable(),
  barcodes: z.array(z.string()),
  category: z.string().nullable(),
  packageSize: z.number().int(),
  packageType: z.string(),
  isDda: z.boolean(),
  isActive: z.boolean(),
  /** False when the product is not sold in this branch (no row, unavailable, restricted). */
  isAvailable: z.boolean(),
  taxApplied: z.boolean(),
  taxRateBasisPoints: z.number().int().nullable(),
  /** The branch's selling price of one piece. */
  priceCents: z.number().int(),
  /** The branch's purchase (cost) price of one piece. */
  costCents: z.number().int(),
  /** The margin in force (branch, product, settings), basis points. */
  minMarginBasisPoints: z.number().int(),
  /** The item's own minimum price of one piece, when it has one. */
  minimumPriceCents: z.number().int().nullable(),
  /** Sellable pieces: on hand, not reserved, not in an expired batch. */
  quantity: z.number().int(),
  reservedQuantity: z.number().int(),
  /**
   * Pieces on hand in expired batches (not sellable). A live 'stock' event carries the branch's whole unreserved
   * quantity; the sellable quantity is that minus these pieces (sellableQuantity). Absent counts as 0.
   */
  expiredQuantity: z.number().int().optional(),
  lowStockThreshold: z.number().int(),
  /** Earliest expiry of an unexpired batch with stock. */
  nearestExpiry: z.string().nullable(),
});
export type PosCatalogueItem = z.infer<typeof posCatalogueItemSchema>;

export const posCatalogueQuerySchema = z.strictObject({ branchId: z.uuid().optional() });

/**
 * The wire shape of GET /api/pos/catalogue: columnar (one array per field, all of the same length `count`), so
 * 50,000 products do not repeat 20 field names 50,000 times (decision 0024). Every product is active: isActive is
 * not sent. decodeCatalogue turns it into PosCatalogueItem objects.
 */
export const posCatalogueColumnsSchema = z.object({
  id: z.array(z.string()),
  name: z.array(z.string()),
  sku: z.array(z.string().nullable()),
  barcodes: z.array(z.array(z.string())),
  category: z.array(z.string().nullable()),
  packageSize: z.array(z.number().int()),
  packageType: z.array(z.string()),
  isDda: z.array(z.boolean()),
  isAvailable: z.array(z.boolean()),
  taxApplied: z.array(z.boolean()),
  taxRateBasisPoints: z.array(z.number().int().nullable()),
  priceCents: z.array(z.number().int()),
  costCents: z.array(z.number().int()),
  minMarginBasisPoints: z.array(z.number().int()),
  minimumPriceCents: z.array(z.number().int().nullable()),
  quantity: z.array(z.number().int()),
  reservedQuantity: z.array(z.number().int()),
  expiredQuantity: z.array(z.number().int()),
  lowStockThreshold: z.array(z.number().int()),
  nearestExpiry: z.array(z.string().nullable()),
});
export type PosCatalogueColumns = z.infer<typeof posCatalogueColumnsSchema>;

export const posCatalogueResponseSchema = z.object({
  branchId: z.string(),
  /** When the server read it (ISO 8601). */
  at: z.string(),
  count: z.number().int(),
  columns: posCatalogueColumnsSchema,
});
export type PosCatalogueResponse = z.infer<typeof posCatalogueResponseSchema>;

type ColumnName = keyof PosCatalogueColumns;
const COLUMN_NAMES = Object.keys(posCatalogueColumnsSchema.shape) as ColumnName[];

/** Items to the columnar wire shape (the server's side). */
export function encodeCatalogue(branchId: string, at: string, items: readonly PosCatalogueItem[]): PosCatalogueResponse {
  const columns = Object.fromEntries(COLUMN_NAMES.map((name) => [name, new Array(items.length)])) as Record<ColumnName, unknown[]>;
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    for (const name of COLUMN_NAMES) columns[name][i] = item[name] ?? (name === 'expiredQuantity' ? 0 : null);
  }
  return { branchId, at, count: items.length, columns: columns as PosCatalogueColumns };
}

/** The columnar wire shape back to items (the browser's side). Throws when the columns do not all have `count` entries. */
export function decodeCatalogue(response: Pick<PosCatalogueResponse, 'count' | 'columns'>): PosCatalogueItem[] {
  const c = response.columns;
  const n = response.count;
  for (const name of COLUMN_NAMES) {
    if (!Array.isArray(c[name]) || c[name].length !== n) throw new Error(`catalogue column ${name} has not ${n} entries`);
  }
  const items: PosCatalogueItem[] = new Array(n);
  for (let i = 0; i < n; i++) {
    items[i] = {
      id: c.id[i]!,
      name: c.name[i]!,
      sku: c.sku[i]!,
      barcodes: c.barcodes[i]!,
      category: c.category[i]!,
      packageSize: c.packageSize[i]!,
      packageType: c.packageType[i]!,
      isDda: c.isDda[i]!,
      isActive: true,
      isAvailable: c.isAvailable[i]!,
      taxApplied: c.taxApplied[i]!,
      taxRateBasisPoints: c.taxRateBasisPoints[i]!,
      priceCents: c.priceCents[i]!,
      costCents: c.costCents[i]!,
      minMarginBasisPoints: c.minMarginBasisPoints[i]!,
      minimumPriceCents: c.minimumPriceCents[i]!,
      quantity: c.quantity[i]!,
      reservedQuantity: c.reservedQuantity[i]!,
      expiredQuantity: c.expiredQuantity[i]!,
      lowStockThreshold: c.lowStockThreshold[i]!,
      nearestExpiry: c.nearestExpiry[i]!,
    };
  }
  return items;
}

// ------------------------------------------------------------------------------------------- rules

/** Search results at most (seed 001 section 9). */
export const POS_SEARCH_MAX = 15;

/** The stock badge turns orange at this many units or fewer (seed 001 section 9). */
export const STOCK_BADGE_ORANGE_AT = 5;

export type StockBadgeTone = 'danger' | 'warning' | 'success';
const BADGE_TONES: Record<StockStatus, StockBadgeTone> = { out: 'danger', low: 'warning', good: 'success' };

/** The tone of a search result's stock badge: red when out, orange at 5 or fewer, green above (Badge tones). */
export function stockBadgeTone(quantity: number): StockBadgeTone {
  return BADGE_TONES[stockStatus(quantity, STOCK_BADGE_ORANGE_AT)];
}

/**
 * The sellable quantity after a live 'stock' event: the event's quantity (all unreserved pieces on hand) less the
 * pieces in expired batches, never below 0.
 */
export function sellableQuantity(eventQuantity: number, expiredQuantity: number | undefined): number {
  return Math.max(0, eventQuantity - Math.max(0, expiredQuantity ?? 0));
}

export type PosSearchReason = 'no-id' | 'no-price' | 'out-of-stock' | 'in-cart';

export interface PosSearchResult {
  item: PosCatalogueItem;
  selectable: boolean;
  /** Why it cannot be selected (seed 001 section 5), null when it can. */
  reason: null | PosSearchReason;
}

export interface PosSearchOptions {
  /** Products already in the cart: listed, not selectable. */
  cartIds?: ReadonlySet<string>;
  /** At most this many results (default and ceiling POS_SEARCH_MAX). */
  limit?: number;
}

/** The search offers only active, available products with a non-empty name and a selling price above 0. */
export function isListed(item: PosCatalogueItem): boolean {
  return item.isActive && item.isAvailable && item.priceCents > 0 && item.name.trim() !== '';
}

/** Why a product cannot be selected (no id, price 0 or less, stock 0 or less, already in the cart), or null. */
export function unselectableReason(item: PosCatalogueItem, cartIds?: ReadonlySet<string>): PosSearchReason | null {
  if (!item.id) return 'no-id';
  if (!(item.priceCents > 0)) return 'no-price';
  if (!(item.quantity > 0)) return 'out-of-stock';
  if (cartIds?.has(item.id)) return 'in-cart';
  return null;
}

function toResult(item: PosCatalogueItem, cartIds?: ReadonlySet<string>): PosSearchResult {
  const reason = unselectableReason(item, cartIds);
  return { item, selectable: reason === null, reason };
}

// ------------------------------------------------------------------------------------------- the index

/** Separates the fields of a haystack: never in a query (queries are trimmed words). */
const SEP = '\u0001';

/** The lower-cased text a product is found by: name, SKU, category and barcodes. */
export function haystackOf(item: Pick<PosCatalogueItem, 'name' | 'sku' | 'category' | 'barcodes'>): string {
  return `${item.name}${SEP}${item.sku ?? ''}${SEP}${item.category ?? ''}${SEP}${item.barcodes.join(SEP)}`.toLowerCase();
}

/** A query as lower-cased words (a product matches when every word is in its name, SKU, category or barcodes). */
export function queryWords(query: string): string[] {
  return query.toLowerCase().split(/\s+/).filter((w) => w !== '');
}

/**
 * A catalogue prepared for searching: the lower-cased haystack of each item computed once, the items' order by name,
 * and the codes (SKU, barcodes) for the scanner. Stock changes do not touch the texts: withItems keeps the
 * haystacks for an array of the same products in the same order.
 */
export interface CatalogueIndex {
  readonly items: readonly PosCatalogueItem[];
  /** haystacks[i] is the text of items[i]. */
  readonly haystacks: readonly string[];
  /** Positions of the listed items, by name (case-insensitive), then id. */
  readonly order: Int32Array;
  /** Lower-cased SKU and barcodes → position (built on first use). */
  codes: Map<string, number> | null;
  /** The last search's words and the positions (in `order` order) it matched: a longer query narrows them. */
  last: { words: string[]; matches: Int32Array } | null;
}

export function buildCatalogueIndex(items: readonly PosCatalogueItem[]): CatalogueIndex {
  const haystacks = items.map(haystackOf);
  return { items, haystacks, order: listedOrder(items), codes: null, last: null };
}

function listedOrder(items: readonly PosCatalogueItem[]): Int32Array {
  const keys = items.map((item) => item.name.toLowerCase());
  const positions: number[] = [];
  for (let i = 0; i < items.length; i++) if (isListed(items[i]!)) positions.push(i);
  positions.sort((a, b) => (keys[a]! < keys[b]! ? -1 : keys[a]! > keys[b]! ? 1 : items[a]!.id < items[b]!.id ? -1 : 1));
  return Int32Array.from(positions);
}

/**
 * The same index over a new array of the same products in the same positions (only stock or prices changed).
 * Texts are recomputed only for items whose name, SKU, category or barcodes changed; the listed order is rebuilt
 * only when a text or a listing condition changed.
 */
export function withItems(index: CatalogueIndex, items: readonly PosCatalogueItem[]): CatalogueIndex {
  if (items === index.items) return index;
  if (items.length !== index.items.length) return buildCatalogueIndex(items);
  let haystacks = index.haystacks as string[];
  let reorder = false;
  let copied = false;
  for (let i = 0; i < items.length; i++) {
    const before = index.items[i]!;
    const after = items[i]!;
    if (before === after) continue;
    if (before.id !== after.id) return buildCatalogueIndex(items);
    if (before.name !== after.name || before.sku !== after.sku || before.category !== after.category || before.barcodes !== after.barcodes) {
      const text = haystackOf(after);
      if (text !== haystacks[i]) {
        if (!copied) haystacks = haystacks.slice();
        copied = true;
        haystacks[i] = text;
        reorder = true;
      }
    }
    if (isListed(before) !== isListed(after)) reorder = true;
  }
  if (reorder) return { items, haystacks, order: listedOrder(items), codes: null, last: null };
  return { items, haystacks, order: index.order, codes: index.codes, last: index.last };
}

/** Each word of `words` extends (contains) some word of `previous`, and every previous word is extended by one. */
function narrows(previous: string[], words: string[]): boolean {
  return previous.length > 0 && previous.every((p) => words.some((w) => w.includes(p)));
}

function matchesAll(text: string, words: string[]): boolean {
  for (const w of words) if (!text.includes(w)) return false;
  return true;
}

/**
 * The search of seed 001 section 5 over a prepared index: listed products (active, available, named, priced above
 * 0) whose name, SKU, category or barcodes contain every word of the query, case-insensitively; in-stock first;
 * within each, products whose name starts with the query or whose SKU or barcode is the query come first, then by
 * name; at most 15. An empty query finds nothing.
 */
export function searchIndex(index: CatalogueIndex, query: string, options: PosSearchOptions = {}): PosSearchResult[] {
  const words = queryWords(query);
  if (words.length === 0) return [];
  const limit = Math.max(0, Math.min(POS_SEARCH_MAX, Math.floor(options.limit ?? POS_SEARCH_MAX)));
  const { items, haystacks } = index;
  const whole = words.join(' ');

  // Candidates: all listed positions, or the last search's matches when this query only narrows it.
  const candidates = index.last && narrows(index.last.words, words) ? index.last.matches : index.order;
  const matches = new Int32Array(candidates.length);
  let count = 0;
  // Four buckets: in stock & strong, in stock, out of stock & strong, out of stock; each needs at most `limit`.
  const buckets: number[][] = [[], [], [], []];
  for (let k = 0; k < candidates.length; k++) {
    const i = candidates[k]!;
    const text = haystacks[i]!;
    if (!matchesAll(text, words)) continue;
    matches[count++] = i;
    const item = items[i]!;
    const bucket = (item.quantity > 0 ? 0 : 2) + (isStrong(item, text, whole) ? 0 : 1);
    const list = buckets[bucket]!;
    if (list.length < limit) list.push(i);
  }
  index.last = { words, matches: matches.subarray(0, count) };

  const results: PosSearchResult[] = [];
  for (const list of buckets) {
    for (const i of list) {
      if (results.length >= limit) return results;
      results.push(toResult(items[i]!, options.cartIds));
    }
  }
  return results;
}

/** The name starts with the query, or the SKU or a barcode is the query. */
function isStrong(item: PosCatalogueItem, text: string, whole: string): boolean {
  if (text.startsWith(whole)) return true;
  if (item.sku !== null && item.sku.toLowerCase() === whole) return true;
  for (const code of item.barcodes) if (code.toLowerCase() === whole) return true;
  return false;
}

const indexes = new WeakMap<readonly PosCatalogueItem[], CatalogueIndex>();

/** The index of an array of items, built once per array (kept while the array lives). */
export function catalogueIndexOf(items: readonly PosCatalogueItem[]): CatalogueIndex {
  let index = indexes.get(items);
  if (!index) {
    index = buildCatalogueIndex(items);
    indexes.set(items, index);
  }
  return index;
}

/** searchIndex over an array of items (its index is built on first use and kept for the same array). */
export function searchCatalogue(items: readonly PosCatalogueItem[], query: string, options?: PosSearchOptions): PosSearchResult[] {
  return searchIndex(catalogueIndexOf(items), query, options);
}

/**
 * The product a scanned code names: exact SKU or barcode, case-insensitive, surrounding spaces ignored. Any item of
 * the catalogue (listed or not: the till tells the cashier why it cannot be sold). A barcode wins over another
 * product's SKU.
 */
export function findCodeInIndex(index: CatalogueIndex, code: string): PosCatalogueItem | undefined {
  const key = code.trim().toLowerCase();
  if (!key) return undefined;
  if (!index.codes) {
    const codes = new Map<string, number>();
    // SKUs first, then barcodes over them; the first product keeps a code two products share.
    for (let i = index.items.length - 1; i >= 0; i--) {
      const sku = index.items[i]!.sku;
      if (sku) codes.set(sku.toLowerCase(), i);
    }
    for (let i = index.items.length - 1; i >= 0; i--) for (const b of index.items[i]!.barcodes) if (b) codes.set(b.toLowerCase(), i);
    index.codes = codes;
  }
  const at = index.codes.get(key);
  return at === undefined ? undefined : index.items[at];
}

/** findCodeInIndex over an array of items. */
export function findByCode(items: readonly PosCatalogueItem[], code: string): PosCatalogueItem | undefined {
  return findCodeInIndex(catalogueIndexOf(items), code);
}
