// Benchmark: GET /api/pos/catalogue (issue 9 item 3) with 50,000 products in the branch (about 1 in 20 with its only batch expired), on PGlite and on
// PostgreSQL, real HTTP on loopback: time to the whole answer, decompressed (p50 / p95 / max of sequential requests), its size
// as sent with brotli, gzip and without compression, and the browser-side steps measured in Node (JSON.parse,
// decode, index). The first request builds the answer; the others are answered from the server's cache (decision
// 0064), and a revalidation naming the ETag answers 304. Prints figures; never passes or fails on time.
// Run: npx tsx bench/pos-catalogue.ts   (BENCH_PRODUCTS=50000, BENCH_REQUESTS=10, BENCH_KINDS, BENCH_DATABASE_URL)
import { execSync } from 'node:child_process';
import http from 'node:http';
import zlib from 'node:zlib';
import { buildCatalogueIndex, decodeCatalogue, type PosCatalogueResponse } from '@pharmapoint/domain/pos-catalogue';
import { benchEnv, benchKinds, machine, percentile, productName } from './lib/stock-bench.ts';

/** A GET whose body is read as sent (compressed), with its status. */
function getRaw(url: string, headers: Record<string, string>): Promise<{ status: number; raw: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, raw: Buffer.concat(chunks) }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 50_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 10);

console.log(`\nMachine: ${machine()}`);
console.log(`Load before: ${execSync('uptime', { encoding: 'utf8' }).trim()}`);
console.log(`${PRODUCTS} products in one branch (inserted set-based), ${REQUESTS} sequential GET /api/pos/catalogue per database\n`);
console.log('| database | encoding | p50 ms | p95 ms | max ms | bytes sent | JSON.parse ms | decode ms | index ms |');
console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const kind of benchKinds()) {
  const env = await benchEnv(kind);
  try {
    // Inserted set-based (the import's speed is measured elsewhere): products, their Main Branch rows, one batch each.
    const main = env.branches[0]!.id;
    const names = Array.from({ length: PRODUCTS }, (_, i) => productName(i));
    await env.db.owner.query(
      `INSERT INTO products (pharmacy_id, name, sku, barcodes, category, package_size, package_type, is_dda, tax_applied)
       SELECT $1, n.name, 'SKU-' || (n.i - 1), ARRAY[(6160000000000 + n.i - 1)::text], (ARRAY['Medicine','Antibiotics','Analgesics','Supplements'])[1 + n.i % 4],
              CASE WHEN n.i % 3 = 0 THEN 100 ELSE 1 END, 'tablets', n.i % 97 = 0, n.i % 4 = 0
         FROM unnest($2::text[]) WITH ORDINALITY AS n(name, i)`,
      [env.pharmacyId, names],
    );
    await env.db.owner.query(
      `INSERT INTO branch_products (pharmacy_id, branch_id, product_id, selling_price_cents, purchase_price_cents, quantity)
       SELECT $1, $2, p.id, 700 + (abs(hashtext(p.name)) % 30000), 500 + (abs(hashtext(p.name)) % 20000),
              CASE WHEN abs(hashtext(p.sku)) % 7 = 0 THEN 0 ELSE 10 + abs(hashtext(p.sku)) % 500 END
         FROM products p WHERE p.pharmacy_id = $1`,
      [env.pharmacyId, main],
    );
    await env.db.owner.query(
      `INSERT INTO batches (pharmacy_id, branch_id, product_id, batch_number, expiry_date, quantity, unit_cost_cents, source)
       SELECT $1, $2, bp.product_id, 'B1', current_date + (abs(hashtext(bp.product_id::text)) % 700 - 30), bp.quantity, bp.purchase_price_cents, 'opening'
         FROM branch_products bp WHERE bp.pharmacy_id = $1 AND bp.branch_id = $2 AND bp.quantity > 0`,
      [env.pharmacyId, main],
    );
    await env.db.owner.query('ANALYZE');
    // The first request builds the answer and keeps it (decision 0064); the rows below are then answered from the
    // cache (each encoding compressed on its first request); a revalidation with the ETag answers 304.
    {
      const t0 = performance.now();
      const { status, raw } = await getRaw(`${env.url}/api/pos/catalogue`, { ...env.headers, 'accept-encoding': 'identity' });
      if (status !== 200) throw new Error(`catalogue: ${status}`);
      console.log(`| ${kind} | first request (built, identity) | ${(performance.now() - t0).toFixed(0)} | | | ${(raw.length / 1024).toFixed(0)} KiB | | | |`);
    }
    for (const encoding of ['br', 'gzip', 'identity']) {
      const times: number[] = [];
      let bytes = 0;
      let text = '';
      for (let i = 0; i < REQUESTS; i += 1) {
        const t0 = performance.now();
        const { status, raw } = await getRaw(`${env.url}/api/pos/catalogue`, { ...env.headers, 'accept-encoding': encoding });
        const body = encoding === 'br' ? zlib.brotliDecompressSync(raw) : encoding === 'gzip' ? zlib.gunzipSync(raw) : raw;
        times.push(performance.now() - t0);
        if (status !== 200) throw new Error(`catalogue: ${status}`);
        bytes = raw.length;
        text = body.toString('utf8');
      }
      times.sort((a, b) => a - b);
      const t1 = performance.now();
      const parsed = JSON.parse(text) as PosCatalogueResponse;
      const t2 = performance.now();
      const items = decodeCatalogue(parsed);
      const t3 = performance.now();
      buildCatalogueIndex(items);
      const t4 = performance.now();
      if (items.length !== PRODUCTS) throw new Error(`expected ${PRODUCTS} items, got ${items.length}`);
      console.log(
        `| ${kind} | ${encoding} | ${percentile(times, 50).toFixed(0)} | ${percentile(times, 95).toFixed(0)} | ${times[times.length - 1]!.toFixed(0)} | ${(bytes / 1024).toFixed(0)} KiB | ${(t2 - t1).toFixed(0)} | ${(t3 - t2).toFixed(0)} | ${(t4 - t3).toFixed(0)} |`,
      );
    }
    {
      const first = await new Promise<string>((resolve, reject) => {
        http.get(`${env.url}/api/pos/catalogue`, { headers: { ...env.headers, 'accept-encoding': 'br' } }, (res) => {
          res.resume();
          res.on('end', () => resolve(String(res.headers.etag ?? '')));
        }).on('error', reject);
      });
      const times: number[] = [];
      for (let i = 0; i < REQUESTS; i += 1) {
        const t0 = performance.now();
        const { status } = await getRaw(`${env.url}/api/pos/catalogue`, { ...env.headers, 'if-none-match': first });
        times.push(performance.now() - t0);
        if (status !== 304) throw new Error(`revalidation: ${status}`);
      }
      times.sort((a, b) => a - b);
      console.log(`| ${kind} | 304 (If-None-Match) | ${percentile(times, 50).toFixed(0)} | ${percentile(times, 95).toFixed(0)} | ${times[times.length - 1]!.toFixed(0)} | 0 KiB | | | |`);
    }
  } finally {
    await env.close();
  }
}
console.log(`\nLoad after: ${execSync('uptime', { encoding: 'utf8' }).trim()}`);
