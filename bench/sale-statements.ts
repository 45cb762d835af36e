// Where a write's time goes inside PostgreSQL: runs BENCH_SALES sequential requests over HTTP (one client, so the
// figures are execution, not queueing) against a fresh PostgreSQL database and times every statement the app sends
// (node-postgres Client.query, wall time of the round trip on loopback), grouped by the statement's first words, and
// reads the CPU time the database's backends and this process spent per request.
// BENCH_WRITE=sale (default: a 3-item cash sale), adjustment (a one-line stock adjustment) or product (a new product).
// Prints a table of statements per request and mean ms each, slowest first. Run: npx tsx bench/sale-statements.ts
// Options: BENCH_SALES (requests, 300), BENCH_PRODUCTS (catalogue size, 300), BENCH_SETUP_SQL (SQL run as the owner
// before the measured requests, for experiments), BENCH_SCANS=1 (print the tables read by sequential scans),
// BENCH_KEEP=1 (keep the scratch database to look at it afterwards), BENCH_DATABASE_URL (another PostgreSQL server).
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { benchEnv, machine } from './lib/stock-bench.ts';

const SALES = Number(process.env.BENCH_SALES ?? 300);
const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 300);
const PRICE_CENTS = 1200;
const WRITE = (process.env.BENCH_WRITE ?? 'sale') as 'sale' | 'adjustment' | 'product';
if (!['sale', 'adjustment', 'product'].includes(WRITE)) throw new Error(`BENCH_WRITE must be sale, adjustment or product, not ${WRITE}`);

const timings = new Map<string, { count: number; ms: number }>();
let recording = false;
// Round trips: a statement issued while none of its connection's is awaiting an answer starts one; one issued while
// another is on the wire joins it when the connection pipelines (decision 0086), else waits its turn (one more).
let roundTrips = 0;
const inFlight = new WeakMap<object, number>();
const original = pg.Client.prototype.query as (...args: unknown[]) => unknown;
(pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown }).query = function (this: { pipeline?: boolean }, ...args: unknown[]) {
  const first = args[0];
  const text = typeof first === 'string' ? first : (first as { text?: string } | undefined)?.text ?? '?';
  const started = performance.now();
  const result = original.apply(this, args);
  if (recording && result && typeof (result as Promise<unknown>).then === 'function' && !/pg_notify|^LISTEN/.test(text)) {
    const waiting = inFlight.get(this) ?? 0;
    if (waiting === 0 || !this.pipeline) roundTrips += 1;
    inFlight.set(this, waiting + 1);
    const settled = () => void inFlight.set(this, (inFlight.get(this) ?? 1) - 1);
    void (result as Promise<unknown>).then(settled, settled);
  }
  if (recording && result && typeof (result as Promise<unknown>).then === 'function') {
    const key = text.replace(/\s+/g, ' ').trim().slice(0, 110);
    void (result as Promise<unknown>).then(
      () => {
        const entry = timings.get(key) ?? { count: 0, ms: 0 };
        entry.count += 1;
        entry.ms += performance.now() - started;
        timings.set(key, entry);
      },
      () => undefined,
    );
  }
  return result;
};

const env = await benchEnv('postgres');
try {
  const lines = ['Name,SKU,Category,Branch,Selling Price (KSh),Purchase Price (KSh),Opening Quantity,Batch Number,Expiry Date,DDA'];
  for (let i = 0; i < PRODUCTS; i += 1) lines.push(`Till product ${i},TILL-${i},Medicine,Main Branch,12.00,8.00,100000,TB${i},2030-06-30,No`);
  const imported = await fetch(`${env.url}/api/products/import?mode=all-or-nothing`, { method: 'POST', headers: { ...env.headers, 'content-type': 'text/csv' }, body: lines.join('\n') });
  if (imported.status !== 200) throw new Error(`import failed: ${imported.status}`);
  const products = (await env.db.owner.query<{ id: string }>(`SELECT id FROM products WHERE pharmacy_id = $1 AND sku LIKE 'TILL-%'`, [env.pharmacyId])).map((r) => r.id);
  let n = 0;
  const requests: Record<typeof WRITE, () => { path: string; body: unknown }> = {
    sale: () => {
      const picked = new Set<string>();
      while (picked.size < 3) picked.add(products[Math.floor(Math.random() * products.length)]!);
      const id = randomUUID();
      return {
        path: '/api/sales',
        body: { id, lines: [...picked].map((productId) => ({ productId, quantity: 1 })), payments: [{ method: 'Cash', amountCents: PRICE_CENTS * 3 }], expectedTotalCents: PRICE_CENTS * 3 },
      };
    },
    adjustment: () => ({
      path: '/api/stock/adjustments',
      body: { reason: 'Statements benchmark', items: [{ productId: products[Math.floor(Math.random() * products.length)]!, delta: 1, reasonType: 'count_correction' }] },
    }),
    product: () => ({ path: '/api/products', body: { name: `Statements bench ${(n += 1)}`, sellingPriceCents: 1500, purchasePriceCents: 1000 } }),
  };
  const sell = async () => {
    const { path, body } = requests[WRITE]();
    const response = await fetch(`${env.url}${path}`, {
      method: 'POST',
      headers: { ...env.headers, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
      body: JSON.stringify(body),
    });
    if (response.status !== 201 && response.status !== 200) throw new Error(`${WRITE} refused: ${response.status} ${await response.text()}`);
  };
  // BENCH_SETUP_SQL: statements run as the owner before the measured requests (experiments: a trigger switched off).
  if (process.env.BENCH_SETUP_SQL) await env.db.owner.query(process.env.BENCH_SETUP_SQL);
  for (let i = 0; i < 20; i += 1) await sell();
  // CPU time of the database's server processes (same machine): the backends of this database, read from /proc.
  const backendTicks = async () => {
    const pids = await env.db.owner.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE datname = current_database()`);
    let ticks = 0;
    for (const { pid } of pids) {
      try {
        const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
        ticks += Number(fields[11]) + Number(fields[12]);
      } catch {
        // gone
      }
    }
    return ticks;
  };
  const ticksBefore = await backendTicks();
  const cpuBefore = process.cpuUsage();
  recording = true;
  const started = performance.now();
  for (let i = 0; i < SALES; i += 1) await sell();
  const elapsed = performance.now() - started;
  recording = false;
  const cpu = process.cpuUsage(cpuBefore);
  const ticks = (await backendTicks()) - ticksBefore;
  if (process.env.BENCH_SCANS) {
    const scans = await env.db.owner.query<{ relname: string; seq_scan: string; seq_tup_read: string; idx_scan: string }>(
      `SELECT relname, seq_scan, seq_tup_read, idx_scan FROM pg_stat_user_tables WHERE seq_scan > 50 ORDER BY seq_tup_read DESC`,
    );
    console.log(scans);
  }
  await new Promise((r) => setTimeout(r, 50));
  console.log(`\nCPU per ${WRITE}: PostgreSQL backends ${((ticks * 10) / SALES).toFixed(2)} ms (clock ticks of 10 ms), this Node process (app and client) ${((cpu.user + cpu.system) / 1000 / SALES).toFixed(2)} ms`);
  console.log(`\nMachine: ${machine()}; ${SALES} sequential ${WRITE} requests, ${(elapsed / SALES).toFixed(2)} ms each over HTTP\n`);
  console.log('| statement (first 110 characters) | per request | mean ms | ms per request |');
  console.log('| --- | ---: | ---: | ---: |');
  let total = 0;
  let count = 0;
  for (const [key, { count: n, ms }] of [...timings].sort((a, b) => b[1].ms - a[1].ms)) {
    total += ms;
    count += n;
    console.log(`| \`${key.replace(/\|/g, '\\|')}\` | ${(n / SALES).toFixed(2)} | ${(ms / n).toFixed(3)} | ${(ms / SALES).toFixed(3)} |`);
  }
  console.log(`\n${(count / SALES).toFixed(1)} statements a request in ${(roundTrips / SALES).toFixed(1)} round trips, ${(total / SALES).toFixed(2)} ms of statement wall time a request (pipelined statements overlap)`);
} finally {
  await env.close();
}
