// Benchmark: the app's write path against pgbench's TPC-B on the same PostgreSQL server, in the same run.
//   (a) pgbench TPC-B (scale 20, its own scratch database), the baseline;
//   (b) the same TPC-B script with one NOTIFY per transaction (one LISTEN connection open, as the app has);
//   (c) POST /api/stock/adjustments, one item (a random product of the demo catalogue, +1 piece);
//   (d) POST /api/products, a new product with a unique name per request;
// at 20 clients each, then (a), (c) and (d) again at 1 client. Prints a markdown table; never passes or fails on time.
// Beside each rate it prints CPU per transaction or request, which a shared machine moves far less than throughput:
// the whole machine's busy time (/proc/stat: every process and the kernel) and, for HTTP, this Node process (the app
// and autocannon, which run in it) and the app database's PostgreSQL backends (/proc/<pid>/stat).
// Run: npx tsx bench/write-path.ts   (BENCH_SECONDS=10, BENCH_CONNECTIONS=20, BENCH_PGBENCH_SCALE=20, BENCH_DATABASE_URL=...,
// BENCH_ONLY=adjustments|products: TPC-B and that one write at BENCH_CONNECTIONS only; BENCH_SETUP_SQL: run as owner first;
// BENCH_KEYS=0: no Idempotency-Key on the requests — by default each carries a new one, as the browser's do;
// BENCH_NO_ANALYZE=1: no ANALYZE after the history — tables without statistics, as on a new database;
// BENCH_HISTORY=1000: adjustments and products made before the measurements; BENCH_SCANS=1: tables read by sequential scans)
import autocannon from 'autocannon';
import { execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { DEMO_PHARMACY_ID, seedDemoData } from '../apps/server/src/db/seed.ts';
import { startCpu } from './lib/cpu.ts';
import { pgbenchDatabase, tpcbScript } from './lib/pgbench.ts';
import { analyzeLikeARunningServer, printSequentialScans } from './lib/statistics.ts';
import { BENCH_PG_URL, benchKinds, machine, openKind } from './lib/stock-bench.ts';

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CLIENTS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const SCALE = Number(process.env.BENCH_PGBENCH_SCALE ?? 20);
/** BENCH_KEYS=0: send no Idempotency-Key (the figures before decision 0084, when the browser sent none for these). */
const KEYED = process.env.BENCH_KEYS !== '0';
/** Adjustments and products made before the measurements (then ANALYZE): the pharmacy's history. */
const HISTORY = Number(process.env.BENCH_HISTORY ?? 1000);

interface Figures {
  label: string;
  clients: number;
  perSecond: number;
  p50: number;
  p99: number;
  /** Requests that did not answer 2xx (HTTP) or failed transactions (pgbench). */
  failed: number;
  /** The whole machine's busy CPU (every process and the kernel; /proc/stat) per transaction or request, ms. */
  machineCpu: number;
  /** HTTP only: this Node process (the app and autocannon) and the app's PostgreSQL backends, CPU ms per request. */
  nodeCpu?: number;
  postgresCpu?: number;
}

// ------------------------------------------------------------------------------------------------ HTTP

type Body = () => string;

/** autocannon at `connections` for DURATION s (or `amount` requests in all), each request's body made by `body`. */
function post(url: string, headers: Record<string, string>, connections: number, body: Body, amount?: number): Promise<autocannon.Result> {
  return new Promise<autocannon.Result>((resolve, reject) => {
    autocannon(
      {
        url,
        connections,
        ...(amount === undefined ? { duration: DURATION } : { amount }),
        requests: [
          {
            method: 'POST',
            headers: { ...headers, 'content-type': 'application/json' },
            // Each request with its own Idempotency-Key, as the browser sends one with every create (decision 0084).
            setupRequest: (req) => ({ ...req, headers: KEYED ? { ...req.headers, 'idempotency-key': randomUUID() } : req.headers, body: body() }),
          },
        ],
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
}

/** post() for DURATION s as one measurement; one retry if requests failed. */
async function http(label: string, url: string, headers: Record<string, string>, connections: number, body: Body): Promise<Figures> {
  const once = () => post(url, headers, connections, body);
  let cpu = await startCpu(db.owner);
  let result = await once();
  if (result.non2xx > 0 || result.errors > 0) {
    // Show one failing answer (other work may be changing the server), wait, and try once more.
    const sample = await fetch(url, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: body() });
    console.error(`${label}: ${result.non2xx} non-2xx, ${result.errors} errors; one answer: ${sample.status} ${(await sample.text()).slice(0, 500)}`);
    await new Promise((resolve) => setTimeout(resolve, 5000));
    cpu = await startCpu(db.owner);
    result = await once();
  }
  const used = await cpu.finish(result.requests.total);
  return {
    label,
    clients: connections,
    perSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failed: result.non2xx + result.errors,
    ...used,
  };
}

// ------------------------------------------------------------------------------------------------ run

if (!benchKinds().includes('postgres')) {
  console.log('write-path: PostgreSQL only (pgbench); BENCH_KINDS leaves it out, skipped.');
  process.exit(0);
}

console.log(`\nMachine: ${machine()}`);
console.log(`Load at start (uptime): ${execFileSync('uptime', { encoding: 'utf8' }).trim()}`);
console.log(`PostgreSQL: ${new URL(BENCH_PG_URL).host}; ${DURATION} s per measurement; pgbench scale ${SCALE}\n`);

const scratch = await pgbenchDatabase(SCALE);
console.log(`pgbench -i -s ${SCALE}: ${scratch.initSeconds.toFixed(1)} s`);
const pgbench = (label: string, clients: number, script: string): Figures => scratch.run(label, clients, DURATION, script);
const { db, drop } = await openKind('postgres');
let listener: pg.Client | undefined;
const app = await buildApp({ db, config: { ...loadConfig({}), webDist: '/nonexistent', seed: false } });
try {
  const started = performance.now();
  await seedDemoData(db);
  console.log(`demo seed: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const appUrl = await app.listen({ port: 0, host: '127.0.0.1' });

  // Sign in as the demo pharmacy's owner (standard plan: no product limit), with the CSRF cookie and header.
  const first = await fetch(`${appUrl}/api/me`);
  const csrf = /pp_csrf=([^;]+)/.exec(first.headers.get('set-cookie') ?? '')?.[1] ?? '';
  const login = await fetch(`${appUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: `pp_csrf=${csrf}`, 'x-csrf-token': csrf },
    body: JSON.stringify({ email: 'owner@afyabora.test', password: 'Pharma#2026' }),
  });
  if (login.status !== 200) throw new Error(`sign-in failed: ${login.status} ${await login.text()}`);
  const session = /pp_session=([^;]+)/.exec(login.headers.get('set-cookie') ?? '')?.[1];
  // The session's own CSRF token comes with the sign-in (decision 0089).
  const token = /pp_csrf=([^;]+)/.exec(login.headers.get('set-cookie') ?? '')?.[1] ?? '';
  const headers = { cookie: `pp_session=${session}; pp_csrf=${token}`, 'x-csrf-token': token };

  const catalogue = await db.owner.query<{ id: string }>(
    `SELECT id FROM products WHERE pharmacy_id = $1 AND is_active`,
    [DEMO_PHARMACY_ID],
  );
  if (catalogue.length === 0) throw new Error('the demo seed made no products for Afya Bora Pharmacy');
  console.log(`stock adjustments over ${catalogue.length} demo products; ${KEYED ? 'each request with a new Idempotency-Key' : 'no Idempotency-Key (BENCH_KEYS=0)'}\n`);
  const adjustment: Body = () =>
    JSON.stringify({
      reason: 'Write-path benchmark',
      items: [{ productId: catalogue[Math.floor(Math.random() * catalogue.length)]!.id, delta: 1, reasonType: 'count_correction' }],
    });
  const run = randomBytes(3).toString('hex');
  let n = 0;
  const product: Body = () => JSON.stringify({ name: `Bench product ${run}-${(n += 1)}`, sellingPriceCents: 1500, purchasePriceCents: 1000 });

  // One of each first (a refused body shows at once), then the pharmacy's history: HISTORY adjustments and HISTORY
  // products by CLIENTS clients, then the statistics a running server has (autovacuum, or the app's maintenance pass
  // where autovacuum is off: bench/lib/statistics.ts). A running server's statistics follow its tables within 10 %;
  // this run compresses weeks into seconds, so the tables get a history first instead of being analysed nearly empty
  // and then growing 40-fold unanalysed (the foreign key checks planned on a one-page table then read all of it).
  for (const [path, body] of [['/api/stock/adjustments', adjustment], ['/api/products', product]] as const) {
    const answer = await fetch(`${appUrl}${path}`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', ...(KEYED ? { 'idempotency-key': randomUUID() } : {}) },
      body: body(),
    });
    if (answer.status !== 201) throw new Error(`first ${path}: ${answer.status} ${await answer.text()}`);
    if (HISTORY > 0) {
      const history = await post(`${appUrl}${path}`, headers, CLIENTS, body, HISTORY);
      if (history.non2xx > 0 || history.errors > 0) throw new Error(`history ${path}: ${history.non2xx} of ${HISTORY} refused, ${history.errors} errors`);
    }
  }
  const analyzed = process.env.BENCH_NO_ANALYZE ? [] : await analyzeLikeARunningServer(db);
  console.log(`history: ${HISTORY + 1} adjustments and ${HISTORY + 1} products; ANALYZE of ${analyzed.length} changed tables${process.env.BENCH_NO_ANALYZE ? ' (BENCH_NO_ANALYZE: none)' : ''}\n`);

  // BENCH_SETUP_SQL: statements run as the owner before the measurements (experiments: a constraint dropped).
  if (process.env.BENCH_SETUP_SQL) await db.owner.query(process.env.BENCH_SETUP_SQL);
  const rows: Figures[] = [];
  // BENCH_ONLY=adjustments|products: TPC-B and that one HTTP write at CLIENTS only (for profiling one phase).
  const only = process.env.BENCH_ONLY;
  const all = only !== 'adjustments' && only !== 'products';
  rows.push(pgbench('(a) pgbench TPC-B', CLIENTS, tpcbScript('')));
  if (all) {
    listener = new pg.Client({ connectionString: BENCH_PG_URL.replace(/\/[^/]*$/, `/${scratch.name}`) });
    await listener.connect();
    await listener.query('LISTEN bench_channel');
    rows.push(pgbench('(b) pgbench TPC-B + NOTIFY', CLIENTS, tpcbScript('NOTIFY bench_channel;')));
    await listener.end();
    listener = undefined;
  }
  if (all || only === 'adjustments') rows.push(await http('(c) POST /api/stock/adjustments (1 item)', `${appUrl}/api/stock/adjustments`, headers, CLIENTS, adjustment));
  if (all || only === 'products') rows.push(await http('(d) POST /api/products', `${appUrl}/api/products`, headers, CLIENTS, product));
  await printSequentialScans(db);
  if (all) {
    rows.push(pgbench('(a) pgbench TPC-B', 1, tpcbScript('')));
    rows.push(await http('(c) POST /api/stock/adjustments (1 item)', `${appUrl}/api/stock/adjustments`, headers, 1, adjustment));
    rows.push(await http('(d) POST /api/products', `${appUrl}/api/products`, headers, 1, product));
  }

  console.log('| measurement | clients | transactions or requests/s | latency p50 ms | latency p99 ms | ratio to (a) at the same clients | failed | machine CPU ms each | Node CPU ms each | PostgreSQL CPU ms each |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const row of rows) {
    const base = rows.find((r) => r.label.startsWith('(a)') && r.clients === row.clients)!;
    console.log(
      `| ${row.label} | ${row.clients} | ${row.perSecond.toFixed(0)} | ${row.p50.toFixed(1)} | ${row.p99.toFixed(1)} | ${(row.perSecond / base.perSecond).toFixed(3)} | ${row.failed} | ${row.machineCpu.toFixed(2)} | ${row.nodeCpu?.toFixed(2) ?? ''} | ${row.postgresCpu?.toFixed(2) ?? ''} |`,
    );
  }
  console.log(`\nLoad at end (uptime): ${execFileSync('uptime', { encoding: 'utf8' }).trim()}`);
} finally {
  await listener?.end();
  await app.close();
  await db.close();
  await drop();
  await scratch.drop();
}
