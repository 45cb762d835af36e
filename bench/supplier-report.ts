// Benchmark: the supplier balances report (issue 10, performance): BENCH_SUPPLIERS suppliers (default 200),
// BENCH_PURCHASES purchases (default 50,000, spread over the last 400 days) and BENCH_PAYMENTS payments (default
// 20,000, each allocated to one purchase of its supplier; about 1 in 10 an overpayment holding credit), on PGlite and
// PostgreSQL, through real HTTP as the pharmacy's owner (row-level security, the app role). The data is written by
// SQL, then the kept balances (migration 0028: purchase_balances, supplier_balances) are written from it as the
// modules keep them; the statistics are what the app keeps (PostgreSQL: ANALYZE as autovacuum would; PGlite:
// analyzeChanged).
// Prints p50 / p95 / max of sequential requests of GET /api/reports/suppliers (all suppliers, a name search, non-zero
// only), of a row opened (GET /api/reports/suppliers/:id/invoices, the supplier with the most open invoices), of the
// dashboard's payment-due alert and of a supplier's page (GET /api/contacts/:id/summary).
// Each route's figures sit beside a bare Fastify hello-world asked as many times in the same run: on a shared,
// loaded machine the p50 ratio is the figure to compare between runs.
// Run: npx tsx bench/supplier-report.ts   (BENCH_KINDS=pglite,postgres, BENCH_REQUESTS=20)
import { execSync } from 'node:child_process';
import { syncPurchaseBalances, syncSupplierBalances } from '../apps/server/src/modules/supplier-payments/supplier-payments.repository.ts';
import { createMaintenance } from '../apps/server/src/platform/maintenance.ts';
import { helloWorld, timedGets } from './lib/sequential.ts';
import { benchEnv, benchKinds, machine, percentile } from './lib/stock-bench.ts';

const SUPPLIERS = Number(process.env.BENCH_SUPPLIERS ?? 200);
const PURCHASES = Number(process.env.BENCH_PURCHASES ?? 50_000);
const PAYMENTS = Number(process.env.BENCH_PAYMENTS ?? 20_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 20);
const load = () => execSync('uptime', { encoding: 'utf8' }).trim().replace(/^.*load average/, 'load average');

const timed = (url: string, headers: Record<string, string> = {}) => timedGets(url, REQUESTS, headers);
const hello = await helloWorld();
const helloUrl = hello.url;

console.log(`\nMachine: ${machine()}`);
console.log(`${SUPPLIERS} suppliers, ${PURCHASES} purchases, ${PAYMENTS} payments; ${REQUESTS} sequential requests per route, real HTTP on loopback\n`);
console.log('| database | route | p50 ms | p95 ms | max ms | hello-world p50 ms | p50 ratio | load |');
console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |');

for (const kind of benchKinds()) {
  const env = await benchEnv(kind);
  try {
    const q = env.db.owner;
    const p = env.pharmacyId;
    await q.query(
      `INSERT INTO contacts (pharmacy_id, type, name, phone, credit_terms, credit_period_days)
       SELECT $1, 'supplier', 'Supplier ' || lpad(i::text, 4, '0'), '2547' || lpad(i::text, 8, '0'),
              CASE WHEN i % 3 = 0 THEN NULL ELSE (15 * (1 + i % 4))::text || ' days' END, CASE WHEN i % 3 = 0 THEN NULL ELSE 15 * (1 + i % 4) END
         FROM generate_series(1, $2::int) AS i`,
      [p, SUPPLIERS],
    );
    await q.query(
      `INSERT INTO purchases (pharmacy_id, purchase_number, supplier_id, branch_id, purchase_date, status, subtotal_cents, tax_cents, total_cents)
       SELECT $1, 'PO-' || (1700000000000 + i), s.id, $3, current_date - (i % 400), CASE WHEN i % 50 = 0 THEN 'cancelled' ELSE 'received' END,
              10000 + (i * 7919) % 500000, 0, 10000 + (i * 7919) % 500000
         FROM generate_series(1, $2::int) AS i
         JOIN (SELECT id, row_number() OVER (ORDER BY id) - 1 AS n FROM contacts WHERE pharmacy_id = $1 AND type = 'supplier') s ON s.n = i % $4`,
      [p, PURCHASES, env.branches[0]!.id, SUPPLIERS],
    );
    // Each payment pays one live purchase of its supplier in full, or (1 in 10) 5,000 more than it owed.
    await q.query(
      `WITH picked AS (
         SELECT id, supplier_id, total_cents, purchase_date, row_number() OVER (ORDER BY purchase_number) AS n
           FROM purchases WHERE pharmacy_id = $1 AND status <> 'cancelled' ORDER BY purchase_number LIMIT $2),
       paid AS (
         INSERT INTO supplier_payments (pharmacy_id, supplier_id, supplier_name, amount_cents, payment_date, method, allocation_type, allocation_details, reference)
         SELECT $1, pk.supplier_id, 'Supplier', pk.total_cents + CASE WHEN pk.n % 10 = 0 THEN 5000 ELSE 0 END, pk.purchase_date + 1, 'Cash', 'auto',
                jsonb_build_object('type', 'auto', 'allocations', jsonb_build_array(), 'totalAllocated', pk.total_cents, 'overpayment', 0, 'invoicesAffected', 1), pk.id::text
           FROM picked pk RETURNING id, reference, amount_cents)
       INSERT INTO supplier_payment_allocations (pharmacy_id, payment_id, purchase_id, amount_cents, source)
       SELECT $1, paid.id, pk.id, pk.total_cents, 'payment' FROM paid JOIN picked pk ON pk.id::text = paid.reference`,
      [p, PAYMENTS],
    );
    // The kept balances (migration 0028) of what was written by SQL, as the modules keep them in their transactions;
    // with statistics first, as a live database has them (without, the planner nests loops over the 20,000
    // allocations for each supplier).
    if (kind === 'pglite') await createMaintenance(env.db).analyzeChanged();
    else await q.query('ANALYZE');
    const began = performance.now();
    const purchaseIds = (await q.query<{ id: string }>(`SELECT id FROM purchases WHERE pharmacy_id = $1`, [p])).map((r) => r.id);
    const supplierIds = (await q.query<{ id: string }>(`SELECT id FROM contacts WHERE pharmacy_id = $1 AND type = 'supplier'`, [p])).map((r) => r.id);
    await env.db.transaction({ pharmacyId: p }, async (t) => {
      await syncPurchaseBalances(t, p, purchaseIds);
      await syncSupplierBalances(t, p, supplierIds);
    });
    console.error(`${kind}: kept balances of ${purchaseIds.length} purchases and ${supplierIds.length} suppliers written in ${((performance.now() - began) / 1000).toFixed(1)} s`);
    if (kind === 'pglite') await createMaintenance(env.db).analyzeChanged();
    else await q.query('ANALYZE');
    // The supplier with the most open (unpaid) purchases: the largest row to open.
    const [one] = await q.query<{ id: string }>(
      `SELECT p.supplier_id AS id FROM purchases p WHERE p.pharmacy_id = $1 AND p.status <> 'cancelled'
          AND NOT EXISTS (SELECT 1 FROM supplier_payment_allocations a WHERE a.pharmacy_id = p.pharmacy_id AND a.purchase_id = p.id)
        GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1`,
      [p],
    );

    const routes = [
      '/api/reports/suppliers',
      '/api/reports/suppliers?search=supplier%2001',
      '/api/reports/suppliers?nonZeroOnly=true&minBalanceCents=100000',
      `/api/reports/suppliers/${one!.id}/invoices`,
      '/api/reports/suppliers/payment-due',
      `/api/contacts/${one!.id}/summary`,
    ];
    for (const route of routes) {
      const times = await timed(`${env.url}${route}`, env.headers);
      const base = await timed(helloUrl);
      const ratio = percentile(times, 50) / percentile(base, 50);
      console.log(
        `| ${kind} | GET ${route.replace(one!.id, '<supplier>')} | ${percentile(times, 50).toFixed(0)} | ${percentile(times, 95).toFixed(0)} | ${times[times.length - 1]!.toFixed(0)} | ${percentile(base, 50).toFixed(2)} | ${ratio.toFixed(0)} | ${load()} |`,
      );
    }
  } finally {
    await env.close();
  }
}
await hello.close();
