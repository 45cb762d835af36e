import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contactListResponseSchema, contactSchema, contactSummarySchema } from '@pharmapoint/domain/contacts';
import { createTestApp, type TestApp } from './app.ts';
import { testDatabaseKinds } from './database.ts';
import type { TestClient } from './http.ts';
import type { StockPharmacy } from './import-helpers.ts';
import { clientsOf, stockTestPharmacy } from './stock-helpers.ts';

/** The contacts screen (issue 10 item 4, seed 002 sections 3 and 5, decision 0040): edit, deactivate, search, credit terms, CSV import, a contact's page. */
describe.each(testDatabaseKinds())('contacts screen on %s', (kind) => {
  let t: TestApp;
  let ph: StockPharmacy;
  let c: Record<string, TestClient>;
  let otherOwner: TestClient;

  beforeAll(async () => {
    t = await createTestApp(kind);
    ph = await stockTestPharmacy(t.db, 'contacts_mg', ['owner', 'cashier', 'accounts', 'demo']);
    const other = await stockTestPharmacy(t.db, 'contacts_mg_other', ['owner']);
    c = await clientsOf(t, ph);
    otherOwner = (await clientsOf(t, other)).owner!;
  });
  afterAll(async () => t?.close());

  const add = (who: TestClient, body: Record<string, unknown>) => who.request('POST', '/api/contacts', body, { 'idempotency-key': randomUUID() });
  const count = async () => (await t.db.owner.query<{ n: number }>(`SELECT count(*)::int AS n FROM contacts WHERE pharmacy_id = $1`, [ph.pharmacyId]))[0]!.n;

  it('a supplier with credit terms: the terms parsed into days; refused terms and a blank name with the messages', async () => {
    const res = await add(c.owner!, { type: 'supplier', name: 'Dawa Distributors', phone: '0722 111 222', creditTerms: 'net 45' });
    expect(res.status).toBe(201);
    expect(contactSchema.parse(res.body)).toMatchObject({ type: 'supplier', creditTerms: 'net 45', creditPeriodDays: 45, phone: '254722111222', isActive: true });
    const other = await add(c.owner!, { type: 'other', name: 'Dr. Otieno', phone: '0733 000 000', creditTerms: '2 months' });
    expect(other.body).toMatchObject({ type: 'other', creditTerms: null, creditPeriodDays: null });
    const before = await count();
    for (const [body, message] of [
      [{ type: 'supplier', name: 'X', phone: '0711000000', creditTerms: 'when we can' }, "Credit terms must read like '30 days', '30d', '2 months', '2m', 'net 30' or a number of days."],
      [{ type: 'supplier', name: 'X', phone: '0711000000', creditTerms: '13 months' }, 'Credit terms must be at most 365 days.'],
      [{ type: 'supplier', name: ' ', phone: '0711000000' }, 'Name is required'],
      [{ type: 'customer', name: ' ', phone: '0711000000' }, 'Client name is required'],
      [{ type: 'vendor', name: 'X', phone: '0711000000' }, null],
    ] as const) {
      const refused = await add(c.owner!, body);
      expect(refused.status).toBe(400);
      if (message) expect(refused.body.error.message).toBe(message);
    }
    expect(await count()).toBe(before);
  });

  it('edits a contact (phone normalised, terms parsed again, audited) and deactivates it: gone from the till, still on the screen', async () => {
    const created = contactSchema.parse((await add(c.owner!, { type: 'supplier', name: 'Kemsa Supplies', phone: '0700 000 001', creditTerms: '30d' })).body);
    const edited = await c.owner!.patch(`/api/contacts/${created.id}`, { name: 'KEMSA Supplies Ltd', phone: '0700-000-002', creditTerms: '2m', email: 'Orders@Kemsa.test' });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ name: 'KEMSA Supplies Ltd', phone: '254700000002', creditTerms: '2m', creditPeriodDays: 60, email: 'orders@kemsa.test', updatedBy: ph.users.owner });
    expect((await c.owner!.patch(`/api/contacts/${created.id}`, { name: '' })).body.error.message).toBe('Name is required');
    const off = await c.owner!.patch(`/api/contacts/${created.id}`, { isActive: false });
    expect(off.body.isActive).toBe(false);
    const active = contactListResponseSchema.parse((await c.owner!.get('/api/contacts?type=supplier&paged=true&search=kemsa')).body);
    expect(active.total).toBe(0);
    const inactive = (await c.owner!.get('/api/contacts?type=supplier&paged=true&status=inactive&search=kemsa')).body;
    expect(inactive.items.map((x: { id: string }) => x.id)).toEqual([created.id]);
    expect((await c.owner!.get(`/api/contacts/${created.id}`)).body.isActive).toBe(false);
    const actions = await t.db.owner.query<{ action: string }>(`SELECT action FROM audit_log WHERE pharmacy_id = $1 AND entity_id = $2 ORDER BY at, action`, [ph.pharmacyId, created.id]);
    expect(actions.map((a) => a.action)).toEqual(expect.arrayContaining(['contact.create', 'contact.update', 'contact.deactivate']));
    // A deactivated client cannot be used for a sale.
    const client = contactSchema.parse((await add(c.cashier!, { name: 'Gone Client', phone: '0711 999 888' })).body);
    expect((await c.owner!.patch(`/api/contacts/${client.id}`, { isActive: false })).status).toBe(200);
    expect((await c.cashier!.get('/api/contacts?type=customer&search=Gone')).body.total).toBe(0);
  });

  it('the paged list: all types, search over name, phone, email and location, no 5-suggestion cap', async () => {
    for (let i = 1; i <= 7; i++) expect((await add(c.owner!, { name: `Paged Person ${i}`, phone: `07440000${i}0`, location: 'Kisumu' })).status).toBe(201);
    const paged = contactListResponseSchema.parse((await c.owner!.get('/api/contacts?type=all&paged=true&search=kisumu&limit=20')).body);
    expect(paged.items).toHaveLength(7);
    const suggestions = (await c.owner!.get('/api/contacts?type=customer&search=Paged')).body;
    expect(suggestions.items).toHaveLength(5);
    const all = (await c.owner!.get('/api/contacts?type=all&paged=true&limit=200')).body;
    expect(new Set(all.items.map((x: { type: string }) => x.type))).toEqual(new Set(['customer', 'supplier', 'other']));
  });

  it('permissions: a cashier cannot edit; accounts may edit a supplier but not a customer; a demo user cannot; another tenant gets 404', async () => {
    const supplier = contactSchema.parse((await add(c.owner!, { type: 'supplier', name: 'Perm Supplier', phone: '0755000000' })).body);
    const customer = contactSchema.parse((await add(c.owner!, { name: 'Perm Customer', phone: '0755000001' })).body);
    expect((await c.cashier!.patch(`/api/contacts/${customer.id}`, { name: 'X' })).status).toBe(403);
    expect((await c.accounts!.patch(`/api/contacts/${supplier.id}`, { notes: 'Pays on Fridays' })).status).toBe(200);
    expect((await c.accounts!.patch(`/api/contacts/${customer.id}`, { notes: 'X' })).status).toBe(403);
    expect((await c.demo!.patch(`/api/contacts/${customer.id}`, { notes: 'X' })).status).toBe(403);
    expect((await otherOwner.patch(`/api/contacts/${customer.id}`, { notes: 'X' })).status).toBe(404);
    expect((await otherOwner.get(`/api/contacts/${customer.id}/summary`)).status).toBe(404);
    expect((await c.owner!.get(`/api/contacts/${customer.id}`)).body.notes).toBeNull();
  });

  it('CSV import: every row checked and nothing written on any problem; then all rows in one go', async () => {
    const before = await count();
    const bad = await c.owner!.request(
      'POST',
      '/api/contacts/import',
      {
        defaultType: 'customer',
        rows: [
          { name: 'Import One', phone: '0766000001' },
          { type: 'doctor', name: 'Import Two', phone: '0766000002' },
          { name: '', phone: '0766000003' },
          { type: 'supplier', name: 'Import Four', phone: '0766000004', creditTerms: 'someday' },
          { name: 'Import Five', phone: '0766 000 001' },
          { name: 'Import Six', phone: '0755000001' },
        ],
      },
      { 'idempotency-key': randomUUID() },
    );
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('CONTACT_IMPORT_INVALID');
    expect(bad.body.error.message).toBe('No contacts were imported: 5 row problem(s). Correct the file and import it again.');
    expect(bad.body.error.details.rows.map((r: { row: number; field: string }) => `${r.row}:${r.field}`)).toEqual(['3:type', '4:name', '5:creditTerms', '6:phone', '7:phone']);
    expect(await count()).toBe(before);
    const ok = await c.owner!.request(
      'POST',
      '/api/contacts/import',
      {
        defaultType: 'customer',
        rows: [
          { Name: 'Import One', Phone: '0766000001', Email: 'ONE@import.test' },
          { type: 'supplier', name: 'Import Supplier', phone: '0766000009', creditTerms: '60 days', active: 'false' },
        ],
      },
      { 'idempotency-key': randomUUID() },
    );
    expect({ status: ok.status, body: ok.body }).toEqual({ status: 201, body: { created: 2 } });
    const supplier = (await c.owner!.get('/api/contacts?type=supplier&paged=true&status=all&search=Import')).body.items[0];
    expect(supplier).toMatchObject({ name: 'Import Supplier', phone: '254766000009', creditPeriodDays: 60, isActive: false });
    expect((await c.cashier!.request('POST', '/api/contacts/import', { rows: [{ name: 'A', phone: '0700000000' }] }, { 'idempotency-key': randomUUID() })).status).toBe(403);
  });

  it("a customer's page: its sales, their payments, prescriptions and what it owes", async () => {
    const client = contactSchema.parse((await add(c.cashier!, { name: 'History Client', phone: '0712121212' })).body);
    const product = (await c.owner!.post('/api/products', { name: 'History Tabs', sellingPriceCents: 5000, purchasePriceCents: 2000 })).body.product.id as string;
    expect((await c.owner!.post(`/api/products/${product}/batches`, { batchNumber: 'H1', expiryDate: '2099-01-01', quantity: 10, unitCostCents: 2000 })).status).toBe(201);
    const id = randomUUID();
    const sale = await c.cashier!.request('POST', '/api/sales', { id, clientId: client.id, lines: [{ productId: product, quantity: 2 }], payments: [{ method: 'Cash', amountCents: 10000 }] }, { 'idempotency-key': id });
    expect(sale.status).toBe(201);
    const summary = contactSummarySchema.parse((await c.owner!.get(`/api/contacts/${client.id}/summary`)).body);
    expect(summary.sales).toHaveLength(1);
    expect(summary.sales[0]).toMatchObject({ id, totalCents: 10000, itemCount: 1 });
    expect(summary.salePayments[0]).toMatchObject({ saleId: id, method: 'Cash', amountCents: 10000 });
    expect(summary.balance).toEqual({ totalCents: 10000, paidCents: 10000, returnsCents: 0, balanceCents: 0 });
    expect(summary.purchases).toEqual([]);
  });
});
