// Benchmark: the purchases list and receiving (issue 10, performance). BENCH_SUPPLIERS suppliers (default 200) and
// BENCH_PURCHASES purchases (default 50,000, two lines each, spread over the last 400 days), written by SQL, then:
// (a) sequential GET /api/purchases as the screen asks for it (first page; a status; a supplier; a date range; a text
//     search over numbers, suppliers and item names; a deep page), p50 / p95 / max, each beside a bare Fastify
//     hello-world asked the same number of times in the same run (the p50 ratio is the figure to compare: the machine
//     is shared and noisy);
// (b) receiving a 100-line purchase (POST /api/purchases as Ordered, then POST /api/purchases/:id/receive: 100
//     batches, 100 ledger movements, 100 branch prices), BENCH_RECEIPTS times.
// On PGlite and PostgreSQL, through real HTTP as the pharmacy's owner (row-level security, the app role).
// Run: npx tsx bench/purchases.ts   (BENCH_KINDS=pglite,postgres, BENCH_REQUESTS=20, BENCH_RECEIPTS=5)
import { execSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createMaintenance } from '../apps/server/src/platform/maintenance.ts';
import { helloWorld, timedGets } from './lib/sequential.ts';
import { benchEnv, benchKinds, machine, percentile } from './lib/stock-bench.ts';

const SUPPLIERS = Number(process.env.BENCH_SUPPLIERS ?? 200);
const PURCHASES = Number(process.env.BENCH_PURCHASES ?? 50_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 20);
const RECEIPTS = Number(process.env.BENCH_RECEIPTS ?? 5);
const LINES = 100;
const load = () => execSync('uptime', { encoding: 'utf8' }).trim().replace(/^.*load average: /, '');

const timed = (url: string, headers: Record<string, string> = {}) => timedGets(url, REQUESTS, headers);
const hello = await helloWorld();
const helloUrl = hello.url;

console.log(`\nMachine: ${machine()}`);
console.log(`${SUPPLIERS} suppliers, ${PURCHASES} purchases of 2 lines; ${REQUESTS} sequential requests per route, real HTTP on loopback\n`);
console.log('| database | route | p50 ms | p95 ms | max ms | hello-world p50 ms | p50 ratio | load (1, 5, 15 min) |');
console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |');

const receipts: string[] = [];
for (const kind of benchKinds()) {
  const env = await benchEnv(kind);
  try {
    const q = env.db.owner;
    const p = env.pharmacyId;
    const main = env.branches[0]!.id;
    await q.query(
      `INSERT INTO contacts (pharmacy_id, type, name, phone, credit_terms, credit_period_days)
       SELECT $1, 'supplier', 'Supplier ' || lpad(i::text, 4, '0'), '2547' || lpad(i::text, 8, '0'), '30 days', 30
         FROM generate_series(1, $2::int) AS i`,
      [p, SUPPLIERS],
    );
    await q.query(
      `INSERT INTO products (pharmacy_id, name, sku, category)
       SELECT $1, 'Product ' || lpad(i::text, 4, '0'), 'SKU-' || i, 'Medicine' FROM generate_series(1, 500) AS i`,
      [p],
    );
    await q.query(
      `INSERT INTO purchases (pharmacy_id, purchase_number, supplier_id, branch_id, purchase_date, status, reference, subtotal_cents, tax_cents, total_cents)
       SELECT $1, 'PO-' || (1700000000000 + i), s.id, $3, current_date - (i % 400),
              (ARRAY['pending', 'ordered', 'received', 'received', 'cancelled'])[1 + i % 5], 'INV-' || i,
              20000 + (i * 7919) % 500000, 0, 20000 + (i * 7919) % 500000
         FROM generate_series(1, $2::int) AS i
         JOIN (SELECT id, row_number() OVER (ORDER BY id) - 1 AS n FROM contacts WHERE pharmacy_id = $1 AND type = 'supplier') s ON s.n = i % $4`,
      [p, PURCHASES, main, SUPPLIERS],
    );
    await q.query(
      `INSERT INTO purchase_items (pharmacy_id, purchase_id, position, product_id, name, quantity, purchase_price_cents, selling_price_cents,
                                   min_margin_basis_points, tax_rate_basis_points, subtotal_cents, tax_cents, total_cents)
       SELECT pu.pharmacy_id, pu.id, k, pr.id, pr.name, 10, pu.total_cents / 20, pu.total_cents / 10, 2200, 1600, pu.total_cents / 2, 0, pu.total_cents / 2
         FROM purchases pu
         CROSS JOIN generate_series(0, 1) AS k
         JOIN (SELECT id, name, row_number() OVER (ORDER BY id) - 1 AS n FROM products WHERE pharmacy_id = $1) pr
           ON pr.n = (abs(hashtext(pu.id::text)) + k) % 500
        WHERE pu.pharmacy_id = $1`,
      [p],
    );
    if (kind === 'pglite') await createMaintenance(env.db).analyzeChanged();
    else await q.query('ANALYZE');
    const [supplier] = await q.query<{ id: string }>(`SELECT id FROM contacts WHERE pharmacy_id = $1 AND type = 'supplier' ORDER BY name LIMIT 1 OFFSET 17`, [p]);

    const routes: [string, string][] = [
      ['first page', '/api/purchases'],
      ['status received', '/api/purchases?status=received'],
      ['one supplier', `/api/purchases?supplierId=${supplier!.id}`],
      ['30 days', `/api/purchases?from=${new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10)}&to=${new Date().toISOString().slice(0, 10)}`],
      ['search a supplier name', '/api/purchases?search=Supplier%200042'],
      ['search an item name', '/api/purchases?search=Product%200123'],
      ['search a PO number', '/api/purchases?search=PO-1700000012345'],
      ['page 400 (offset 10,000)', '/api/purchases?offset=10000'],
    ];
    for (const [label, route] of routes) {
      const app = await timed(`${env.url}${route}`, env.headers);
      const base = await timed(helloUrl);
      const ratio = percentile(app, 50) / percentile(base, 50);
      console.log(
        `| ${kind} | ${label}: GET ${route.replace(supplier!.id, '<supplier>')} | ${percentile(app, 50).toFixed(1)} | ${percentile(app, 95).toFixed(1)} | ${app[app.length - 1]!.toFixed(1)} | ${percentile(base, 50).toFixed(2)} | ${ratio.toFixed(0)} | ${load()} |`,
      );
    }

    // (b) Receiving a 100-line purchase, each line a product of its own (100 batches, movements and prices).
    const products = await q.query<{ id: string }>(`SELECT id FROM products WHERE pharmacy_id = $1 ORDER BY name LIMIT $2`, [p, LINES]);
    const post = async (path: string, body: unknown) => {
      const response = await fetch(`${env.url}${path}`, {
        method: 'POST',
        headers: { ...env.headers, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
        body: JSON.stringify(body),
      });
      const json = (await response.json()) as { purchase?: { id: string }; error?: unknown };
      if (response.status >= 300) throw new Error(`${path}: ${response.status} ${JSON.stringify(json)}`);
      return json;
    };
    const times: number[] = [];
    for (let r = 0; r < RECEIPTS; r += 1) {
      const created = await post('/api/purchases', {
        supplierId: supplier!.id,
        date: new Date().toISOString().slice(0, 10),
        status: 'ordered',
        items: products.map((product, i) => ({
          productId: product.id,
          quantity: 12,
          purchasePriceCents: 5_000 + i,
          sellingPriceCents: 8_000 + i,
          expiryDate: '2029-06-30',
          batchNumber: `BENCH-${r}-${i}`,
          applyTax: i % 2 === 0,
        })),
      });
      const began = performance.now();
      await post(`/api/purchases/${created.purchase!.id}/receive`, {});
      times.push(performance.now() - began);
    }
    times.sort((a, b) => a - b);
    receipts.push(
      `| ${kind} | receive a ${LINES}-line purchase (POST /api/purchases/:id/receive) | ${percentile(times, 50).toFixed(0)} | ${times[times.length - 1]!.toFixed(0)} | ${RECEIPTS} | ${load()} |`,
    );
  } finally {
    await env.close();
  }
}
console.log('\n| database | write | p50 ms | max ms | runs | load (1, 5, 15 min) |');
console.log('| --- | --- | ---: | ---: | ---: | --- |');
for (const line of receipts) console.log(line);
await hello.close();
