import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMPORT_TEMPLATE_CSV, type ImportStreamLine } from '@pharmapoint/domain/product-import';
import { businessDate } from '@pharmapoint/domain/stock';
import { createTestApp, type TestApp } from './app.ts';
import { testDatabaseKinds } from './database.ts';
import type { TestClient } from './http.ts';
import { SseClient } from './sse-client.ts';
import { ledgerMismatches, signedInClient, stockPharmacy, type StockPharmacy } from './import-helpers.ts';

const HEADER = 'Name,SKU,Category,Branch,Selling Price (KSh),Purchase Price (KSh),Opening Quantity,Batch Number,Expiry Date,DDA';

describe.each(testDatabaseKinds())('product import (POST /api/products/import) on %s', (kind) => {
  let t: TestApp;
  let pharmacy: StockPharmacy;
  let owner: TestClient;

  beforeAll(async () => {
    t = await createTestApp(kind);
    pharmacy = await stockPharmacy(t.db, 'import_ph', { roles: ['owner', 'cashier', 'demo'], branchNames: ['Main Branch', 'Westlands Branch'] });
    owner = await signedInClient(t, pharmacy.users.owner!, pharmacy.pharmacyId, pharmacy.branches[0]!.id);
  });
  afterAll(async () => t?.close());

  const count = async (table: string) =>
    ((await t.db.owner.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE pharmacy_id = $1`, [pharmacy.pharmacyId]))[0]!.n);

  it('serves the template, which imports as it is', async () => {
    const template = await owner.get('/api/products/import/template');
    expect(template.status).toBe(200);
    expect(template.headers['content-type']).toMatch(/^text\/csv/);
    expect(template.headers['content-disposition']).toContain('attachment');
    expect(String(template.body)).toBe(IMPORT_TEMPLATE_CSV);
    const dry = await owner.request('POST', '/api/products/import?dryRun=true', IMPORT_TEMPLATE_CSV, { 'content-type': 'text/csv' });
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({ imported: 2, skipped: 0, errors: [], total: 2, productsCreated: 2, dryRun: true, mode: 'all-or-nothing' });
    expect(await count('products')).toBe(0);
  });

  it('all-or-nothing: one bad row writes nothing and reports every error with its row number', async () => {
    const csv = [
      HEADER,
      'Panadol 500mg,PAN-1,Medicine,Main Branch,6,4.20,100,B1,2037-01-31,No',
      ',NONAME,Medicine,Main Branch,6,4,10,,,No',
      'Amoxil 500mg,AMX-1,Medicine,Nairobi CBD,18,12,10,,,No',
      'Flagyl 400mg,FLG-1,Medicine,Main Branch,-14,9,2.5,,,maybe',
    ].join('\n');
    const response = await owner.request('POST', '/api/products/import?mode=all-or-nothing', csv, { 'content-type': 'text/csv' });
    expect(response.status).toBe(200);
    expect(response.body.imported).toBe(0);
    expect(response.body.skipped).toBe(4);
    const errors = response.body.errors as { row: number; field: string; message: string }[];
    expect(errors).toContainEqual({ row: 3, field: 'name', message: 'Name is required' });
    expect(errors).toContainEqual({ row: 4, field: 'branch', message: "Unknown branch 'Nairobi CBD'" });
    expect(errors.filter((e) => e.row === 5).map((e) => e.field).sort()).toEqual(['isDda', 'openingQuantity', 'sellingPrice']);
    expect(await count('products')).toBe(0);
    expect(await count('stock_movements')).toBe(0);
  });

  it('valid-only: imports the good rows with batches and import movements, skips the bad ones', async () => {
    const csv = [
      HEADER,
      'Panadol 500mg,PAN-1,Medicine,Main Branch,6,4.20,100,B1,2037-01-31,No',
      'Panadol 500mg,PAN-1,Medicine,Main Branch,6,4.20,50,B2,31/03/2037,No',
      'Panadol 500mg,PAN-1,Medicine,Westlands Branch,6.50,4.20,30,B3,2037-02-28,No',
      'Tramadol 50mg,TRM-1,Medicine,,8,4,20,T1,2036-12-31,Yes',
      'Bad price,BAD-1,Medicine,Main Branch,abc,4,1,,,No',
      'Gloves,GLV-1,Medicine,Main Branch,12,6,0,,,No',
    ].join('\r\n');
    const response = await owner.request('POST', '/api/products/import?mode=valid-only', csv, { 'content-type': 'text/csv' });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ imported: 5, skipped: 1, total: 6, productsCreated: 3 });
    expect(response.body.errors).toEqual([{ row: 6, field: 'sellingPrice', message: expect.stringContaining('Selling Price (KSh)') }]);

    const products = await t.db.owner.query<{ id: string; sku: string; is_dda: boolean }>(
      `SELECT id, sku, is_dda FROM products WHERE pharmacy_id = $1 ORDER BY sku`,
      [pharmacy.pharmacyId],
    );
    expect(products.map((p) => p.sku)).toEqual(['GLV-1', 'PAN-1', 'TRM-1']);
    expect(products.find((p) => p.sku === 'TRM-1')?.is_dda).toBe(true);
    const pan = products.find((p) => p.sku === 'PAN-1')!;
    const stock = await t.db.owner.query<{ branch_id: string; quantity: number; selling_price_cents: string }>(
      `SELECT branch_id, quantity, selling_price_cents FROM branch_products WHERE pharmacy_id = $1 AND product_id = $2 ORDER BY quantity DESC`,
      [pharmacy.pharmacyId, pan.id],
    );
    expect(stock.map((s) => [s.branch_id, Number(s.quantity), Number(s.selling_price_cents)])).toEqual([
      [pharmacy.branches[0]!.id, 150, 600],
      [pharmacy.branches[1]!.id, 30, 650],
    ]);
    const batches = await t.db.owner.query<{ batch_number: string; expiry_date: unknown; quantity: number }>(
      `SELECT batch_number, to_char(expiry_date, 'YYYY-MM-DD') AS expiry_date, quantity FROM batches WHERE pharmacy_id = $1 AND product_id = $2 ORDER BY batch_number`,
      [pharmacy.pharmacyId, pan.id],
    );
    expect(batches.map((b) => [b.batch_number, b.expiry_date, Number(b.quantity)])).toEqual([
      ['B1', '2037-01-31', 100],
      ['B2', '2037-03-31', 50],
      ['B3', '2037-02-28', 30],
    ]);
    const movements = await t.db.owner.query<{ kind: string; delta: number }>(
      `SELECT kind, delta FROM stock_movements WHERE pharmacy_id = $1 AND product_id = $2`,
      [pharmacy.pharmacyId, pan.id],
    );
    expect(movements.every((m) => m.kind === 'import')).toBe(true);
    expect(movements.map((m) => Number(m.delta)).sort((a, b) => a - b)).toEqual([30, 50, 100]);
    expect(await ledgerMismatches(t.db, pharmacy.pharmacyId)).toEqual([]);
  });

  it('refuses a SKU that already exists', async () => {
    const response = await owner.request('POST', '/api/products/import?mode=valid-only', `${HEADER}\nPanadol again,pan-1,Medicine,,6,4,1,,,No\n`, {
      'content-type': 'text/csv',
    });
    expect(response.body).toMatchObject({ imported: 0, skipped: 1 });
    expect(response.body.errors[0]).toMatchObject({ row: 2, field: 'sku' });
  });

  it('takes a column mapping and a JSON body', async () => {
    const csv = 'Item,Code,Qty,Price\nCetirizine 10mg,CET-1,40,3\n';
    const mapping = JSON.stringify({ name: 'Item', sku: 'Code', openingQuantity: 'Qty', sellingPrice: 'Price' });
    const viaQuery = await owner.request('POST', `/api/products/import?dryRun=true&mapping=${encodeURIComponent(mapping)}`, csv, { 'content-type': 'text/csv' });
    expect(viaQuery.body).toMatchObject({ imported: 1, errors: [] });
    const viaJson = await owner.post('/api/products/import', { csv, mapping: JSON.parse(mapping) });
    expect(viaJson.status).toBe(200);
    expect(viaJson.body).toMatchObject({ imported: 1, productsCreated: 1 });
    const [row] = await t.db.owner.query<{ quantity: number }>(
      `SELECT bp.quantity FROM products p JOIN branch_products bp ON bp.pharmacy_id = p.pharmacy_id AND bp.product_id = p.id
        WHERE p.pharmacy_id = $1 AND p.sku = 'CET-1'`,
      [pharmacy.pharmacyId],
    );
    expect(Number(row?.quantity)).toBe(40);
  });

  it('answers 400 for a malformed file or mapping, writing nothing', async () => {
    const before = await count('products');
    const unterminated = await owner.request('POST', '/api/products/import', 'Name,Qty\n"Panadol,1\n', { 'content-type': 'text/csv' });
    expect(unterminated.status).toBe(400);
    expect(unterminated.body.error.message).toMatch(/^The CSV file is malformed/);
    const badMapping = await owner.request('POST', '/api/products/import?mapping=%7Bnope', 'Name\nA\n', { 'content-type': 'text/csv' });
    expect(badMapping.status).toBe(400);
    const missingColumn = await owner.request('POST', `/api/products/import?mapping=${encodeURIComponent('{"name":"Product"}')}`, 'Name\nA\n', {
      'content-type': 'text/csv',
    });
    expect(missingColumn.status).toBe(400);
    const badMode = await owner.request('POST', '/api/products/import?mode=some', 'Name\nA\n', { 'content-type': 'text/csv' });
    expect(badMode.status).toBe(400);
    expect(await count('products')).toBe(before);
  });

  it('streams progress as NDJSON when asked, ending with the result', async () => {
    const rows = Array.from({ length: 600 }, (_, i) => `Stream product ${i},STR-${i},Medicine,Main Branch,10,5,${i % 7},,,No`);
    const response = await owner.postNdjson<ImportStreamLine>('/api/products/import?mode=all-or-nothing', [HEADER, ...rows].join('\n'));
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/x-ndjson/);
    const lines = response.lines;
    const progress = lines.filter((l) => l.type === 'progress');
    expect(progress.some((p) => p.phase === 'validating')).toBe(true);
    expect(progress.some((p) => p.phase === 'writing')).toBe(true);
    expect(progress[progress.length - 1]).toMatchObject({ phase: 'done', done: 600, total: 600 });
    expect(lines[lines.length - 1]).toMatchObject({ type: 'result', imported: 600, skipped: 0, errors: [] });
    expect(await ledgerMismatches(t.db, pharmacy.pharmacyId)).toEqual([]);
  });

  it('announces the import to live clients as one products event', async () => {
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const stream = await SseClient.open(`${base}/api/events`, `pp_session=${owner.cookies.get('pp_session')}`);
    try {
      await stream.next((e) => e.event === 'ready');
      const response = await owner.request('POST', '/api/products/import', `${HEADER}\nLive one,LIVE-1,Medicine,Westlands Branch,10,5,3,,,No\n`, {
        'content-type': 'text/csv',
      });
      expect(response.body.imported).toBe(1);
      const event = await stream.next((e) => e.event === 'products');
      expect(event.data).toMatchObject({ reason: 'Import', count: 1, branchIds: [pharmacy.branches[1]!.id] });
    } finally {
      stream.close();
    }
  });

  it('needs product:create; a demo user cannot import', async () => {
    const cashier = await signedInClient(t, pharmacy.users.cashier!, pharmacy.pharmacyId, pharmacy.branches[0]!.id);
    expect((await cashier.request('POST', '/api/products/import', 'Name\nA\n', { 'content-type': 'text/csv' })).status).toBe(403);
    expect((await cashier.get('/api/products/import/template')).status).toBe(403);
    const demo = await signedInClient(t, pharmacy.users.demo!, pharmacy.pharmacyId, pharmacy.branches[0]!.id);
    const denied = await demo.request('POST', '/api/products/import', 'Name\nA\n', { 'content-type': 'text/csv' });
    expect(denied.status).toBe(403);
    expect(denied.body.error.message).toBe('Demo mode: Changes are not saved');
  });

  it('applies the plan limit to new products', async () => {
    const trial = await stockPharmacy(t.db, 'import_trial', { plan: 'trial', roles: ['owner'] });
    const client = await signedInClient(t, trial.users.owner!, trial.pharmacyId, trial.branches[0]!.id);
    const rows = Array.from({ length: 60 }, (_, i) => `Trial product ${i},TP-${i},Medicine,,10,5,1,,,No`);
    const response = await client.request('POST', '/api/products/import?mode=valid-only', [HEADER, ...rows].join('\n'), { 'content-type': 'text/csv' });
    expect(response.status).toBe(402);
    expect(response.body.error.message).toMatch(/^Limit exceeded\. Plan allows 50, current usage: 0/);
    const [{ n }] = (await t.db.owner.query<{ n: number }>(`SELECT count(*)::int AS n FROM products WHERE pharmacy_id = $1`, [trial.pharmacyId])) as [{ n: number }];
    expect(n).toBe(0);
    // Dry runs check the limit as the import would, without keeping the places they check: two dry runs of 30
    // leave room for the import of the same 30 (of 50).
    const thirty = [HEADER, ...rows.slice(0, 30)].join('\n');
    for (const dryRun of ['true', 'true', 'false']) {
      const answer = await client.request('POST', `/api/products/import?dryRun=${dryRun}`, thirty, { 'content-type': 'text/csv' });
      expect(answer.status, `dryRun=${dryRun}`).toBe(200);
      expect(answer.body).toMatchObject({ imported: 30, productsCreated: 30 });
    }
    const second = await client.request('POST', '/api/products/import?dryRun=true', [HEADER, ...rows.slice(30)].join('\n'), { 'content-type': 'text/csv' });
    expect(second.status).toBe(402);
    expect(second.body.error.message).toMatch(/^Limit exceeded\. Plan allows 50, current usage: 30/);
  });
  it('refuses a row whose opening stock has already expired, as receiving does (decision 0050)', async () => {
    const today = businessDate(new Date(), 'Africa/Nairobi');
    const skus = ['EXP-OLD', 'EXP-DMY', 'EXP-TODAY'];
    const batchesOf = () =>
      t.db.owner.query<{ sku: string; batch_number: string; quantity: number }>(
        `SELECT p.sku, b.batch_number, b.quantity FROM batches b JOIN products p ON p.pharmacy_id = b.pharmacy_id AND p.id = b.product_id
          WHERE b.pharmacy_id = $1 AND p.sku = ANY($2) ORDER BY p.sku`,
        [pharmacy.pharmacyId, skus],
      );
    const csv = [
      HEADER,
      'Old syrup,EXP-OLD,Medicine,Main Branch,6,4,10,OLD1,2020-01-31,No',
      'Old drops,EXP-DMY,Medicine,Main Branch,6,4,5,,31/12/2021,No',
      `Fresh today,EXP-TODAY,Medicine,Main Branch,6,4,7,NEW1,${today},No`,
    ].join('\n');
    // All or nothing: the expired rows refuse the whole file, with the date and the batch in the message.
    const refused = await owner.request('POST', '/api/products/import', csv, { 'content-type': 'text/csv' });
    expect(refused.status).toBe(200);
    expect(refused.body).toMatchObject({ imported: 0, skipped: 3 });
    expect(refused.body.errors).toEqual([
      { row: 2, field: 'expiryDate', message: 'Batch OLD1 expired on 2020-01-31: expired stock cannot be imported as sellable stock' },
      { row: 3, field: 'expiryDate', message: 'This batch expired on 2021-12-31: expired stock cannot be imported as sellable stock' },
    ]);
    expect(await batchesOf()).toEqual([]);
    // A dry run says the same.
    const dry = await owner.request('POST', '/api/products/import?dryRun=true&mode=valid-only', csv, { 'content-type': 'text/csv' });
    expect(dry.body).toMatchObject({ imported: 1, skipped: 2, dryRun: true });
    // Valid rows only: the expired rows are skipped; a batch expiring today is still sellable today and comes in.
    const partial = await owner.request('POST', '/api/products/import?mode=valid-only', csv, { 'content-type': 'text/csv' });
    expect(partial.status).toBe(200);
    expect(partial.body).toMatchObject({ imported: 1, skipped: 2, productsCreated: 1 });
    expect(partial.body.errors.map((e: { row: number; field: string }) => [e.row, e.field])).toEqual([
      [2, 'expiryDate'],
      [3, 'expiryDate'],
    ]);
    expect((await batchesOf()).map((b) => [b.sku, b.batch_number, Number(b.quantity)])).toEqual([['EXP-TODAY', 'NEW1', 7]]);
    expect(await ledgerMismatches(t.db, pharmacy.pharmacyId)).toEqual([]);
  });
});
