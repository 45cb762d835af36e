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
/** The columns of the answer, in order. */
export const POS_CATALOGUE_COLUMNS = Object.keys(posCatalogueColumnsSchema.shape) as ColumnName[];
const COLUMN_NAMES = POS_CATALOGUE_COLUMNS;

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
/** Separates the haystacks in the joined text. */
const ITEM_SEP = '\u0002';

/** The lower-cased text a product is found by: name, SKU, category and barcodes. */
export function haystackOf(item: Pick<PosCatalogueItem, 'name' | 'sku' | 'category' | 'barcodes'>): string {
  return `${item.name}${SEP}${item.sku ?? ''}${SEP}${item.category ?? ''}${SEP}${item.barcodes.join(SEP)}`.toLowerCase();
}

/** A query as lower-cased words (a product matches when every word is in its name, SKU, category or barcodes). */
export function queryWords(query: string): string[] {
  return query.toLowerCase().split(/\s+/).filter((w) => w !== '');
}

/**
 * A catalogue prepared for searching (decision 0024), built once per load: the lower-cased haystack of each item;
 * the listed items in name order with their lower-cased names (a binary search finds the names starting with the
 * query); all haystacks of the listed items joined in that order into one text (one indexOf pass finds the next
 * product containing a word, instead of one includes per product); and the codes (SKU, barcodes) for the scanner.
 * Stock changes do not touch the texts: withItems keeps all of it for an array of the same products in the same
 * positions.
 */
export interface CatalogueIndex {
  readonly items: readonly PosCatalogueItem[];
  /** haystacks[i] is the text of items[i]. */
  readonly haystacks: readonly string[];
  /** Positions of the listed items, by lower-cased name (code units), then id. */
  readonly order: Int32Array;
  /** names[k]: the lower-cased name of items[order[k]]. */
  readonly names: readonly string[];
  /** The haystacks of items[order[0]], items[order[1]], ... joined by ITEM_SEP. */
  readonly joined: string;
  /** starts[k]: where the haystack of items[order[k]] begins in `joined`; one more entry: joined.length + 1. */
  readonly starts: Int32Array;
  /** Lower-cased barcodes and SKUs → positions. */
  codes: { barcodes: Map<string, number[]>; skus: Map<string, number[]> } | null;
}

export function buildCatalogueIndex(items: readonly PosCatalogueItem[]): CatalogueIndex {
  return textsIndex(items, items.map(haystackOf));
}

function textsIndex(items: readonly PosCatalogueItem[], haystacks: readonly string[]): CatalogueIndex {
  const lower = items.map((item) => item.name.toLowerCase());
  const positions: number[] = [];
  for (let i = 0; i < items.length; i++) if (isListed(items[i]!)) positions.push(i);
  positions.sort((a, b) => (lower[a]! < lower[b]! ? -1 : lower[a]! > lower[b]! ? 1 : items[a]!.id < items[b]!.id ? -1 : items[a]!.id > items[b]!.id ? 1 : 0));
  const order = Int32Array.from(positions);
  const names = positions.map((i) => lower[i]!);
  const starts = new Int32Array(order.length + 1);
  let offset = 0;
  for (let k = 0; k < order.length; k++) {
    starts[k] = offset;
    offset += haystacks[order[k]!]!.length + 1;
  }
  starts[order.length] = offset;
  const joined = positions.map((i) => haystacks[i]!).join(ITEM_SEP);
  const index: CatalogueIndex = { items, haystacks, order, names, joined, starts, codes: null };
  // The codes now, not on the first keystroke.
  codePositions(index, '');
  return index;
}

/**
 * The same index over a new array of the same products in the same positions (stock, prices changed). The texts
 * are kept when no name, SKU, category or barcode changed and no product started or stopped being listed;
 * otherwise the index is built again.
 */
export function withItems(index: CatalogueIndex, items: readonly PosCatalogueItem[]): CatalogueIndex {
  if (items === index.items) return index;
  if (items.length !== index.items.length) return buildCatalogueIndex(items);
  let haystacks = index.haystacks;
  let rebuild = false;
  for (let i = 0; i < items.length; i++) {
    const before = index.items[i]!;
    const after = items[i]!;
    if (before === after) continue;
    if (before.id !== after.id) return buildCatalogueIndex(items);
    if (before.name !== after.name || before.sku !== after.sku || before.category !== after.category || before.barcodes !== after.barcodes) {
      const text = haystackOf(after);
      if (text !== haystacks[i] || before.name !== after.name) {
        if (haystacks === index.haystacks) haystacks = haystacks.slice();
        (haystacks as string[])[i] = text;
        rebuild = true;
      }
    }
    if (isListed(before) !== isListed(after)) rebuild = true;
  }
  if (rebuild) return textsIndex(items, haystacks);
  return { ...index, items };
}

/** The first k in [0, names.length] with names[k] >= key (binary search). */
function lowerBound(names: readonly string[], key: string): number {
  let lo = 0;
  let hi = names.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (names[mid]! < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Does items[a] come before items[b] in name order (lower-cased name, then id)? */
function before(items: readonly PosCatalogueItem[], a: number, b: number): boolean {
  const an = items[a]!.name.toLowerCase();
  const bn = items[b]!.name.toLowerCase();
  return an < bn || (an === bn && items[a]!.id < items[b]!.id);
}

/** The k with starts[k] <= offset < starts[k + 1]. */
function itemAt(starts: Int32Array, offset: number): number {
  let lo = 0;
  let hi = starts.length - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

function matchesAll(text: string, words: readonly string[]): boolean {
  for (const w of words) if (!text.includes(w)) return false;
  return true;
}

/**
 * The search of seed 001 section 5 over a prepared index: listed products (active, available, named, priced above
 * 0) whose name, SKU, category or barcodes contain every word of the query, case-insensitively; in-stock first;
 * within each, the products whose name starts with the query or whose SKU or barcode is the query come first, then
 * the others, each by name; at most 15. An empty query finds nothing.
 *
 * It stops as soon as the answer is known: the names starting with the query come from a binary search over the
 * sorted names; the other matches from indexOf over the joined text in name order, until 15 in-stock products are
 * found. Out-of-stock products are looked at only when fewer than 15 in-stock ones match.
 */
export function searchIndex(index: CatalogueIndex, query: string, options: PosSearchOptions = {}): PosSearchResult[] {
  const words = queryWords(query);
  if (words.length === 0) return [];
  const limit = Math.max(0, Math.min(POS_SEARCH_MAX, Math.floor(options.limit ?? POS_SEARCH_MAX)));
  if (limit === 0) return [];
  const { items, order, names, joined, starts, haystacks } = index;
  const whole = words.join(' ');

  // Strong matches: the products whose barcode or SKU is the query, and the names starting with it.
  const inStrong: number[] = [];
  const outStrong: number[] = [];
  const strong = new Set<number>();
  const take = (i: number) => {
    if (strong.has(i)) return;
    strong.add(i);
    const item = items[i]!;
    if (item.quantity > 0) {
      if (inStrong.length < limit) inStrong.push(i);
    } else if (outStrong.length < limit) outStrong.push(i);
  };
  const coded = codePositions(index, whole).filter((i) => isListed(items[i]!));
  // In name order, like the rest of each bucket.
  if (coded.length > 1) coded.sort((a, b) => (before(items, a, b) ? -1 : before(items, b, a) ? 1 : 0));
  const prefixFrom = lowerBound(names, whole);
  const prefixTo = lowerBound(names, `${whole}\uffff`);
  // Strong products in name order: the coded ones merged with the name-prefix range.
  let c = 0;
  for (let k = prefixFrom; k < prefixTo && inStrong.length < limit; k++) {
    const i = order[k]!;
    while (c < coded.length && before(items, coded[c]!, i)) take(coded[c++]!);
    take(i);
  }
  while (c < coded.length && inStrong.length < limit) take(coded[c++]!);
  // The loop stops once 15 are in stock; otherwise it has seen every strong one (and up to 15 out of stock).
  if (inStrong.length >= limit) return results(items, inStrong, [], [], [], limit, options.cartIds);

  // Other matches, in name order: the longest word found by indexOf, the others checked on the product's text.
  const needle = words.reduce((a, b) => (b.length > a.length ? b : a));
  const inOther: number[] = [];
  const outOther: number[] = [];
  let at = joined.indexOf(needle);
  while (at !== -1) {
    const k = itemAt(starts, at);
    const i = order[k]!;
    if (!strong.has(i) && (words.length === 1 || matchesAll(haystacks[i]!, words))) {
      if (items[i]!.quantity > 0) {
        inOther.push(i);
        if (inStrong.length + inOther.length >= limit) break;
      } else if (outOther.length < limit) outOther.push(i);
    }
    at = joined.indexOf(needle, starts[k + 1]!);
  }
  return results(items, inStrong, inOther, outStrong, outOther, limit, options.cartIds);
}

function results(
  items: readonly PosCatalogueItem[],
  inStrong: number[],
  inOther: number[],
  outStrong: number[],
  outOther: number[],
  limit: number,
  cartIds: ReadonlySet<string> | undefined,
): PosSearchResult[] {
  const list: PosSearchResult[] = [];
  for (const bucket of [inStrong, inOther, outStrong, outOther]) {
    for (const i of bucket) {
      if (list.length >= limit) return list;
      list.push(toResult(items[i]!, cartIds));
    }
  }
  return list;
}

/**
 * The positions of the products whose barcode, then whose SKU, is this (lower-cased, trimmed) code, each list in
 * position order (codes are meant to be unique; a shared one finds all its products).
 */
function codePositions(index: CatalogueIndex, key: string): number[] {
  if (!index.codes) {
    const barcodes = new Map<string, number[]>();
    const skus = new Map<string, number[]>();
    const add = (map: Map<string, number[]>, code: string, i: number) => {
      const list = map.get(code);
      if (list) list.push(i);
      else map.set(code, [i]);
    };
    index.items.forEach((item, i) => {
      if (item.sku) add(skus, item.sku.toLowerCase(), i);
      for (const b of item.barcodes) if (b) add(barcodes, b.toLowerCase(), i);
    });
    index.codes = { barcodes, skus };
  }
  const b = index.codes.barcodes.get(key);
  const s = index.codes.skus.get(key);
  return b && s ? [...b, ...s] : (b ?? s ?? []);
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
  const at = codePositions(index, key)[0];
  return at === undefined ? undefined : index.items[at];
}

/** findCodeInIndex over an array of items. */
export function findByCode(items: readonly PosCatalogueItem[], code: string): PosCatalogueItem | undefined {
  return findCodeInIndex(catalogueIndexOf(items), code);
}
