import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adjustmentListResponseSchema, adjustmentSchema, branchSummaryResponseSchema, transferSchema } from '@pharmapoint/domain/stock';
import { createTestApp, type TestApp } from './app.ts';
import { testDatabaseKinds } from './database.ts';
import { receiveThenExpire } from './expired-batches.ts';
import type { TestClient } from './http.ts';
import type { StockPharmacy } from './import-helpers.ts';
import { clientsOf, daysFromToday, ledgerProblems, stockTestPharmacy } from './stock-helpers.ts';

describe.each(testDatabaseKinds())('stock adjustments, transfers and summary on %s', (kind) => {
  let t: TestApp;
  let ph: StockPharmacy;
  let other: StockPharmacy;
  let c: Record<string, TestClient>;
  let otherOwner: TestClient;
  let main: string;
  let west: string;
  let amox: string;
  let batch: Record<string, string>;

  beforeAll(async () => {
    t = await createTestApp(kind);
    ph = await stockTestPharmacy(t.db, 'stock_ph');
    other = await stockTestPharmacy(t.db, 'stock_other', ['owner']);
    c = await clientsOf(t, ph);
    otherOwner = (await clientsOf(t, other)).owner!;
    main = ph.branches[0]!.id;
    west = ph.branches[1]!.id;
    const created = await c.owner!.post('/api/products', { name: 'Amoxicillin 250mg Suspension', sku: 'AMX-250', sellingPriceCents: 25_000, purchasePriceCents: 15_000 });
    amox = created.body.product.id;
    batch = {};
    // Three batches in Main: one expired, one expiring soon, one late.
    for (const [number, days, quantity, cost] of [
      ['OLD', -10, 5, 14_000],
      ['SOON', 20, 6, 15_000],
      ['LATE', 400, 10, 16_000],
    ] as const) {
      const r =
        days < 0
          ? await receiveThenExpire(t.db, c.owner!, ph.pharmacyId, amox, { batchNumber: number, quantity, unitCostCents: cost }, days)
          : await c.owner!.post(`/api/products/${amox}/batches`, { batchNumber: number, expiryDate: daysFromToday(days), quantity, unitCostCents: cost });
      expect(r.status).toBe(201);
      batch[number] = r.body.batch.id;
    }
  });
  afterAll(async () => t?.close());

  const batchQty = async (id: string) =>
    (await t.db.owner.query<{ quantity: number }>(`SELECT quantity FROM batches WHERE pharmacy_id = $1 AND id = $2`, [ph.pharmacyId, id]))[0]?.quantity;
  const stockOf = async (branchId: string, productId = amox) =>
    (
      await t.db.owner.query<{ quantity: number; reserved_quantity: number }>(
        `SELECT quantity, reserved_quantity FROM branch_products WHERE pharmacy_id = $1 AND branch_id = $2 AND product_id = $3`,
        [ph.pharmacyId, branchId, productId],
      )
    )[0];
  const count = async (table: string) =>
    (await t.db.owner.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE pharmacy_id = $1`, [ph.pharmacyId]))[0]!.n;

  it('shows expired batches as such: counted on hand, not sellable', async () => {
    const detail = (await c.owner!.get(`/api/products/${amox}`)).body;
    const mainRow = detail.branches.find((b: { branchId: string }) => b.branchId === main);
    expect(mainRow).toMatchObject({ quantity: 21, expiredQuantity: 5, nearestExpiry: daysFromToday(20) });
    expect(detail.batches.find((b: { id: string }) => b.id === batch.OLD)).toMatchObject({ isExpired: true, daysToExpiry: -10 });
  });

  describe('adjustments', () => {
    it('writes off an expired batch and corrects a count, each line a ledger movement', async () => {
      const res = await c.inventory!.post('/api/stock/adjustments', {
        reason: 'Monthly count',
        items: [
          { productId: amox, batchId: batch.OLD, delta: -2, reasonType: 'expiry_write_off', note: 'Shelf 3' },
          { productId: amox, delta: 1, reasonType: 'count_correction' },
        ],
      });
      expect(res.status).toBe(201);
      const adj = adjustmentSchema.parse(res.body);
      expect(adj).toMatchObject({ branchId: main, reason: 'Monthly count', userId: ph.users.inventory });
      expect(adj.items.map((i) => [i.delta, i.reasonType, i.batchNumber])).toEqual([
        [-2, 'expiry_write_off', 'OLD'],
        [1, 'count_correction', null],
      ]);
      expect(await batchQty(batch.OLD!)).toBe(3);
      // A positive correction without a batch goes to the latest-expiring unexpired batch.
      expect(await batchQty(batch.LATE!)).toBe(11);
      const moves = await t.db.owner.query<{ kind: string; reference_type: string; reference_id: string }>(
        `SELECT kind, reference_type, reference_id FROM stock_movements WHERE pharmacy_id = $1 AND reference_id = $2`,
        [ph.pharmacyId, adj.id],
      );
      expect(moves).toHaveLength(2);
      expect(moves.every((m) => m.kind === 'adjustment' && m.reference_type === 'stock_adjustment')).toBe(true);
      expect(await ledgerProblems(t.db, ph.pharmacyId)).toEqual([]);
    });

    it('creates a batch for a positive adjustment with a batch number and expiry', async () => {
      const res = await c.inventory!.post('/api/stock/adjustments', {
        branchId: west,
        reason: 'Found stock',
        items: [{ productId: amox, delta: 4, reasonType: 'other', batchNumber: 'FOUND-1', expiryDate: daysFromToday(90) }],
      });
      expect(res.status).toBe(201);
      const [b] = await t.db.owner.query<{ quantity: number; unit_cost_cents: string; source: string }>(
        `SELECT quantity, unit_cost_cents, source FROM batches WHERE pharmacy_id = $1 AND branch_id = $2 AND batch_number = 'FOUND-1'`,
        [ph.pharmacyId, west],
      );
      expect({ ...b, unit_cost_cents: Number(b!.unit_cost_cents) }).toEqual({ quantity: 4, unit_cost_cents: 15_000, source: 'adjustment' });
    });

    it('refuses an adjustment that would make stock negative: 409 with the message, nothing written (all lines or none)', async () => {
      const before = { adjustments: await count('stock_adjustments'), movements: await count('stock_movements'), late: await batchQty(batch.LATE!) };
      const res = await c.inventory!.post('/api/stock/adjustments', {
        reason: 'Damage',
        items: [
          { productId: amox, batchId: batch.LATE, delta: -1, reasonType: 'damage' },
          { productId: amox, batchId: batch.SOON, delta: -7, reasonType: 'damage' },
        ],
      });
      expect(res.status).toBe(409);
      expect(res.body.error).toMatchObject({
        code: 'INSUFFICIENT_STOCK',
        message: 'Insufficient stock for Amoxicillin 250mg Suspension. Available: 6, Requested: 7',
      });
      expect({ adjustments: await count('stock_adjustments'), movements: await count('stock_movements'), late: await batchQty(batch.LATE!) }).toEqual(before);
      const total = await c.inventory!.post('/api/stock/adjustments', { reason: 'x', items: [{ productId: amox, delta: -1000, reasonType: 'count_correction' }] });
      expect(total.body.error.message).toBe('Insufficient stock for Amoxicillin 250mg Suspension. Available: 20, Requested: 1000');
    });

    it('refuses bad adjustments with 400/403/404', async () => {
      const post = (client: TestClient, body: unknown) => client.post('/api/stock/adjustments', body);
      for (const delta of [0, 1.5, '3']) {
        expect((await post(c.inventory!, { reason: 'x', items: [{ productId: amox, delta, reasonType: 'damage' }] })).status).toBe(400);
      }
      expect((await post(c.inventory!, { reason: 'x', items: [] })).status).toBe(400);
      expect((await post(c.inventory!, { reason: 'x', items: [{ productId: amox, delta: 1, reasonType: 'theft' }] })).status).toBe(400);
      expect((await post(c.inventory!, { reason: 'x', items: [{ productId: '00000000-0000-4000-8000-000000000000', delta: 1, reasonType: 'damage' }] })).status).toBe(404);
      expect((await post(c.inventory!, { branchId: other.branches[0]!.id, reason: 'x', items: [{ productId: amox, delta: 1, reasonType: 'damage' }] })).status).toBe(404);
      expect((await post(c.inventory!, { reason: 'x', items: [{ productId: amox, batchId: '00000000-0000-4000-8000-000000000000', delta: -1, reasonType: 'damage' }] })).status).toBe(404);
      expect((await post(c.cashier!, { reason: 'x', items: [{ productId: amox, delta: 1, reasonType: 'damage' }] })).status).toBe(403);
      expect((await post(otherOwner, { reason: 'x', items: [{ productId: amox, delta: 1, reasonType: 'damage' }] })).status).toBe(404);
    });

    it('lists adjustments with their lines and shows one; 404 across tenants', async () => {
      const list = adjustmentListResponseSchema.parse((await c.manager!.get('/api/stock/adjustments')).body);
      expect(list.total).toBe(2);
      expect(list.items[0]!.reason).toBe('Found stock');
      expect((await c.manager!.get(`/api/stock/adjustments?branchId=${west}`)).body.total).toBe(1);
      expect((await c.manager!.get('/api/stock/adjustments?reasonType=expiry_write_off')).body.total).toBe(1);
      expect((await c.manager!.get(`/api/stock/adjustments?productId=${amox}&from=${daysFromToday(-1)}`)).body.total).toBe(2);
      const one = await c.manager!.get(`/api/stock/adjustments/${list.items[1]!.id}`);
      expect(one.status).toBe(200);
      expect(one.body.items).toHaveLength(2);
      expect((await otherOwner.get(`/api/stock/adjustments/${list.items[1]!.id}`)).status).toBe(404);
      expect((await c.cashier!.get('/api/stock/adjustments')).status).toBe(403);
    });
  });

  describe('transfers', () => {
    it('refuses a transfer to the same branch, unknown branches and products, and more than the sellable stock', async () => {
      const same = await c.inventory!.post('/api/stock/transfers', { fromBranchId: main, toBranchId: main, items: [{ productId: amox, quantity: 1 }] });
      expect(same.status).toBe(400);
      expect(same.body.error).toMatchObject({ code: 'SAME_BRANCH_TRANSFER', message: 'Choose a different destination branch.' });
      const otherBranch = other.branches[0]!.id;
      expect((await c.inventory!.post('/api/stock/transfers', { fromBranchId: main, toBranchId: otherBranch, items: [{ productId: amox, quantity: 1 }] })).status).toBe(404);
      expect((await c.inventory!.post('/api/stock/transfers', { fromBranchId: main, toBranchId: west, items: [{ productId: otherBranch, quantity: 1 }] })).status).toBe(404);
      for (const quantity of [0, -2, 1.5]) {
        expect((await c.inventory!.post('/api/stock/transfers', { fromBranchId: main, toBranchId: west, items: [{ productId: amox, quantity }] })).status).toBe(400);
      }
      // 3 of the 20 on hand are expired: 17 can travel.
      const tooMany = await c.inventory!.post('/api/stock/transfers', { fromBranchId: main, toBranchId: west, items: [{ productId: amox, quantity: 18 }] });
      expect(tooMany.status).toBe(409);
      expect(tooMany.body.error.message).toBe('Insufficient stock for Amoxicillin 250mg Suspension. Available: 17, Requested: 18');
      const expired = await c.inventory!.post('/api/stock/transfers', { fromBranchId: main, toBranchId: west, items: [{ productId: amox, quantity: 1, batchId: batch.OLD }] });
      expect(expired.status).toBe(409);
      expect((await c.cashier!.post('/api/stock/transfers', { fromBranchId: main, toBranchId: west, items: [{ productId: amox, quantity: 1 }] })).status).toBe(403);
      expect(await count('stock_transfers')).toBe(0);
    });

    it('runs request, approve, dispatch (FEFO, batches recorded), partial receipt and the rest', async () => {
      const created = await c.inventory!.post('/api/stock/transfers', { fromBranchId: main, toBranchId: west, note: 'Weekend cover', items: [{ productId: amox, quantity: 9 }] });
      expect(created.status).toBe(201);
      const tr = transferSchema.parse(created.body);
      expect(tr).toMatchObject({ status: 'requested', fromBranchName: 'Main Branch', toBranchName: 'Westlands Branch', requested: { userId: ph.users.inventory } });
      // Dispatch before approval is refused; inventory staff may not approve.
      const early = await c.inventory!.post(`/api/stock/transfers/${tr.id}/dispatch`, {});
      expect(early.status).toBe(409);
      expect(early.body.error).toMatchObject({ code: 'TRANSFER_INVALID_STATE', message: 'This transfer cannot be dispatched now: it is requested.' });
      expect((await c.inventory!.post(`/api/stock/transfers/${tr.id}/approve`, {})).status).toBe(403);
      const approved = await c.owner!.post(`/api/stock/transfers/${tr.id}/approve`, {});
      expect(approved.body).toMatchObject({ status: 'approved', approved: { userId: ph.users.owner } });
      expect((await c.owner!.post(`/api/stock/transfers/${tr.id}/receive`, {})).status).toBe(409);

      const dispatched = transferSchema.parse((await c.inventory!.post(`/api/stock/transfers/${tr.id}/dispatch`, {})).body);
      expect(dispatched.status).toBe('dispatched');
      // FEFO: the 6 of SOON, then 3 of LATE; the expired batch stays.
      expect(dispatched.items.map((i) => [i.batchNumber, i.expiryDate, i.unitCostCents, i.quantityRequested, i.quantityDispatched])).toEqual([
        ['SOON', daysFromToday(20), 15_000, 6, 6],
        ['LATE', daysFromToday(400), 16_000, 3, 3],
      ]);
      expect(await batchQty(batch.SOON!)).toBe(0);
      expect(await batchQty(batch.LATE!)).toBe(8);
      expect(await batchQty(batch.OLD!)).toBe(3);
      expect(await stockOf(main)).toEqual({ quantity: 11, reserved_quantity: 0 });

      const soonLine = dispatched.items[0]!;
      const lateLine = dispatched.items[1]!;
      const tooMuch = await c.inventory!.post(`/api/stock/transfers/${tr.id}/receive`, { items: [{ itemId: soonLine.id, quantityReceived: 7 }] });
      expect(tooMuch.status).toBe(400);
      expect(tooMuch.body.error.message).toBe('Cannot receive 7 of Amoxicillin 250mg Suspension: only 6 in transit.');
      // The till on a bad connection sends the partial receipt twice with one Idempotency-Key: it counts once.
      const receiveFour = () =>
        c.inventory!.request('POST', `/api/stock/transfers/${tr.id}/receive`, { items: [{ itemId: soonLine.id, quantityReceived: 4 }] }, {
          'idempotency-key': `receive-${tr.id}`,
        });
      const first = await receiveFour();
      const retried = await receiveFour();
      expect(retried.status).toBe(200);
      expect(retried.headers['idempotent-replayed']).toBe('true');
      expect(retried.body).toEqual(first.body);
      const partial = transferSchema.parse(first.body);
      expect(partial.status).toBe('partially_received');
      const westBatches = await t.db.owner.query<{ batch_number: string; expiry: string; unit_cost_cents: string; quantity: number }>(
        `SELECT batch_number, to_char(expiry_date, 'YYYY-MM-DD') AS expiry, unit_cost_cents, quantity FROM batches
          WHERE pharmacy_id = $1 AND branch_id = $2 AND product_id = $3 AND source = 'transfer' ORDER BY batch_number`,
        [ph.pharmacyId, west, amox],
      );
      expect(westBatches.map((b) => [b.batch_number, b.expiry, Number(b.unit_cost_cents), b.quantity])).toEqual([['SOON', daysFromToday(20), 15_000, 4]]);

      const rest = transferSchema.parse((await c.inventory!.post(`/api/stock/transfers/${tr.id}/receive`, {})).body);
      expect(rest.status).toBe('received');
      expect(rest.items.map((i) => i.quantityReceived)).toEqual([6, 3]);
      expect(rest.received.userId).toBe(ph.users.inventory);
      expect((await stockOf(west))!.quantity).toBe(4 + 9);
      expect((await c.owner!.post(`/api/stock/transfers/${tr.id}/cancel`, {})).status).toBe(409);
      expect(lateLine.batchId).toBe(batch.LATE);
      const moves = await t.db.owner.query<{ kind: string; n: number; total: number }>(
        `SELECT kind, count(*)::int AS n, sum(delta)::int AS total FROM stock_movements WHERE pharmacy_id = $1 AND reference_id = $2 GROUP BY kind ORDER BY kind`,
        [ph.pharmacyId, tr.id],
      );
      expect(moves).toEqual([
        { kind: 'transfer_in', n: 3, total: 9 },
        { kind: 'transfer_out', n: 2, total: -9 },
      ]);
      expect(await ledgerProblems(t.db, ph.pharmacyId)).toEqual([]);
    });

    it('cancel before dispatch moves nothing; cancel after a partial receipt returns the rest to the source batches', async () => {
      const first = (await c.inventory!.post('/api/stock/transfers', { fromBranchId: main, toBranchId: west, items: [{ productId: amox, quantity: 2 }] })).body;
      const movementsBefore = await count('stock_movements');
      const cancelled = await c.inventory!.post(`/api/stock/transfers/${first.id}/cancel`, {});
      expect(cancelled.body).toMatchObject({ status: 'cancelled', cancelled: { userId: ph.users.inventory } });
      expect(await count('stock_movements')).toBe(movementsBefore);
      expect((await c.owner!.post(`/api/stock/transfers/${first.id}/approve`, {})).status).toBe(409);

      const second = (await c.inventory!.post('/api/stock/transfers', { fromBranchId: main, toBranchId: west, items: [{ productId: amox, quantity: 5, batchId: batch.LATE }] })).body;
      await c.owner!.post(`/api/stock/transfers/${second.id}/approve`, {});
      const dispatched = (await c.inventory!.post(`/api/stock/transfers/${second.id}/dispatch`, {})).body;
      expect(dispatched.items).toHaveLength(1);
      expect(await batchQty(batch.LATE!)).toBe(3);
      await c.inventory!.post(`/api/stock/transfers/${second.id}/receive`, { items: [{ itemId: dispatched.items[0].id, quantityReceived: 2 }] });
      const westBefore = (await stockOf(west))!.quantity;
      const back = transferSchema.parse((await c.manager!.post(`/api/stock/transfers/${second.id}/cancel`, {})).body);
      expect(back.status).toBe('cancelled');
      expect(back.items[0]).toMatchObject({ quantityDispatched: 5, quantityReceived: 2, quantityReturned: 3 });
      expect(await batchQty(batch.LATE!)).toBe(6);
      expect((await stockOf(west))!.quantity).toBe(westBefore);
      expect(await ledgerProblems(t.db, ph.pharmacyId)).toEqual([]);
    });

    it('lists and shows transfers; 404 across tenants', async () => {
      const list = (await c.manager!.get('/api/stock/transfers')).body;
      expect(list.total).toBe(3);
      expect(list.items.map((i: { status: string }) => i.status)).toEqual(['cancelled', 'cancelled', 'received']);
      expect((await c.manager!.get('/api/stock/transfers?status=received')).body.total).toBe(1);
      const id = list.items[2].id;
      expect((await c.manager!.get(`/api/stock/transfers/${id}`)).body.id).toBe(id);
      for (const action of ['approve', 'dispatch', 'receive', 'cancel']) {
        expect((await otherOwner.post(`/api/stock/transfers/${id}/${action}`, {})).status).toBe(404);
      }
      expect((await otherOwner.get(`/api/stock/transfers/${id}`)).status).toBe(404);
      expect((await otherOwner.get('/api/stock/transfers')).body.total).toBe(0);
      expect((await c.cashier!.get('/api/stock/transfers')).status).toBe(403);
    });
  });

  it('summarises stock status and expiry per branch', async () => {
    const res = await c.manager!.get('/api/stock/branch-summary');
    expect(res.status).toBe(200);
    const summary = branchSummaryResponseSchema.parse(res.body);
    const m = summary.branches.find((b) => b.branchId === main)!;
    const w = summary.branches.find((b) => b.branchId === west)!;
    expect(m).toMatchObject({ good: 1, out: 0, low: 0, expiredBatches: 1, expiredQuantity: 3, nearExpiryBatches: 0 });
    // Westlands: SOON (6, in 20 days) is near expiry; FOUND-1 (90 days) and LATE are not.
    expect(w).toMatchObject({ good: 1, expiredBatches: 0, nearExpiryBatches: 1, nearExpiryQuantity: 6 });
    expect(summary.expiryAlertDays).toBe(30);
    // The dashboard's stock health card: product:read is enough (a cashier reads the same status in the product list).
    expect((await c.cashier!.get('/api/stock/branch-summary')).status).toBe(200);
    expect((await otherOwner.get('/api/stock/branch-summary')).body.branches.every((b: { good: number }) => b.good === 0)).toBe(true);
  });
});
