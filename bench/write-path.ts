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
// BENCH_ONLY=adjustments|products: TPC-B and that one write at BENCH_CONNECTIONS only; BENCH_SETUP_SQL: run as owner first)
import autocannon from 'autocannon';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { DEMO_PHARMACY_ID, seedDemoData } from '../apps/server/src/db/seed.ts';
import { BENCH_PG_URL, benchKinds, machine, openKind, percentile } from './lib/stock-bench.ts';

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CLIENTS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const SCALE = Number(process.env.BENCH_PGBENCH_SCALE ?? 20);

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

/** Busy CPU of the whole machine so far (user, nice, system, irq, softirq, steal), in ms; /proc/stat (Linux). */
function machineBusyMs(): number {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = fields;
  return ((user + nice + system + irq + softirq + steal) * 1000) / CLOCK_TICKS;
}
const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** CPU (user + system, ms) the PostgreSQL backends of the given pids have used so far; gone pids count 0. */
function processCpuMs(pids: readonly number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // ended
    }
  }
  return (ticks * 1000) / CLOCK_TICKS;
}

// ------------------------------------------------------------------------------------------------ pgbench

const server = new URL(BENCH_PG_URL);
const pgbenchDb = `pp_pgbench_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
const connArgs = ['-h', server.hostname, '-p', server.port || '5432', '-U', decodeURIComponent(server.username || 'postgres')];

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: BENCH_PG_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** pgbench's own TPC-B-like script (pgbench 15 builtin "tpcb-like"), with extra statements before END. */
function tpcbScript(extra: string): string {
  return [
    '\\set aid random(1, 100000 * :scale)',
    '\\set bid random(1, 1 * :scale)',
    '\\set tid random(1, 10 * :scale)',
    '\\set delta random(-5000, 5000)',
    'BEGIN;',
    'UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;',
    'SELECT abalance FROM pgbench_accounts WHERE aid = :aid;',
    'UPDATE pgbench_tellers SET tbalance = tbalance + :delta WHERE tid = :tid;',
    'UPDATE pgbench_branches SET bbalance = bbalance + :delta WHERE bid = :bid;',
    'INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (:tid, :bid, :aid, :delta, CURRENT_TIMESTAMP);',
    extra,
    'END;',
    '',
  ].join('\n');
}

/** Runs pgbench with a script for DURATION s; tps from its summary, p50/p99 from its per-transaction log. */
function pgbench(label: string, clients: number, script: string): Figures {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pp-pgbench-'));
  try {
    const file = path.join(dir, 'script.sql');
    writeFileSync(file, script);
    const args = [...connArgs, '-n', '-c', String(clients), '-j', String(Math.min(2, clients)), '-T', String(DURATION), '-s', String(SCALE), '-f', file, '-l', `--log-prefix=${path.join(dir, 'tx')}`, pgbenchDb];
    const busyBefore = machineBusyMs();
    const run = spawnSync('pgbench', args, { cwd: dir, encoding: 'utf8' });
    const busy = machineBusyMs() - busyBefore;
    if (run.status !== 0) throw new Error(`pgbench failed (${run.status}): ${run.stderr}\n${run.stdout}`);
    const tps = Number(/tps = ([\d.]+) \(without initial connection time\)/.exec(run.stdout)?.[1]);
    const failed = Number(/number of failed transactions: (\d+)/.exec(run.stdout)?.[1] ?? 0);
    // Log lines: client_id transaction_no time_us script_no epoch epoch_us
    const latencies: number[] = [];
    for (const name of readdirSync(dir).filter((f) => f.startsWith('tx.'))) {
      for (const line of readFileSync(path.join(dir, name), 'utf8').split('\n')) {
        const us = Number(line.split(' ')[2]);
        if (line && Number.isFinite(us)) latencies.push(us / 1000);
      }
    }
    latencies.sort((a, b) => a - b);
    if (!Number.isFinite(tps) || latencies.length === 0) throw new Error(`could not read pgbench's output:\n${run.stdout}`);
    return { label, clients, perSecond: tps, p50: percentile(latencies, 50), p99: percentile(latencies, 99), failed, machineCpu: busy / latencies.length };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// ------------------------------------------------------------------------------------------------ HTTP

type Body = () => string;

/** The server processes of the app's database (its pool's connections and the owner's). */
async function appBackends(): Promise<{ pid: number }[]> {
  return db.owner.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE datname = current_database()`);
}

/** autocannon at `connections` for DURATION s, each request's body made by `body`; one retry if requests failed. */
async function http(label: string, url: string, headers: Record<string, string>, connections: number, body: Body): Promise<Figures> {
  const once = () =>
    new Promise<autocannon.Result>((resolve, reject) => {
      autocannon(
        {
          url,
          connections,
          duration: DURATION,
          requests: [{ method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, setupRequest: (req) => ({ ...req, body: body() }) }],
        },
        (error, result) => (error ? reject(error) : resolve(result)),
      );
    });
  const backends = async () => (await appBackends()).map((r) => r.pid);
  let pids = await backends();
  let busyBefore = machineBusyMs();
  let nodeBefore = process.cpuUsage();
  let pgBefore = processCpuMs(pids);
  let result = await once();
  if (result.non2xx > 0 || result.errors > 0) {
    // Show one failing answer (other work may be changing the server), wait, and try once more.
    const sample = await fetch(url, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: body() });
    console.error(`${label}: ${result.non2xx} non-2xx, ${result.errors} errors; one answer: ${sample.status} ${(await sample.text()).slice(0, 500)}`);
    await new Promise((resolve) => setTimeout(resolve, 5000));
    pids = await backends();
    busyBefore = machineBusyMs();
    nodeBefore = process.cpuUsage();
    pgBefore = processCpuMs(pids);
    result = await once();
  }
  const busy = machineBusyMs() - busyBefore;
  const node = process.cpuUsage(nodeBefore);
  // The pool's connections opened during the run are not in `pids`; the pool keeps them, so count them too.
  const later = (await backends()).filter((pid) => !pids.includes(pid));
  const pg = processCpuMs(pids) - pgBefore + processCpuMs(later);
  const done = result.requests.total;
  return {
    label,
    clients: connections,
    perSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failed: result.non2xx + result.errors,
    machineCpu: busy / done,
    nodeCpu: (node.user + node.system) / 1000 / done,
    postgresCpu: pg / done,
  };
}

// ------------------------------------------------------------------------------------------------ run

if (!benchKinds().includes('postgres')) {
  console.log('write-path: PostgreSQL only (pgbench); BENCH_KINDS leaves it out, skipped.');
  process.exit(0);
}

console.log(`\nMachine: ${machine()}`);
console.log(`Load at start (uptime): ${execFileSync('uptime', { encoding: 'utf8' }).trim()}`);
console.log(`PostgreSQL: ${server.hostname}:${server.port || '5432'}; ${DURATION} s per measurement; pgbench scale ${SCALE}\n`);

await admin(`CREATE DATABASE ${pgbenchDb}`);
const { db, drop } = await openKind('postgres');
let listener: pg.Client | undefined;
const app = await buildApp({ db, config: { ...loadConfig({}), webDist: '/nonexistent', seed: false } });
try {
  let started = performance.now();
  const init = spawnSync('pgbench', [...connArgs, '-i', '-q', '-s', String(SCALE), pgbenchDb], { encoding: 'utf8' });
  if (init.status !== 0) throw new Error(`pgbench -i failed: ${init.stderr}`);
  console.log(`pgbench -i -s ${SCALE}: ${((performance.now() - started) / 1000).toFixed(1)} s`);

  started = performance.now();
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
  const headers = { cookie: `pp_session=${session}; pp_csrf=${csrf}`, 'x-csrf-token': csrf };

  const catalogue = await db.owner.query<{ id: string }>(
    `SELECT id FROM products WHERE pharmacy_id = $1 AND is_active`,
    [DEMO_PHARMACY_ID],
  );
  if (catalogue.length === 0) throw new Error('the demo seed made no products for Afya Bora Pharmacy');
  console.log(`stock adjustments over ${catalogue.length} demo products\n`);
  const adjustment: Body = () =>
    JSON.stringify({
      reason: 'Write-path benchmark',
      items: [{ productId: catalogue[Math.floor(Math.random() * catalogue.length)]!.id, delta: 1, reasonType: 'count_correction' }],
    });
  const run = randomBytes(3).toString('hex');
  let n = 0;
  const product: Body = () => JSON.stringify({ name: `Bench product ${run}-${(n += 1)}`, sellingPriceCents: 1500, purchasePriceCents: 1000 });

  // BENCH_SETUP_SQL: statements run as the owner before the measurements (experiments: a constraint dropped).
  if (process.env.BENCH_SETUP_SQL) await db.owner.query(process.env.BENCH_SETUP_SQL);
  const rows: Figures[] = [];
  // BENCH_ONLY=adjustments|products: TPC-B and that one HTTP write at CLIENTS only (for profiling one phase).
  const only = process.env.BENCH_ONLY;
  if (only === 'adjustments' || only === 'products') {
    rows.push(pgbench('(a) pgbench TPC-B', CLIENTS, tpcbScript('')));
    console.log(`PHASE ${only} starts`);
    if (only === 'adjustments') rows.push(await http('(c) POST /api/stock/adjustments (1 item)', `${appUrl}/api/stock/adjustments`, headers, CLIENTS, adjustment));
    else rows.push(await http('(d) POST /api/products', `${appUrl}/api/products`, headers, CLIENTS, product));
    console.log('PHASE ends');
  } else {
  rows.push(pgbench('(a) pgbench TPC-B', CLIENTS, tpcbScript('')));
  listener = new pg.Client({ connectionString: BENCH_PG_URL.replace(/\/[^/]*$/, `/${pgbenchDb}`) });
  await listener.connect();
  await listener.query('LISTEN bench_channel');
  rows.push(pgbench('(b) pgbench TPC-B + NOTIFY', CLIENTS, tpcbScript('NOTIFY bench_channel;')));
  await listener.end();
  listener = undefined;
  rows.push(await http('(c) POST /api/stock/adjustments (1 item)', `${appUrl}/api/stock/adjustments`, headers, CLIENTS, adjustment));
  rows.push(await http('(d) POST /api/products', `${appUrl}/api/products`, headers, CLIENTS, product));
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
  await admin(`DROP DATABASE IF EXISTS ${pgbenchDb} WITH (FORCE)`);
}
