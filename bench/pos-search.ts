// Benchmark: the till's keystroke search (issue 9, performance (b)) over a generated branch catalogue of 50,000
// products, in Node, with the same code the browser runs (packages/domain/src/pos-catalogue.ts):
//   - decoding the columnar answer of GET /api/pos/catalogue and building the search index (once per load);
//   - each keystroke of typical queries typed letter by letter (each prefix searched, as the till does), the cart
//     holding 3 of the products; p50 / p95 / p99 / max per keystroke;
//   - the first search of a new index;
//   - a stock event applied (new array + index kept), then the next keystroke;
//   - the scanner's exact code look-up (findByCode).
// Also prints the wire size of the answer (JSON, gzip, brotli). Prints figures; never passes or fails on time.
// Run: npx tsx bench/pos-search.ts   (BENCH_PRODUCTS=50000, BENCH_ROUNDS=20)
import { execSync } from 'node:child_process';
import zlib from 'node:zlib';
import {
  buildCatalogueIndex,
  decodeCatalogue,
  encodeCatalogue,
  findCodeInIndex,
  searchIndex,
  withItems,
  type PosCatalogueItem,
} from '@pharmapoint/domain/pos-catalogue';
import { productName } from './lib/generate.ts';
import { machine, percentile } from './lib/stock-bench.ts';

const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 50_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);
const CATEGORIES = ['Medicine', 'Antibiotics', 'Analgesics', 'Supplements', 'Cosmetics', 'Equipment', 'Supplies', 'Baby care'];

/** Typical queries, typed letter by letter: name fragments, two words, a SKU, a barcode, a category, no match. */
const QUERIES = ['amox', 'paracetamol 500', 'cetirizine syrup', 'SKU-4242', '6160000031337', 'vitamin c', 'analgesics', 'zinc 20mg', 'cream', 'xqzv'];

/** Sorted as the server sends them (lower-cased name, then id). */
function generated(n: number): PosCatalogueItem[] {
  const items: PosCatalogueItem[] = [];
  for (let i = 0; i < n; i += 1) {
    const buy = 500 + (i % 300) * 100;
    items.push({
      id: `00000000-0000-4000-8000-${i.toString(16).padStart(12, '0')}`,
      name: productName(i),
      sku: `SKU-${i}`,
      barcodes: [String(6160000000000 + i)],
      category: CATEGORIES[i % CATEGORIES.length]!,
      packageSize: i % 3 === 0 ? 100 : 1,
      packageType: 'tablets',
      isDda: i % 97 === 0,
      isActive: true,
      isAvailable: i % 50 !== 0,
      taxApplied: i % 4 === 0,
      taxRateBasisPoints: 1600,
      priceCents: i % 200 === 0 ? 0 : Math.round(buy * 1.4),
      costCents: buy,
      minMarginBasisPoints: 2200,
      minimumPriceCents: null,
      // About one product in seven out of stock.
      quantity: i % 7 === 0 ? 0 : (i * 13) % 500,
      reservedQuantity: 0,
      expiredQuantity: i % 11 === 0 ? 3 : 0,
      lowStockThreshold: 5,
      nearestExpiry: `2027-${String((i % 12) + 1).padStart(2, '0')}-15`,
    });
  }
  return items.sort((a, b) => {
    const an = a.name.toLowerCase();
    const bn = b.name.toLowerCase();
    return an < bn ? -1 : an > bn ? 1 : a.id < b.id ? -1 : 1;
  });
}

function time<T>(fn: () => T): [T, number] {
  const t0 = performance.now();
  const value = fn();
  return [value, performance.now() - t0];
}

function stats(times: number[]): string {
  const sorted = [...times].sort((a, b) => a - b);
  const f = (v: number) => v.toFixed(3);
  return `${f(percentile(sorted, 50))} | ${f(percentile(sorted, 95))} | ${f(percentile(sorted, 99))} | ${f(sorted[sorted.length - 1]!)}`;
}

const load = execSync('uptime', { encoding: 'utf8' }).trim();
console.log(`\nMachine: ${machine()}`);
console.log(`Load before: ${load}`);
console.log(`${PRODUCTS} products, ${QUERIES.length} queries typed letter by letter, ${ROUNDS} rounds\n`);

const source = generated(PRODUCTS);
const wire = encodeCatalogue('00000000-0000-4000-8000-000000000000', new Date().toISOString(), source);
const [json, stringifyMs] = time(() => JSON.stringify(wire));
const gzip = zlib.gzipSync(json, { level: 6 }).length;
const brotli = zlib.brotliCompressSync(json, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } }).length;
const rowsJson = JSON.stringify(source).length;
const [parsed, parseMs] = time(() => JSON.parse(json) as typeof wire);
const [items, decodeMs] = time(() => decodeCatalogue(parsed));
const [index, indexMs] = time(() => buildCatalogueIndex(items));

console.log('| step | figure |');
console.log('| --- | ---: |');
console.log(`| answer, columnar JSON | ${(json.length / 1024 / 1024).toFixed(2)} MiB (objects would be ${(rowsJson / 1024 / 1024).toFixed(2)} MiB) |`);
console.log(`| answer, gzip / brotli q4 | ${(gzip / 1024).toFixed(0)} KiB / ${(brotli / 1024).toFixed(0)} KiB |`);
console.log(`| JSON.stringify (server side) | ${stringifyMs.toFixed(1)} ms |`);
console.log(`| JSON.parse | ${parseMs.toFixed(1)} ms |`);
console.log(`| decode to items | ${decodeMs.toFixed(1)} ms |`);
console.log(`| build index (haystacks, order) | ${indexMs.toFixed(1)} ms |`);

const cart = new Set([items[10]!.id, items[4242]!.id, items[31337 % PRODUCTS]!.id]);
const keystrokes = QUERIES.flatMap((q) => Array.from({ length: q.length }, (_, i) => q.slice(0, i + 1)));

// Warm the JIT once (a till types all day).
for (const k of keystrokes) searchIndex(index, k, { cartIds: cart });

const typed: number[] = [];
const perQuery = new Map<string, number[]>();
let found = 0;
for (let round = 0; round < ROUNDS; round += 1) {
  for (const q of QUERIES) {
    for (let i = 1; i <= q.length; i += 1) {
      const [results, ms] = time(() => searchIndex(index, q.slice(0, i), { cartIds: cart }));
      typed.push(ms);
      if (!perQuery.has(q)) perQuery.set(q, []);
      perQuery.get(q)!.push(ms);
      if (i === q.length) found += results.length;
    }
  }
}

// The first search of a new index (the scanner's code map is built on first use).
const first = buildCatalogueIndex(items);
const [, firstMs] = time(() => searchIndex(first, 'amox', { cartIds: cart }));

// A stock event between keystrokes: one product's quantity changes (new array), the index follows, then search.
const afterEvent: number[] = [];
let current = index;
for (let round = 0; round < ROUNDS * 5; round += 1) {
  const at = (round * 7919) % PRODUCTS;
  const nextItems = current.items.slice();
  nextItems[at] = { ...nextItems[at]!, quantity: (nextItems[at]!.quantity + 1) % 50 };
  const [, ms] = time(() => {
    current = withItems(current, nextItems);
    return searchIndex(current, 'amox', { cartIds: cart });
  });
  afterEvent.push(ms);
}

const codes: number[] = [];
findCodeInIndex(index, 'warm');
for (let round = 0; round < 2000; round += 1) {
  const n = (round * 7919) % PRODUCTS;
  codes.push(time(() => findCodeInIndex(index, round % 2 ? String(6160000000000 + n) : `sku-${n}`))[1]);
}

console.log(`\n| search | keystrokes | p50 ms | p95 ms | p99 ms | max ms |`);
console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
console.log(`| typed letter by letter (all queries) | ${typed.length} | ${stats(typed)} |`);
for (const [q, times] of perQuery) console.log(`| '${q}' | ${times.length} | ${stats(times)} |`);
console.log(`| first search of a new index | 1 | ${firstMs.toFixed(3)} | | | |`);
console.log(`| stock event applied, then 'amox' | ${afterEvent.length} | ${stats(afterEvent)} |`);
console.log(`| scanner: exact SKU or barcode | ${codes.length} | ${stats(codes)} |`);
console.log(`\nMean results of the full queries: ${(found / (ROUNDS * QUERIES.length)).toFixed(1)}`);
console.log(`Load after: ${execSync('uptime', { encoding: 'utf8' }).trim()}`);
