import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdjustmentReasonType } from '@pharmapoint/domain/stock';
import { AppError } from '../src/platform/errors.ts';
import type { Queryable } from '../src/db/database.ts';
import type { RequestContext } from '../src/platform/context.ts';
import { createAdjustment } from '../src/modules/stock/adjustments.service.ts';
import { applyStockChange, type StockChange } from '../src/modules/stock/stock.service.ts';
import { approveTransfer, cancelTransfer, createTransfer, dispatchTransfer, receiveTransfer } from '../src/modules/stock/transfers.service.ts';
import { createTestApp, type TestApp } from './app.ts';
import { testDatabaseKinds } from './database.ts';
import type { StockPharmacy } from './import-helpers.ts';
import { daysFromToday, ledgerProblems, ownerContext, pickWeighted, prng, stockTestPharmacy, withToday } from './stock-helpers.ts';


const SEED = Number(process.env.LEDGER_SEED ?? 20261122);
const OPERATIONS = Number(process.env.LEDGER_OPERATIONS ?? 300);
/** Refusals a random operation may meet; anything else fails the test. */
const EXPECTED_REFUSALS = new Set(['INSUFFICIENT_STOCK', 'TRANSFER_INVALID_STATE', 'TRANSFER_RECEIVE_TOO_MANY', 'VALIDATION_FAILED']);

describe.each(testDatabaseKinds())('stock ledger property (seed %s)'.replace('%s', String(SEED)) + ' on %s', (kind) => {
  let t: TestApp;
  let ph: StockPharmacy;
  const products: string[] = [];

  beforeAll(async () => {
    t = await createTestApp(kind);
    ph = await stockTestPharmacy(t.db, 'ledger_ph', ['owner']);
    for (const name of ['Metformin 500mg Tablets', 'Salbutamol Inhaler 100mcg', 'ORS Sachets']) {
      const [row] = await t.db.owner.query<{ id: string }>(`INSERT INTO products (pharmacy_id, name) VALUES ($1, $2) RETURNING id`, [ph.pharmacyId, name]);
      products.push(row!.id);
    }
  });
  afterAll(async () => t?.close());

  const totals = async () =>
    (
      await t.db.owner.query<{ s: string | null }>(
        `SELECT (SELECT COALESCE(sum(quantity + reserved_quantity), 0) FROM branch_products WHERE pharmacy_id = $1)::text || '/' ||
                (SELECT count(*) FROM stock_movements WHERE pharmacy_id = $1)::text AS s`,
        [ph.pharmacyId],
      )
    )[0]!.s;

  it(`keeps ledger sums equal to the stock on hand through ${OPERATIONS} random operations`, async () => {
    const random = prng(SEED);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
    const int = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
    const branches = ph.branches.map((b) => b.id);
    const owner = ownerContext(ph);
    const scope = { pharmacyId: ph.pharmacyId, userId: ph.users.owner! };
    // Each operation is one transaction with the request's clock, as the HTTP routes run them.
    const run = <T>(work: (q: Queryable, ctx: RequestContext & { today: string }) => Promise<T>) => t.db.transaction(scope, (q) => work(q, withToday({ ...owner, now: new Date() })));
    const openTransfers: string[] = [];
    const counts: Record<string, number> = {};
    const refusals: Record<string, number> = {};
    const seenStatuses = new Set<string>();

    const batchesOf = async (branchId: string, productId: string) =>
      t.db.owner.query<{ id: string; quantity: number; reserved_quantity: number }>(
        `SELECT id, quantity, reserved_quantity FROM batches WHERE pharmacy_id = $1 AND branch_id = $2 AND product_id = $3`,
        [ph.pharmacyId, branchId, productId],
      );
    const ledger = (change: StockChange) => run((q, ctx) => applyStockChange(q, ctx, change));

    const operations: Record<string, () => Promise<unknown>> = {
      receipt: () =>
        ledger({
          kind: pick(['purchase_receipt', 'opening', 'import'] as const),
          branchId: pick(branches),
          productId: pick(products),
          delta: int(1, 30),
          // Few batch numbers, so receipts often add to an existing batch; some already expired.
          batch: { batchNumber: `B${int(1, 4)}`, expiryDate: daysFromToday(pick([-20, 15, 60, 365])), unitCostCents: pick([1000, 1200]) },
          reason: 'Receipt',
        }),
      sale: () => ledger({ kind: 'sale', branchId: pick(branches), productId: pick(products), delta: -int(1, 15), reason: 'Sale' }),
      saleReturn: () => ledger({ kind: 'sale_return', branchId: pick(branches), productId: pick(products), delta: int(1, 3), reason: 'Return' }),
      reserve: () => ledger({ kind: 'reserve', branchId: pick(branches), productId: pick(products), quantity: int(1, 8), reason: 'Reserve' }),
      release: () => ledger({ kind: 'release', branchId: pick(branches), productId: pick(products), quantity: int(1, 6), reason: 'Release' }),
      reservedSold: () => ledger({ kind: 'reserved_sold', branchId: pick(branches), productId: pick(products), delta: -int(1, 5), reason: 'Sold' }),
      adjustment: async () => {
        const branchId = pick(branches);
        const productId = pick(products);
        const named = random() < 0.4 ? pick(await batchesOf(branchId, productId)) : undefined;
        const delta = random() < 0.5 ? -int(1, 12) : int(1, 12);
        return run((q, ctx) => createAdjustment(q, ctx, {
          branchId,
          reason: 'Random adjustment',
          items: [{ productId, delta, reasonType: pick<AdjustmentReasonType>(['count_correction', 'damage', 'expiry_write_off', 'other']), ...(named ? { batchId: named.id } : {}) }],
        }));
      },
      transferRequest: async () => {
        const from = pick(branches);
        const to = branches.find((b) => b !== from)!;
        const transfer = await run((q, ctx) => createTransfer(q, ctx, { fromBranchId: from, toBranchId: to, items: [{ productId: pick(products), quantity: int(1, 10) }] }));
        openTransfers.push(transfer.id);
        return transfer;
      },
      transferStep: async () => {
        if (openTransfers.length === 0) return null;
        const id = pick(openTransfers);
        const roll = random();
        if (roll < 0.15) {
          openTransfers.splice(openTransfers.indexOf(id), 1);
          return run((q, ctx) => cancelTransfer(q, ctx, id));
        }
        const [row] = await t.db.owner.query<{ status: string }>(`SELECT status FROM stock_transfers WHERE pharmacy_id = $1 AND id = $2`, [ph.pharmacyId, id]);
        if (row!.status === 'requested') return run((q, ctx) => approveTransfer(q, ctx, id));
        if (row!.status === 'approved') return run((q, ctx) => dispatchTransfer(q, ctx, id));
        const items = await t.db.owner.query<{ id: string; open: number }>(
          `SELECT id, quantity_dispatched - quantity_received - quantity_returned AS open FROM stock_transfer_items WHERE pharmacy_id = $1 AND transfer_id = $2`,
          [ph.pharmacyId, id],
        );
        if (roll < 0.5) {
          openTransfers.splice(openTransfers.indexOf(id), 1);
          return run((q, ctx) => receiveTransfer(q, ctx, id, {}));
        }
        // A partial receipt (sometimes asking for one too many, which must be refused).
        return run((q, ctx) =>
          receiveTransfer(q, ctx, id, { items: items.map((i) => ({ itemId: i.id, quantityReceived: Math.min(i.open + (random() < 0.1 ? 1 : 0), int(0, i.open + 1)) })) }),
        );
      },
    };
    const weights: [string, number][] = [
      ['receipt', 5],
      ['sale', 4],
      ['saleReturn', 1],
      ['reserve', 2],
      ['release', 2],
      ['reservedSold', 1],
      ['adjustment', 3],
      ['transferRequest', 2],
      ['transferStep', 4],
    ];

    for (let step = 0; step < OPERATIONS; step += 1) {
      const name = pickWeighted(random, weights);
      const before = await totals();
      try {
        const result = await operations[name]!();
        counts[name] = (counts[name] ?? 0) + 1;
        if (result && typeof result === 'object' && 'status' in result) seenStatuses.add(String(result.status));
      } catch (error) {
        if (!(error instanceof AppError) || !EXPECTED_REFUSALS.has(error.code)) throw new Error(`step ${step} (${name}, seed ${SEED}): ${String(error)}`);
        refusals[error.code] = (refusals[error.code] ?? 0) + 1;
        // A refused operation writes nothing.
        expect(await totals(), `step ${step} (${name}) refused but wrote`).toBe(before);
      }
      const problems = await ledgerProblems(t.db, ph.pharmacyId);
      expect(problems, `step ${step} (${name}, seed ${SEED})`).toEqual([]);
    }

    // The sequence did exercise everything, including refusals and every transfer state.
    for (const [name] of weights) expect(counts[name] ?? 0, name).toBeGreaterThan(0);
    expect(refusals.INSUFFICIENT_STOCK ?? 0).toBeGreaterThan(0);
    expect([...seenStatuses]).toEqual(expect.arrayContaining(['requested', 'approved', 'dispatched', 'partially_received', 'received', 'cancelled']));
    // Some cancellations came after dispatch, returning stock to the source.
    const returned = await t.db.owner.query(`SELECT 1 FROM stock_transfer_items WHERE pharmacy_id = $1 AND quantity_returned > 0`, [ph.pharmacyId]);
    expect(returned.length).toBeGreaterThan(0);
    const kinds = await t.db.owner.query<{ kind: string }>(`SELECT DISTINCT kind FROM stock_movements WHERE pharmacy_id = $1`, [ph.pharmacyId]);
    expect(kinds.map((k) => k.kind)).toEqual(
      expect.arrayContaining(['purchase_receipt', 'sale', 'reserve', 'release', 'reserved_sold', 'adjustment', 'transfer_out', 'transfer_in']),
    );
    // Expired stock never left through a sale, reservation or transfer.
    const expiredTaken = await t.db.owner.query(
      `SELECT m.id FROM stock_movements m JOIN batches b ON b.pharmacy_id = m.pharmacy_id AND b.id = m.batch_id
        WHERE m.pharmacy_id = $1 AND m.kind IN ('sale', 'reserve', 'transfer_out') AND b.expiry_date < (now() AT TIME ZONE 'Africa/Nairobi')::date`,
      [ph.pharmacyId],
    );
    expect(expiredTaken).toEqual([]);
  });
});
