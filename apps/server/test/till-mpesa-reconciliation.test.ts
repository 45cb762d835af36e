import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tillMpesaListResponseSchema, tillMpesaResponseSchema, type TillMpesaRequest } from '@pharmapoint/domain/till-mpesa';
import { startK2Simulator, type K2Simulator, type SimulatedPrompt } from '../src/dev/k2-simulator.ts';
import { K2_CALLBACK_PATH } from '../src/modules/payments/k2-config.ts';
import { createTestApp, type TestApp } from './app.ts';
import { until } from './platform-helpers.ts';
import { testDatabaseKinds } from './database.ts';
import type { TestClient } from './http.ts';
import type { StockPharmacy } from './import-helpers.ts';
import { clientsOf, daysFromToday, stockTestPharmacy } from './stock-helpers.ts';

/**
 * Reconciling the till's unmatched M-Pesa money (decision 0068) against the local K2 simulator over real HTTP: the
 * unmatched payments are made as the till makes them (the cashier cancels, the customer pays anyway, with or without
 * a cash sale meanwhile). The owner's list (status, branch, day, paging), resolving as refunded or applied to a
 * sale (once, audited, the sale unchanged), the permission, the tenant boundary and the same Idempotency-Key sent
 * five times at once.
 */

describe.each(testDatabaseKinds())('M-Pesa reconciliation on %s', (kind) => {
  let t: TestApp;
  let sim: K2Simulator;
  let ph: StockPharmacy;
  let other: StockPharmacy;
  let c: Record<string, TestClient>;
  let o: Record<string, TestClient>;
  let product: string;
  let otherProduct: string;
  let phone = 22_340_000;

  const addProduct = async (owner: TestClient, sku: string) => {
    const created = await owner.post('/api/products', { name: `Loratadine ${sku}`, sku, sellingPriceCents: 10_000, purchasePriceCents: 4000 });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.product.id as string;
    const batch = await owner.post(`/api/products/${id}/batches`, { batchNumber: `B-${sku}`, expiryDate: daysFromToday(300), quantity: 200, unitCostCents: 4000 });
    expect(batch.status).toBe(201);
    return id;
  };

  beforeAll(async () => {
    sim = await startK2Simulator();
    t = await createTestApp(kind, { kopokopo: sim.config('http://127.0.0.1:1/unset') });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    t.config.kopokopo!.callbackUrl = `${base}${K2_CALLBACK_PATH}`;
    // No till credentials of their own: both use the simulator's till (as npm start's demo pharmacy does).
    ph = await stockTestPharmacy(t.db, 'till_recon', ['owner', 'cashier', 'accounts']);
    other = await stockTestPharmacy(t.db, 'till_recon_b', ['owner', 'cashier']);
    c = await clientsOf(t, ph);
    o = await clientsOf(t, other);
    product = await addProduct(c.owner!, 'LOR');
    otherProduct = await addProduct(o.owner!, 'LORB');
  });
  afterAll(async () => {
    await t?.close();
    await sim?.close();
  });

  const saleBody = (productId = product) => ({ id: randomUUID(), lines: [{ productId, quantity: 1 }], payments: [{ method: 'MPESA', amountCents: 10_000 }], expectedTotalCents: 10_000 });

  async function cashSale(who: TestClient, productId = product) {
    const sale = { ...saleBody(productId), payments: [{ method: 'Cash', amountCents: 10_000 }] };
    const res = await who.request('POST', '/api/sales', sale, { 'idempotency-key': sale.id });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const receipt = await who.get(`/api/sales/${sale.id}`);
    return { id: sale.id, invoiceNumber: receipt.body.invoiceNumber as string, receipt: receipt.body };
  }

  /** The till asks; the customer's phone gets the prompt. */
  async function ask(who: TestClient = c.cashier!) {
    phone += 1;
    const sale = saleBody(who === o.cashier ? otherProduct : product);
    const res = await who.request('POST', '/api/till-payments', { phoneNumber: `07${phone}`, sale }, { 'idempotency-key': randomUUID() });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const request = tillMpesaResponseSchema.parse(res.body).request;
    const prompt = await until<SimulatedPrompt>('the STK prompt', () => sim.prompts().find((p) => p.metadata.till_request_id === request.id));
    await until('the stored location', async () => (await t.db.owner.query<{ k: string | null }>(`SELECT k2_location AS k FROM till_payment_requests WHERE id = $1`, [request.id]))[0]?.k);
    return { request, prompt, sale };
  }

  /**
   * Money that completed no sale, as the till makes it: the cashier cancels, (with cash: takes the sale in cash), and
   * the customer approves the prompt anyway.
   */
  async function unmatched(how: 'cash' | 'cancel', who: TestClient = c.cashier!) {
    const { request, prompt, sale } = await ask(who);
    expect((await who.post(`/api/till-payments/${request.id}/cancel`, {})).body.request.status).toBe('cancelled');
    if (how === 'cash') {
      const cash = await who.request('POST', '/api/sales', { ...sale, payments: [{ method: 'Cash', amountCents: 10_000 }] }, { 'idempotency-key': sale.id });
      expect(cash.status, JSON.stringify(cash.body)).toBe(201);
    }
    await sim.decide(prompt.id, 'approve');
    const after = (await c.owner!.get(`/api/till-payments/${request.id}`)).body.request as TillMpesaRequest | undefined;
    if (who === c.cashier) expect(after).toMatchObject({ status: 'unmatched', attention: how === 'cash' ? 'sale_already_completed' : 'paid_after_cancel', mpesaReceipt: prompt.reference });
    return { request, prompt, sale };
  }

  const list = async (query: string, who: TestClient = c.owner!) => {
    const res = await who.get(`/api/till-payments?${query}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return tillMpesaListResponseSchema.parse(res.body);
  };
  const resolve = (id: string, body: unknown, who: TestClient = c.owner!, key = randomUUID()) => who.request('POST', `/api/till-payments/${id}/resolve`, body, { 'idempotency-key': key });
  const stored = async (id: string) => (await t.db.owner.query<Record<string, any>>(`SELECT * FROM till_payment_requests WHERE id = $1`, [id]))[0]!;
  const audits = async (id: string) =>
    t.db.owner.query<{ action: string; user_id: string | null; after: Record<string, unknown> }>(`SELECT action, user_id, after FROM audit_log WHERE pharmacy_id = $1 AND entity_id = $2 AND action = 'till_payment.resolve'`, [ph.pharmacyId, id]);

  it('the owner’s list: by status, branch and day, paged on the server, with branch, cashier, phone and the sale’s invoice; a cashier is refused', async () => {
    const paidCash = await unmatched('cash');
    const paidLate = await unmatched('cancel');
    const done = await ask();
    await sim.decide(done.prompt.id, 'approve');

    const open = await list('status=unmatched');
    const ids = open.items.map((i) => i.id);
    expect(ids).toEqual(expect.arrayContaining([paidCash.request.id, paidLate.request.id]));
    expect(ids).not.toContain(done.request.id);
    expect(open.total).toBe(2);
    const cashRow = open.items.find((i) => i.id === paidCash.request.id)!;
    const invoice = (await c.owner!.get(`/api/sales/${paidCash.sale.id}`)).body.invoiceNumber;
    expect(cashRow).toMatchObject({
      branch: { id: ph.branches[0]!.id, name: 'Main Branch' },
      requestedBy: { id: ph.users.cashier },
      sale: { id: paidCash.sale.id, invoiceNumber: invoice },
      amountCents: 10_000,
      paidCents: 10_000,
      mpesaReceipt: paidCash.prompt.reference,
      resolution: null,
    });
    expect(cashRow.phoneNumber).toMatch(/^254 7\d\d \d{3} \d{3}$/);
    expect(open.items.find((i) => i.id === paidLate.request.id)!.sale).toBeNull();
    expect((await list('status=completed')).items.map((i) => i.id)).toEqual([done.request.id]);
    expect((await list('status=completed')).items[0]!.sale).toMatchObject({ id: done.sale.id });

    // Another branch and 40 days ago: the branch and day filters find it, the last 30 days do not.
    await t.db.owner.query(`UPDATE till_payment_requests SET branch_id = $2, created_at = now() - interval '40 days' WHERE id = $1`, [paidLate.request.id, ph.branches[1]!.id]);
    expect((await list(`branchId=${ph.branches[1]!.id}`)).items.map((i) => i.id)).toEqual([paidLate.request.id]);
    expect((await list(`branchId=${ph.branches[1]!.id}`)).items[0]!.branch.name).toBe('Westlands Branch');
    expect((await list('status=unmatched&preset=last30Days')).items.map((i) => i.id)).toEqual([paidCash.request.id]);
    expect((await list(`preset=custom&from=${daysFromToday(-41)}&to=${daysFromToday(-39)}`)).items.map((i) => i.id)).toEqual([paidLate.request.id]);
    expect((await list('preset=today')).items.map((i) => i.id)).not.toContain(paidLate.request.id);

    // Paged: newest first, the total of every row the filters select.
    const all = await list('limit=200');
    expect(all.total).toBe(all.items.length);
    const first = await list('limit=2&offset=0');
    const second = await list('limit=2&offset=2');
    expect(first.items).toHaveLength(2);
    expect(first.total).toBe(all.total);
    expect([...first.items, ...second.items].map((i) => i.id)).toEqual(all.items.slice(0, first.items.length + second.items.length).map((i) => i.id));
    for (let i = 1; i < all.items.length; i++) expect(all.items[i - 1]!.createdAt >= all.items[i]!.createdAt).toBe(true);

    const reversed = await c.owner!.get(`/api/till-payments?from=${daysFromToday(1)}&to=${daysFromToday(0)}`);
    expect(reversed.status).toBe(400);
    expect(reversed.body.error.message).toContain('The start date must be on or before the end date.');
    // The books keeper may read it; a cashier may not read or resolve.
    expect((await list('status=unmatched', c.accounts!)).total).toBe(2);
    expect((await c.cashier!.get('/api/till-payments?status=unmatched')).status).toBe(403);
    const refused = await resolve(paidCash.request.id, { resolution: 'refunded', reference: 'RVS1', note: 'Reversed' }, c.cashier!);
    expect(refused.status).toBe(403);
    expect((await stored(paidCash.request.id)).status).toBe('unmatched');
  });

  it('refunded to the customer: resolved once with the reference and the note, audited with who did it; a second time is 409', async () => {
    const { request, prompt } = await unmatched('cash');
    const noReference = await resolve(request.id, { resolution: 'refunded', reference: ' ', note: 'Reversed on K2' });
    expect(noReference.status).toBe(400);
    expect(noReference.body.error.message).toContain('Enter the reference of the reversal or refund.');
    expect((await stored(request.id)).status).toBe('unmatched');

    const res = await resolve(request.id, { resolution: 'refunded', reference: ' RVS-7781 ', note: 'Reversed through Kopo Kopo; customer informed.' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const resolved = tillMpesaResponseSchema.parse(res.body).request;
    expect(resolved).toMatchObject({
      status: 'resolved',
      mpesaReceipt: prompt.reference,
      attention: 'sale_already_completed',
      resolution: { kind: 'refunded', reference: 'RVS-7781', note: 'Reversed through Kopo Kopo; customer informed.', sale: null, resolvedBy: { id: ph.users.owner } },
    });
    const [entry, ...more] = await audits(request.id);
    expect(more).toHaveLength(0);
    expect(entry).toMatchObject({ user_id: ph.users.owner, after: { status: 'resolved', resolution: 'refunded', reference: 'RVS-7781' } });
    expect((await list('status=unmatched')).items.map((i) => i.id)).not.toContain(request.id);
    expect((await list('status=resolved')).items.map((i) => i.id)).toContain(request.id);

    const again = await resolve(request.id, { resolution: 'refunded', reference: 'RVS-2', note: 'again' });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe('This M-Pesa payment has already been reconciled.');
    expect((await stored(request.id)).resolution_reference).toBe('RVS-7781');
    expect(await audits(request.id)).toHaveLength(1);
  });

  it('applied to a sale chosen by invoice number: the link is recorded and the sale is not changed; an unknown invoice is 404; only unmatched money is resolved', async () => {
    const { request } = await unmatched('cancel');
    // The sale the customer's money paid (here recorded another way at the till).
    const target = await cashSale(c.cashier!);
    const unknown = await resolve(request.id, { resolution: 'applied', invoiceNumber: 'INV-999999' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toBe('There is no sale with invoice number INV-999999.');
    expect((await stored(request.id)).status).toBe('unmatched');

    const digits = String(Number(target.invoiceNumber.slice(4)));
    const res = await resolve(request.id, { resolution: 'applied', invoiceNumber: digits, note: 'Customer paid for this sale by M-Pesa after all.' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.request).toMatchObject({ status: 'resolved', resolution: { kind: 'applied', reference: null, sale: { id: target.id, invoiceNumber: target.invoiceNumber }, resolvedBy: { id: ph.users.owner } } });
    expect((await c.owner!.get(`/api/sales/${target.id}`)).body).toEqual(target.receipt);
    expect((await audits(request.id))[0]).toMatchObject({ user_id: ph.users.owner, after: { resolution: 'applied', saleId: target.id, invoiceNumber: target.invoiceNumber } });

    // A completed or cancelled request holds no money to reconcile.
    const done = await ask();
    await sim.decide(done.prompt.id, 'approve');
    const completed = await resolve(done.request.id, { resolution: 'refunded', reference: 'X1', note: 'n' });
    expect(completed.status).toBe(409);
    expect(completed.body.error.message).toBe('This M-Pesa payment completed its sale: there is nothing to reconcile.');
    const waiting = await ask();
    const pending = await resolve(waiting.request.id, { resolution: 'applied', invoiceNumber: target.invoiceNumber });
    expect(pending.status).toBe(409);
    await c.cashier!.post(`/api/till-payments/${waiting.request.id}/cancel`, {});
    const cancelled = await resolve(waiting.request.id, { resolution: 'applied', invoiceNumber: target.invoiceNumber });
    expect(cancelled.status).toBe(409);
    expect(cancelled.body.error.message).toContain('no money was received');
  });

  it('another pharmacy’s payment or sale is 404 and changes nothing', async () => {
    const mine = await unmatched('cancel');
    const theirs = await unmatched('cancel', o.cashier!);
    expect((await stored(theirs.request.id)).status).toBe('unmatched');
    // B cannot see or resolve A's payment, nor list it.
    expect((await o.owner!.get(`/api/till-payments/${mine.request.id}`)).status).toBe(404);
    const foreign = await resolve(mine.request.id, { resolution: 'refunded', reference: 'R1', note: 'n' }, o.owner!);
    expect(foreign.status).toBe(404);
    expect((await list('limit=200', o.owner!)).items.map((i) => i.id)).toEqual([theirs.request.id]);
    // A sale only B has (B's invoice numbers run past A's): A cannot apply money to it.
    const [{ n }] = (await t.db.owner.query<{ n: number }>(`SELECT count(*)::int AS n FROM sales WHERE pharmacy_id = $1`, [ph.pharmacyId])) as [{ n: number }];
    let last = { invoiceNumber: '' };
    for (let i = 0; i <= n; i++) last = await cashSale(o.cashier!, otherProduct);
    expect((await t.db.owner.query(`SELECT 1 FROM sales WHERE pharmacy_id = $1 AND invoice_number = $2`, [ph.pharmacyId, last.invoiceNumber]))).toHaveLength(0);
    const theirSale = await resolve(mine.request.id, { resolution: 'applied', invoiceNumber: last.invoiceNumber });
    expect(theirSale.status).toBe(404);
    expect((await stored(mine.request.id)).status).toBe('unmatched');
    expect((await stored(theirs.request.id)).status).toBe('unmatched');
  });

  it('the same Idempotency-Key five times at once resolves once (one answer replayed); five different keys at once: one 200, four 409', async () => {
    const { request } = await unmatched('cancel');
    const key = randomUUID();
    const body = { resolution: 'refunded', reference: 'RVS-5X', note: 'Reversed.' };
    const answers = await Promise.all(Array.from({ length: 5 }, () => resolve(request.id, body, c.owner!, key)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    for (const a of answers) expect(a.body).toEqual(answers[0]!.body);
    expect(answers.filter((a) => a.headers['idempotent-replayed'] === 'true')).toHaveLength(4);
    expect(await audits(request.id)).toHaveLength(1);
    expect((await stored(request.id))).toMatchObject({ status: 'resolved', resolution: 'refunded', resolved_by: ph.users.owner });

    const next = await unmatched('cancel');
    const raced = await Promise.all(Array.from({ length: 5 }, (_, i) => resolve(next.request.id, { ...body, reference: `RVS-${i}` })));
    expect(raced.map((a) => a.status).sort()).toEqual([200, 409, 409, 409, 409]);
    expect(await audits(next.request.id)).toHaveLength(1);
  });
});
