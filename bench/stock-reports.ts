// Benchmark: the low-stock report and the dashboard's branch stock summary at a large catalogue (issue 6 item 13):
// BENCH_PRODUCTS products (default 50,000) stocked in BENCH_BRANCHES branches (default 10; about 1 in 12 pairs out
// of stock, 1 in 8 low, the rest good; a batch with an expiry for every stocked pair), on PGlite and PostgreSQL,
// through real HTTP as the pharmacy's owner (row-level security, the app role). The data is written by SQL, then
// the statistics are what the app itself keeps (PostgreSQL: autovacuum; PGlite: platform/maintenance.ts's
// analyzeChanged, as requestAnalyze after a bulk import would run it). Prints p50 / p95 / max of sequential requests.
// Run: npx tsx bench/stock-reports.ts   (BENCH_KINDS=pglite,postgres, BENCH_REQUESTS=20, BENCH_EXPLAIN=1 prints plans)
import { execSync } from 'node:child_process';
import { createMaintenance } from '../apps/server/src/platform/maintenance.ts';
import { benchEnv, benchKinds, machine, percentile, productName } from './lib/stock-bench.ts';

const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 50_000);
const BRANCHES = Number(process.env.BENCH_BRANCHES ?? 10);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 20);
const load = () => execSync('uptime', { encoding: 'utf8' }).trim().replace(/^.*load average/, 'load average');

console.log(`\nMachine: ${machine()}`);
console.log(`${PRODUCTS} products x ${BRANCHES} branches, ${REQUESTS} sequential requests per route, real HTTP on loopback\n`);
console.log('| database | route | p50 ms | p95 ms | max ms | load |');
console.log('| --- | --- | ---: | ---: | ---: | --- |');

for (const kind of benchKinds()) {
  const env = await benchEnv(kind);
  try {
    const q = env.db.owner;
    const p = env.pharmacyId;
    for (let i = env.branches.length; i < BRANCHES; i += 1) {
      const [row] = await q.query<{ id: string }>(`INSERT INTO branches (pharmacy_id, name) VALUES ($1, $2) RETURNING id`, [p, `Branch ${i + 1}`]);
      env.branches.push({ id: row!.id, name: `Branch ${i + 1}` });
    }
    const names = Array.from({ length: PRODUCTS }, (_, i) => productName(i));
    for (let from = 0; from < PRODUCTS; from += 10_000) {
      await q.query(
        `INSERT INTO products (pharmacy_id, name, sku, category) SELECT $1, n, 'SKU-' || (o + $3), 'Medicine' FROM unnest($2::text[]) WITH ORDINALITY AS t(n, o)`,
        [p, names.slice(from, from + 10_000), from],
      );
    }
    // Quantity by a hash of the pair: 0 (out) for 1 in 12, 1..5 (low, threshold 5) for 1 in 8, else 20..219.
    await q.query(
      `INSERT INTO branch_products (pharmacy_id, branch_id, product_id, selling_price_cents, purchase_price_cents, quantity)
       SELECT $1, b.id, x.id, 1000, 700,
              CASE WHEN h % 12 = 0 THEN 0 WHEN h % 8 = 0 THEN 1 + h % 5 ELSE 20 + h % 200 END
         FROM products x CROSS JOIN branches b
         CROSS JOIN LATERAL (SELECT abs(hashtext(x.id::text || b.id::text)) AS h) hh
        WHERE x.pharmacy_id = $1 AND b.pharmacy_id = $1`,
      [p],
    );
    await q.query(
      `INSERT INTO batches (pharmacy_id, branch_id, product_id, batch_number, expiry_date, quantity, unit_cost_cents, source)
       SELECT $1, bp.branch_id, bp.product_id, 'B1', current_date + (abs(hashtext(bp.product_id::text)) % 720 - 30), bp.quantity, 700, 'import'
         FROM branch_products bp WHERE bp.pharmacy_id = $1 AND bp.quantity > 0`,
      [p],
    );
    if (kind === 'pglite') await createMaintenance(env.db).analyzeChanged();
    else await q.query('ANALYZE');

    const routes = ['/api/stock/low-stock', '/api/stock/low-stock?status=low&page=3', '/api/stock/branch-summary', `/api/stock/low-stock?branchId=${env.branches[1]!.id}`];
    for (const route of routes) {
      const times: number[] = [];
      for (let i = 0; i < REQUESTS; i += 1) {
        const began = performance.now();
        const response = await fetch(`${env.url}${route}`, { headers: env.headers });
        await response.arrayBuffer();
        if (response.status !== 200) throw new Error(`${route}: ${response.status}`);
        times.push(performance.now() - began);
      }
      times.sort((a, b) => a - b);
      console.log(`| ${kind} | GET ${route.replace(env.branches[1]!.id, '<branch>')} | ${percentile(times, 50).toFixed(0)} | ${percentile(times, 95).toFixed(0)} | ${times[times.length - 1]!.toFixed(0)} | ${load()} |`);
    }
  } finally {
    await env.close();
  }
}
