// Benchmark (issue 9, performance (a)): completed 3-item sales per second over HTTP with 20 tills at once, on
// PostgreSQL and on PGlite, beside pgbench's TPC-B on the same PostgreSQL server in the same run.
//   - the real app (buildApp) listening on loopback, a fresh database of each kind, one pharmacy (standard plan: no
//     transaction limit) with BENCH_PRODUCTS products imported through POST /api/products/import, each with a batch of
//     100,000 pieces in the Main Branch (so no sale ever runs short);
//   - each request is a real POST /api/sales as the owner (session cookie, CSRF header): 3 different random products,
//     1 piece each, paid in cash to the cent, a fresh UUID as the sale's id and as its Idempotency-Key;
//   - one sale first (a refused body shows at once), then the pharmacy's history: BENCH_HISTORY sales (1,000) by the
//     same 20 tills, then ANALYZE of the changed tables, as autovacuum or the app's maintenance pass keeps a running
//     server's statistics within 10 % of its tables (lib/statistics.ts; BENCH_NO_ANALYZE=1 leaves them without);
//   - autocannon with BENCH_CONNECTIONS connections (the tills) for BENCH_SECONDS; then the sales, their lines and the
//     ledger are counted in the database (every 201 must be one sale of 3 lines; stock = ledger);
//   - pgbench -i -s BENCH_PGBENCH_SCALE into a scratch database, then its TPC-B (tpcb-like) script at the same clients.
// Prints a markdown table with sales/s ÷ TPC-B TPS and the CPU a sale and a TPC-B transaction cost (lib/cpu.ts: the
// whole machine, the Node process, the database's backends); never passes or fails on time.
// Run: npx tsx bench/sales-throughput.ts   (BENCH_SECONDS=10, BENCH_CONNECTIONS=20, BENCH_PRODUCTS=300,
//      BENCH_PGBENCH_SCALE=20, BENCH_KINDS=pglite,postgres, BENCH_DATABASE_URL=..., BENCH_SETUP_SQL: SQL run as owner first,
//      BENCH_HISTORY=1000: sales before the measured run, BENCH_SCANS=1: the tables read by sequential scans)
import autocannon from 'autocannon';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { startCpu } from './lib/cpu.ts';
import { analyzeLikeARunningServer, printSequentialScans } from './lib/statistics.ts';
import { benchEnv, benchKinds, machine, type BenchEnv, type BenchKind } from './lib/stock-bench.ts';
import { pgbenchDatabase, type PgbenchFigures } from './lib/pgbench.ts';

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CLIENTS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 300);
const SCALE = Number(process.env.BENCH_PGBENCH_SCALE ?? 20);
const PRICE_CENTS = 1200; // whole shillings: KES totals are rounded to whole units
const LINES = 3;
/** Sales made before the measured run (then ANALYZE): the pharmacy's history. BENCH_HISTORY=0: a new pharmacy. */
const HISTORY = Number(process.env.BENCH_HISTORY ?? 1000);

interface Figures {
  label: string;
  clients: number;
  perSecond: number;
  p50: number;
  p99: number;
  failed: number;
  note?: string;
  /** CPU per sale, ms (lib/cpu.ts): the whole machine, this Node process (the app and autocannon), the database's backends. */
  machineCpu?: number;
  nodeCpu?: number;
  postgresCpu?: number;
}

const uptime = () => execFileSync('uptime', { encoding: 'utf8' }).trim();

/** The catalogue: PRODUCTS products with a price and 100,000 pieces in one batch in the Main Branch. */
async function seedCatalogue(env: BenchEnv): Promise<string[]> {
  const lines = ['Name,SKU,Category,Branch,Selling Price (KSh),Purchase Price (KSh),Opening Quantity,Batch Number,Expiry Date,DDA'];
  for (let i = 0; i < PRODUCTS; i += 1) lines.push(`Till product ${i},TILL-${i},Medicine,Main Branch,${(PRICE_CENTS / 100).toFixed(2)},8.00,100000,TB${i},2030-06-30,No`);
  const response = await fetch(`${env.url}/api/products/import?mode=all-or-nothing`, {
    method: 'POST',
    headers: { ...env.headers, 'content-type': 'text/csv' },
    body: lines.join('\n'),
  });
  if (response.status !== 200) throw new Error(`import failed: ${response.status} ${await response.text()}`);
  const rows = await env.db.owner.query<{ id: string }>(`SELECT id FROM products WHERE pharmacy_id = $1 AND sku LIKE 'TILL-%'`, [env.pharmacyId]);
  if (rows.length !== PRODUCTS) throw new Error(`expected ${PRODUCTS} products, found ${rows.length}`);
  return rows.map((row) => row.id);
}

function saleBody(products: readonly string[]): string {
  const picked = new Set<string>();
  while (picked.size < LINES) picked.add(products[Math.floor(Math.random() * products.length)]!);
  return JSON.stringify({
    lines: [...picked].map((productId) => ({ productId, quantity: 1 })),
    payments: [{ method: 'Cash', amountCents: PRICE_CENTS * LINES }],
    expectedTotalCents: PRICE_CENTS * LINES,
  });
}

/**
 * autocannon: `connections` tills posting sales for DURATION s (or `amount` sales in all, for the history), each with
 * its own sale id and Idempotency-Key.
 */
function sell(env: BenchEnv, products: readonly string[], connections: number, amount?: number): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: `${env.url}/api/sales`,
        connections,
        ...(amount === undefined ? { duration: DURATION } : { amount }),
        requests: [
          {
            method: 'POST',
            setupRequest: (request) => {
              const id = randomUUID();
              const body = JSON.parse(saleBody(products)) as Record<string, unknown>;
              return { ...request, headers: { ...env.headers, 'content-type': 'application/json', 'idempotency-key': id }, body: JSON.stringify({ id, ...body }) };
            },
          },
        ],
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
}

async function salesRun(kind: BenchKind): Promise<Figures> {
  const label = kind === 'postgres' ? 'POST /api/sales (3 items), PostgreSQL (loopback)' : 'POST /api/sales (3 items), PGlite (in memory)';
  const env = await benchEnv(kind);
  try {
    let started = performance.now();
    const products = await seedCatalogue(env);
    console.log(`${kind}: ${PRODUCTS} products with stock imported in ${((performance.now() - started) / 1000).toFixed(1)} s`);

    // BENCH_SETUP_SQL: statements run as the owner before the sales (experiments: a constraint dropped).
    if (process.env.BENCH_SETUP_SQL) await env.db.owner.query(process.env.BENCH_SETUP_SQL);
    // One sale first: shows a refused body at once instead of a table of failures.
    const probeId = randomUUID();
    const probe = await fetch(`${env.url}/api/sales`, {
      method: 'POST',
      headers: { ...env.headers, 'content-type': 'application/json', 'idempotency-key': probeId },
      body: JSON.stringify({ id: probeId, ...(JSON.parse(saleBody(products)) as object) }),
    });
    if (probe.status !== 201) throw new Error(`the first sale was refused: ${probe.status} ${await probe.text()}`);
    // History: the pharmacy has sold before (HISTORY sales by CLIENTS tills at once), then the statistics a running
    // server has (bench/lib/statistics.ts). A running server's statistics follow its tables within 10 % (autovacuum's
    // threshold, the app's pass every minute); this run compresses weeks of a pharmacy's sales into seconds, so the
    // tables get a history first instead of being analysed while nearly empty and then growing 40-fold unanalysed
    // (the foreign key checks planned on a one-page table then read the whole table on every sale).
    if (HISTORY > 0) {
      const history = await sell(env, products, CLIENTS, HISTORY);
      if (history.non2xx > 0 || history.errors > 0) throw new Error(`history: ${history.non2xx} of ${HISTORY} sales refused, ${history.errors} errors`);
    }
    if (!process.env.BENCH_NO_ANALYZE) await analyzeLikeARunningServer(env.db);

    started = performance.now();
    const cpu = await startCpu(kind === 'postgres' ? env.db.owner : null);
    const result = await sell(env, products, CLIENTS);
    const used = await cpu.finish(result.requests.total);
    const seconds = (performance.now() - started) / 1000;
    const ok = result['2xx'];
    const [sales] = await env.db.owner.query<{ sales: number; lines: number }>(
      `SELECT count(*)::int AS sales, (SELECT count(*)::int FROM sale_items WHERE pharmacy_id = $1) AS lines FROM sales WHERE pharmacy_id = $1`,
      [env.pharmacyId],
    );
    const [ledger] = await env.db.owner.query<{ mismatched: number }>(
      `SELECT count(*)::int AS mismatched FROM branch_products bp
        WHERE bp.pharmacy_id = $1
          AND bp.quantity + bp.reserved_quantity <> (SELECT coalesce(sum(m.delta), 0) FROM stock_movements m
                                              WHERE m.pharmacy_id = bp.pharmacy_id AND m.branch_id = bp.branch_id AND m.product_id = bp.product_id)`,
      [env.pharmacyId],
    );
    await printSequentialScans(env.db);
    const note = `${ok} answered 201 in ${seconds.toFixed(1)} s; in the database: ${sales!.sales} sales (${HISTORY + 1} before the run), ${sales!.lines} lines; branch stock ≠ ledger for ${ledger!.mismatched} products`;
    console.log(`${kind}: ${note}`);
    if (result.non2xx > 0 || result.errors > 0) console.error(`${kind}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`);
    return {
      label,
      clients: CLIENTS,
      perSecond: result.requests.average,
      p50: result.latency.p50,
      p99: result.latency.p99,
      failed: result.non2xx + result.errors,
      note,
      ...used,
      // PGlite runs in this process: its CPU is in Node's figure.
      ...(kind === 'pglite' ? { postgresCpu: undefined } : {}),
    };
  } finally {
    await env.close();
  }
}

console.log(`\nMachine: ${machine()}`);
console.log(`Load at start (uptime): ${uptime()}`);
console.log(`${DURATION} s per measurement, ${CLIENTS} clients; ${PRODUCTS} products; pgbench scale ${SCALE}\n`);

const kinds = benchKinds();
const rows: (Figures | PgbenchFigures)[] = [];
let tpcb: PgbenchFigures | undefined;
if (kinds.includes('postgres')) {
  const scratch = await pgbenchDatabase(SCALE);
  try {
    console.log(`pgbench -i -s ${SCALE}: ${scratch.initSeconds.toFixed(1)} s`);
    tpcb = scratch.run('pgbench TPC-B (tpcb-like), same PostgreSQL server', CLIENTS, DURATION);
    rows.push(tpcb);
  } finally {
    await scratch.drop();
  }
}
for (const kind of kinds) rows.push(await salesRun(kind));

console.log('\n| measurement | clients | sales or transactions/s | latency p50 ms | latency p99 ms | ratio to TPC-B | failed | machine CPU ms each | Node CPU ms each | PostgreSQL CPU ms each |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
const ms = (value: number | undefined) => (value === undefined || Number.isNaN(value) ? '' : value.toFixed(2));
for (const row of rows) {
  const ratio = tpcb ? (row.perSecond / tpcb.perSecond).toFixed(3) : 'n/a';
  const cpu = row as Partial<Figures>;
  console.log(
    `| ${row.label} | ${row.clients} | ${row.perSecond.toFixed(0)} | ${row.p50.toFixed(1)} | ${row.p99.toFixed(1)} | ${ratio} | ${row.failed} | ${ms(row.machineCpu)} | ${ms(cpu.nodeCpu)} | ${ms(cpu.postgresCpu)} |`,
  );
}
console.log(`\nLoad at end (uptime): ${uptime()}`);
