import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expenseListResponseSchema, expenseSchema } from '@pharmapoint/domain/expenses';
import { refillReminderListResponseSchema } from '@pharmapoint/domain/refills';
import { businessDate } from '@pharmapoint/domain/stock';
import { createTestApp, type TestApp } from './app.ts';
import { testDatabaseKinds } from './database.ts';
import type { TestClient } from './http.ts';
import type { StockPharmacy } from './import-helpers.ts';
import { clientsOf, daysFromToday, stockTestPharmacy } from './stock-helpers.ts';

/** Expenses recorded at the till (issue 9 item 11, seed 001 sections 3-6 and 9, decision 0027). */
describe.each(testDatabaseKinds())('till expenses on %s', (kind) => {
  let t: TestApp;
  let ph: StockPharmacy;
  let c: Record<string, TestClient>;
  let otherOwner: TestClient;
  let other: StockPharmacy;

  beforeAll(async () => {
    t = await createTestApp(kind);
    ph = await stockTestPharmacy(t.db, 'expenses_ph', ['owner', 'cashier', 'accounts', 'inventory', 'demo']);
    other = await stockTestPharmacy(t.db, 'expenses_other', ['owner']);
    c = await clientsOf(t, ph);
    otherOwner = (await clientsOf(t, other)).owner!;
  });
  afterAll(async () => t?.close());

  const record = (who: TestClient, body: Record<string, unknown>, key = randomUUID()) => who.request('POST', '/api/expenses', body, { 'idempotency-key': key });
  const count = async () => (await t.db.owner.query<{ n: number }>(`SELECT count(*)::int AS n FROM expenses WHERE pharmacy_id = $1`, [ph.pharmacyId]))[0]!.n;
  const taxi = {
    description: 'Delivery to Westlands',
    category: 'Transport - Taxi',
    amountCents: 120_000,
    paymentMethod: 'M-Pesa',
    contactPhone: '0712 345 678',
    transport: { destination: 'Westlands', reason: 'Urgent delivery', transportType: 'Boda Boda', distanceKm: 12.5, fuelCents: 30_000, tollCents: 5_050, parkingCents: 10_000, mealAllowanceCents: 25_000 },
  };

  it('a cashier records an expense at the till: approved, source POS, stamped with user, branch and today; Cash by default; audited', async () => {
    const res = await record(c.cashier!, { description: 'Printer paper', category: 'Office Supplies', amountCents: 150_000, receiptNumber: ' R-77 ', transport: { destination: 'x', reason: 'y', fuelCents: 5 } });
    expect(res.status).toBe(201);
    const e = expenseSchema.parse(res.body);
    expect(e).toMatchObject({
      branchId: ph.branches[0]!.id,
      branchName: 'Main Branch',
      date: businessDate(new Date(), 'Africa/Nairobi'),
      description: 'Printer paper',
      category: 'Office Supplies',
      amountCents: 150_000,
      totalCents: 150_000,
      currency: 'KES',
      paymentMethod: 'Cash',
      receiptNumber: 'R-77',
      status: 'approved',
      source: 'POS',
      entryMethod: 'manual',
      recordedBy: { id: ph.users.cashier, name: 'cashier expenses_ph', email: 'cashier@expenses_ph.test' },
      approvedBy: ph.users.cashier,
      // Transport details of a category that is not transport or travel are dropped.
      transport: null,
      contactPhone: null,
    });
    expect(e.approvedAt).toBeTruthy();
    const [audit] = await t.db.owner.query<{ n: number }>(`SELECT count(*)::int AS n FROM audit_log WHERE pharmacy_id = $1 AND action = 'expense.create' AND entity_id = $2`, [ph.pharmacyId, e.id]);
    expect(audit!.n).toBe(1);
  });

  it('a transport expense keeps its section and totals base + fuel + tolls + parking + meal allowance, for the branch named', async () => {
    const res = await record(c.owner!, { ...taxi, branchId: ph.branches[1]!.id });
    expect(res.status).toBe(201);
    const e = expenseSchema.parse(res.body);
    expect(e).toMatchObject({
      branchName: 'Westlands Branch',
      amountCents: 120_000,
      totalCents: 190_050,
      paymentMethod: 'M-Pesa',
      contactPhone: '0712 345 678',
      transport: { destination: 'Westlands', reason: 'Urgent delivery', transportType: 'Boda Boda', distanceKm: 12.5, fuelCents: 30_000, tollCents: 5_050, parkingCents: 10_000, mealAllowanceCents: 25_000, totalTransportCostCents: 190_050 },
    });
  });

  it.each([
    [{ description: '', category: 'Rent', amountCents: 100 }, 'Description is required'],
    [{ description: 'Rent', category: '', amountCents: 100 }, 'Category is required'],
    [{ description: 'Rent', category: 'Holidays', amountCents: 100 }, 'Choose a category from the list.'],
    [{ description: 'Rent', category: 'Rent', amountCents: 0 }, 'Valid amount is required'],
    [{ description: 'Rent', category: 'Rent', amountCents: -100 }, 'Valid amount is required'],
    [{ description: 'Rent', category: 'Rent', amountCents: 10.5 }, 'Valid amount is required'],
    [{ description: 'Rent', category: 'Rent', amountCents: '100' }, 'Valid amount is required'],
    [{ description: 'Rent', category: 'Rent', amountCents: 1e300 }, 'The amount must be at most KSh 100,000,000.00.'],
    [{ description: 'Rent', category: 'Rent', amountCents: 100, paymentMethod: 'Bitcoin' }, 'Choose a payment method.'],
    [{ description: 'Fuel', category: 'Transport - Fuel', amountCents: 100 }, 'Destination is required for transport and travel expenses'],
    [{ description: 'Fuel', category: 'Transport - Fuel', amountCents: 100, transport: { destination: 'Thika' } }, 'Reason is required for transport and travel expenses'],
    [{ ...taxi, contactPhone: '0812345678' }, 'Please enter a valid phone number'],
    [{ ...taxi, transport: { ...taxi.transport, fuelCents: 1e15 } }, 'Fuel cost must be between 0 and 10,000,000,000.'],
    [{ ...taxi, transport: { ...taxi.transport, distanceKm: -1 } }, 'Distance must be between 0 and 100,000 km.'],
    [{ description: 'Rent\u0000', category: 'Rent', amountCents: 100 }, 'description: The text contains a character that cannot be saved. Remove it and try again.'],
    [{ description: 'Rent', category: 'Rent', amountCents: 100, date: '2026-02-30' }, 'The expense date must be a real date (YYYY-MM-DD).'],
    [{ description: 'Rent', category: 'Rent', amountCents: 100, date: '2999-01-01' }, 'The expense date cannot be in the future.'],
    [{ description: 'Rent', category: 'Rent', amountCents: 100, approved: false }, null],
  ])('refuses %j with "%s", nothing written', async (body, message) => {
    const before = await count();
    const res = await record(c.cashier!, body);
    expect(res.status).toBe(400);
    if (message) expect(res.body.error.message).toBe(message);
    expect(await count()).toBe(before);
  });

  it('the same Idempotency-Key twice records one expense; the key again with another body is refused', async () => {
    const key = randomUUID();
    const body = { description: 'Cleaning', category: 'Cleaning Supplies', amountCents: 45_000 };
    const [first, second] = await Promise.all([record(c.cashier!, body, key), record(c.cashier!, body, key)]);
    const again = await record(c.cashier!, body, key);
    expect([first.status, second.status, again.status].every((s) => s === 201)).toBe(true);
    expect(again.body).toEqual(first.body);
    expect(second.body.id).toBe(first.body.id);
    const rows = await t.db.owner.query(`SELECT 1 FROM expenses WHERE pharmacy_id = $1 AND description = 'Cleaning'`, [ph.pharmacyId]);
    expect(rows).toHaveLength(1);
    expect((await record(c.cashier!, { ...body, amountCents: 1 }, key)).status).toBe(422);
  });

  it('who may: the till (pos:access) records; the accounts role reads; inventory staff do neither; a demo user cannot write', async () => {
    const body = { description: 'Water', category: 'Utilities - Water', amountCents: 2_000 };
    expect((await record(c.inventory!, body)).status).toBe(403);
    expect((await record(c.accounts!, body)).status).toBe(403);
    const demo = await record(c.demo!, body);
    expect({ status: demo.status, code: demo.body.error.code }).toEqual({ status: 403, code: 'DEMO_READ_ONLY' });
    expect((await c.cashier!.get('/api/expenses')).status).toBe(403);
    expect((await c.inventory!.get('/api/expenses')).status).toBe(403);
    expect((await c.accounts!.get('/api/expenses')).status).toBe(200);
  });

  it('lists newest first with date, branch, category and source filters, and the sum of the totals', async () => {
    const all = expenseListResponseSchema.parse((await c.accounts!.get('/api/expenses?limit=200')).body);
    expect(all.total).toBe(await count());
    const [sum] = await t.db.owner.query<{ cents: number }>(`SELECT sum(total_cents)::bigint AS cents FROM expenses WHERE pharmacy_id = $1`, [ph.pharmacyId]);
    expect(all.totalCents).toBe(sum!.cents);
    const westlands = (await c.owner!.get(`/api/expenses?branchId=${ph.branches[1]!.id}`)).body;
    expect(westlands.items.map((e: { description: string }) => e.description)).toEqual(['Delivery to Westlands']);
    expect(westlands.totalCents).toBe(190_050);
    const taxis = (await c.owner!.get('/api/expenses?category=transport%20-%20taxi&source=POS')).body;
    expect(taxis.total).toBe(1);
    const today = businessDate(new Date(), 'Africa/Nairobi');
    expect((await c.owner!.get(`/api/expenses?from=${today}&to=${today}`)).body.total).toBe(all.total);
    expect((await c.owner!.get('/api/expenses?to=2000-01-01')).body.total).toBe(0);
    const paged = (await c.owner!.get('/api/expenses?limit=1&offset=1')).body;
    expect(paged.items).toHaveLength(1);
    expect(paged.items[0].id).toBe(all.items[1]!.id);
  });

  it.each([['from=2026-02-30'], ['to=yesterday'], ['limit=100000'], ['branchId=nope'], ['source=web'], ['category=%00'], ['colour=red']])('refuses the query %s with 400', async (query) => {
    expect((await c.owner!.get(`/api/expenses?${query}`)).status).toBe(400);
  });

  it("tenants are apart: another pharmacy sees none of these, and cannot record for this pharmacy's branch", async () => {
    const theirs = (await otherOwner.get('/api/expenses')).body;
    expect(theirs.total).toBe(0);
    expect(theirs.totalCents).toBe(0);
    expect((await otherOwner.get(`/api/expenses?branchId=${ph.branches[0]!.id}`)).body.total).toBe(0);
    const before = await count();
    const res = await record(otherOwner, { description: 'Sneaky', category: 'Rent', amountCents: 100, branchId: ph.branches[0]!.id });
    expect(res.status).toBe(404);
    expect(await count()).toBe(before);
    const [row] = await t.db.owner.query<{ n: number }>(`SELECT count(*)::int AS n FROM expenses WHERE pharmacy_id = $1`, [other.pharmacyId]);
    expect(row!.n).toBe(0);
  });

  it('refill reminders set at the till are listed for the refill alerts: overdue, due, upcoming, by the days left', async () => {
    const made = await c.owner!.post('/api/products', { name: 'Metformin 500mg', sellingPriceCents: 1_000 });
    expect(made.status).toBe(201);
    const product = made.body.product.id as string;
    expect((await c.owner!.post(`/api/products/${product}/batches`, { batchNumber: 'MF1', expiryDate: daysFromToday(300), quantity: 50, unitCostCents: 500 })).status).toBe(201);
    const client = (await c.owner!.request('POST', '/api/contacts', { name: 'Refill Client', phone: '0711000222' }, { 'idempotency-key': randomUUID() })).body.id as string;
    const sell = async (saleDate: string, refillDays: number | null) => {
      const id = randomUUID();
      const line = refillDays ? { productId: product, quantity: 1, needsRefill: true, refillDays } : { productId: product, quantity: 1 };
      const res = await c.owner!.request('POST', '/api/sales', { id, clientId: client, saleDate, lines: [line], payments: [{ method: 'Cash', amountCents: 100_000 }] }, { 'idempotency-key': id });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.invoiceNumber as string;
    };
    const overdue = await sell(daysFromToday(-10), 5);
    const due = await sell(daysFromToday(-7), 7);
    const upcoming = await sell(daysFromToday(0), 3);
    const later = await sell(daysFromToday(0), 30);
    await sell(daysFromToday(0), null);
    const list = async (query = "") => { const res = await c.owner!.get(`/api/refill-reminders${query}`); expect(res.status, JSON.stringify(res.body)).toBe(200); return refillReminderListResponseSchema.parse(res.body); };
    const window = await list();
    expect(window.items.map((r) => [r.invoiceNumber, r.status, r.daysLeft])).toEqual([
      [overdue, 'overdue', -5],
      [due, 'due', 0],
      [upcoming, 'upcoming', 3],
    ]);
    expect(window.items[0]).toMatchObject({ client: { id: client, name: 'Refill Client', phone: '254711000222' }, productName: 'Metformin 500mg', refillDays: 5, refillDate: daysFromToday(-5), line: 1 });
    expect((await list('?due=all')).items.map((r) => r.invoiceNumber)).toEqual([overdue, due, upcoming, later]);
    expect((await list('?due=overdue')).items.map((r) => r.invoiceNumber)).toEqual([overdue]);
    expect((await list('?due=today')).items.map((r) => r.invoiceNumber)).toEqual([due]);
    expect((await list('?due=upcoming')).items.map((r) => r.invoiceNumber)).toEqual([upcoming]);
    expect((await list(`?due=all&branchId=${ph.branches[1]!.id}`)).total).toBe(0);
    expect((await c.cashier!.get('/api/refill-reminders')).status).toBe(403);
    expect((await otherOwner.get('/api/refill-reminders?due=all')).body.total).toBe(0);
    expect((await c.owner!.get('/api/refill-reminders?due=someday')).status).toBe(400);
  });
});
