import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './app.ts';
import { testDatabaseKinds } from './database.ts';
import type { TestClient } from './http.ts';
import { signedInClient, type StockPharmacy } from './import-helpers.ts';
import { clientsOf, daysFromToday, stockTestPharmacy } from './stock-helpers.ts';

/**
 * The branch of a sale (decision 0080): read in the cart's statement instead of a statement of its own, with
 * resolveBranch's rules and answers in the same order as before — 404 for a branch that is not the pharmacy's (before
 * a missing client or product), 403 for one the cashier may not see, then a resumed sale's other branch, then the
 * client; without a branch in the request the session's, else the default; the answer names the branch as GET does.
 * Every expectation here held before the change too.
 */
describe.each(testDatabaseKinds())("a sale's branch on %s", (kind) => {
  let t: TestApp;
  let ph: StockPharmacy;
  let other: StockPharmacy;
  let c: Record<string, TestClient>;
  let main: string;
  let second: string;
  let para: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    ph = await stockTestPharmacy(t.db, 'h3_branch', ['owner', 'cashier']);
    other = await stockTestPharmacy(t.db, 'h3_branch_other', ['owner']);
    c = await clientsOf(t, ph);
    main = ph.branches[0]!.id;
    second = ph.branches[1]!.id;
    const created = await c.owner!.post('/api/products', { name: 'Paracetamol 500mg', sku: 'PARA', sellingPriceCents: 10_000, purchasePriceCents: 5000 });
    expect(created.status).toBe(201);
    para = created.body.product.id;
    for (const branchId of [main, second]) {
      const r = await c.owner!.post(`/api/products/${para}/batches`, { branchId, batchNumber: `B-${branchId.slice(0, 4)}`, expiryDate: daysFromToday(300), quantity: 50, unitCostCents: 5000 });
      expect(r.status).toBe(201);
    }
  });
  afterAll(async () => t?.close());

  const sell = (who: TestClient, body: Record<string, unknown>) => {
    const id = randomUUID();
    return who.request('POST', '/api/sales', { id, lines: [{ productId: para, quantity: 1 }], payments: [{ method: 'Cash', amountCents: 10_000 }], ...body }, { 'idempotency-key': id });
  };
  const sales = async () => (await t.db.owner.query<{ n: number }>(`SELECT count(*)::int AS n FROM sales WHERE pharmacy_id = $1`, [ph.pharmacyId]))[0]!.n;
  const refusal = (res: { status: number; body: { error?: { code: string; details?: unknown } } }) => ({ status: res.status, code: res.body.error?.code, details: res.body.error?.details });

  it("a branch that is not the pharmacy's is 404 with its id, before an unknown client or product", async () => {
    const before = await sales();
    for (const branchId of [randomUUID(), other.branches[0]!.id]) {
      expect(refusal(await sell(c.owner!, { branchId }))).toEqual({ status: 404, code: 'NOT_FOUND', details: { branchId } });
      expect(refusal(await sell(c.owner!, { branchId, clientId: randomUUID() }))).toEqual({ status: 404, code: 'NOT_FOUND', details: { branchId } });
      expect(refusal(await sell(c.owner!, { branchId, lines: [{ productId: randomUUID(), quantity: 1 }] }))).toEqual({ status: 404, code: 'NOT_FOUND', details: { branchId } });
    }
    expect(await sales()).toBe(before);
  });

  it('an unknown client comes before an unknown product, in a branch the user may sell in', async () => {
    const clientId = randomUUID();
    const unknownClient = await sell(c.owner!, { branchId: main, clientId, lines: [{ productId: randomUUID(), quantity: 1 }] });
    const clientOnly = await sell(c.owner!, { branchId: main, clientId });
    expect(refusal(unknownClient)).toEqual(refusal(clientOnly));
    expect(unknownClient.status).toBe(404);
    const productId = randomUUID();
    expect(refusal(await sell(c.owner!, { branchId: main, lines: [{ productId, quantity: 1 }] }))).toEqual({ status: 404, code: 'NOT_FOUND', details: { productId, line: 1 } });
  });

  it('a cashier who may not see the branch gets 403, before an unknown client; the branches they may see sell', async () => {
    expect((await c.owner!.patch(`/api/users/${ph.users.cashier!}`, { allowedBranchIds: [main] })).status).toBe(200);
    try {
      const cashier = await signedInClient(t, ph.users.cashier!, ph.pharmacyId, main);
      expect(refusal(await sell(cashier, { branchId: second }))).toMatchObject({ status: 403, code: 'BRANCH_NOT_ALLOWED' });
      expect(refusal(await sell(cashier, { branchId: second, clientId: randomUUID() }))).toMatchObject({ status: 403, code: 'BRANCH_NOT_ALLOWED' });
      // A branch that does not exist is 404 for them too (not 403).
      const missing = randomUUID();
      expect(refusal(await sell(cashier, { branchId: missing }))).toEqual({ status: 404, code: 'NOT_FOUND', details: { branchId: missing } });
      const sold = await sell(cashier, {});
      expect(sold.status).toBe(201);
      expect(sold.body).toMatchObject({ branchId: main, branchName: 'Main Branch' });
      expect((await cashier.get(`/api/sales/${sold.body.id}`)).body).toEqual(sold.body);
    } finally {
      expect((await c.owner!.patch(`/api/users/${ph.users.cashier!}`, { allowedBranchIds: null })).status).toBe(200);
    }
  });

  it("without a branch in the request: the session's, else the default; the answer names it as GET does", async () => {
    const inSecond = await signedInClient(t, ph.users.owner!, ph.pharmacyId, second);
    const fromSession = await sell(inSecond, {});
    expect(fromSession.status).toBe(201);
    expect(fromSession.body).toMatchObject({ branchId: second, branchName: 'Westlands Branch' });
    expect((await inSecond.get(`/api/sales/${fromSession.body.id}`)).body).toEqual(fromSession.body);

    const noBranch = await signedInClient(t, ph.users.owner!, ph.pharmacyId, null);
    const byDefault = await sell(noBranch, {});
    expect(byDefault.status).toBe(201);
    expect(byDefault.body).toMatchObject({ branchId: main, branchName: 'Main Branch' });
    expect((await noBranch.get(`/api/sales/${byDefault.body.id}`)).body).toEqual(byDefault.body);
    const clientId = randomUUID();
    expect(refusal(await sell(noBranch, { clientId, lines: [{ productId: randomUUID(), quantity: 1 }] }))).toEqual(refusal(await sell(noBranch, { clientId })));
  });

  it("a resumed sale completed in another branch is refused with the suspension's branch, before an unknown client", async () => {
    const id = randomUUID();
    const customer = await c.owner!.post('/api/contacts', { name: 'Jane Wanjiku', phone: '0712 345 678' });
    expect(customer.status).toBe(201);
    const suspended = await c.owner!.request('POST', '/api/suspended-sales', { id, branchId: main, clientId: customer.body.id, lines: [{ productId: para, quantity: 2 }], amountPaidCents: 0 }, { 'idempotency-key': id });
    expect(suspended.status).toBe(201);
    for (const extra of [{}, { clientId: randomUUID() }]) {
      const res = await sell(c.owner!, { suspendedSaleId: id, branchId: second, lines: [{ productId: para, quantity: 2 }], payments: [{ method: 'Cash', amountCents: 20_000 }], ...extra });
      expect({ status: res.status, error: res.body.error }).toEqual({
        status: 409,
        error: { code: 'SUSPENDED_SALE_OTHER_BRANCH', message: expect.stringContaining('Main Branch'), values: { branch: 'Main Branch' }, details: { branchId: main } },
      });
    }
    // In its own branch it completes.
    const res = await sell(c.owner!, { suspendedSaleId: id, branchId: main, clientId: customer.body.id, lines: [{ productId: para, quantity: 2 }], payments: [{ method: 'Cash', amountCents: 20_000 }] });
    expect(res.status).toBe(201);
  });

  it('an inactive branch answers as before (the branch is found whatever its state)', async () => {
    await t.db.owner.query(`UPDATE branches SET is_active = false WHERE pharmacy_id = $1 AND id = $2`, [ph.pharmacyId, second]);
    try {
      const res = await sell(c.owner!, { branchId: second });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ branchId: second, branchName: 'Westlands Branch' });
    } finally {
      await t.db.owner.query(`UPDATE branches SET is_active = true WHERE pharmacy_id = $1 AND id = $2`, [ph.pharmacyId, second]);
    }
  });
});
