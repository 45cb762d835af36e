// Benchmark: server search of the product list (GET /api/products?q=...) over 50,000 products, with 1, 10 and
// 20 clients at once, on PostgreSQL and PGlite, beside a bare Fastify hello-world measured by the same clients.
// Prints figures; never passes or fails on time.
// Honest set-up (issue 6 item 13): the app and the hello-world each run in their own process, the clients in this
// one; the pharmacy's products are seeded by SQL (BENCH_IMPORT=1: through the CSV import) and stocked in three branches; two other pharmacies
// share the tables (so the tenant policy has rows to keep out); no ANALYZE beyond what the app and the database
// run themselves (PostgreSQL's autovacuum, the app's maintenance on PGlite). Also prints the plan of a two-word search
// through product_search as the application role, and of the statement it runs: whether the trigram index serves
// every word in one scan under row-level security (decision 0074); and the time of a word's matches with their
// branch rows through product_search_in_branch (migration 0038, the status filter's source).
// Run: npx tsx bench/products-search.ts   (BENCH_PRODUCTS=50000, BENCH_SECONDS=10, BENCH_CLIENTS=1,10,20,
//      BENCH_KINDS=postgres,pglite, BENCH_DATABASE_URL, BENCH_IMPORT=1, BENCH_AUTOVACUUM_WAIT=180 seconds at most)
import { execSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { machine, percentile } from './lib/stock-bench.ts';

const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 50_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CLIENTS = (process.env.BENCH_CLIENTS ?? '1,10,20').split(',').map(Number);
const OTHER_PHARMACIES = 2;
const TERMS = ['amox', 'para', 'ibupro', 'metf', 'amlo', 'losar', 'cetir', 'omep', 'cipro', 'azith', 'diclo', 'predn', 'salbu', 'vitamin', 'zinc', 'folic', 'atorv', 'clotri', 'metro', 'lorat', '500mg syrup', 'SKU-4242', 'cream', 'X9Z'];

interface Served {
  url: string;
  headers: Record<string, string>;
  loadMs?: number;
  plan?: string[];
  analyzed?: string;
  /** PostgreSQL: the app's database, whose server processes' CPU time is read while a case runs. */
  database?: string;
}

/** The child: `--serve hello` or `--serve app <kind>`; prints one JSON line (Served), exits when stdin ends. */
async function serve(what: string, kind: string | undefined): Promise<void> {
  let close: () => Promise<void>;
  let served: Served;
  if (what === 'hello') {
    const { default: Fastify } = await import('fastify');
    const hello = Fastify();
    hello.get('/*', async () => ({ hello: 'world' }));
    served = { url: await hello.listen({ port: 0, host: '127.0.0.1' }), headers: {} };
    close = async () => void (await hello.close());
  } else {
    const { benchEnv, generatedCsv, productName } = await import('./lib/stock-bench.ts');
    const { createMaintenance, requestAnalyze } = await import('../apps/server/src/platform/maintenance.ts');
    const env = await benchEnv(kind as 'pglite' | 'postgres');
    // As the server starts it (main.ts): on PGlite it ANALYZEs after bulk work and every 5 minutes; on PostgreSQL
    // it does nothing (autovacuum does).
    const maintenance = createMaintenance(env.db);
    maintenance.start();
    const started = performance.now();
    if (process.env.BENCH_IMPORT === '1') {
      // Through the CSV import, 2,000 rows a request (a request of 10,000 outlived fetch's 300 s under a load of 12).
      for (let offset = 0; offset < PRODUCTS; offset += 2_000) {
        const response = await fetch(`${env.url}/api/products/import?mode=all-or-nothing`, {
          method: 'POST',
          headers: { ...env.headers, 'content-type': 'text/csv' },
          body: generatedCsv(Math.min(2_000, PRODUCTS - offset), offset),
        });
        if (response.status !== 200) throw new Error(`load: ${response.status} ${(await response.text()).slice(0, 500)}`);
      }
    } else {
      // Seeded by SQL, 5,000 rows a statement: the names, SKUs and barcodes of the import's generated catalogue.
      for (let offset = 0; offset < PRODUCTS; offset += 5_000) {
        const n = Array.from({ length: Math.min(5_000, PRODUCTS - offset) }, (_, i) => offset + i);
        await env.db.owner.query(
          `INSERT INTO products (pharmacy_id, name, sku, barcodes, category, low_stock_threshold)
           SELECT $1, name, sku, ARRAY[barcode], 'Medicine', 5 FROM unnest($2::text[], $3::text[], $4::text[]) AS t(name, sku, barcode)`,
          [env.pharmacyId, n.map(productName), n.map((i) => `SKU-${i}`), n.map((i) => String(6160000000000 + i))],
        );
      }
    }
    const loadMs = performance.now() - started;
    const db = env.db;
    // Stocked in several branches: a third branch, and every product given a row (and a batch) in the branches it lacks.
    await db.owner.query(`INSERT INTO branches (pharmacy_id, name) VALUES ($1, 'Karen Branch')`, [env.pharmacyId]);
    await db.owner.query(
      `INSERT INTO branch_products (pharmacy_id, branch_id, product_id, selling_price_cents, purchase_price_cents, quantity, is_available)
       SELECT p.pharmacy_id, b.id, p.id, 1000 + (abs(hashtext(p.id::text)) % 5000), 700, abs(hashtext(b.id::text || p.id::text)) % 200, true
         FROM products p CROSS JOIN branches b
        WHERE p.pharmacy_id = $1 AND b.pharmacy_id = $1
          AND NOT EXISTS (SELECT 1 FROM branch_products x WHERE x.pharmacy_id = p.pharmacy_id AND x.branch_id = b.id AND x.product_id = p.id)`,
      [env.pharmacyId],
    );
    await db.owner.query(
      `INSERT INTO batches (pharmacy_id, branch_id, product_id, batch_number, expiry_date, quantity, unit_cost_cents, source)
       SELECT bp.pharmacy_id, bp.branch_id, bp.product_id, 'B-' || left(bp.product_id::text, 8), DATE '2027-01-15' + (abs(hashtext(bp.product_id::text)) % 365),
              bp.quantity, 700, 'opening'
         FROM branch_products bp
        WHERE bp.pharmacy_id = $1 AND bp.quantity > 0
          AND NOT EXISTS (SELECT 1 FROM batches x WHERE x.pharmacy_id = bp.pharmacy_id AND x.branch_id = bp.branch_id AND x.product_id = bp.product_id)`,
      [env.pharmacyId],
    );
    // Other pharmacies in the same tables, with the same product names (what the tenant policy must keep out).
    for (let i = 1; i <= OTHER_PHARMACIES; i += 1) {
      const other = `bench_other_${i}`;
      await db.owner.query(`INSERT INTO pharmacies (id, name) VALUES ($1, $2)`, [other, `Other Pharmacy ${i}`]);
      await db.owner.query(`INSERT INTO branches (pharmacy_id, name, is_default) VALUES ($1, 'Main', true)`, [other]);
      await db.owner.query(
        `INSERT INTO products (pharmacy_id, name, sku, barcodes, category)
         SELECT $1, name, sku, barcodes, category FROM products WHERE pharmacy_id = $2`,
        [other, env.pharmacyId],
      );
      await db.owner.query(
        `INSERT INTO branch_products (pharmacy_id, branch_id, product_id, selling_price_cents, purchase_price_cents, quantity, is_available)
         SELECT p.pharmacy_id, b.id, p.id, 1500, 1000, 50, true FROM products p JOIN branches b ON b.pharmacy_id = p.pharmacy_id WHERE p.pharmacy_id = $1`,
        [other],
      );
    }
    // What the app itself would do after bulk work (PGlite: its maintenance pass; PostgreSQL: nothing, autovacuum
    // analyzes on its own schedule when it is on — waited for below, BENCH_AUTOVACUUM_WAIT seconds at most (180), and reported).
    requestAnalyze(db);
    let analyzed = 'n/a';
    if (kind === 'postgres') {
      const deadline = Date.now() + Number(process.env.BENCH_AUTOVACUUM_WAIT ?? 180) * 1000;
      for (;;) {
        const [row] = await db.owner.query<{ at: string | null }>(`SELECT last_autoanalyze AS at FROM pg_stat_user_tables WHERE relname = 'products'`);
        analyzed = row?.at ? `products analyzed by autovacuum after ${((performance.now() - started) / 1000).toFixed(0)} s` : `products not analyzed by autovacuum (autovacuum ${(await db.owner.query<{ autovacuum: string }>('SHOW autovacuum'))[0]?.autovacuum}) within the wait`;
        if (row?.at || Date.now() > deadline) break;
        await new Promise((resolve) => setTimeout(resolve, 2_000));
      }
    } else {
      await new Promise((resolve) => setTimeout(resolve, 5_000));
      analyzed = 'the app\'s maintenance pass (requestAnalyze, as after an import)';
    }
    // A two-word search through product_search (migration 0034) as the application role, in the pharmacy's tenant
    // transaction (its execution time), and the plan of the statement the function runs for it (as the owner, who
    // runs it): whether the trigram index serves both words in one scan under row-level security.
    const words = ['%500mg%', '%syrup%'];
    const plan = await db
      .transaction({ pharmacyId: env.pharmacyId, userId: env.ownerId }, async (q) => {
        const rows = await q.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY ON) SELECT count(*) FROM product_search($1::text[])`, [words]);
        return rows.map((r) => r['QUERY PLAN']);
      })
      // Run on a commit before migration 0034 (a before/after pair).
      .catch((error: Error) => [`product_search: ${error.message}`]);
    const inner = await db.owner.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY ON)
       SELECT p.id FROM products p WHERE p.pharmacy_id = $1 AND p.search_text LIKE $2 AND p.search_text LIKE $3`,
      [env.pharmacyId, ...words],
    );
    plan.push('-- the statement product_search runs (as its owner):', ...inner.map((r) => r['QUERY PLAN']));
    // The status filter's source (migration 0038): a common word's matches with their rows in the default branch,
    // looked up and kept by status inside product_search_in_branch (as its owner; decision 0074).
    const inBranch = await db
      .transaction({ pharmacyId: env.pharmacyId, userId: env.ownerId }, async (q) => {
        const rows = await q.query<{ 'QUERY PLAN': string }>(
          `EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY ON)
           SELECT count(*) FROM product_search_in_branch(ARRAY['%amox%'], (SELECT id FROM branches WHERE is_default), 'low')`,
        );
        return rows.map((r) => r['QUERY PLAN']);
      })
      .catch((error: Error) => [`product_search_in_branch: ${error.message}`]);
    plan.push("-- 'amox' + status=low in the default branch, through product_search_in_branch (application role):", ...inBranch);
    const database = kind === 'postgres' ? (await db.owner.query<{ name: string }>('SELECT current_database() AS name'))[0]!.name : undefined;
    served = { url: env.url, headers: env.headers, loadMs, plan, analyzed, database };
    close = async () => {
      await maintenance.stop();
      await env.close();
    };
  }
  console.log(JSON.stringify(served));
  process.stdin.resume();
  process.stdin.on('end', () => void close().then(() => process.exit(0)));
}

function child(args: string[]): Promise<Served & { pid: number; stop: () => Promise<void> }> {
  const proc: ChildProcess = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), '--serve', ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    createInterface({ input: proc.stdout! }).on('line', (line) => {
      if (!line.startsWith('{"url"')) return;
      const exited = new Promise<void>((done) => proc.on('exit', () => done()));
      resolve({ ...(JSON.parse(line) as Served), pid: proc.pid!, stop: async () => (proc.stdin!.end(), await exited) });
    });
    proc.on('exit', (code) => reject(new Error(`server process ${args.join(' ')} exited with ${code}`)));
  });
}

const TICK_MS = 1000 / Number(execSync('getconf CLK_TCK').toString().trim() || 100);

/** CPU time (user + system, ms) a process has used so far, from /proc (Linux); 0 when it is gone or unreadable. */
function cpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return 0;
  }
}

/**
 * CPU time used while `work` runs: by the app's process and (PostgreSQL) by the server processes connected to its
 * database (a connection opened during the case counts from zero; one that closed during it is lost, so the
 * database figure is a floor — the pool keeps its connections while requests flow). Less sensitive to the other
 * work on a shared machine than the latencies.
 */
async function cpuDuring<T>(appPid: number, backends: (() => Promise<number[]>) | undefined, work: () => Promise<T>): Promise<{ result: T; appMs: number; dbMs: number }> {
  const app0 = cpuMs(appPid);
  const db0 = new Map((backends ? await backends() : []).map((pid) => [pid, cpuMs(pid)]));
  const result = await work();
  const appMs = cpuMs(appPid) - app0;
  let dbMs = 0;
  for (const pid of backends ? await backends() : []) dbMs += cpuMs(pid) - (db0.get(pid) ?? 0);
  return { result, appMs, dbMs };
}

/** `clients` loops, each sending its next request when the last is answered, for SECONDS; every latency. */
async function measure(clients: number, next: (i: number) => string, headers: Record<string, string>): Promise<{ times: number[]; rows: number; perSecond: number }> {
  const times: number[] = [];
  let rows = 0;
  let n = 0;
  const end = performance.now() + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < end) {
        const url = next(n++);
        const t0 = performance.now();
        const response = await fetch(url, { headers });
        const body = (await response.json()) as { items?: unknown[] };
        times.push(performance.now() - t0);
        if (response.status !== 200) throw new Error(`${url}: ${response.status} ${JSON.stringify(body).slice(0, 300)}`);
        rows += body.items?.length ?? 0;
      }
    }),
  );
  times.sort((a, b) => a - b);
  return { times, rows, perSecond: times.length / SECONDS };
}

async function main(): Promise<void> {
  const kinds = (process.env.BENCH_KINDS ?? 'postgres,pglite').split(',').map((k) => k.trim());
  const load = () => os.loadavg()[0]!.toFixed(2);
  console.log(`\nMachine: ${machine()}`);
  console.log(`Load average (1, 5, 15 min) at the start: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  console.log(
    `${PRODUCTS} products in the pharmacy (${process.env.BENCH_IMPORT === '1' ? 'CSV import' : 'seeded by SQL with the import\'s generated names'}), stocked in 3 branches with a batch each; ${OTHER_PHARMACIES} other pharmacies with the same products; ` +
      `${SECONDS} s per row, each client sending its next request when the last is answered, real HTTP on loopback; app, hello-world and clients in 3 processes\n`,
  );
  const cases: [string, (term: string) => string][] = [
    ['q (name, SKU, barcode)', (term) => `/api/products?q=${encodeURIComponent(term)}`],
    ['q + status=low', (term) => `/api/products?q=${encodeURIComponent(term)}&status=low`],
    ['status=low, no q', () => `/api/products?status=low`],
    // What the products screen sends for its status filter: it lists active products unless asked otherwise.
    ['status=low&active=true (the screen)', () => `/api/products?status=low&active=true`],
    ['first page, no q', () => `/api/products`],
  ];
  const table: string[] = [];
  const plans: string[] = [];
  for (const kind of kinds) {
    const app = await child(['app', kind]);
    let backends: (() => Promise<number[]>) | undefined;
    let admin: { end(): Promise<void> } | undefined;
    if (app.database) {
      const { default: pg } = await import('pg');
      const { BENCH_PG_URL } = await import('./lib/stock-bench.ts');
      const client = new pg.Client({ connectionString: BENCH_PG_URL });
      await client.connect();
      admin = client;
      backends = async () => (await client.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, [app.database])).rows.map((r) => r.pid);
    }
    plans.push(`Plan of a two-word search ('500mg syrup') through product_search as the application role on ${kind}:\n    ${(app.plan ?? []).join('\n    ')}`);
    try {
      for (const clients of CLIENTS) {
        const hello = await child(['hello']);
        const base = await measure(clients, () => `${hello.url}/api/products`, {});
        await hello.stop();
        for (const [label, path] of cases) {
          const { result: r, appMs, dbMs } = await cpuDuring(app.pid, backends, () => measure(clients, (i) => `${app.url}${path(TERMS[i % TERMS.length]!)}`, app.headers));
          const cpu = (ms: number) => (ms / r.times.length).toFixed(2);
          table.push(
            `| ${kind} | ${clients} | ${label} | ${percentile(r.times, 50).toFixed(1)} | ${percentile(r.times, 95).toFixed(1)} | ${r.times[r.times.length - 1]!.toFixed(1)} | ${r.perSecond.toFixed(0)} | ${(r.perSecond / base.perSecond).toFixed(3)} | ${(r.rows / r.times.length).toFixed(1)} | ${cpu(appMs)} | ${app.database ? cpu(dbMs) : ''} | ${load()} |`,
          );
          console.log(table[table.length - 1]);
        }
        table.push(`| hello-world | ${clients} | | ${percentile(base.times, 50).toFixed(1)} | ${percentile(base.times, 95).toFixed(1)} | ${base.times[base.times.length - 1]!.toFixed(1)} | ${base.perSecond.toFixed(0)} | 1 | | | | |`);
      }
      table.push(`| ${kind} | | (${PRODUCTS} products loaded in ${((app.loadMs ?? 0) / 1000).toFixed(1)} s; statistics: ${app.analyzed}) | | | | | | | | | |`);
    } finally {
      await admin?.end();
      await app.stop();
    }
  }
  console.log(
    '\n| database | clients | query | p50 ms | p95 ms | max ms | requests/s | ratio to hello-world (same clients) | mean rows | app CPU ms/request | database CPU ms/request | load (1 min) |',
  );
  console.log('| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const line of table) console.log(line);
  console.log(`\n${plans.join('\n\n')}`);
}

const serveAt = process.argv.indexOf('--serve');
await (serveAt >= 0 ? serve(process.argv[serveAt + 1]!, process.argv[serveAt + 2]) : main());
