import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { createTestApp, type TestApp } from './app.ts';
import { testDatabaseKinds } from './database.ts';
import { createUser, FIXTURE_PASSWORD } from './fixtures.ts';
import type { TestClient, TestResponse } from './http.ts';
import type { StockPharmacy } from './import-helpers.ts';
import { errorBodySchema, expectError } from './security-helpers.ts';
import { clientsOf, daysFromToday, stockTestPharmacy } from './stock-helpers.ts';

/**
 * Bad input (issue 2, "Bad input"): for a representative write of every module, malformed JSON, wrong types,
 * unknown fields, over-long strings, bodies over 1 MB, negative or fractional quantities and negative prices get
 * 400 with a clear message in the error format of ARCHITECTURE section 6, and nothing is written anywhere.
 */

/** Every row of every table, as text: a refused request must leave all of it as it was. */
async function databaseRows(db: Database): Promise<Record<string, string[]>> {
  const tables = await db.owner.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1`,
  );
  const rows: Record<string, string[]> = {};
  for (const { table_name } of tables) {
    rows[table_name] = (await db.owner.query<{ row: string }>(`SELECT to_jsonb(t)::text AS row FROM "${table_name}" t ORDER BY 1`)).map((r) => r.row);
  }
  return rows;
}

/** A JSON body a little over 1 MB whose only fault is its size. */
function overOneMegabyte(body: Record<string, unknown>, field: string): string {
  return JSON.stringify({ ...body, [field]: 'x'.repeat(1024 * 1024 + 10) });
}

/**
 * A valid body with one more field nested `levels` arrays deep (20,000 levels: 40 KB), as text: a recursive walk of
 * it runs out of stack, so the server must refuse it from the text, before parsing.
 */
function nestedDeep(body: Record<string, unknown>, levels = 20_000): string {
  return `${JSON.stringify(body).slice(0, -1)},"z":${'['.repeat(levels)}${']'.repeat(levels)}}`;
}

type Expectation =
  | { status: 400; code: 'MALFORMED_JSON' | 'VALIDATION_FAILED' | 'JSON_TOO_DEEP'; field?: string }
  | { status: 413; code: 'BODY_TOO_LARGE'; field?: string };

interface BadCase {
  label: string;
  body: unknown;
  expect: Expectation;
  /** A raw body (string) is sent as application/json unless a content type is given. */
  contentType?: string;
  url?: string;
  headers?: Record<string, string>;
}

/** The usual bad bodies for a route whose valid body is `valid`: malformed, unknown field, over 1 MB. */
function commonCases(valid: Record<string, unknown>, longField: string): BadCase[] {
  return [
    { label: 'malformed JSON', body: `${JSON.stringify(valid).slice(0, -1)},`, expect: { status: 400, code: 'MALFORMED_JSON' } },
    { label: 'a truncated body', body: '{"', expect: { status: 400, code: 'MALFORMED_JSON' } },
    { label: 'an unknown field', body: { ...valid, isPlatformOperator: true }, expect: { status: 400, code: 'VALIDATION_FAILED', field: 'isPlatformOperator' } },
    { label: 'an array instead of an object', body: [valid], expect: { status: 400, code: 'VALIDATION_FAILED' } },
    { label: 'a body over 1 MB', body: overOneMegabyte(valid, longField), expect: { status: 413, code: 'BODY_TOO_LARGE' } },
    { label: 'a body nested 20,000 levels deep', body: nestedDeep(valid), expect: { status: 400, code: 'JSON_TOO_DEEP' } },
  ];
}

const V = (field?: string): Expectation => ({ status: 400, code: 'VALIDATION_FAILED', field });


/**
 * Does the answer name the field? The person reads a sentence by the field's label ('Email must be …'); programs
 * read the field's path in details.issues (issue 8 item 4: no 'items.0.delta: …' in the sentence).
 */
function namesField(res: TestResponse, message: string, field: string): boolean {
  const details = (res.body as { error?: { details?: { issues?: { path?: string }[] } } })?.error?.details;
  const paths = (details?.issues ?? []).map((issue) => issue.path ?? '');
  return message.toLowerCase().includes(field.toLowerCase()) || paths.some((path) => path.includes(field));
}

describe.each(testDatabaseKinds())('bad input on %s', (kind) => {
  let t: TestApp;
  let ph: StockPharmacy;
  let owner: TestClient;
  let product: string;
  let requested: string;
  let dispatched: string;
  let dispatchedItem: string;
  let westlands: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    ph = await stockTestPharmacy(t.db, 'bad_input_ph', ['owner', 'cashier']);
    owner = (await clientsOf(t, { ...ph, users: { owner: ph.users.owner! } })).owner!;
    westlands = ph.branches[1]!.id;
    await createUser(t.db, { email: 'login@bad-input.test' });
    const created = await owner.post('/api/products', { name: 'Cetirizine 10mg', sellingPriceCents: 1_500, purchasePriceCents: 800 });
    expect(created.status).toBe(201);
    product = created.body.product.id;
    expect((await owner.post(`/api/products/${product}/batches`, { batchNumber: 'C1', expiryDate: daysFromToday(200), quantity: 50, unitCostCents: 800 })).status).toBe(201);
    const transfer = (items: unknown) => owner.post('/api/stock/transfers', { fromBranchId: ph.branches[0]!.id, toBranchId: westlands, items });
    requested = (await transfer([{ productId: product, quantity: 2 }])).body.id;
    dispatched = (await transfer([{ productId: product, quantity: 3 }])).body.id;
    expect((await owner.post(`/api/stock/transfers/${dispatched}/approve`, {})).status).toBe(200);
    const sent = await owner.post(`/api/stock/transfers/${dispatched}/dispatch`, {});
    expect(sent.status).toBe(200);
    dispatchedItem = sent.body.items[0].id;
    expect(requested).toBeTruthy();
  });
  afterAll(async () => t?.close());

  /** Sends each bad case, checks the answer, and checks that nothing was written. */
  async function expectRefused(client: TestClient, method: string, url: string, cases: BadCase[]): Promise<void> {
    const problems: string[] = [];
    for (const c of cases) {
      const before = await databaseRows(t.db);
      const headers: Record<string, string> = { ...(typeof c.body === 'string' ? { 'content-type': c.contentType ?? 'application/json' } : {}), ...c.headers };
      const res: TestResponse = await client.request(method, c.url ?? url, c.body, headers);
      const label = `${method} ${c.url ?? url} with ${c.label}`;
      try {
        const message = expectError(res, c.expect.status, c.expect.code, label);
        if (c.expect.field && !namesField(res, message, c.expect.field)) throw new Error(`${label}: the answer '${message}' does not name ${c.expect.field}`);
      } catch (error) {
        problems.push((error as Error).message);
      }
      const after = await databaseRows(t.db);
      for (const table of Object.keys(before)) {
        if (JSON.stringify(before[table]) !== JSON.stringify(after[table])) problems.push(`${label} wrote to ${table}`);
      }
    }
    expect(problems).toEqual([]);
  }

  it('auth: sign-in', async () => {
    const anonymous = t.client();
    const valid = { email: 'login@bad-input.test', password: FIXTURE_PASSWORD };
    await expectRefused(anonymous, 'POST', '/api/auth/login', [
      ...commonCases(valid, 'password'),
      { label: 'a number for the email', body: { ...valid, email: 12345 }, expect: V('email') },
      { label: 'an object for the password', body: { ...valid, password: { $ne: '' } }, expect: V('password') },
      { label: 'a missing password', body: { email: valid.email }, expect: V('password') },
      { label: 'a 300-character email', body: { ...valid, email: `${'a'.repeat(290)}@x.test` }, expect: V('email') },
      { label: 'a 10,000-character password', body: { ...valid, password: 'p'.repeat(10_000) }, expect: V('password') },
    ]);
    // The same body, well formed, signs in (the refusals above were about the input).
    expect((await t.client().post('/api/auth/login', valid)).status).toBe(200);
  });

  it('sales: a signed-in cashier sending a body nested 20,000 levels deep gets 400 and nothing is sold', async () => {
    const cashier = (await clientsOf(t, { ...ph, users: { cashier: ph.users.cashier! } })).cashier!;
    const id = '5e1f2c3a-4b5c-4d6e-8f70-8192a3b4c5d6';
    const valid = { id, lines: [{ productId: product, quantity: 1 }], payments: [{ method: 'Cash', amountCents: 1_500 }] };
    await expectRefused(cashier, 'POST', '/api/sales', [
      { label: 'a body nested 20,000 levels deep', body: nestedDeep(valid), headers: { 'idempotency-key': id }, expect: { status: 400, code: 'JSON_TOO_DEEP' } },
      { label: 'a line nested 20,000 levels deep', body: JSON.stringify({ ...valid, lines: [{ productId: product, quantity: 1, note: 'x' }] }).replace('"x"', `${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`), headers: { 'idempotency-key': id }, expect: { status: 400, code: 'JSON_TOO_DEEP' } },
    ]);
    const refused = await cashier.request('POST', '/api/sales', nestedDeep(valid), { 'content-type': 'application/json', 'idempotency-key': id });
    expect(refused.body.error.message).toBe('The request body is nested too deeply: at most 64 levels are allowed.');
    // 64 levels (the object and 63 arrays) are read as usual, and the sale's own schema refuses the unknown field;
    // 65 are not read. The same sale without the field sells.
    expect((await cashier.request('POST', '/api/sales', nestedDeep(valid, 63), { 'content-type': 'application/json', 'idempotency-key': id })).body.error.code).toBe('VALIDATION_FAILED');
    expect((await cashier.request('POST', '/api/sales', nestedDeep(valid, 64), { 'content-type': 'application/json', 'idempotency-key': id })).body.error.code).toBe('JSON_TOO_DEEP');
    expect((await cashier.request('POST', '/api/sales', valid, { 'idempotency-key': id })).status).toBe(201);
  });

  it('client-made ids: the nil and the max UUID are refused with 400 on every create that takes one, and nothing is written', async () => {
    const cashier = (await clientsOf(t, { ...ph, users: { cashier: ph.users.cashier! } })).cashier!;
    const id = '4e1f2c3a-4b5c-4d6e-8f70-8192a3b4c5d6';
    expect((await cashier.request('POST', '/api/sales', { id, lines: [{ productId: product, quantity: 1 }], payments: [{ method: 'Cash', amountCents: 1_500 }] }, { 'idempotency-key': id })).status).toBe(201);
    const client = (await t.db.owner.query<{ id: string }>(`INSERT INTO contacts (pharmacy_id, type, name) VALUES ($1, 'customer', 'Wanjiru') RETURNING id`, [ph.pharmacyId]))[0]!.id;
    for (const placeholder of ['00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff', 'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF']) {
      const key = { 'idempotency-key': placeholder };
      const bodies: [string, string, Record<string, unknown>][] = [
        ['POST', '/api/sales', { id: placeholder, lines: [{ productId: product, quantity: 1 }], payments: [{ method: 'Cash', amountCents: 1_500 }] }],
        ['POST', '/api/suspended-sales', { id: placeholder, lines: [{ productId: product, quantity: 1 }] }],
        ['POST', `/api/sales/${id}/returns`, { id: placeholder, lines: [{ line: 1, quantity: 1 }] }],
        ['POST', '/api/customer-payments', { id: placeholder, clientId: client, amountCents: 100, method: 'Cash' }],
      ];
      await expectRefused(owner, 'POST', '/api/sales', bodies.map(([, url, body]) => ({ label: `the id ${placeholder} on ${url}`, url, body: JSON.stringify(body), headers: key, expect: V('id') })));
      const res = await owner.request('POST', '/api/sales', bodies[0]![2], key);
      // zod's uuid() takes the two placeholders in lower case only; the upper-case max UUID is already 'Invalid UUID'.
      expect(res.body.error.message).toBe(placeholder === placeholder.toLowerCase() ? 'The id must be a random UUID, not the nil or max UUID.' : 'Invalid UUID');
    }
  });

  it('users: invite', async () => {
    const valid = { email: 'new.cashier@bad-input.test', name: 'New Cashier', role: 'cashier', hasPosAccess: true };
    await expectRefused(owner, 'POST', '/api/users/invite', [
      ...commonCases(valid, 'name'),
      { label: 'a string for hasPosAccess', body: { ...valid, hasPosAccess: 'yes' }, expect: V('hasPosAccess') },
      { label: 'an unknown role', body: { ...valid, role: 'owner' }, expect: V('role') },
      { label: 'an unknown permission', body: { ...valid, permissions: ['everything:all'] }, expect: V('permissions') },
      { label: 'a branch id that is not an id', body: { ...valid, allowedBranchIds: ['main'] }, expect: V('allowedBranchIds') },
      { label: 'a 200-character name', body: { ...valid, name: 'n'.repeat(200) }, expect: V('name') },
      { label: 'a 300-character email', body: { ...valid, email: `${'a'.repeat(290)}@x.test` }, expect: V('email') },
    ]);
  });

  it('branches: create and edit', async () => {
    const valid = { name: 'Kisumu Branch', address: 'Oginga Odinga St', phone: '0712345678' };
    await expectRefused(owner, 'POST', '/api/branches', [
      ...commonCases(valid, 'address'),
      { label: 'a number for the name', body: { ...valid, name: 42 }, expect: V('name') },
      { label: 'a string for isDefault', body: { ...valid, isDefault: 'true' }, expect: V('isDefault') },
      { label: 'an 81-character name', body: { ...valid, name: 'b'.repeat(81) }, expect: V('name') },
      { label: 'a 21-character phone', body: { ...valid, phone: '0'.repeat(21) }, expect: V('phone') },
      { label: 'a blank name', body: { ...valid, name: '   ' }, expect: V('name') },
    ]);
    const url = `/api/branches/${westlands}`;
    await expectRefused(owner, 'PATCH', url, [
      ...commonCases({ name: 'Westlands' }, 'name'),
      { label: 'a string for isActive', body: { isActive: 'no' }, expect: V('isActive') },
      { label: 'a 201-character address', body: { address: 'a'.repeat(201) }, expect: V('address') },
      { label: 'an id that is not an id', body: { name: 'X' }, url: '/api/branches/westlands', expect: V('id') },
    ]);
  });

  it('settings: save', async () => {
    const loaded = await owner.get('/api/settings');
    expect(loaded.status).toBe(200);
    const valid = loaded.body.settings as Record<string, unknown>;
    await expectRefused(owner, 'PUT', '/api/settings', [
      ...commonCases(valid, 'receiptFooter'),
      { label: 'a number for the pharmacy name', body: { ...valid, pharmacyName: 5 }, expect: V('pharmacyName') },
      { label: 'a 121-character pharmacy name', body: { ...valid, pharmacyName: 'p'.repeat(121) }, expect: V('pharmacyName') },
      { label: 'a 1001-character return policy', body: { ...valid, returnPolicy: 'r'.repeat(1001) }, expect: V('returnPolicy') },
      { label: 'an invoice prefix with spaces', body: { ...valid, invoicePrefix: 'INV 01' }, expect: V('invoicePrefix') },
      { label: 'a missing field', body: Object.fromEntries(Object.entries(valid).filter(([k]) => k !== 'pharmacyName')), expect: V('pharmacyName') },
    ]);
  });

  it('products: create', async () => {
    const valid = { name: 'Loratadine 10mg', sku: 'LOR-10', sellingPriceCents: 2_000, purchasePriceCents: 1_000 };
    await expectRefused(owner, 'POST', '/api/products', [
      ...commonCases(valid, 'name'),
      { label: 'a string price', body: { ...valid, sellingPriceCents: '20.00' }, expect: V('sellingPriceCents') },
      { label: 'a negative selling price', body: { ...valid, sellingPriceCents: -1 }, expect: V('sellingPriceCents') },
      { label: 'a negative purchase price', body: { ...valid, purchasePriceCents: -500 }, expect: V('purchasePriceCents') },
      { label: 'a fractional price (cents are whole)', body: { ...valid, sellingPriceCents: 1999.5 }, expect: V('sellingPriceCents') },
      { label: 'a negative low-stock threshold', body: { ...valid, lowStockThreshold: -1 }, expect: V('lowStockThreshold') },
      { label: 'a fractional reorder level', body: { ...valid, reorderLevel: 2.5 }, expect: V('reorderLevel') },
      { label: 'a fractional package size', body: { ...valid, packageSize: 1.5 }, expect: V('packageSize') },
      { label: 'a string for isDda', body: { ...valid, isDda: 'no' }, expect: V('isDda') },
      { label: 'a 201-character name', body: { ...valid, name: 'n'.repeat(201) }, expect: V('name') },
      { label: 'a 65-character barcode', body: { ...valid, barcodes: ['1'.repeat(65)] }, expect: V('barcodes') },
      { label: 'a negative branch price', body: { ...valid, branches: [{ branchId: westlands, sellingPriceCents: -100 }] }, expect: V('branches') },
      { label: 'an unknown field in a branch line', body: { ...valid, branches: [{ branchId: westlands, quantity: 5 }] }, expect: V('quantity') },
    ]);
  });

  it('products: update, branch prices and opening stock', async () => {
    await expectRefused(owner, 'PATCH', `/api/products/${product}`, [
      ...commonCases({ name: 'Cetirizine 10mg Tablets' }, 'name'),
      { label: 'a negative price', body: { sellingPriceCents: -100 }, expect: V('sellingPriceCents') },
      { label: 'a number for the name', body: { name: 123 }, expect: V('name') },
      { label: 'a fractional threshold', body: { lowStockThreshold: 0.5 }, expect: V('lowStockThreshold') },
      { label: 'a null name', body: { name: null }, expect: V('name') },
      { label: 'an unknown query parameter', body: { name: 'X' }, url: `/api/products/${product}?admin=1`, expect: V('admin') },
      { label: 'a query branch that is not an id', body: { name: 'X' }, url: `/api/products/${product}?branchId=main`, expect: V('branchId') },
    ]);
    await expectRefused(owner, 'PUT', `/api/products/${product}/branches/${westlands}`, [
      ...commonCases({ sellingPriceCents: 1_600 }, 'reason'),
      { label: 'a negative purchase price', body: { purchasePriceCents: -1 }, expect: V('purchasePriceCents') },
      { label: 'a margin of 100 percent', body: { minMarginBasisPoints: 10_000 }, expect: V('minMarginBasisPoints') },
    ]);
    const valid = { batchNumber: 'C2', expiryDate: daysFromToday(300), quantity: 10, unitCostCents: 800 };
    await expectRefused(owner, 'POST', `/api/products/${product}/batches`, [
      ...commonCases(valid, 'batchNumber'),
      { label: 'a negative quantity', body: { ...valid, quantity: -5 }, expect: V('quantity') },
      { label: 'a fractional quantity', body: { ...valid, quantity: 2.5 }, expect: V('quantity') },
      { label: 'a zero quantity', body: { ...valid, quantity: 0 }, expect: V('quantity') },
      { label: 'a string quantity', body: { ...valid, quantity: '10' }, expect: V('quantity') },
      { label: 'a negative unit cost', body: { ...valid, unitCostCents: -800 }, expect: V('unitCostCents') },
      { label: 'a date that is not a date', body: { ...valid, expiryDate: 'next year' }, expect: V('expiryDate') },
      { label: 'a 65-character batch number', body: { ...valid, batchNumber: 'B'.repeat(65) }, expect: V('batchNumber') },
    ]);
  });

  it('stock: adjustments', async () => {
    const line = { productId: product, delta: -1, reasonType: 'damage' };
    const valid = { reason: 'Broken bottle', items: [line] };
    await expectRefused(owner, 'POST', '/api/stock/adjustments', [
      ...commonCases(valid, 'reason'),
      { label: 'a fractional change', body: { ...valid, items: [{ ...line, delta: -1.5 }] }, expect: V('delta') },
      { label: 'a change of 0', body: { ...valid, items: [{ ...line, delta: 0 }] }, expect: V('delta') },
      { label: 'a string change', body: { ...valid, items: [{ ...line, delta: '-1' }] }, expect: V('delta') },
      { label: 'a negative unit cost', body: { ...valid, items: [{ ...line, delta: 2, unitCostCents: -1 }] }, expect: V('unitCostCents') },
      { label: 'an unknown reason type', body: { ...valid, items: [{ ...line, reasonType: 'theft-ish' }] }, expect: V('reasonType') },
      { label: 'an unknown field in a line', body: { ...valid, items: [{ ...line, quantityAfter: 0 }] }, expect: V('quantityAfter') },
      { label: 'no lines', body: { ...valid, items: [] }, expect: V('items') },
      { label: 'a 501-character reason', body: { ...valid, reason: 'r'.repeat(501) }, expect: V('reason') },
      { label: 'a product id that is not an id', body: { ...valid, items: [{ ...line, productId: 'cetirizine' }] }, expect: V('productId') },
      { label: 'an impossible expiry date and no batch number', body: { ...valid, items: [{ ...line, delta: 2, expiryDate: '2026-02-30' }] }, expect: V('expiryDate') },
      { label: 'an impossible expiry date with a batch number', body: { ...valid, items: [{ ...line, delta: 2, batchNumber: 'C9', expiryDate: '2026-02-30' }] }, expect: V('expiryDate') },
    ]);
    // The sentence is the invalid-date message (never BATCH_EXPIRED, never a 201 that drops the date).
    for (const batch of [{}, { batchNumber: 'C9' }]) {
      const res = await owner.post('/api/stock/adjustments', { ...valid, items: [{ ...line, ...batch, delta: 2, expiryDate: '2026-02-30' }] });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_FAILED', message: 'The expiry date must be a real date (YYYY-MM-DD).' });
    }
  });

  it('stock: transfers (request and receive)', async () => {
    const line = { productId: product, quantity: 2 };
    const valid = { fromBranchId: ph.branches[0]!.id, toBranchId: westlands, items: [line] };
    await expectRefused(owner, 'POST', '/api/stock/transfers', [
      ...commonCases(valid, 'note'),
      { label: 'a negative quantity', body: { ...valid, items: [{ ...line, quantity: -2 }] }, expect: V('quantity') },
      { label: 'a fractional quantity', body: { ...valid, items: [{ ...line, quantity: 0.5 }] }, expect: V('quantity') },
      { label: 'a zero quantity', body: { ...valid, items: [{ ...line, quantity: 0 }] }, expect: V('quantity') },
      { label: 'a string quantity', body: { ...valid, items: [{ ...line, quantity: '2' }] }, expect: V('quantity') },
      { label: 'a missing destination', body: { fromBranchId: valid.fromBranchId, items: [line] }, expect: V('toBranchId') },
      { label: 'a 501-character note', body: { ...valid, note: 'n'.repeat(501) }, expect: V('note') },
    ]);
    await expectRefused(owner, 'POST', `/api/stock/transfers/${dispatched}/receive`, [
      ...commonCases({ items: [{ itemId: dispatchedItem, quantityReceived: 1 }] }, 'note'),
      { label: 'a negative quantity received', body: { items: [{ itemId: dispatchedItem, quantityReceived: -1 }] }, expect: V('quantityReceived') },
      { label: 'a fractional quantity received', body: { items: [{ itemId: dispatchedItem, quantityReceived: 1.5 }] }, expect: V('quantityReceived') },
    ]);
    await expectRefused(owner, 'POST', `/api/stock/transfers/${requested}/cancel`, [
      ...commonCases({ note: 'Not needed' }, 'note'),
      { label: 'a number for the note', body: { note: 5 }, expect: V('note') },
    ]);
  });

  it('expenses: record at the till', async () => {
    const valid = { description: 'Taxi to the bank', category: 'Transport - Taxi', amountCents: 50_000, transport: { destination: 'CBD', reason: 'Deposit' } };
    await expectRefused(owner, 'POST', '/api/expenses', [
      ...commonCases(valid, 'description'),
      { label: 'a NUL byte in the description', body: { ...valid, description: 'Taxi\u0000' }, expect: V('description') },
      { label: 'a zero amount', body: { ...valid, amountCents: 0 }, expect: V('amountCents') },
      { label: 'a fractional amount', body: { ...valid, amountCents: 10.5 }, expect: V('amountCents') },
      { label: 'a huge amount', body: { ...valid, amountCents: 1e20 }, expect: V('amountCents') },
      { label: 'a huge fuel cost', body: { ...valid, transport: { ...valid.transport, fuelCents: 1e20 } }, expect: V('fuelCents') },
      { label: 'an impossible date', body: { ...valid, date: '2026-02-30' }, expect: V('date') },
      { label: 'an unknown category', body: { ...valid, category: 'Holidays' }, expect: V('category') },
      { label: 'a transport expense without destination', body: { ...valid, transport: { reason: 'Deposit' } }, expect: V('destination') },
      { label: 'a phone that is not Kenyan', body: { ...valid, contactPhone: '+1 555 0100' }, expect: V('contactPhone') },
      { label: 'a branch that is not an id', body: { ...valid, branchId: 'main' }, expect: V('branchId') },
    ]);
  });

  it('suspended sales: suspend with reserved stock', async () => {
    const valid = { id: '7d1f2c3a-4b5c-4d6e-8f70-8192a3b4c5d6', clientId: '6d1f2c3a-4b5c-4d6e-8f70-8192a3b4c5d6', lines: [{ productId: product, quantity: 1 }] };
    await expectRefused(owner, 'POST', '/api/suspended-sales', [
      ...commonCases(valid, 'reason'),
      { label: 'a NUL byte in the reason', body: { ...valid, reason: 'Later\u0000' }, expect: V('reason') },
      { label: 'a reason over 200 characters', body: { ...valid, reason: 'x'.repeat(201) }, expect: V('reason') },
      { label: 'a fractional quantity', body: { ...valid, lines: [{ productId: product, quantity: 1.5 }] }, expect: V('quantity') },
      { label: 'a negative quantity', body: { ...valid, lines: [{ productId: product, quantity: -1 }] }, expect: V('quantity') },
      { label: 'a huge amount paid', body: { ...valid, amountPaidCents: 1e20 }, expect: V('amountPaidCents') },
      { label: 'a negative amount paid', body: { ...valid, amountPaidCents: -1 }, expect: V('amountPaidCents') },
      { label: 'an id that is not a UUID', body: { ...valid, id: 'RES-1' }, expect: V('id') },
      { label: '10,000 lines', body: { ...valid, lines: Array.from({ length: 10_000 }, () => ({ productId: product, quantity: 1 })) }, expect: V('lines') },
    ]);
  });

  it('products: import', async () => {
    const csv = 'Name,SKU,Selling Price (KSh),Opening Quantity\nIbuprofen 200mg,IBU-200,5,10\n';
    await expectRefused(owner, 'POST', '/api/products/import', [
      { label: 'malformed JSON', body: '{"csv": "Name\\nA\\n",', expect: { status: 400, code: 'MALFORMED_JSON' } },
      { label: 'a number for the csv', body: { csv: 5 }, expect: V('csv') },
      { label: 'an unknown field', body: { csv, isPlatformOperator: true }, expect: V('isPlatformOperator') },
      { label: 'an unknown mapping field', body: { csv, mapping: { password: 'Name' } }, expect: V('mapping') },
      { label: 'an unknown mode', body: csv, contentType: 'text/csv', url: '/api/products/import?mode=everything', expect: V('mode') },
      { label: 'an unknown query parameter', body: csv, contentType: 'text/csv', url: '/api/products/import?force=true', expect: V('force') },
      // Files are allowed up to 20 MB (10,000+ rows); over that, the same 413.
      { label: 'a CSV file over 20 MB', body: `Name\n${'A'.repeat(21 * 1024 * 1024)}\n`, contentType: 'text/csv', expect: { status: 413, code: 'BODY_TOO_LARGE' } },
      { label: 'a JSON body over 20 MB', body: JSON.stringify({ csv: `Name\n${'A'.repeat(21 * 1024 * 1024)}\n` }), expect: { status: 413, code: 'BODY_TOO_LARGE' } },
      { label: 'a JSON body nested 20,000 levels deep', body: nestedDeep({ csv }), expect: { status: 400, code: 'JSON_TOO_DEEP' } },
    ]);
    // Bad rows are reported per row in the result (the file itself is fine): negative quantities and prices, fractional quantities.
    const before = await databaseRows(t.db);
    const rows = [
      'Name,SKU,Selling Price (KSh),Purchase Price (KSh),Opening Quantity,Batch Number,Expiry Date',
      `Ibuprofen 200mg,IBU-200,-5,2,10,I1,${daysFromToday(300)}`,
      `Ibuprofen 400mg,IBU-400,5,-2,10,I2,${daysFromToday(300)}`,
      `Ibuprofen 600mg,IBU-600,5,2,-10,I3,${daysFromToday(300)}`,
      `Ibuprofen 800mg,IBU-800,5,2,2.5,I4,${daysFromToday(300)}`,
    ].join('\n');
    const res = await owner.request('POST', '/api/products/import?mode=all-or-nothing', rows, { 'content-type': 'text/csv' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ imported: 0, skipped: 4 });
    const fields = (res.body.errors as { row: number; field: string }[]).map((e) => `${e.row}:${e.field}`).sort();
    expect(fields).toEqual(['2:sellingPrice', '3:purchasePrice', '4:openingQuantity', '5:openingQuantity']);
    expect(await databaseRows(t.db)).toEqual(before);
  });

  it('query strings and path parameters are validated too', async () => {
    const cases: [string, string][] = [
      ['/api/products?limit=ten', 'limit'],
      ['/api/products?limit=100000', 'limit'],
      ['/api/products?offset=-1', 'offset'],
      ['/api/products?sort=password', 'sort'],
      ['/api/products?where=1', 'where'],
      ['/api/stock/adjustments?from=yesterday', 'from'],
      ['/api/stock/transfers?status=stolen', 'status'],
      ['/api/expenses?from=2026-02-30', 'from'],
      ['/api/expenses?source=web', 'source'],
      ['/api/suspended-sales?minAgeDays=-1', 'minAgeDays'],
      ['/api/suspended-sales?clientId=someone', 'clientId'],
      ['/api/products/not-an-id', 'id'],
      [`/api/products/${product}/movements?kind=gift`, 'kind'],
    ];
    for (const [url, field] of cases) {
      const res = await owner.get(url);
      const message = expectError(res, 400, 'VALIDATION_FAILED', url);
      expect(namesField(res, message, field), `${url}: '${message}' names ${field}`).toBe(true);
    }
  });

  it('every error body has exactly { error: { code, message, details? } }', async () => {
    const samples = [
      await t.client().post('/api/auth/login', '{'),
      await t.client().get('/api/settings'),
      await owner.get('/api/nowhere'),
      await owner.post('/api/products', { name: 5 }),
      await owner.get(`/api/products/${ph.users.owner}`),
    ];
    expect(samples.map((s) => s.status)).toEqual([400, 401, 404, 400, 404]);
    for (const res of samples) expect(errorBodySchema.safeParse(res.body).success, JSON.stringify(res.body)).toBe(true);
  });
});
