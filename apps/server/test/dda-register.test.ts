import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ddaRegisterResponseSchema, type DdaRegister, type DdaRegisterResponse } from '@pharmapoint/domain/dda-register';
import { createTestApp, type TestApp } from './app.ts';
import { testDatabaseKinds } from './database.ts';
import type { TestClient } from './http.ts';
import type { StockPharmacy } from './import-helpers.ts';
import { clientsOf, daysFromToday, ledgerProblems, stockTestPharmacy } from './stock-helpers.ts';

/**
 * The DDA register (GET /api/reports/dda, report:advanced): per controlled product and branch, the stock ledger as a
 * running-balance register with the supplier, the patient and the prescription of each line. Its closing balances
 * equal the stock on hand per branch and product and per batch after a mix of receipts, sales, returns, adjustments
 * and transfers.
 */
describe.each(testDatabaseKinds())('the DDA register on %s', (kind) => {
  let t: TestApp;
  let ph: StockPharmacy;
  let other: StockPharmacy;
  let c: Record<string, TestClient>;
  let otherOwner: TestClient;
  let main: string;
  let west: string;
  let morphine: string;
  let pethidine: string;
  let para: string;
  let client: string;
  let firstSale: { id: string; invoiceNumber: string };

  const sell = async (lines: unknown[], clientId: string | null, amountCents: number) => {
    const id = randomUUID();
    const res = await c.cashier!.request('POST', '/api/sales', { id, clientId, lines, payments: [{ method: 'Cash', amountCents }] }, { 'idempotency-key': id });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as { id: string; invoiceNumber: string };
  };
  const register = async (query: string, who: TestClient = c.owner!): Promise<DdaRegisterResponse> => {
    const res = await who.get(`/api/reports/dda?${query}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return ddaRegisterResponseSchema.parse(res.body);
  };
  const find = (report: DdaRegisterResponse, productId: string, branchId: string): DdaRegister => {
    const found = report.registers.find((r) => r.productId === productId && r.branchId === branchId);
    expect(found, `register of ${productId} in ${branchId}`).toBeTruthy();
    return found!;
  };

  beforeAll(async () => {
    t = await createTestApp(kind);
    ph = await stockTestPharmacy(t.db, 'dda_ph', ['owner', 'manager', 'cashier', 'inventory']);
    other = await stockTestPharmacy(t.db, 'dda_other', ['owner']);
    c = await clientsOf(t, ph);
    otherOwner = (await clientsOf(t, other)).owner!;
    main = ph.branches[0]!.id;
    west = ph.branches[1]!.id;
    const product = async (body: Record<string, unknown>) => {
      const r = await c.owner!.post('/api/products', { sellingPriceCents: 10_000, purchasePriceCents: 5_000, ...body });
      expect(r.status).toBe(201);
      return r.body.product.id as string;
    };
    morphine = await product({ name: 'Morphine Sulphate 10mg', sku: 'MOR-10', isDda: true });
    pethidine = await product({ name: 'Pethidine 50mg', sku: 'PET-50', isDda: true });
    para = await product({ name: 'Paracetamol 500mg', sku: 'PARA' });

    // Ten days ago: opening stock of 20 (batch MOR-A, expiring first). Pethidine: 6 pieces that never move afterwards.
    const opening = await c.owner!.post(`/api/products/${morphine}/batches`, { batchNumber: 'MOR-A', expiryDate: daysFromToday(200), quantity: 20, unitCostCents: 5_000 });
    expect(opening.status).toBe(201);
    expect((await c.owner!.post(`/api/products/${pethidine}/batches`, { batchNumber: 'PET-A', expiryDate: daysFromToday(300), quantity: 6, unitCostCents: 5_000 })).status).toBe(201);
    expect((await c.owner!.post(`/api/products/${para}/batches`, { batchNumber: 'PARA-A', expiryDate: daysFromToday(300), quantity: 50, unitCostCents: 500 })).status).toBe(201);
    await t.db.owner.query(`UPDATE stock_movements SET at = now() - interval '10 days' WHERE pharmacy_id = $1`, [ph.pharmacyId]);

    // Today: 30 received from Harleys on invoice HARL-881 (batch MOR-B)...
    const supplier = (await t.db.owner.query<{ id: string }>(`INSERT INTO contacts (pharmacy_id, type, name) VALUES ($1, 'supplier', 'Harleys Ltd') RETURNING id`, [ph.pharmacyId]))[0]!.id;
    const purchase = await c.owner!.request(
      'POST',
      '/api/purchases',
      {
        supplierId: supplier,
        date: daysFromToday(0),
        reference: 'HARL-881',
        status: 'received',
        items: [{ productId: morphine, quantity: 30, purchasePriceCents: 5_000, sellingPriceCents: 10_000, expiryDate: daysFromToday(400), batchNumber: 'MOR-B', applyTax: false }],
      },
      { 'idempotency-key': randomUUID() },
    );
    expect(purchase.status, JSON.stringify(purchase.body)).toBe(201);

    // ...two DDA sales with prescriptions (FEFO: from MOR-A), one of them mixed with a non-DDA line...
    client = (await c.cashier!.post('/api/contacts', { name: 'Jane Wanjiku', phone: '0712 345 678', location: 'Nairobi', address: 'Moi Avenue 1' })).body.id;
    firstSale = await sell(
      [
        { productId: para, quantity: 2 },
        { productId: morphine, quantity: 5, prescription: { doctorName: 'Dr. Otieno', hospitalName: 'Kenyatta National Hospital', prescriptionNumber: 'RX-100', patientId: '12345678', doctorLicense: 'KMPDC-77' } },
      ],
      client,
      100_000,
    );
    await sell([{ productId: morphine, quantity: 3, prescription: { doctorName: 'Dr. Achieng', hospitalName: 'Aga Khan Hospital' } }], client, 30_000);
    // ...the patient returns 2 of the first sale (restocked)...
    const returnId = randomUUID();
    const ret = await c.owner!.request('POST', `/api/sales/${firstSale.id}/returns`, { id: returnId, lines: [{ line: 2, quantity: 2 }], refundMethod: 'Cash', reason: 'Not needed' }, { 'idempotency-key': returnId });
    expect(ret.status, JSON.stringify(ret.body)).toBe(201);
    // ...one broken ampoule written off...
    const adjustment = await c.inventory!.post('/api/stock/adjustments', { reason: 'Broken', items: [{ productId: morphine, delta: -1, reasonType: 'damage', note: 'broken ampoule' }] });
    expect(adjustment.status, JSON.stringify(adjustment.body)).toBe(201);
    // ...and 4 sent to Westlands (received there in full).
    const transfer = await c.owner!.post('/api/stock/transfers', { fromBranchId: main, toBranchId: west, items: [{ productId: morphine, quantity: 4 }] });
    expect(transfer.status, JSON.stringify(transfer.body)).toBe(201);
    const transferId = transfer.body.id as string;
    expect((await c.owner!.post(`/api/stock/transfers/${transferId}/approve`, {})).status).toBe(200);
    expect((await c.owner!.post(`/api/stock/transfers/${transferId}/dispatch`, {})).status).toBe(200);
    expect((await c.owner!.request('POST', `/api/stock/transfers/${transferId}/receive`, {}, { 'idempotency-key': randomUUID() })).status).toBe(200);
    // A suspended sale holds 2 pieces in reserve: still on the shelf, so still in the register's balance.
    const suspendedId = randomUUID();
    const suspended = await c.cashier!.request(
      'POST',
      '/api/suspended-sales',
      { id: suspendedId, clientId: client, lines: [{ productId: morphine, quantity: 2, prescription: { doctorName: 'Dr. Otieno', hospitalName: 'Kenyatta National Hospital' } }] },
      { 'idempotency-key': suspendedId },
    );
    expect(suspended.status, JSON.stringify(suspended.body)).toBe(201);
    const [held] = await t.db.owner.query<{ quantity: number; reserved_quantity: number }>(
      `SELECT quantity, reserved_quantity FROM branch_products WHERE pharmacy_id = $1 AND branch_id = $2 AND product_id = $3`,
      [ph.pharmacyId, main, morphine],
    );
    expect(held).toEqual({ quantity: 37, reserved_quantity: 2 });
    expect(await ledgerProblems(t.db, ph.pharmacyId)).toEqual([]);
  });
  afterAll(async () => t?.close());

  it('lists every line from the opening with supplier, patient, prescriber and who entered it, and closes on the stock on hand', async () => {
    const report = await register(`from=${daysFromToday(-15)}&to=${daysFromToday(0)}`);
    expect(report.pharmacyName).toBe('Pharmacy dda_ph');
    // Controlled products only, by name then branch (default first).
    expect(report.registers.map((r) => [r.productName, r.branchName])).toEqual([
      ['Morphine Sulphate 10mg', 'Main Branch'],
      ['Morphine Sulphate 10mg', 'Westlands Branch'],
      ['Pethidine 50mg', 'Main Branch'],
    ]);
    expect(report.total).toBe(3);

    const mainReg = find(report, morphine, main);
    expect(mainReg.openingBalance).toBe(0);
    expect(mainReg.lines.map((l) => [l.kind, l.received, l.issued, l.balance])).toEqual([
      ['opening', 20, 0, 20],
      ['receipt', 30, 0, 50],
      ['dispensing', 0, 5, 45],
      ['dispensing', 0, 3, 42],
      ['customer_return', 2, 0, 44],
      ['adjustment', 0, 1, 43],
      ['transfer_out', 0, 4, 39],
    ]);
    expect(mainReg).toMatchObject({ totalReceived: 52, totalIssued: 13, closingBalance: 39, lineCount: 7, truncated: false });
    const [, receipt, sale] = mainReg.lines;
    expect(receipt).toMatchObject({ supplierName: 'Harleys Ltd', invoiceNumber: 'HARL-881', batchNumber: 'MOR-B', enteredBy: 'owner dda_ph', date: daysFromToday(0) });
    expect(sale).toMatchObject({
      invoiceNumber: firstSale.invoiceNumber,
      batchNumber: 'MOR-A',
      enteredBy: 'cashier dda_ph',
      dispensing: {
        invoiceNumber: firstSale.invoiceNumber,
        patientName: 'Jane Wanjiku',
        patientPhone: '254712345678',
        patientAddress: 'Nairobi, Moi Avenue 1',
        patientId: '12345678',
        prescriber: 'Dr. Otieno',
        prescriberLicence: 'KMPDC-77',
        hospital: 'Kenyatta National Hospital',
        prescriptionNumber: 'RX-100',
      },
    });
    expect(mainReg.lines[3]!.dispensing).toMatchObject({ prescriber: 'Dr. Achieng', hospital: 'Aga Khan Hospital', prescriptionNumber: null });
    expect(mainReg.lines[4]).toMatchObject({ invoiceNumber: firstSale.invoiceNumber, dispensing: { patientName: 'Jane Wanjiku' } });
    expect(mainReg.lines[4]!.returnNumber).toMatch(/^RET-/);
    expect(mainReg.lines[5]!.reason).toContain('broken ampoule');
    expect(mainReg.lines[5]!.enteredBy).toBe('inventory dda_ph');
    expect(mainReg.lines[6]).toMatchObject({ otherBranchName: 'Westlands Branch' });

    const westReg = find(report, morphine, west);
    expect(westReg.lines.map((l) => [l.kind, l.received, l.issued, l.balance, l.otherBranchName])).toEqual([['transfer_in', 4, 0, 4, 'Main Branch']]);
    expect(westReg.closingBalance).toBe(4);

    // The closing balances are the stock on hand: per branch and product, and per batch.
    const stock = await t.db.owner.query<{ branch_id: string; product_id: string; on_hand: number }>(
      `SELECT bp.branch_id, bp.product_id, bp.quantity + bp.reserved_quantity AS on_hand
         FROM branch_products bp JOIN products p ON p.pharmacy_id = bp.pharmacy_id AND p.id = bp.product_id AND p.is_dda
        WHERE bp.pharmacy_id = $1`,
      [ph.pharmacyId],
    );
    expect(stock.length).toBe(4);
    // A drug a branch never held (pethidine at Westlands) has no register: its balance is nil.
    for (const row of stock) {
      const reg = report.registers.find((r) => r.productId === row.product_id && r.branchId === row.branch_id);
      expect(reg?.closingBalance ?? 0, `${row.product_id} in ${row.branch_id}`).toBe(row.on_hand);
    }
    expect(stock.filter((row) => row.on_hand > 0).length).toBe(3);
    const batches = await t.db.owner.query<{ id: string; branch_id: string; product_id: string; on_hand: number }>(
      `SELECT b.id, b.branch_id, b.product_id, b.quantity + b.reserved_quantity AS on_hand
         FROM batches b JOIN products p ON p.pharmacy_id = b.pharmacy_id AND p.id = b.product_id AND p.is_dda WHERE b.pharmacy_id = $1`,
      [ph.pharmacyId],
    );
    for (const b of batches) {
      const summary = find(report, b.product_id, b.branch_id).batches.find((x) => x.batchId === b.id);
      expect(summary?.closingBalance ?? 0, `batch ${b.id}`).toBe(b.on_hand);
    }
    expect(mainReg.batches.map((b) => [b.batchNumber, b.openingBalance, b.totalReceived, b.totalIssued, b.closingBalance])).toEqual([
      ['MOR-A', 0, 22, 13, 9],
      ['MOR-B', 0, 30, 0, 30],
    ]);
    // Each line's batch balance runs too: the last line of each batch ends on its closing balance.
    for (const b of mainReg.batches) expect(mainReg.lines.filter((l) => l.batchId === b.batchId).at(-1)!.batchBalance).toBe(b.closingBalance);
    // The register's running balance is the ledger's own quantity after each movement.
    const ledger = await t.db.owner.query<{ id: string; quantity_after: number }>(`SELECT id, quantity_after FROM stock_movements WHERE pharmacy_id = $1 AND product_id = $2 AND branch_id = $3`, [
      ph.pharmacyId,
      morphine,
      main,
    ]);
    const after = new Map(ledger.map((m) => [m.id, m.quantity_after]));
    for (const line of mainReg.lines) expect(line.balance).toBe(after.get(line.movementId));
  });

  it('opens with the balance carried from before the range, and a range in the past closes on its own balance', async () => {
    const recent = await register(`from=${daysFromToday(-3)}&to=${daysFromToday(0)}&branchId=${main}`);
    expect(recent.registers.map((r) => r.productName)).toEqual(['Morphine Sulphate 10mg', 'Pethidine 50mg']);
    const mainReg = find(recent, morphine, main);
    expect(mainReg.openingBalance).toBe(20);
    expect(mainReg.lines[0]).toMatchObject({ kind: 'receipt', balance: 50 });
    expect(mainReg).toMatchObject({ totalReceived: 32, totalIssued: 13, closingBalance: 39 });
    expect(mainReg.batches.find((b) => b.batchNumber === 'MOR-A')).toMatchObject({ openingBalance: 20, closingBalance: 9 });
    // A drug that did not move in the range still shows its balance brought forward.
    expect(find(recent, pethidine, main)).toMatchObject({ openingBalance: 6, lines: [], closingBalance: 6 });

    const past = await register(`from=${daysFromToday(-15)}&to=${daysFromToday(-5)}`);
    expect(find(past, morphine, main)).toMatchObject({ openingBalance: 0, totalReceived: 20, totalIssued: 0, closingBalance: 20, lineCount: 1 });
    expect(past.registers.some((r) => r.branchId === west)).toBe(false);

    const onlyMorphine = await register(`from=${daysFromToday(-15)}&to=${daysFromToday(0)}&productId=${morphine}`);
    expect(onlyMorphine.registers.map((r) => r.branchName)).toEqual(['Main Branch', 'Westlands Branch']);
    // Paged by register.
    const page2 = await register(`from=${daysFromToday(-15)}&to=${daysFromToday(0)}&pageSize=2&page=2`);
    expect(page2).toMatchObject({ total: 3, page: 2, pageSize: 2 });
    expect(page2.registers.map((r) => r.productName)).toEqual(['Pethidine 50mg']);
  });

  it('refuses bad ranges with clear sentences, another pharmacy’s branch or product with 404, and callers without report:advanced', async () => {
    const range = `from=${daysFromToday(-15)}&to=${daysFromToday(0)}`;
    const backwards = await c.owner!.get(`/api/reports/dda?from=${daysFromToday(0)}&to=${daysFromToday(-1)}`);
    expect(backwards.status).toBe(400);
    expect(backwards.body.error.message).toBe('The start date must be on or before the end date.');
    const long = await c.owner!.get(`/api/reports/dda?from=2019-01-01&to=2025-06-30`);
    expect(long.status).toBe(400);
    expect(long.body.error.message).toBe('The date range cannot be longer than 5 years. Choose a shorter range.');
    const missing = await c.owner!.get(`/api/reports/dda?to=${daysFromToday(0)}`);
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toBe('Enter the start date.');
    const notADate = await c.owner!.get(`/api/reports/dda?from=2026-02-30&to=${daysFromToday(0)}`);
    expect(notADate.status).toBe(400);
    expect(notADate.body.error.message).toBe('The start date must be a real date (YYYY-MM-DD).');

    expect((await c.owner!.get(`/api/reports/dda?${range}&branchId=${other.branches[0]!.id}`)).status).toBe(404);
    expect((await c.owner!.get(`/api/reports/dda?${range}&branchId=${randomUUID()}`)).status).toBe(404);
    const foreignProduct = await otherOwner.post('/api/products', { name: 'Foreign Morphine', isDda: true, sellingPriceCents: 100 });
    expect((await c.owner!.get(`/api/reports/dda?${range}&productId=${foreignProduct.body.product.id}`)).status).toBe(404);
    // Another pharmacy never sees these registers.
    const theirs = await register(range, otherOwner);
    expect(theirs).toMatchObject({ registers: [], total: 0 });

    const cashier = await c.cashier!.get(`/api/reports/dda?${range}`);
    expect(cashier.status).toBe(403);
    expect((await c.manager!.get(`/api/reports/dda?${range}`)).status).toBe(403);
  });
});
