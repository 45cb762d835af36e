import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Papa from 'papaparse';
import { csvCell } from '../src/modules/product-import/export.service.ts';
import { createTestApp, type TestApp } from './app.ts';
import { testDatabaseKinds } from './database.ts';
import type { TestClient } from './http.ts';
import { signedInClient, stockPharmacy, type StockPharmacy } from './import-helpers.ts';

describe('CSV cells', () => {
  it('quotes what needs quoting and defuses spreadsheet formulas', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a, "b"')).toBe('"a, ""b"""');
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvCell(12)).toBe('12');
    expect(csvCell(true)).toBe('Yes');
    expect(csvCell(null)).toBe('');
  });
});

describe.each(testDatabaseKinds())('product export (GET /api/products/export) on %s', (kind) => {
  let t: TestApp;
  let pharmacy: StockPharmacy;
  let owner: TestClient;

  beforeAll(async () => {
    t = await createTestApp(kind);
    pharmacy = await stockPharmacy(t.db, 'export_ph', { roles: ['owner', 'cashier'], branchNames: ['Main Branch', 'Westlands Branch'] });
    owner = await signedInClient(t, pharmacy.users.owner!, pharmacy.pharmacyId, pharmacy.branches[0]!.id);
    const csv = [
      'Name,SKU,Barcodes,Category,Branch,Selling Price (KSh),Purchase Price (KSh),Opening Quantity,Low Stock Threshold,DDA',
      '"Cough syrup, strong",CS-1,111;222,Medicine,Main Branch,250.50,150,40,5,No',
      'Diazepam 5mg,DZP-5,,Medicine,Main Branch,4,1.5,3,5,Yes',
      'Gloves,GLV-1,,Supplies,Main Branch,12,6,0,5,No',
      'Gloves,GLV-1,,Supplies,Westlands Branch,13,6,100,5,No',
    ].join('\n');
    const imported = await owner.request('POST', '/api/products/import', csv, { 'content-type': 'text/csv' });
    if (imported.status !== 200 || imported.body.imported !== 4) throw new Error(JSON.stringify(imported.body));
  });
  afterAll(async () => t?.close());

  async function exported(query = ''): Promise<Record<string, string>[]> {
    const response = await owner.get(`/api/products/export${query}`);
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/csv/);
    expect(response.headers['content-disposition']).toMatch(/attachment; filename="products-\d{4}-\d{2}-\d{2}\.csv"/);
    const text = String(response.body).replace(/^\uFEFF/, '');
    return Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: true }).data;
  }

  it('exports the session branch by default, with prices in KSh and the stock status', async () => {
    const rows = await exported();
    expect(rows.map((r) => r.Name)).toEqual(['Cough syrup, strong', 'Diazepam 5mg', 'Gloves']);
    expect(rows[0]).toMatchObject({ SKU: 'CS-1', Barcodes: '111;222', 'Selling Price (KSh)': '250.50', 'Purchase Price (KSh)': '150.00', Quantity: '40', 'Stock Status': 'good', Branch: 'Main Branch' });
    expect(rows[1]).toMatchObject({ DDA: 'Yes', 'Stock Status': 'low' });
    expect(rows[2]).toMatchObject({ 'Stock Status': 'out' });
  });

  it('filters as the product list does', async () => {
    expect((await exported('?status=out')).map((r) => r.Name)).toEqual(['Gloves']);
    expect((await exported('?q=syrup')).map((r) => r.Name)).toEqual(['Cough syrup, strong']);
    expect((await exported('?dda=true')).map((r) => r.SKU)).toEqual(['DZP-5']);
    expect((await exported('?category=supplies')).map((r) => r.SKU)).toEqual(['GLV-1']);
    const all = await exported('?branchId=all');
    expect(all.filter((r) => r.SKU === 'GLV-1').map((r) => [r.Branch, r.Quantity]).sort()).toEqual([
      ['Main Branch', '0'],
      ['Westlands Branch', '100'],
    ]);
  });

  it('an export imports again into another pharmacy', async () => {
    const csv = String((await owner.get('/api/products/export?branchId=all')).body);
    const other = await stockPharmacy(t.db, 'export_other', { roles: ['owner'], branchNames: ['Main Branch', 'Westlands Branch'] });
    const client = await signedInClient(t, other.users.owner!, other.pharmacyId, other.branches[0]!.id);
    const response = await client.request('POST', '/api/products/import?dryRun=true', csv, { 'content-type': 'text/csv' });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ errors: [], productsCreated: 3, imported: 4 });
  });

  it('is open to product readers, not to strangers or other branches of other pharmacies', async () => {
    const cashier = await signedInClient(t, pharmacy.users.cashier!, pharmacy.pharmacyId, pharmacy.branches[0]!.id);
    expect((await cashier.get('/api/products/export')).status).toBe(200);
    expect((await t.client().get('/api/products/export')).status).toBe(401);
    expect((await owner.get('/api/products/export?branchId=00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });
});
