// Steady-state Node CPU per write request, and where it goes: the app on a fresh PostgreSQL database (the bench
// pharmacy with BENCH_PRODUCTS products imported, 100,000 pieces each), autocannon posting BENCH_WRITE requests at
// BENCH_CONNECTIONS for BENCH_WARM seconds (warm-up: V8 compiles the hot code then, off the figures), then for
// BENCH_SECONDS with this process's CPU counted and, with BENCH_PROFILE=path, a V8 CPU profile of that stretch only
// (node:inspector; open it in Chrome DevTools or aggregate its self time by function). The 10 s benchmarks count
// the warm-up's compilation in their Node CPU figure; this one does not. Never passes or fails on time.
// BENCH_WRITE=sale (3 items, cash, Idempotency-Key: bench/sales-throughput.ts's request), adjustment (one item, +1:
// bench/write-path.ts's), product (a new product: write-path.ts's). Run: BENCH_WRITE=sale npx tsx bench/write-profile.ts
// Options: BENCH_WARM (10), BENCH_SECONDS (15), BENCH_CONNECTIONS (20), BENCH_PRODUCTS (300), BENCH_DATABASE_URL.
import autocannon from 'autocannon';
import { randomBytes, randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { benchEnv, machine } from './lib/stock-bench.ts';

const WRITE = (process.env.BENCH_WRITE ?? 'sale') as 'sale' | 'adjustment' | 'product';
if (!['sale', 'adjustment', 'product'].includes(WRITE)) throw new Error(`BENCH_WRITE must be sale, adjustment or product, not ${WRITE}`);
const WARM = Number(process.env.BENCH_WARM ?? 10);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const CLIENTS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 300);

const env = await benchEnv('postgres');
try {
  const csv = ['Name,SKU,Category,Branch,Selling Price (KSh),Purchase Price (KSh),Opening Quantity,Batch Number,Expiry Date,DDA'];
  for (let i = 0; i < PRODUCTS; i += 1) csv.push(`Till product ${i},TILL-${i},Medicine,Main Branch,12.00,8.00,100000,TB${i},2030-06-30,No`);
  const imported = await fetch(`${env.url}/api/products/import?mode=all-or-nothing`, { method: 'POST', headers: { ...env.headers, 'content-type': 'text/csv' }, body: csv.join('\n') });
  if (imported.status !== 200) throw new Error(`import failed: ${imported.status} ${await imported.text()}`);
  const products = (await env.db.owner.query<{ id: string }>(`SELECT id FROM products WHERE pharmacy_id = $1 AND sku LIKE 'TILL-%'`, [env.pharmacyId])).map((r) => r.id);
  const pick = () => products[Math.floor(Math.random() * products.length)]!;
  const run = randomBytes(3).toString('hex');
  let n = 0;
  const requests: Record<typeof WRITE, { path: string; next(): { body: string; headers?: Record<string, string> } }> = {
    sale: {
      path: '/api/sales',
      next() {
        const picked = new Set<string>();
        while (picked.size < 3) picked.add(pick());
        const id = randomUUID();
        const body = { id, lines: [...picked].map((productId) => ({ productId, quantity: 1 })), payments: [{ method: 'Cash', amountCents: 3600 }], expectedTotalCents: 3600 };
        return { body: JSON.stringify(body), headers: { 'idempotency-key': id } };
      },
    },
    adjustment: {
      path: '/api/stock/adjustments',
      next: () => ({ body: JSON.stringify({ reason: 'Write-path benchmark', items: [{ productId: pick(), delta: 1, reasonType: 'count_correction' }] }) }),
    },
    product: {
      path: '/api/products',
      next: () => ({ body: JSON.stringify({ name: `Bench product ${run}-${(n += 1)}`, sellingPriceCents: 1500, purchasePriceCents: 1000 }) }),
    },
  };
  const write = requests[WRITE];
  const post = (seconds: number) =>
    new Promise<autocannon.Result>((resolve, reject) =>
      autocannon(
        {
          url: `${env.url}${write.path}`,
          connections: CLIENTS,
          duration: seconds,
          requests: [
            {
              method: 'POST',
              setupRequest: (request) => {
                const { body, headers } = write.next();
                return { ...request, headers: { ...env.headers, 'content-type': 'application/json', ...headers }, body };
              },
            },
          ],
        },
        (error, result) => (error ? reject(error) : resolve(result)),
      ),
    );
  const warm = await post(WARM);
  if (warm.non2xx > 0 || warm.errors > 0) throw new Error(`warm-up: ${warm.non2xx} non-2xx, ${warm.errors} errors`);
  const session = new Session();
  const profile = process.env.BENCH_PROFILE;
  if (profile) {
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
  }
  const before = process.cpuUsage();
  const result = await post(SECONDS);
  const used = process.cpuUsage(before);
  if (profile) writeFileSync(profile, JSON.stringify((await session.post('Profiler.stop')).profile));
  const total = result.requests.total;
  console.log(`${machine()}`);
  console.log(
    `${WRITE}: ${total} requests (${result['2xx']} 2xx, ${result.non2xx} non-2xx, ${result.errors} errors) in ${SECONDS} s after ${WARM} s of warm-up at ${CLIENTS} connections: ` +
      `${result.requests.average.toFixed(0)}/s, Node CPU ${((used.user + used.system) / 1000 / total).toFixed(3)} ms a request (user ${(used.user / 1000 / total).toFixed(3)}, system ${(used.system / 1000 / total).toFixed(3)}; autocannon included)`,
  );
} finally {
  await env.close();
}
