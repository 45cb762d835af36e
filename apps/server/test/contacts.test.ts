import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contactListResponseSchema, contactSchema } from '@pharmapoint/domain/contacts';
import { createTestApp, type TestApp } from './app.ts';
import { testDatabaseKinds } from './database.ts';
import type { TestClient } from './http.ts';
import type { StockPharmacy } from './import-helpers.ts';
import { clientsOf, stockTestPharmacy } from './stock-helpers.ts';

/** Clients at the till (issue 9 item 8, seed 001 section 5 New client): add, normalise the phone, suggest at most 5. */
describe.each(testDatabaseKinds())('contacts on %s', (kind) => {
  let t: TestApp;
  let ph: StockPharmacy;
  let c: Record<string, TestClient>;
  let otherOwner: TestClient;

  beforeAll(async () => {
    t = await createTestApp(kind);
    ph = await stockTestPharmacy(t.db, 'contacts_ph', ['owner', 'cashier', 'inventory', 'demo']);
    const other = await stockTestPharmacy(t.db, 'contacts_other', ['owner']);
    c = await clientsOf(t, ph);
    otherOwner = (await clientsOf(t, other)).owner!;
  });
  afterAll(async () => t?.close());

  const add = (who: TestClient, body: Record<string, unknown>, key = randomUUID()) => who.request('POST', '/api/contacts', body, { 'idempotency-key': key });
  const count = async () => (await t.db.owner.query<{ n: number }>(`SELECT count(*)::int AS n FROM contacts WHERE pharmacy_id = $1`, [ph.pharmacyId]))[0]!.n;

  it('a cashier adds a client at the till: phone normalised, stamped with user and branch, audited', async () => {
    const res = await add(c.cashier!, { name: '  Jane Wanjiku ', phone: '0712-345 678', email: 'Jane@Example.com', location: 'Nairobi' });
    expect(res.status).toBe(201);
    const contact = contactSchema.parse(res.body);
    expect(contact).toMatchObject({ type: 'customer', name: 'Jane Wanjiku', phone: '254712345678', email: 'jane@example.com', location: 'Nairobi', branchId: ph.branches[0]!.id, createdBy: ph.users.cashier });
    expect((await c.cashier!.get(`/api/contacts/${contact.id}`)).body).toEqual(res.body);
    const [audit] = await t.db.owner.query<{ n: number }>(`SELECT count(*)::int AS n FROM audit_log WHERE pharmacy_id = $1 AND action = 'contact.create'`, [ph.pharmacyId]);
    expect(audit!.n).toBe(1);
  });

  it.each([
    [{ phone: '0712345678' }, 'Client name is required'],
    [{ name: '   ', phone: '0712345678' }, 'Client name is required'],
    [{ name: 'John' }, 'Phone number is required'],
    [{ name: 'John', phone: '--' }, 'Phone number is required'],
    [{ name: 'John', phone: '0712345678', forDda: true }, 'Location is required for DDA products'],
    [{ name: 'John', phone: '0712345678', forDda: true, location: 'Thika' }, 'Full address is required for DDA products'],
  ])('refuses %j with "%s", nothing written', async (body, message) => {
    const before = await count();
    const res = await add(c.cashier!, body);
    expect({ status: res.status, message: res.body.error.message }).toEqual({ status: 400, message });
    expect(await count()).toBe(before);
  });

  it('the same Idempotency-Key twice adds one client', async () => {
    const key = randomUUID();
    const first = await add(c.cashier!, { name: 'Peter Kamau', phone: '0722000111' }, key);
    const again = await add(c.cashier!, { name: 'Peter Kamau', phone: '0722000111' }, key);
    expect(again.body).toEqual(first.body);
    const rows = await t.db.owner.query(`SELECT 1 FROM contacts WHERE pharmacy_id = $1 AND name = 'Peter Kamau'`, [ph.pharmacyId]);
    expect(rows).toHaveLength(1);
  });

  it('searches by name or phone: at most 5 suggestions, names starting with the search first', async () => {
    for (let i = 1; i <= 7; i++) expect((await add(c.owner!, { name: `Mary ${i}`, phone: `07330000${i}0` })).status).toBe(201);
    expect((await add(c.owner!, { name: 'Anne Mary', phone: '0799999999' })).status).toBe(201);
    const byName = contactListResponseSchema.parse((await c.cashier!.get('/api/contacts?type=customer&search=mary')).body);
    expect(byName.items).toHaveLength(5);
    expect(byName.total).toBe(8);
    expect(byName.items.every((x) => x.name.startsWith('Mary'))).toBe(true);
    const byPhone = (await c.cashier!.get('/api/contacts?search=0733000030')).body;
    expect(byPhone.items.map((x: { name: string }) => x.name)).toEqual(['Mary 3']);
    // Digits inside a name are no phone search: 'Mary-3a0b0c0' (3000) finds no Mary by her phone 07330000…
    expect((await c.cashier!.get('/api/contacts?search=Mary-3a0b0c0')).body.total).toBe(0);
    expect((await c.cashier!.get(`/api/contacts?search=${encodeURIComponent('+254 733-000-030')}`)).body.items.map((x: { name: string }) => x.name)).toEqual(['Mary 3']);
    const all = (await c.owner!.get('/api/contacts?limit=100')).body;
    expect(all.total).toBe(await count());
    // A search with LIKE wildcards finds nothing by accident.
    expect((await c.cashier!.get('/api/contacts?search=%25')).body.total).toBe(0);
  });

  it("another tenant's client is 404; suppliers need supplier or contact rights; a demo user cannot add", async () => {
    const mine = (await c.cashier!.get('/api/contacts?search=Jane')).body.items[0].id;
    expect((await otherOwner.get(`/api/contacts/${mine}`)).status).toBe(404);
    expect((await otherOwner.get('/api/contacts?search=Jane')).body.total).toBe(0);
    expect((await c.cashier!.get('/api/contacts?type=supplier')).status).toBe(403);
    expect((await add(c.cashier!, { type: 'supplier', name: 'Dawa Ltd', phone: '0200000000' })).status).toBe(403);
    expect((await add(c.inventory!, { type: 'supplier', name: 'Dawa Ltd', phone: '0200000000' })).status).toBe(403);
    expect((await add(c.owner!, { type: 'supplier', name: 'Dawa Ltd', phone: '0200000000' })).status).toBe(201);
    expect((await add(c.demo!, { name: 'Demo', phone: '0711111111' })).status).toBe(403);
    expect((await c.cashier!.get(`/api/contacts/${randomUUID()}`)).status).toBe(404);
  });
});
