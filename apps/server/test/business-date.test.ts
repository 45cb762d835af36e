import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeCatalogue, type PosCatalogueItem } from '@pharmapoint/domain/pos-catalogue';
import { completeSaleSchema, type CompleteSaleInput } from '@pharmapoint/domain/sales';
import { expiringQuerySchema } from '@pharmapoint/domain/stock-reports';
import { businessDate, createAdjustmentSchema, createTransferSchema } from '@pharmapoint/domain/stock';
import type { Queryable } from '../src/db/database.ts';
import type { RequestContext } from '../src/platform/context.ts';
import { AppError } from '../src/platform/errors.ts';
import { branchCatalogue } from '../src/modules/pos/pos.service.ts';
import { completeSale } from '../src/modules/sales/sales.service.ts';
import { createAdjustment } from '../src/modules/stock/adjustments.service.ts';
import { expiringBatches } from '../src/modules/stock/reports.service.ts';
import { applyStockChange } from '../src/modules/stock/stock.service.ts';
import { approveTransfer, createTransfer, dispatchTransfer } from '../src/modules/stock/transfers.service.ts';
import { createTestApp, type TestApp } from './app.ts';
import { testDatabaseKinds } from './database.ts';
import type { StockPharmacy } from './import-helpers.ts';
import { clientsOf, ledgerProblems, ownerContext, stockTestPharmacy } from './stock-helpers.ts';

/**
 * One 'today' per pharmacy: the till's catalogue, the ledger (FEFO skipping expired batches, receiving into a batch)
 * and the sale count days in the pharmacy's own time zone, so near its midnight they agree about a batch expiring
 * on its today (still sellable) or on its yesterday (expired), whatever the day is in Nairobi.
 */
const cases = [
  // 23:30 on 15 January in New York (UTC-5): already 07:30 on the 16th in Nairobi.
  { zone: 'America/New_York', at: '2026-01-16T04:30:00.000Z', local: '23:30' },
  // 00:30 on 16 January in Tokyo (UTC+9): still 18:30 on the 15th in Nairobi.
  { zone: 'Asia/Tokyo', at: '2026-01-15T15:30:00.000Z', local: '00:30' },
] as const;

const dayBefore = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);

describe.each(testDatabaseKinds())('one business date per pharmacy on %s', (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => t?.close());

  describe.each(cases)('a pharmacy in $zone at $local local time', ({ zone, at }) => {
    const now = new Date(at);
    const today = businessDate(now, zone);
    const yesterday = dayBefore(today);
    let ph: StockPharmacy;
    let ctx: RequestContext;
    /** One batch of 5 expiring on the pharmacy's today: sellable until its day ends. */
    let fresh: string;
    /** One batch of 5 expiring on the pharmacy's yesterday: expired. */
    let stale: string;
    const batchOf: Record<string, string> = {};

    const run = <T>(work: (q: Queryable) => Promise<T>) => t.db.transaction({ pharmacyId: ph.pharmacyId, userId: ctx.userId }, work);
    /** 'accepted', or the code of the refusal of a use case run in a transaction of its own. */
    const refusal = async (work: (q: Queryable) => Promise<unknown>): Promise<string> => {
      try {
        await run(work);
      } catch (error) {
        if (error instanceof AppError) return error.code;
        throw error;
      }
      return 'accepted';
    };
    const catalogueItem = async (productId: string): Promise<PosCatalogueItem> => {
      const body = await run((q) => branchCatalogue(q, ctx, {}));
      const text = typeof body === 'string' ? body : body.body;
      return decodeCatalogue(JSON.parse(text)).find((i) => i.id === productId)!;
    };

    beforeAll(async () => {
      const id = `bd_${zone.replace('/', '_').toLowerCase()}`;
      ph = await stockTestPharmacy(t.db, id, ['owner']);
      const owner = (await clientsOf(t, ph)).owner!;
      // Nairobi's day is not the pharmacy's at this instant (that is the point of the test).
      expect(businessDate(now, 'Africa/Nairobi')).not.toBe(today);
      const current = (await owner.get('/api/settings')).body.settings;
      const saved = await owner.put('/api/settings', { ...current, timezone: zone });
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      ctx = { ...ownerContext(ph), now };
      const product = async (name: string, batch: string, expiryDate: string) => {
        const created = await owner.post('/api/products', { name, sellingPriceCents: 10_000, purchasePriceCents: 5000 });
        expect(created.status).toBe(201);
        const productId = created.body.product.id as string;
        // Stock put in before the day in question (the ledger takes in a batch whatever its expiry).
        const result = await run((q) =>
          applyStockChange(q, { ...ctx, today: dayBefore(yesterday) }, {
            kind: 'opening',
            branchId: ph.branches[0]!.id,
            productId,
            delta: 5,
            batch: { batchNumber: batch, expiryDate, unitCostCents: 5000 },
            reason: 'Opening stock',
          }),
        );
        batchOf[productId] = result.batches[0]!.batchId;
        return productId;
      };
      fresh = await product('Amoxicillin 250mg', 'FRESH', today);
      stale = await product('Paracetamol 500mg', 'STALE', yesterday);
    });

    it("the till's catalogue counts the batch of today sellable and the one of yesterday expired", async () => {
      expect(await catalogueItem(fresh)).toMatchObject({ quantity: 5, expiredQuantity: 0, nearestExpiry: today });
      expect(await catalogueItem(stale)).toMatchObject({ quantity: 0, expiredQuantity: 5, nearestExpiry: null });
    });

    it('the expiry report counts days from the same today', async () => {
      const report = await run((q) => expiringBatches(q, ctx, expiringQuerySchema.parse({ days: 30 })));
      expect(report.today).toBe(today);
    });

    it("the sale sells the batch of today on the pharmacy's date and refuses the expired one", async () => {
      const sell = (productId: string, quantity: number) => (q: Queryable) =>
        completeSale(q, ctx, completeSaleSchema.parse({
          id: randomUUID(),
          lines: [{ productId, quantity }],
          payments: [{ method: 'Cash', amountCents: quantity * 10_000 }],
        } satisfies CompleteSaleInput));
      const sale = await run(sell(fresh, 2));
      expect(sale.saleDate).toBe(today);
      expect(sale.isBackdated).toBe(false);
      expect(sale.lines[0]!.batches).toEqual([expect.objectContaining({ batchId: batchOf[fresh], quantity: 2 })]);
      expect(await refusal(sell(stale, 1))).toBe('SALE_STOCK_EXCEEDED');
    });

    it('the ledger (a transfer out, first expiry first out) takes the batch of today and skips the expired one', async () => {
      const transfer = (productId: string) => (q: Queryable) =>
        createTransfer(q, ctx, createTransferSchema.parse({ fromBranchId: ph.branches[0]!.id, toBranchId: ph.branches[1]!.id, items: [{ productId, quantity: 1 }] }));
      const created = await run(transfer(fresh));
      await run((q) => approveTransfer(q, ctx, created.id));
      const dispatched = await run((q) => dispatchTransfer(q, ctx, created.id));
      expect(dispatched.items).toEqual([expect.objectContaining({ batchId: batchOf[fresh], quantityDispatched: 1 })]);
      expect(await refusal(transfer(stale))).toBe('INSUFFICIENT_STOCK');
    });

    it('an adjustment receives into a batch expiring today and refuses one that expired yesterday', async () => {
      const receive = (expiryDate: string) => (q: Queryable) =>
        createAdjustment(q, ctx, createAdjustmentSchema.parse({
          branchId: ph.branches[0]!.id,
          reason: 'Found in the store room',
          items: [{ productId: fresh, delta: 1, reasonType: 'count_correction', batchNumber: `ADJ-${expiryDate}`, expiryDate, unitCostCents: 5000 }],
        }));
      expect(await refusal(receive(today))).toBe('accepted');
      expect(await refusal(receive(yesterday))).toBe('BATCH_EXPIRED');
      expect(await ledgerProblems(t.db, ph.pharmacyId)).toEqual([]);
    });
  });
});
