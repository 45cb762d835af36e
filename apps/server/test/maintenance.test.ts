import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMaintenance, msUntilUtcHour, requestAnalyze, type Maintenance } from '../src/platform/maintenance.ts';
import { createTestApp, type TestApp } from './app.ts';
import type { TestClient } from './http.ts';
import { signedInClient, stockPharmacy, type StockPharmacy } from './import-helpers.ts';

const ROWS = 10_000;
const HEADER = 'Name,SKU,Category,Branch,Selling Price (KSh),Purchase Price (KSh),Opening Quantity,Batch Number,Expiry Date,DDA';
const STOCK_TABLES = ['products', 'branch_products', 'batches', 'stock_movements'];

interface TableStats {
  relname: string;
  n_live_tup: number;
  n_mod_since_analyze: number;
  last_analyze: string | null;
  last_vacuum: string | null;
}

// PGlite only: on PostgreSQL autovacuum keeps the statistics and the scheduler does nothing.
describe('planner statistics on the embedded database (platform/maintenance.ts)', () => {
  let t: TestApp;
  let pharmacy: StockPharmacy;
  let owner: TestClient;
  let maintenance: Maintenance;
  const lines: string[] = [];

  beforeAll(async () => {
    t = await createTestApp('pglite');
    pharmacy = await stockPharmacy(t.db, 'maint_ph', { branchNames: ['Main Branch', 'Westlands Branch'] });
    owner = await signedInClient(t, pharmacy.users.owner!, pharmacy.pharmacyId, pharmacy.branches[0]!.id);
    maintenance = createMaintenance(t.db, { requestedDelayMs: 50, log: (line) => lines.push(line) });
  });
  afterAll(async () => {
    await maintenance?.stop();
    await t?.close();
  });

  const stats = async (): Promise<Record<string, TableStats>> => {
    await t.db.owner.query('SELECT pg_stat_force_next_flush()');
    const rows = await t.db.owner.query<TableStats>(
      `SELECT relname, n_live_tup, n_mod_since_analyze, last_analyze, last_vacuum FROM pg_stat_user_tables WHERE relname = ANY($1)`,
      [STOCK_TABLES],
    );
    return Object.fromEntries(rows.map((row) => [row.relname, row]));
  };

  it(`after a bulk import of ${ROWS} products, requestAnalyze brings the statistics up to date and the list answers`, async () => {
    maintenance.start();
    const csv = [HEADER];
    for (let i = 0; i < ROWS; i += 1) {
      csv.push(`Maintenance product ${i},MNT-${i},Medicine,${i % 2 ? 'Westlands Branch' : 'Main Branch'},12.50,8,${10 + (i % 40)},B${i},2027-06-30,No`);
    }
    const imported = await owner.request('POST', '/api/products/import?mode=all-or-nothing', csv.join('\n'), { 'content-type': 'text/csv' });
    expect(imported.status).toBe(200);
    expect(imported.body).toMatchObject({ imported: ROWS, productsCreated: ROWS, errors: [] });

    const before = await stats();
    expect(before.products!.n_mod_since_analyze).toBeGreaterThanOrEqual(ROWS);
    expect(before.products!.last_analyze).toBeNull();

    requestAnalyze(t.db);
    requestAnalyze(t.db); // a second request while one is pending adds nothing
    let after = before;
    // The pass analyzes one table at a time: wait until it has done them all.
    const pending = () => STOCK_TABLES.some((table) => after[table]!.last_analyze === null);
    for (let waited = 0; waited < 30_000 && pending(); waited += 100) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      after = await stats();
    }
    for (const table of STOCK_TABLES) {
      expect(after[table]!.last_analyze, `${table} analyzed`).not.toBeNull();
      expect(after[table]!.n_mod_since_analyze, `${table} changes since analyze`).toBeLessThan(50);
    }
    const [products] = await t.db.owner.query<{ reltuples: number }>(`SELECT reltuples FROM pg_class WHERE relname = 'products'`);
    expect(products!.reltuples).toBe(ROWS);
    // One line per table; printed for the record (the time is the machine's, not asserted).
    console.log(lines.join('\n'));
    expect(lines.filter((line) => line.includes('ANALYZE public.products ')).length).toBe(1);

    const page = await owner.get('/api/products?limit=50');
    expect(page.status).toBe(200);
    expect(page.body.total).toBe(ROWS);
    expect(page.body.items).toHaveLength(50);
  }, 90_000);

  it('leaves tables alone when few rows changed, and vacuums the changed ones', async () => {
    const [one] = await t.db.owner.query<{ id: string }>(`SELECT id FROM products WHERE pharmacy_id = $1 LIMIT 1`, [pharmacy.pharmacyId]);
    const renamed = await owner.request('PATCH', `/api/products/${one!.id}`, { name: 'Renamed maintenance product' });
    expect(renamed.status).toBe(200);
    expect((await stats()).products!.n_mod_since_analyze).toBeGreaterThan(0);
    expect(await maintenance.analyzeChanged()).not.toContain('public.products');

    const vacuumed = await maintenance.vacuumChanged();
    expect(vacuumed).toEqual(expect.arrayContaining(STOCK_TABLES.map((table) => `public.${table}`)));
    const after = await stats();
    for (const table of STOCK_TABLES) expect(after[table]!.last_vacuum, `${table} vacuumed`).not.toBeNull();
    expect(await maintenance.vacuumChanged()).not.toContain('public.products');
  }, 60_000);

  it('does nothing once stopped, and schedules the vacuum for the next whole hour', async () => {
    // A table that qualifies (1,000 rows never analyzed), so a pass that ran would analyze it.
    await t.db.owner.query('CREATE TABLE maint_scratch (n int)');
    await t.db.owner.query('INSERT INTO maint_scratch SELECT generate_series(1, 1000)');
    await maintenance.stop();
    requestAnalyze(t.db);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const [scratch] = await t.db.owner.query<{ last_analyze: string | null }>(`SELECT last_analyze FROM pg_stat_user_tables WHERE relname = 'maint_scratch'`);
    expect(scratch!.last_analyze).toBeNull();
    expect(await maintenance.analyzeChanged()).toContain('public.maint_scratch');

    expect(msUntilUtcHour(0, new Date('2026-11-23T20:30:00Z'))).toBe(3.5 * 3_600_000);
    expect(msUntilUtcHour(21, new Date('2026-11-23T21:00:00Z'))).toBe(24 * 3_600_000);
  });
});
