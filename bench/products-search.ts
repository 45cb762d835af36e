// Benchmark: server search of the product list (GET /api/products?q=...) over 50,000 products, on PGlite and
// on PostgreSQL: p50 and p95 per query. Prints figures; never passes or fails on time.
// Run: npx tsx bench/products-search.ts   (BENCH_PRODUCTS=50000, BENCH_QUERIES=300, BENCH_KINDS, BENCH_DATABASE_URL)
import { benchEnv, benchKinds, generatedCsv, machine, percentile } from './lib/stock-bench.ts';

const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 50_000);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 300);
const TERMS = ['amox', 'para', 'ibupro', 'metf', 'amlo', 'losar', 'cetir', 'omep', 'cipro', 'azith', 'diclo', 'predn', 'salbu', 'vitamin', 'zinc', 'folic', 'atorv', 'clotri', 'metro', 'lorat', '500mg syrup', 'SKU-4242', 'cream', 'X9Z'];

console.log(`\nMachine: ${machine()}`);
console.log(`${PRODUCTS} products (loaded through the CSV import), ${QUERIES} sequential searches per database, real HTTP on loopback\n`);
console.log('| database | load ms | query | p50 ms | p95 ms | max ms | mean rows |');
console.log('| --- | ---: | --- | ---: | ---: | ---: | ---: |');
for (const kind of benchKinds()) {
  const env = await benchEnv(kind);
  try {
    const started = performance.now();
    for (let offset = 0; offset < PRODUCTS; offset += 10_000) {
      const response = await fetch(`${env.url}/api/products/import?mode=all-or-nothing`, {
        method: 'POST',
        headers: { ...env.headers, 'content-type': 'text/csv' },
        body: generatedCsv(Math.min(10_000, PRODUCTS - offset), offset),
      });
      if (response.status !== 200) throw new Error(`load: ${response.status} ${(await response.text()).slice(0, 500)}`);
    }
    const loadMs = performance.now() - started;
    await env.db.owner.query('ANALYZE');
    const cases: [string, (term: string) => string][] = [
      ['q (name, SKU, barcode)', (term) => `/api/products?q=${encodeURIComponent(term)}`],
      ['q + status=low', (term) => `/api/products?q=${encodeURIComponent(term)}&status=low`],
      ['first page, no q', () => `/api/products`],
    ];
    for (const [label, path] of cases) {
      const times: number[] = [];
      let rows = 0;
      for (let i = 0; i < QUERIES; i += 1) {
        const t0 = performance.now();
        const response = await fetch(`${env.url}${path(TERMS[i % TERMS.length]!)}`, { headers: env.headers });
        const body = (await response.json()) as { items?: unknown[]; products?: unknown[] };
        times.push(performance.now() - t0);
        if (response.status !== 200) throw new Error(`search: ${response.status} ${JSON.stringify(body).slice(0, 300)}`);
        rows += (body.items ?? body.products ?? []).length;
      }
      times.sort((a, b) => a - b);
      console.log(`| ${kind} | ${loadMs.toFixed(0)} | ${label} | ${percentile(times, 50).toFixed(1)} | ${percentile(times, 95).toFixed(1)} | ${times[times.length - 1]!.toFixed(1)} | ${(rows / QUERIES).toFixed(1)} |`);
    }
  } finally {
    await env.close();
  }
}
