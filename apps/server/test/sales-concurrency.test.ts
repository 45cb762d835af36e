import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './app.ts';
import { testDatabaseKinds } from './database.ts';
import type { TestClient, TestResponse } from './http.ts';
import { signedInClient, stockPharmacy, type StockPharmacy } from './import-helpers.ts';
import { alertsDrift, clientsOf, daysFromToday, ledgerProblems, stockTestPharmacy } from './stock-helpers.ts';

/**
 * Many tills at once (issue 9, concurrency): sales of the last pieces never oversell, a sale posted several times at
 * once with one Idempotency-Key is one sale, invoice numbers stay unique and without gaps, and the trial's
 * transactions limit holds. The branch rows are locked in the ledger's order, the counter row in the sale's
 * transaction, the plan's places by one conditional UPDATE.
 */
describe.each(testDatabaseKinds())('sales under concurrency on %s', (kind) => {
  let t: TestApp;
  let ph: StockPharmacy;
  let tills: TestClient[];
  let main: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    ph = await stockTestPharmacy(t.db, 'sales_conc', ['owner', 'cashier', 'manager']);
    const c = await clientsOf(t, ph);
    tills = [c.owner!, c.cashier!, c.manager!];
    main = ph.branches[0]!.id;
  });
  afterAll(async () => t?.close());

  const newProduct = async (name: string, pieces: number) => {
    const created = await tills[0]!.post('/api/products', { name, sellingPriceCents: 5000, purchasePriceCents: 2000 });
    expect({ status: created.status, error: created.body.error }).toEqual({ status: 201, error: undefined });
    const id = created.body.product.id as string;
    // Two batches, so takes cross a batch boundary.
    for (const [number, days, quantity] of [
      ['A', 60, Math.floor(pieces / 2)],
      ['B', 300, pieces - Math.floor(pieces / 2)],
    ] as const) {
      const r = await tills[0]!.post(`/api/products/${id}/batches`, { batchNumber: `${name}-${number}`, expiryDate: daysFromToday(days), quantity, unitCostCents: 2000 });
      expect(r.status).toBe(201);
    }
    return id;
  };
  const sale = (till: TestClient, productId: string, quantity = 1, id: string = randomUUID()) =>
    till.request('POST', '/api/sales', { id, lines: [{ productId, quantity }], payments: [{ method: 'Cash', amountCents: 5000 * quantity }] }, { 'idempotency-key': id });
  const invoiceNumbers = async (pharmacyId: string) =>
    (await t.db.owner.query<{ invoice_number: string }>(`SELECT invoice_number FROM sales WHERE pharmacy_id = $1 ORDER BY invoice_number`, [pharmacyId])).map((r) => r.invoice_number);
  const expectGapFree = (numbers: string[]) => expect(numbers).toEqual(numbers.map((_, i) => `INV-${String(i + 1).padStart(6, '0')}`));

  it('20 concurrent sales of the last 10 pieces: exactly 10 sell, the rest 409 with the stock message; ledger = batches = stock', async () => {
    const product = await newProduct('Last Ten', 10);
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => sale(tills[i % tills.length]!, product)));
    const byStatus = (status: number) => results.filter((r) => r.status === status);
    expect(results.map((r) => r.status).sort()).toEqual([...Array(10).fill(201), ...Array(10).fill(409)]);
    for (const refused of byStatus(409)) expect(refused.body.error.message).toBe('Some items exceed available stock');
    const [stock] = await t.db.owner.query<{ quantity: number }>(`SELECT quantity FROM branch_products WHERE pharmacy_id = $1 AND branch_id = $2 AND product_id = $3`, [
      ph.pharmacyId,
      main,
      product,
    ]);
    expect(stock!.quantity).toBe(0);
    expect(await ledgerProblems(t.db, ph.pharmacyId)).toEqual([]);
    // Sold from 10 to 0 by concurrent tills, through 'low' (5) to 'out': the ledger's own alert writes agree (0078).
    expect(await alertsDrift(t.db, ph.pharmacyId)).toEqual([]);
    const [takes] = await t.db.owner.query<{ n: number }>(`SELECT sum(quantity)::int AS n FROM sale_item_batches WHERE pharmacy_id = $1`, [ph.pharmacyId]);
    expect(takes!.n).toBe(10);
    expectGapFree(await invoiceNumbers(ph.pharmacyId));
  });

  it('one sale posted 5 times at once with one Idempotency-Key: one sale, one invoice number, five identical answers', async () => {
    const product = await newProduct('Once Only', 10);
    const id = randomUUID();
    const results = await Promise.all(Array.from({ length: 5 }, () => sale(tills[1]!, product, 2, id)));
    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
    for (const r of results) expect(r.body).toEqual(results[0]!.body);
    const [row] = await t.db.owner.query<{ n: number }>(`SELECT count(*)::int AS n FROM sales WHERE pharmacy_id = $1 AND id = $2`, [ph.pharmacyId, id]);
    expect(row!.n).toBe(1);
    const [stock] = await t.db.owner.query<{ quantity: number }>(`SELECT quantity FROM branch_products WHERE pharmacy_id = $1 AND branch_id = $2 AND product_id = $3`, [
      ph.pharmacyId,
      main,
      product,
    ]);
    expect(stock!.quantity).toBe(8);
  });

  it('one sale id posted 5 times at once under 5 different keys: one sale, the rest 409 SALE_ID_TAKEN, stock taken once, numbers without gaps', async () => {
    const product = await newProduct('One Id', 10);
    const id = randomUUID();
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        tills[i % tills.length]!.request('POST', '/api/sales', { id, lines: [{ productId: product, quantity: 1 }], payments: [{ method: 'Cash', amountCents: 5000 }] }, { 'idempotency-key': `key-${i}-${id}` }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409]);
    for (const refused of results.filter((r) => r.status === 409)) expect(refused.body.error.code).toBe('SALE_ID_TAKEN');
    const [row] = await t.db.owner.query<{ n: number }>(`SELECT count(*)::int AS n FROM sales WHERE pharmacy_id = $1 AND id = $2`, [ph.pharmacyId, id]);
    expect(row!.n).toBe(1);
    const [stock] = await t.db.owner.query<{ quantity: number }>(`SELECT quantity FROM branch_products WHERE pharmacy_id = $1 AND branch_id = $2 AND product_id = $3`, [
      ph.pharmacyId,
      main,
      product,
    ]);
    expect(stock!.quantity).toBe(9);
    expect(await ledgerProblems(t.db, ph.pharmacyId)).toEqual([]);
    expectGapFree(await invoiceNumbers(ph.pharmacyId));
  });

  it('20 tills at once over different products: invoice numbers unique and without gaps, counter = sales + 1', async () => {
    const products = await Promise.all(['P1', 'P2', 'P3', 'P4'].map((name) => newProduct(name, 50)));
    const results: TestResponse[] = await Promise.all(Array.from({ length: 20 }, (_, i) => sale(tills[i % tills.length]!, products[i % products.length]!, 1 + (i % 3))));
    expect(results.every((r) => r.status === 201)).toBe(true);
    const numbers = await invoiceNumbers(ph.pharmacyId);
    expectGapFree(numbers);
    expect(new Set(results.map((r) => r.body.invoiceNumber)).size).toBe(20);
    const [counter] = await t.db.owner.query<{ next_value: number }>(`SELECT next_value FROM invoice_counters WHERE pharmacy_id = $1`, [ph.pharmacyId]);
    expect(counter!.next_value).toBe(numbers.length + 1);
    expect(await ledgerProblems(t.db, ph.pharmacyId)).toEqual([]);
  });

  it("the trial's transactions limit holds under concurrency: 3 places left, 8 sales at once, 3 sell", async () => {
    const trial = await stockPharmacy(t.db, 'sales_trial', { plan: 'trial' });
    const owner = await signedInClient(t, trial.users.owner!, trial.pharmacyId, trial.branches[0]!.id);
    const created = await owner.post('/api/products', { name: 'Trial Product', sellingPriceCents: 5000, purchasePriceCents: 2000 });
    expect({ status: created.status, error: created.body.error }).toEqual({ status: 201, error: undefined });
    const product = created.body.product.id as string;
    expect((await owner.post(`/api/products/${product}/batches`, { batchNumber: 'T1', expiryDate: daysFromToday(100), quantity: 50, unitCostCents: 2000 })).status).toBe(201);
    await t.db.owner.query(`UPDATE usage_counters SET transactions = 47 WHERE pharmacy_id = $1`, [trial.pharmacyId]);
    const results = await Promise.all(Array.from({ length: 8 }, () => sale(owner, product)));
    expect(results.map((r) => r.status).sort()).toEqual([201, 201, 201, 402, 402, 402, 402, 402]);
    for (const r of results.filter((x) => x.status === 402)) expect(r.body.error.code).toBe('LIMIT_EXCEEDED');
    const [usage] = await t.db.owner.query<{ transactions: number }>(`SELECT transactions FROM usage_counters WHERE pharmacy_id = $1`, [trial.pharmacyId]);
    expect(usage!.transactions).toBe(50);
    expectGapFree(await invoiceNumbers(trial.pharmacyId));
    expect(await ledgerProblems(t.db, trial.pharmacyId)).toEqual([]);
  });
});
