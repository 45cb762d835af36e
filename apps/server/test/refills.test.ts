import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refillCompletionSchema, refillReminderListResponseSchema } from '@pharmapoint/domain/refills';
import { createTestApp, type TestApp } from './app.ts';
import { testDatabaseKinds } from './database.ts';
import type { TestClient } from './http.ts';
import type { StockPharmacy } from './import-helpers.ts';
import { clientsOf, daysFromToday, stockTestPharmacy } from './stock-helpers.ts';

/** Refill alerts: statuses, duplicates merged, completing a refill (idempotent, audited, permission, tenant). */
describe.each(testDatabaseKinds())('refill alerts on %s', (kind) => {
  let t: TestApp;
  let ph: StockPharmacy;
  let c: Record<string, TestClient>;
  let otherOwner: TestClient;
  let product: string;
  let other: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    ph = await stockTestPharmacy(t.db, 'refills_ph', ['owner', 'cashier', 'inventory']);
    const otherPh = await stockTestPharmacy(t.db, 'refills_other', ['owner']);
    c = await clientsOf(t, ph);
    otherOwner = (await clientsOf(t, otherPh)).owner!;
    const made = async (name: string) => {
      const res = await c.owner!.post('/api/products', { name, sellingPriceCents: 1_000 });
      expect(res.status).toBe(201);
      const id = res.body.product.id as string;
      expect((await c.owner!.post(`/api/products/${id}/batches`, { batchNumber: `B-${name}`, expiryDate: daysFromToday(300), quantity: 100, unitCostCents: 500 })).status).toBe(201);
      return id;
    };
    product = await made('Amlodipine 5mg');
    other = await made('Losartan 50mg');
  });
  afterAll(async () => t?.close());

  const contact = async (name: string, phone: string) => (await c.owner!.request('POST', '/api/contacts', { name, phone }, { 'idempotency-key': randomUUID() })).body.id as string;
  const sell = async (clientId: string, saleDate: string, lines: { productId: string; refillDays: number }[]) => {
    const id = randomUUID();
    const body = { id, clientId, saleDate, lines: lines.map((l) => ({ productId: l.productId, quantity: 1, needsRefill: true, refillDays: l.refillDays })), payments: [{ method: 'Cash', amountCents: 100_000 }] };
    const res = await c.owner!.request('POST', '/api/sales', body, { 'idempotency-key': id });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return { saleId: res.body.id as string, invoice: res.body.invoiceNumber as string };
  };
  const list = async (who: TestClient, query = '') => {
    const res = await who.get(`/api/refill-reminders${query}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return refillReminderListResponseSchema.parse(res.body);
  };

  it('merges the same client and product due within 24 hours into one alert; filters by status, search and branch; pages on the server', async () => {
    const jane = await contact('Jane Merge', '0722000111');
    const first = await sell(jane, daysFromToday(-10), [{ productId: product, refillDays: 12 }]);
    const dup = await sell(jane, daysFromToday(-9), [{ productId: product, refillDays: 12 }]);
    const apart = await sell(jane, daysFromToday(-7), [{ productId: product, refillDays: 12 }]);
    const otherProduct = await sell(jane, daysFromToday(-10), [{ productId: other, refillDays: 12 }]);
    const mine = await list(c.inventory!, '?search=Jane%20Merge');
    expect(mine.items.map((r) => [r.invoiceNumber, r.status, r.daysLeft, r.lines.length])).toEqual([
      [first.invoice, 'upcoming', 2, 2],
      [otherProduct.invoice, 'upcoming', 2, 1],
      [apart.invoice, 'upcoming', 5, 1],
    ]);
    expect(mine.items[0]!.lines).toEqual([
      { saleId: first.saleId, line: 1 },
      { saleId: dup.saleId, line: 1 },
    ]);
    expect(mine.total).toBe(3);
    expect(mine.pharmacyName).toBeTruthy();
    const paged = await list(c.inventory!, '?search=Jane%20Merge&limit=2&offset=2');
    expect(paged.items.map((r) => r.invoiceNumber)).toEqual([apart.invoice]);
    expect(paged.total).toBe(3);
    expect((await list(c.inventory!, '?search=losartan')).items.map((r) => r.invoiceNumber)).toEqual([otherProduct.invoice]);
    expect((await list(c.inventory!, '?search=Jane%20Merge&due=overdue')).total).toBe(0);
    expect((await list(c.inventory!, `?search=Jane%20Merge&branchId=${ph.branches[1]!.id}`)).total).toBe(0);
  });

  it('completes a refill with its merged duplicates: removed from the list, date kept, a repeat answers the first completion, audited once', async () => {
    const joe = await contact('Joe Complete', '0733000222');
    const a = await sell(joe, daysFromToday(-30), [{ productId: product, refillDays: 28 }]);
    const b = await sell(joe, daysFromToday(-30), [{ productId: product, refillDays: 29 }]);
    const before = await list(c.inventory!, '?search=Joe%20Complete');
    expect(before.items.map((r) => [r.status, r.lines.length])).toEqual([['overdue', 2]]);

    const done = await c.inventory!.post(`/api/refill-reminders/${a.saleId}/1/complete`, {});
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    const completion = refillCompletionSchema.parse(done.body);
    expect(completion.lines).toEqual([
      { saleId: a.saleId, line: 1 },
      { saleId: b.saleId, line: 1 },
    ]);
    expect((await list(c.inventory!, '?search=Joe%20Complete&due=all')).total).toBe(0);
    const rows = await t.db.owner.query<{ completed: string }>(`SELECT refill_completed_at::text AS completed FROM sale_items WHERE pharmacy_id = $1 AND sale_id = ANY ($2::uuid[])`, [ph.pharmacyId, [a.saleId, b.saleId]]);
    expect(rows.every((r) => r.completed !== null)).toBe(true);

    const again = await c.inventory!.post(`/api/refill-reminders/${a.saleId}/1/complete`, {});
    expect(again.status).toBe(200);
    expect(again.body.completedAt).toBe(completion.completedAt);
    const audits = await t.db.owner.query<{ n: number }>(`SELECT count(*)::int AS n FROM audit_log WHERE pharmacy_id = $1 AND action = 'refill.complete' AND entity_id = $2`, [ph.pharmacyId, a.saleId]);
    expect(audits[0]!.n).toBe(1);
  });

  it('refuses without report:inventory (403), answers 404 for another pharmacy\'s line or a line without a refill, 400 for a bad id', async () => {
    const ann = await contact('Ann Guard', '0744000333');
    const s = await sell(ann, daysFromToday(0), [{ productId: product, refillDays: 3 }]);
    expect((await c.cashier!.get('/api/refill-reminders')).status).toBe(403);
    expect((await c.cashier!.post(`/api/refill-reminders/${s.saleId}/1/complete`, {})).status).toBe(403);
    const foreign = await otherOwner.post(`/api/refill-reminders/${s.saleId}/1/complete`, {});
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('REFILL_NOT_FOUND');
    expect((await otherOwner.get('/api/refill-reminders?due=all')).body.total).toBe(0);
    expect((await c.inventory!.post(`/api/refill-reminders/${s.saleId}/2/complete`, {})).status).toBe(404);
    expect((await c.inventory!.post(`/api/refill-reminders/not-a-uuid/1/complete`, {})).status).toBe(400);
    const [row] = await t.db.owner.query<{ completed: string | null }>(`SELECT refill_completed_at AS completed FROM sale_items WHERE pharmacy_id = $1 AND sale_id = $2`, [ph.pharmacyId, s.saleId]);
    expect(row!.completed).toBeNull();
  });
});
