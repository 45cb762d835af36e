// Benchmark: importing CSV rows through POST /api/products/import (all-or-nothing, in short transactions since
// decision 0021), on PGlite and on PostgreSQL, while a second client keeps asking GET /api/me and a third keeps
// writing stock (POST /api/stock/adjustments, +1 piece): how long the import takes, and how the other requests are
// answered meanwhile (count, p50, p95, max). Prints figures; never passes or fails on time.
// Run: npx tsx bench/csv-import.ts   (BENCH_ROWS=10000, BENCH_RUNS=1, BENCH_KINDS=pglite,postgres, BENCH_DATABASE_URL=...)
import { benchEnv, benchKinds, generatedCsv, machine, percentile } from './lib/stock-bench.ts';
import { execSync } from 'node:child_process';

const ROWS = Number(process.env.BENCH_ROWS ?? 10_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 1);
/** Products already in the pharmacy before the import (the issue's case: 1,400). */
const EXISTING = Number(process.env.BENCH_EXISTING ?? 1400);

const load = () => execSync('uptime', { encoding: 'utf8' }).trim().replace(/^.*load average/, 'load average');

interface Probe {
  latencies: number[];
  failures: number;
}

/** Sends one request after another until stopped; records each answer's time. */
function probe(send: () => Promise<Response>, running: () => boolean): Promise<Probe> {
  const result: Probe = { latencies: [], failures: 0 };
  return (async () => {
    while (running()) {
      const began = performance.now();
      const response = await send();
      await response.arrayBuffer();
      if (!response.ok) result.failures += 1;
      result.latencies.push(performance.now() - began);
    }
    return result;
  })();
}

const describe = (p: Probe) => {
  const sorted = [...p.latencies].sort((a, b) => a - b);
  return `${sorted.length} | ${percentile(sorted, 50).toFixed(0)} | ${percentile(sorted, 95).toFixed(0)} | ${(sorted[sorted.length - 1] ?? NaN).toFixed(0)}${p.failures ? ` (${p.failures} failed)` : ''}`;
};

console.log(`\nMachine: ${machine()}`);
console.log(`Import of ${ROWS} rows (each a new product with price, stock and one batch) into a pharmacy with ${EXISTING} products, ${RUNS} run(s) per database, real HTTP on loopback;`);
console.log('meanwhile one client repeats GET /api/me and another POST /api/stock/adjustments (+1 piece), one request after another.\n');
console.log('| database | run | import ms | rows/s | /api/me answers | p50 ms | p95 ms | max ms | adjustments | p50 ms | p95 ms | max ms | load before |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |');
for (const kind of benchKinds()) {
  const env = await benchEnv(kind);
  try {
    if (EXISTING > 0) {
      const warm = await fetch(`${env.url}/api/products/import?mode=all-or-nothing`, {
        method: 'POST',
        headers: { ...env.headers, 'content-type': 'text/csv' },
        body: generatedCsv(EXISTING, 1_000_000),
      });
      if (warm.status !== 200) throw new Error(`existing products: ${warm.status} ${await warm.text()}`);
    }
    const [product] = await env.db.owner.query<{ id: string }>(`SELECT id FROM products WHERE pharmacy_id = $1 LIMIT 1`, [env.pharmacyId]);
    for (let run = 1; run <= RUNS; run += 1) {
      const csv = generatedCsv(ROWS, (run - 1) * ROWS);
      const before = load();
      let importing = true;
      const me = probe(() => fetch(`${env.url}/api/me`, { headers: env.headers }), () => importing);
      const adjust = probe(
        () =>
          fetch(`${env.url}/api/stock/adjustments`, {
            method: 'POST',
            headers: { ...env.headers, 'content-type': 'application/json' },
            body: JSON.stringify({ reason: 'Bench', items: [{ productId: product!.id, delta: 1, reasonType: 'count_correction' }] }),
          }),
        () => importing,
      );
      const started = performance.now();
      const response = await fetch(`${env.url}/api/products/import?mode=all-or-nothing`, {
        method: 'POST',
        headers: { ...env.headers, 'content-type': 'text/csv' },
        body: csv,
      });
      const body = (await response.json()) as { imported: number };
      const ms = performance.now() - started;
      importing = false;
      const [meFigures, adjustFigures] = await Promise.all([me, adjust]);
      if (response.status !== 200 || body.imported !== ROWS) throw new Error(`import: ${response.status} ${JSON.stringify(body).slice(0, 500)}`);
      console.log(`| ${kind} | ${run} | ${ms.toFixed(0)} | ${Math.round(ROWS / (ms / 1000))} | ${describe(meFigures)} | ${describe(adjustFigures)} | ${before} |`);
    }
  } finally {
    await env.close();
  }
}
