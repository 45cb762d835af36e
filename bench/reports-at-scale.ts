// Benchmark: the dashboard and the reports of a grown pharmacy. One pharmacy with 3 branches, BENCH_PRODUCTS products
// (default 1,000; 10 of them DDA) and BENCH_LINES sale lines (default 1,000,000) over about a third as many sales,
// spread evenly over the 730 business days up to today, generated through the database (INSERT ... SELECT
// generate_series as the table owner, in chunks of BENCH_CHUNK sales, with the summary triggers on: the per-day
// summaries are what the triggers made). Every line took one batch (sale_item_batches, its cost); 1 line in 50 sells
// a DDA product, and those lines' stock movements (after an opening movement per branch and product) are in the
// ledger in sequence order with the quantities after them. Then ANALYZE, and over real HTTP as the owner:
//   the dashboard for this month and for a year, the sales report by product for a year, the DDA register for a year,
// each BENCH_REQUESTS times at 1 client and BENCH_CONCURRENT_REQUESTS times at 10 clients (p50 / p95), beside a bare
// Fastify hello-world and the app's own GET /health in the same run.
// A measurement stops after BENCH_BUDGET_S seconds (25) once each client sent 2: the table gives the requests counted.
// Run: npm run bench -- reports-at-scale  (or npx tsx bench/reports-at-scale.ts; BENCH_KINDS=postgres,pglite; BENCH_LINES,
// BENCH_PGLITE_LINES for PGlite alone; BENCH_EXPLAIN=1 prints the plan of the by-product sum; BENCH_KEEP=1 keeps the
// PostgreSQL database). About 2-5 minutes of generation per kind at 1,000,000 lines on 2 cores.
import { execSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { benchEnv, benchKinds, machine, percentile, productName, type BenchEnv, type BenchKind } from './lib/stock-bench.ts';
import { helloWorld, timedGets } from './lib/sequential.ts';

const LINES = Number(process.env.BENCH_LINES ?? 1_000_000);
const PGLITE_LINES = Number(process.env.BENCH_PGLITE_LINES ?? LINES);
const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 1_000);
const DDA_PRODUCTS = 10;
const DAYS = 730;
const CHUNK = Number(process.env.BENCH_CHUNK ?? 50_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 50);
const CONCURRENT_REQUESTS = Number(process.env.BENCH_CONCURRENT_REQUESTS ?? 200);
const CLIENTS = 10;
/** Seconds one measurement (a request at a client count) may take before its clients stop; each sends MIN_EACH first. */
const BUDGET_S = Number(process.env.BENCH_BUDGET_S ?? 25);
const MIN_EACH = 2;
/** Pieces each DDA product opens with in each branch (more than two years of its sales take). */
const DDA_OPENING = 100_000;
const ZONE = 'Africa/Nairobi';

const load = () => execSync('uptime', { encoding: 'utf8' }).trim().replace(/^.*load average: /, '');

/** The lines of a sale: 1 to 5 (3 on average), so the sales are a third of the lines. */
const salesFor = (lines: number) => Math.ceil(lines / 3);

/** Fills the pharmacy of `env` (its two branches plus a third) with `lines` sale lines; returns the sales' count and seconds taken. */
async function generate(env: BenchEnv, lines: number): Promise<{ sales: number; lines: number; seconds: number; today: string }> {
  const began = performance.now();
  const q = env.db.owner;
  const p = env.pharmacyId;
  const [third] = await q.query<{ id: string }>(`INSERT INTO branches (pharmacy_id, name) VALUES ($1, 'Karen Branch') RETURNING id`, [p]);
  env.branches.push({ id: third!.id, name: 'Karen Branch' });
  // Products: the first DDA_PRODUCTS are controlled; every third carries 16 % VAT.
  const names = Array.from({ length: PRODUCTS }, (_, i) => (i < DDA_PRODUCTS ? `DDA ${productName(i)}` : productName(i)));
  await q.query(
    `INSERT INTO products (pharmacy_id, name, sku, category, is_dda, tax_applied, tax_rate_basis_points)
     SELECT $1, n, 'SKU-' || o, CASE WHEN o <= $3 THEN 'Medicine' ELSE (ARRAY['Medicine','Supplies','Cosmetics','Supplements'])[1 + o % 4] END,
            o <= $3, o % 3 = 0, CASE WHEN o % 3 = 0 THEN 1600 ELSE 0 END
       FROM unnest($2::text[]) WITH ORDINALITY AS t(n, o)`,
    [p, names, DDA_PRODUCTS],
  );
  await q.query(
    `INSERT INTO branch_products (pharmacy_id, branch_id, product_id, selling_price_cents, purchase_price_cents, quantity)
     SELECT $1, b.id, x.id, price, price * 7 / 10, CASE WHEN x.is_dda THEN $2 ELSE 1000000 END
       FROM products x CROSS JOIN branches b
       CROSS JOIN LATERAL (SELECT (50 + (hashtext(x.sku)::bigint + 2147483648) % 950) * 100 AS price) pr
      WHERE x.pharmacy_id = $1 AND b.pharmacy_id = $1`,
    [p, DDA_OPENING],
  );
  await q.query(
    `INSERT INTO batches (pharmacy_id, branch_id, product_id, batch_number, expiry_date, quantity, unit_cost_cents, source, received_at)
     SELECT $1, bp.branch_id, bp.product_id, 'B-' || left(bp.product_id::text, 8), current_date + 400, bp.quantity, bp.purchase_price_cents, 'opening',
            now() - interval '${DAYS + 1} days'
       FROM branch_products bp WHERE bp.pharmacy_id = $1`,
    [p],
  );
  const [{ today }] = (await q.query<{ today: string }>(`SELECT to_char((now() AT TIME ZONE '${ZONE}')::date, 'YYYY-MM-DD') AS today`)) as [{ today: string }];
  const sales = salesFor(lines);
  const first = `('${today}'::date - ${DAYS - 1})`;
  await env.db.ownerSession(async (s) => {
    // What one line may sell (k 0..DDA-1: the DDA products) and where (k 0..2: the branches), with its batch.
    await s.exec(`
      CREATE TEMP TABLE gen_products AS
        SELECT substr(x.sku, 5)::int - 1 AS k, x.id AS product_id, x.name, x.sku, x.is_dda,
               x.tax_rate_basis_points AS rate
          FROM products x WHERE x.pharmacy_id = '${p}';
      CREATE UNIQUE INDEX ON gen_products (k);
      CREATE TEMP TABLE gen_branches AS
        SELECT (row_number() OVER (ORDER BY b.is_default DESC, b.name) - 1)::int AS k, b.id AS branch_id FROM branches b WHERE b.pharmacy_id = '${p}';
      CREATE TEMP TABLE gen_stock AS
        SELECT bp.branch_id, bp.product_id, bp.selling_price_cents AS price, bp.purchase_price_cents AS cost, bt.id AS batch_id, bt.batch_number, bt.expiry_date
          FROM branch_products bp JOIN batches bt ON bt.pharmacy_id = bp.pharmacy_id AND bt.branch_id = bp.branch_id AND bt.product_id = bp.product_id
         WHERE bp.pharmacy_id = '${p}';
      CREATE UNIQUE INDEX ON gen_stock (branch_id, product_id);
      ANALYZE gen_products; ANALYZE gen_branches; ANALYZE gen_stock;`);
    for (let from = 1; from <= sales; from += CHUNK) {
      const to = Math.min(sales, from + CHUNK - 1);
      const chunkBegan = performance.now();
      // Sale n: branch n % 3, day (n - 1) * DAYS / sales from the first, between 08:00 and 20:00 there; lines 1 + n % 5;
      // a line's product by a hash of (n, line): 1 in 50 a DDA product; 1 to 3 pieces.
      await s.exec(`
        DROP TABLE IF EXISTS gen_lines;
        CREATE TEMP TABLE gen_lines AS
          SELECT n, l AS line, md5('bench-sale-' || n)::uuid AS sale_id, b.branch_id, d AS sale_date,
                 ((d + time '08:00' + make_interval(secs => (n::bigint * 7919) % 43200))::timestamp AT TIME ZONE '${ZONE}') AS created_at,
                 (ARRAY['Cash','Cash','M-Pesa','M-Pesa','M-Pesa','Card','Cash'])[1 + n % 7] AS method,
                 g.product_id, g.name, g.sku, g.is_dda, g.rate, st.price, st.cost, st.batch_id, st.batch_number, st.expiry_date,
                 q AS quantity, st.price * q AS gross, round(st.price * q * g.rate::numeric / (10000 + g.rate))::bigint AS tax
            FROM generate_series(${from}, ${to}) AS n
           CROSS JOIN LATERAL generate_series(1, 1 + n % 5) AS l
           CROSS JOIN LATERAL (SELECT hashint4(n * 8 + l)::bigint + 2147483648 AS h, 1 + (n * 31 + l) % 3 AS q,
                                      ${first} + ((n - 1)::bigint * ${DAYS} / ${sales})::int AS d) hh
            JOIN gen_products g ON g.k = CASE WHEN h % 50 = 0 THEN (h / 50) % ${DDA_PRODUCTS} ELSE ${DDA_PRODUCTS} + h % ${PRODUCTS - DDA_PRODUCTS} END
            JOIN gen_branches b ON b.k = n % 3
            JOIN gen_stock st ON st.branch_id = b.branch_id AND st.product_id = g.product_id;
        INSERT INTO sales (pharmacy_id, id, invoice_number, branch_id, client_name, cashier_id, cashier_name, sale_date, subtotal_cents, tax_cents,
                           total_cents, amount_paid_cents, payment_method, created_at, client_time)
        SELECT '${p}', sale_id, 'INV-' || lpad(n::text, 7, '0'), branch_id, 'Walk-in Customer', '${env.ownerId}', 'Bench Owner', sale_date,
               sum(gross), sum(tax), sum(gross), sum(gross), method, created_at, created_at
          FROM gen_lines GROUP BY n, sale_id, branch_id, sale_date, method, created_at ORDER BY n;
        INSERT INTO sale_payments (pharmacy_id, sale_id, position, method, amount_cents, at)
        SELECT '${p}', sale_id, 1, method, sum(gross), created_at FROM gen_lines GROUP BY n, sale_id, method, created_at ORDER BY n;
        INSERT INTO sale_items (pharmacy_id, sale_id, line, product_id, name, sku, quantity, unit_mode, package_size, unit_price_cents, list_price_cents,
                                cost_cents, gross_cents, tax_rate_basis_points, tax_cents, total_cents, is_dda, prescription)
        SELECT '${p}', sale_id, line, product_id, name, sku, quantity, 'P', 1, price, price, cost, gross, rate, tax, gross, is_dda,
               CASE WHEN is_dda THEN jsonb_build_object('doctorName', 'Dr. Bench', 'hospitalName', 'Bench Hospital', 'prescriptionNumber', 'RX-' || n,
                                                        'prescriptionDate', sale_date::text, 'patientId', 'ID-' || n) END
          FROM gen_lines ORDER BY n, line;
        INSERT INTO sale_item_batches (pharmacy_id, sale_id, line, batch_id, batch_number, expiry_date, quantity, unit_cost_cents)
        SELECT '${p}', sale_id, line, batch_id, batch_number, expiry_date, quantity, cost FROM gen_lines ORDER BY n, line;`);
      console.error(`  sales ${from}..${to}: ${((performance.now() - chunkBegan) / 1000).toFixed(1)} s`);
    }
    await s.exec(`UPDATE invoice_counters SET next_value = ${sales + 1} WHERE pharmacy_id = '${p}' AND scope = 'INV'`);
    // The DDA products' ledger: an opening movement in each branch the day before the first sale, then each sale line
    // in the order the sales were made (sequence follows the insert's ORDER BY), with the branch's and the batch's
    // on-hand after it.
    await s.exec(`
      INSERT INTO stock_movements (pharmacy_id, branch_id, product_id, batch_id, kind, delta, quantity_after, batch_quantity_after, reason, user_id, at)
      SELECT '${p}', st.branch_id, st.product_id, st.batch_id, 'opening', ${DDA_OPENING}, ${DDA_OPENING}, ${DDA_OPENING}, 'Opening stock', '${env.ownerId}',
             ((${first} - 1)::timestamp + time '07:00') AT TIME ZONE '${ZONE}'
        FROM gen_stock st JOIN gen_products g ON g.product_id = st.product_id AND g.is_dda
       ORDER BY st.branch_id, st.product_id;
      INSERT INTO stock_movements (pharmacy_id, branch_id, product_id, batch_id, kind, delta, quantity_after, batch_quantity_after, reference_type,
                                   reference_id, user_id, at)
      SELECT '${p}', branch_id, product_id, batch_id, 'sale', -quantity, after, after, 'sale', sale_id::text, '${env.ownerId}', created_at
        FROM (SELECT s.branch_id, i.product_id, b.batch_id, b.quantity, s.id AS sale_id, s.created_at, i.line,
                     ${DDA_OPENING} - sum(b.quantity) OVER (PARTITION BY s.branch_id, i.product_id ORDER BY s.created_at, s.id, i.line) AS after
                FROM sale_items i
                JOIN sales s ON s.pharmacy_id = i.pharmacy_id AND s.id = i.sale_id
                JOIN sale_item_batches b ON b.pharmacy_id = i.pharmacy_id AND b.sale_id = i.sale_id AND b.line = i.line
               WHERE i.pharmacy_id = '${p}' AND i.is_dda) x
       ORDER BY created_at, sale_id, line;`);
    // The DDA stock on hand is what the ledger says.
    await s.exec(`
      UPDATE branch_products bp SET quantity = m.quantity_after
        FROM (SELECT DISTINCT ON (branch_id, product_id) branch_id, product_id, quantity_after FROM stock_movements
               WHERE pharmacy_id = '${p}' ORDER BY branch_id, product_id, sequence DESC) m
       WHERE bp.pharmacy_id = '${p}' AND bp.branch_id = m.branch_id AND bp.product_id = m.product_id;
      UPDATE batches bt SET quantity = bp.quantity FROM branch_products bp
       WHERE bt.pharmacy_id = '${p}' AND bp.pharmacy_id = bt.pharmacy_id AND bp.branch_id = bt.branch_id AND bp.product_id = bt.product_id;
      DROP TABLE gen_lines; DROP TABLE gen_products; DROP TABLE gen_branches; DROP TABLE gen_stock;`);
  });
  await q.query('ANALYZE');
  const [count] = await q.query<{ sales: number; lines: number }>(
    `SELECT (SELECT count(*) FROM sales WHERE pharmacy_id = $1)::int AS sales, (SELECT count(*) FROM sale_items WHERE pharmacy_id = $1)::int AS lines`,
    [p],
  );
  return { sales: count!.sales, lines: count!.lines, seconds: (performance.now() - began) / 1000, today };
}

/**
 * `total` GETs of `url`: at 1 client one after the other, else `clients` clients each sending its share in turn. A
 * client stops early once BUDGET_S seconds have passed (after at least MIN_EACH of its own): a slow request is then
 * measured on fewer requests, and the table says how many.
 */
async function timed(url: string, headers: Record<string, string>, clients: number, total: number): Promise<number[]> {
  const until = performance.now() + BUDGET_S * 1000;
  const client = async (share: number) => {
    const times: number[] = [];
    while (times.length < share && (times.length < MIN_EACH || performance.now() < until)) times.push(...(await timedGets(url, 1, headers)));
    return times;
  };
  const shares = await Promise.all(Array.from({ length: clients }, () => client(Math.ceil(total / clients))));
  return shares.flat().sort((a, b) => a - b);
}

const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

const rows: string[] = [];
const generation: string[] = [];
console.log(`\nMachine: ${machine()}`);

for (const kind of benchKinds() as BenchKind[]) {
  const lines = kind === 'pglite' ? PGLITE_LINES : LINES;
  const pgliteDir = kind === 'pglite' ? mkdtempSync(path.join(os.tmpdir(), 'pp-bench-reports-')) : undefined;
  const env = await benchEnv(kind, { pgliteDir });
  const hello = await helloWorld();
  try {
    console.error(`${kind}: generating ${lines} sale lines (load ${load()})`);
    const made = await generate(env, lines);
    generation.push(`${kind}: ${made.sales} sales, ${made.lines} lines, generated and analysed in ${made.seconds.toFixed(0)} s`);
    console.error(generation.at(-1));
    const yearStart = addDays(made.today, -364);
    const year = `dateFilter=custom&startDate=${yearStart}&endDate=${made.today}`;
    const requests: { name: string; url: string; headers: Record<string, string>; aim: number | null }[] = [
      { name: 'hello-world (bare Fastify)', url: hello.url, headers: {}, aim: null },
      { name: 'GET /health', url: `${env.url}/health`, headers: {}, aim: null },
      { name: 'dashboard, this month', url: `${env.url}/api/dashboard/sales?dateFilter=thisMonth`, headers: env.headers, aim: kind === 'postgres' ? 150 : 1000 },
      { name: 'dashboard, a year', url: `${env.url}/api/dashboard/sales?${year}`, headers: env.headers, aim: kind === 'postgres' ? 500 : 1000 },
      { name: 'sales by product, a year', url: `${env.url}/api/reports/sales/products?${year}`, headers: env.headers, aim: kind === 'postgres' ? 500 : 1000 },
      { name: 'DDA register, a year', url: `${env.url}/api/reports/dda?from=${yearStart}&to=${made.today}`, headers: env.headers, aim: kind === 'postgres' ? 500 : 1000 },
    ];
    for (const r of requests) {
      // What it answers (so a figure is never that of an empty answer), then a warm-up: prepared plans, caches.
      const answer = await fetch(r.url, { headers: r.headers });
      const body = await answer.text();
      console.error(`  ${r.name}: ${answer.status}, ${body.length} bytes: ${body.slice(0, 160)}`);
      await timedGets(r.url, 2, r.headers);
      const one = await timed(r.url, r.headers, 1, REQUESTS);
      const many = await timed(r.url, r.headers, CLIENTS, CONCURRENT_REQUESTS);
      const p95 = percentile(many, 95);
      const verdict = r.aim === null ? '' : Math.max(percentile(one, 95), p95) <= r.aim ? `p95 < ${r.aim} ms: yes` : `p95 < ${r.aim} ms: **no**`;
      rows.push(
        `| ${kind} | ${r.name} | ${one.length} / ${many.length} | ${percentile(one, 50).toFixed(1)} | ${percentile(one, 95).toFixed(1)} | ${percentile(many, 50).toFixed(1)} | ${p95.toFixed(1)} | ${verdict} | ${load()} |`,
      );
      console.error(rows.at(-1));
    }
    if (process.env.BENCH_EXPLAIN) {
      const plan = await env.db.owner.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN (ANALYZE, BUFFERS) SELECT product_id, sum(quantity), sum(revenue_cents) FROM daily_product_sales
          WHERE pharmacy_id = $1 AND business_day BETWEEN $2 AND $3 GROUP BY product_id`,
        [env.pharmacyId, yearStart, made.today],
      );
      console.log(plan.map((row) => row['QUERY PLAN']).join('\n'));
    }
  } finally {
    await hello.close();
    await env.close();
    if (pgliteDir) rmSync(pgliteDir, { recursive: true, force: true });
  }
}

console.log(`\n${generation.join('\n')}`);
console.log(`${REQUESTS} requests at 1 client, ${CONCURRENT_REQUESTS} at ${CLIENTS} clients (fewer where ${BUDGET_S} s ran out), real HTTP on loopback, load average (1, 5, 15 min) after each row\n`);
console.log(`| database | request | requests (1 / ${CLIENTS} clients) | 1 client p50 ms | 1 client p95 ms | ${CLIENTS} clients p50 ms | ${CLIENTS} clients p95 ms | aim | load |`);
console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: | --- | --- |');
for (const row of rows) console.log(row);
