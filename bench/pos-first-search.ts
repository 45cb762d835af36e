// Benchmark: in Chromium, the time from opening /pos to the first search answer with 50,000 products in the branch
// (issue 9, performance (b)), cold and warm, on loopback:
//   - cold: a new browser profile (empty HTTP cache, empty IndexedDB), signed in through the API; from navigating
//     to /pos until the first result of 'amox', typed as soon as the search box takes input, is shown;
//   - warm: the same profile opening /pos again (JavaScript from the HTTP cache, the catalogue from IndexedDB,
//     revalidated in the background);
// and, for each, when the catalogue was ready (data-catalogue="ready"). Prints a markdown table; never passes or
// fails on time. Run 1's cold request is the server's first for the branch (the answer is built); the later runs'
// are answered from the server's per-branch cache (decision 0064). The server runs on PostgreSQL (a fresh database
// on BENCH_DATABASE_URL, seeded), so that the 50,000 products can be inserted beside it; it serves a build of the web
// app of its own (in a temporary folder).
// Run: npx tsx bench/pos-first-search.ts   (BENCH_RUNS=3, BENCH_PORT=4111, BENCH_PRODUCTS=50000)
import { execSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { chromium, type Browser, type BrowserContext } from '@playwright/test';
import { machine, productName } from './lib/stock-bench.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PORT = Number(process.env.BENCH_PORT ?? 4111);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 50_000);
const BASE = `http://127.0.0.1:${PORT}`;
const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const PHARMACY = 'demo_pharmacy_shared';

async function startServer(databaseUrl: string, webDist: string, dataDir: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(PORT), HOST: '127.0.0.1', DATABASE_URL: databaseUrl, WEB_DIST: webDist, DATA_DIR: dataDir, PUBLIC_URL: BASE, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const deadline = Date.now() + 300_000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${BASE}/health`)).ok) return child;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  child.kill();
  throw new Error('the server did not answer /health within 5 minutes');
}

/** 50,000 products in the Main Branch of the seeded pharmacy, set-based: prices, stock, one batch each. */
async function insertProducts(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const [branch] = (await client.query<{ id: string }>(`SELECT id FROM branches WHERE pharmacy_id = $1 ORDER BY is_default DESC, created_at LIMIT 1`, [PHARMACY])).rows;
    const names = Array.from({ length: PRODUCTS }, (_, i) => productName(i));
    await client.query('BEGIN');
    await client.query(
      `INSERT INTO products (pharmacy_id, name, sku, barcodes, category, package_size, package_type, is_dda, tax_applied)
       SELECT $1, n.name, 'BENCH-' || n.i, ARRAY[(6169000000000 + n.i)::text], (ARRAY['Medicine','Antibiotics','Analgesics','Supplements'])[1 + n.i % 4],
              CASE WHEN n.i % 3 = 0 THEN 100 ELSE 1 END, 'tablets', false, n.i % 4 = 0
         FROM unnest($2::text[]) WITH ORDINALITY AS n(name, i)`,
      [PHARMACY, names],
    );
    await client.query(
      `INSERT INTO branch_products (pharmacy_id, branch_id, product_id, selling_price_cents, purchase_price_cents, quantity)
       SELECT $1, $2, p.id, 700 + (abs(hashtext(p.name)) % 30000), 500, CASE WHEN abs(hashtext(p.sku)) % 7 = 0 THEN 0 ELSE 10 + abs(hashtext(p.sku)) % 500 END
         FROM products p WHERE p.pharmacy_id = $1 AND p.sku LIKE 'BENCH-%'`,
      [PHARMACY, branch!.id],
    );
    await client.query(
      `INSERT INTO batches (pharmacy_id, branch_id, product_id, batch_number, expiry_date, quantity, unit_cost_cents, source)
       SELECT $1, $2, bp.product_id, 'B1', current_date + 30 + abs(hashtext(bp.product_id::text)) % 700, bp.quantity, 500, 'opening'
         FROM branch_products bp JOIN products p ON p.pharmacy_id = bp.pharmacy_id AND p.id = bp.product_id
        WHERE bp.pharmacy_id = $1 AND bp.branch_id = $2 AND bp.quantity > 0 AND p.sku LIKE 'BENCH-%'`,
      [PHARMACY, branch!.id],
    );
    await client.query('COMMIT');
    await client.query('ANALYZE');
  } finally {
    await client.end();
  }
}

async function signIn(context: BrowserContext): Promise<void> {
  await context.request.get(`${BASE}/api/auth/providers`);
  const csrf = (await context.cookies()).find((c) => c.name === 'pp_csrf')?.value;
  const res = await context.request.post(`${BASE}/api/auth/login`, {
    data: { email: 'owner@afyabora.test', password: 'Pharma#2026' },
    headers: { 'x-csrf-token': decodeURIComponent(csrf ?? '') },
  });
  if (!res.ok()) throw new Error(`sign-in: ${res.status()} ${(await res.text()).slice(0, 300)}`);
}

/** Opens /pos, types 'amox' as soon as the box takes it; ms until the first result and until the catalogue was ready. */
async function firstSearch(context: BrowserContext): Promise<{ resultMs: number; readyMs: number; marks: Record<string, number> }> {
  const page = await context.newPage();
  try {
    const t0 = Date.now();
    await page.goto(`${BASE}/pos`, { waitUntil: 'commit' });
    let readyMs = -1;
    const ready = page
      .locator('[data-catalogue="ready"]')
      .first()
      .waitFor({ timeout: 180_000 })
      .then(() => {
        readyMs = Date.now() - t0;
      });
    const box = page.getByRole('combobox', { name: /search/i }).first();
    await box.fill('amox', { timeout: 180_000 });
    await page.getByRole('option', { name: /Amoxicillin/ }).first().waitFor({ timeout: 180_000 });
    const resultMs = Date.now() - t0;
    await ready;
    // A till stays open: let the copy reach IndexedDB before the page closes (a first load writes it).
    await page
      .waitForFunction(() => performance.getEntriesByName('pp:catalogue:cache-written').length > 0 || performance.getEntriesByName('pp:catalogue:cache-shown').length > 0, null, { timeout: 120_000 })
      .catch(() => undefined);
    await page.waitForTimeout(500);
    // The catalogue store's User Timing marks, relative to the navigation's start.
    const marks = await page.evaluate(() =>
      Object.fromEntries(performance.getEntriesByType('mark').filter((m) => m.name.startsWith('pp:')).map((m) => [m.name.slice('pp:catalogue:'.length), Math.round(m.startTime)])),
    );
    return { resultMs, readyMs, marks };
  } finally {
    await page.close();
  }
}

const tmp = mkdtempSync(path.join(os.tmpdir(), 'pp-pos-bench-'));
const webDist = path.join(tmp, 'dist');
// A build of its own (apps/web/dist belongs to the e2e runs).
execSync(`npx vite build --outDir ${webDist} --emptyOutDir --logLevel warn`, { cwd: path.join(ROOT, 'apps/web'), stdio: 'inherit' });
const dbName = `pp_bench_pos_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
const admin = new pg.Client({ connectionString: PG_URL });
await admin.connect();
await admin.query(`CREATE DATABASE ${dbName}`);
await admin.end();
const dbUrl = new URL(PG_URL);
dbUrl.pathname = `/${dbName}`;

let server: ChildProcess | null = null;
let browser: Browser | null = null;
try {
  server = await startServer(dbUrl.toString(), webDist, path.join(tmp, 'data'));
  await insertProducts(dbUrl.toString());
  console.log(`\nMachine: ${machine()}`);
  console.log(`Load before: ${execSync('uptime', { encoding: 'utf8' }).trim()}`);
  console.log(`${PRODUCTS} products added to the Main Branch of the seeded pharmacy (PostgreSQL on loopback), ${RUNS} runs, Chromium ${'(/usr/bin/chromium)'}\n`);
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
  const rows: string[] = [];
  const marks: string[] = [];
  for (let run = 1; run <= RUNS; run += 1) {
    const context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
    try {
      await signIn(context);
      const cold = await firstSearch(context);
      const warm = await firstSearch(context);
      rows.push(`| ${run} | ${cold.resultMs} | ${cold.readyMs} | ${warm.resultMs} | ${warm.readyMs} |`);
      marks.push(`run ${run} cold: ${JSON.stringify(cold.marks)}`, `run ${run} warm: ${JSON.stringify(warm.marks)}`);
    } finally {
      await context.close();
    }
  }
  console.log('| run | cold: first result ms | cold: catalogue ready ms | warm: first result ms | warm: catalogue ready ms |');
  console.log('| ---: | ---: | ---: | ---: | ---: |');
  for (const row of rows) console.log(row);
  console.log("\nRun 1's cold request is the server's first for the branch (built); the later runs' are answered from the server's");
  console.log('per-branch cache (decision 0064), as they are after any request since the last change of the branch\'s rows.');
  console.log('\nThe store\'s marks (ms after navigation start):');
  for (const line of marks) console.log(line);
  console.log(`\nLoad after: ${execSync('uptime', { encoding: 'utf8' }).trim()}`);
} finally {
  await browser?.close();
  server?.kill();
  const dropper = new pg.Client({ connectionString: PG_URL });
  await dropper.connect();
  await dropper.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  await dropper.end();
  rmSync(tmp, { recursive: true, force: true });
}
