// Benchmark: importing 10,000 CSV rows through POST /api/products/import (all-or-nothing, one transaction,
// set-based inserts), on PGlite and on PostgreSQL. Prints rows per second; never passes or fails on time.
// Run: npx tsx bench/csv-import.ts   (BENCH_ROWS=10000, BENCH_KINDS=pglite,postgres, BENCH_DATABASE_URL=...)
import { benchEnv, benchKinds, generatedCsv, machine } from './lib/stock-bench.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 10_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);

console.log(`\nMachine: ${machine()}`);
console.log(`Import of ${ROWS} rows (each a new product with price, stock and one batch), ${RUNS} runs per database, real HTTP on loopback\n`);
console.log('| database | run | dry run (validate) ms | import ms | rows/s | products after |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
for (const kind of benchKinds()) {
  const env = await benchEnv(kind);
  try {
    for (let run = 1; run <= RUNS; run += 1) {
      const csv = generatedCsv(ROWS, (run - 1) * ROWS);
      const post = (dryRun: boolean) =>
        fetch(`${env.url}/api/products/import?mode=all-or-nothing&dryRun=${dryRun}`, {
          method: 'POST',
          headers: { ...env.headers, 'content-type': 'text/csv' },
          body: csv,
        });
      let started = performance.now();
      const dry = await post(true);
      const dryMs = performance.now() - started;
      if (dry.status !== 200) throw new Error(`dry run: ${dry.status} ${await dry.text()}`);
      started = performance.now();
      const response = await post(false);
      const ms = performance.now() - started;
      const body = (await response.json()) as { imported: number; errors: unknown[] };
      if (response.status !== 200 || body.imported !== ROWS) throw new Error(`import: ${response.status} ${JSON.stringify(body).slice(0, 500)}`);
      const [{ count }] = (await env.db.owner.query<{ count: number }>('SELECT count(*)::int AS count FROM products')) as [{ count: number }];
      console.log(`| ${kind} | ${run} | ${dryMs.toFixed(0)} | ${ms.toFixed(0)} | ${Math.round(ROWS / (ms / 1000))} | ${count} |`);
    }
  } finally {
    await env.close();
  }
}
