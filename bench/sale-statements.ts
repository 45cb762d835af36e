// Where a sale's time goes inside PostgreSQL: runs BENCH_SALES sequential 3-item sales over HTTP (one till, so the
// figures are execution, not queueing) against a fresh PostgreSQL database and times every statement the app sends
// (node-postgres Client.query, wall time of the round trip on loopback), grouped by the statement's first words.
// Prints a table of statements per sale and mean ms each, slowest first. Run: npx tsx bench/sale-statements.ts
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { benchEnv, machine } from './lib/stock-bench.ts';

const SALES = Number(process.env.BENCH_SALES ?? 300);
const PRODUCTS = 300;
const PRICE_CENTS = 1200;

const timings = new Map<string, { count: number; ms: number }>();
let recording = false;
const original = pg.Client.prototype.query as (...args: unknown[]) => unknown;
(pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown }).query = function (this: unknown, ...args: unknown[]) {
  const first = args[0];
  const text = typeof first === 'string' ? first : (first as { text?: string } | undefined)?.text ?? '?';
  const started = performance.now();
  const result = original.apply(this, args);
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
  const sell = async () => {
    const picked = new Set<string>();
    while (picked.size < 3) picked.add(products[Math.floor(Math.random() * products.length)]!);
    const id = randomUUID();
    const response = await fetch(`${env.url}/api/sales`, {
      method: 'POST',
      headers: { ...env.headers, 'content-type': 'application/json', 'idempotency-key': id },
      body: JSON.stringify({ id, lines: [...picked].map((productId) => ({ productId, quantity: 1 })), payments: [{ method: 'Cash', amountCents: PRICE_CENTS * 3 }], expectedTotalCents: PRICE_CENTS * 3 }),
    });
    if (response.status !== 201) throw new Error(`sale refused: ${response.status} ${await response.text()}`);
  };
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
  await new Promise((r) => setTimeout(r, 50));
  console.log(`\nCPU per sale: PostgreSQL backends ${((ticks * 10) / SALES).toFixed(2)} ms (clock ticks of 10 ms), this Node process (app and client) ${((cpu.user + cpu.system) / 1000 / SALES).toFixed(2)} ms`);
  console.log(`\nMachine: ${machine()}; ${SALES} sequential sales, ${(elapsed / SALES).toFixed(2)} ms a sale over HTTP\n`);
  console.log('| statement (first 110 characters) | per sale | mean ms | ms per sale |');
  console.log('| --- | ---: | ---: | ---: |');
  let total = 0;
  let count = 0;
  for (const [key, { count: n, ms }] of [...timings].sort((a, b) => b[1].ms - a[1].ms)) {
    total += ms;
    count += n;
    console.log(`| \`${key.replace(/\|/g, '\\|')}\` | ${(n / SALES).toFixed(2)} | ${(ms / n).toFixed(3)} | ${(ms / SALES).toFixed(3)} |`);
  }
  console.log(`\n${(count / SALES).toFixed(1)} statements a sale, ${(total / SALES).toFixed(2)} ms of database round trips a sale`);
} finally {
  await env.close();
}
