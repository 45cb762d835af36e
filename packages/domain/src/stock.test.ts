import { describe, expect, it } from 'vitest';
import {
  adjustmentFormSchema,
  allocateFefo,
  businessDate,
  canTransfer,
  createAdjustmentSchema,
  createTransferSchema,
  daysBetween,
  expiryStatus,
  isExpired,
  isSameBranchTransfer,
  nextTransferStatus,
  receiveTransferSchema,
  TRANSFER_STATUSES,
} from './stock.ts';

const TODAY = '2026-06-15';

describe('FEFO allocation', () => {
  const batches = [
    { id: 'late', expiryDate: '2027-03-01', quantity: 10 },
    { id: 'none', expiryDate: null, quantity: 10 },
    { id: 'soon', expiryDate: '2026-07-01', quantity: 4 },
    { id: 'expired', expiryDate: '2026-06-14', quantity: 50 },
    { id: 'today', expiryDate: '2026-06-15', quantity: 1 },
  ];

  it('takes the earliest unexpired expiry first, batches without expiry last', () => {
    const result = allocateFefo(batches, 20, { today: TODAY });
    expect(result.allocations).toEqual([
      { batchId: 'today', quantity: 1 },
      { batchId: 'soon', quantity: 4 },
      { batchId: 'late', quantity: 10 },
      { batchId: 'none', quantity: 5 },
    ]);
    expect(result.shortfall).toBe(0);
    expect(result.available).toBe(25);
  });

  it('never takes an expired batch for a sale, and reports the shortfall against the sellable stock', () => {
    const result = allocateFefo(batches, 30, { today: TODAY });
    expect(result.allocations.some((a) => a.batchId === 'expired')).toBe(false);
    expect(result.shortfall).toBe(5);
    expect(result.available).toBe(25);
  });

  it('takes expired batches first when allowed (write-offs, count corrections)', () => {
    const result = allocateFefo(batches, 3, { today: TODAY, includeExpired: true });
    expect(result.allocations).toEqual([{ batchId: 'expired', quantity: 3 }]);
  });

  it('breaks ties of expiry by receipt time, then id', () => {
    const result = allocateFefo(
      [
        { id: 'b', expiryDate: '2027-01-01', quantity: 1, receivedAt: '2026-01-02' },
        { id: 'a', expiryDate: '2027-01-01', quantity: 1, receivedAt: '2026-01-03' },
        { id: 'c', expiryDate: '2027-01-01', quantity: 1, receivedAt: '2026-01-01' },
      ],
      3,
      { today: TODAY },
    );
    expect(result.allocations.map((a) => a.batchId)).toEqual(['c', 'b', 'a']);
  });

  it('skips empty batches', () => {
    expect(allocateFefo([{ id: 'x', expiryDate: '2027-01-01', quantity: 0 }], 1, { today: TODAY })).toEqual({
      allocations: [],
      shortfall: 1,
      available: 0,
    });
  });
});

describe('expiry', () => {
  it('a batch is sellable on its expiry date and expired the day after', () => {
    expect(isExpired('2026-06-15', TODAY)).toBe(false);
    expect(isExpired('2026-06-14', TODAY)).toBe(true);
    expect(isExpired(null, TODAY)).toBe(false);
  });

  it('near expiry within 30 days (seed 000: expiry alert 30 days)', () => {
    expect(expiryStatus('2026-07-15', TODAY)).toBe('near_expiry');
    expect(expiryStatus('2026-07-16', TODAY)).toBe('ok');
    expect(expiryStatus('2026-06-01', TODAY)).toBe('expired');
    expect(expiryStatus(null, TODAY)).toBe('none');
    expect(expiryStatus('2026-06-20', TODAY, 3)).toBe('ok');
  });

  it('counts days between business dates', () => {
    expect(daysBetween('2026-06-15', '2026-07-15')).toBe(30);
    expect(daysBetween('2026-06-15', '2026-06-10')).toBe(-5);
  });

  it("today's business date is the calendar day in the pharmacy's time zone", () => {
    // 22:30 UTC is 01:30 the next day in Nairobi (UTC+3).
    expect(businessDate(new Date('2026-06-15T22:30:00Z'), 'Africa/Nairobi')).toBe('2026-06-16');
    expect(businessDate(new Date('2026-06-15T20:00:00Z'), 'Africa/Nairobi')).toBe('2026-06-15');
    // 04:30 UTC on 16 January is 23:30 on the 15th in New York (UTC-5) and 07:30 on the 16th in Nairobi.
    expect(businessDate(new Date('2026-01-16T04:30:00Z'), 'America/New_York')).toBe('2026-01-15');
    expect(businessDate(new Date('2026-01-16T04:30:00Z'), 'Africa/Nairobi')).toBe('2026-01-16');
    // 15:30 UTC on 15 January is 00:30 on the 16th in Tokyo (UTC+9) and 18:30 on the 15th in Nairobi.
    expect(businessDate(new Date('2026-01-15T15:30:00Z'), 'Asia/Tokyo')).toBe('2026-01-16');
    expect(businessDate(new Date('2026-01-15T15:30:00Z'), 'Africa/Nairobi')).toBe('2026-01-15');
  });
});

describe('transfer state machine', () => {
  it('runs requested -> approved -> dispatched -> partially_received -> received', () => {
    expect(nextTransferStatus('requested', 'approve')).toBe('approved');
    expect(nextTransferStatus('approved', 'dispatch')).toBe('dispatched');
    expect(nextTransferStatus('dispatched', 'receive', { dispatched: 10, received: 4 })).toBe('partially_received');
    expect(nextTransferStatus('partially_received', 'receive', { dispatched: 10, received: 10 })).toBe('received');
    expect(nextTransferStatus('dispatched', 'receive', { dispatched: 10, received: 10 })).toBe('received');
  });

  it('needs approval before dispatch and dispatch before receipt', () => {
    expect(nextTransferStatus('requested', 'dispatch')).toBeNull();
    expect(nextTransferStatus('requested', 'receive')).toBeNull();
    expect(nextTransferStatus('approved', 'receive')).toBeNull();
    expect(nextTransferStatus('approved', 'approve')).toBeNull();
  });

  it('cancels until fully received; received and cancelled are final', () => {
    for (const status of ['requested', 'approved', 'dispatched', 'partially_received'] as const) {
      expect(nextTransferStatus(status, 'cancel')).toBe('cancelled');
    }
    for (const action of ['approve', 'dispatch', 'receive', 'cancel'] as const) {
      expect(canTransfer('received', action)).toBe(false);
      expect(canTransfer('cancelled', action)).toBe(false);
    }
  });

  it('knows every status', () => {
    expect(TRANSFER_STATUSES).toEqual(['requested', 'approved', 'dispatched', 'partially_received', 'received', 'cancelled']);
  });
});

describe('stock request schemas', () => {
  const uuid = '0190a000-0000-7000-8000-000000000001';
  const uuid2 = '0190a000-0000-7000-8000-000000000002';

  it('refuses a zero, fractional or missing adjustment delta and an unknown reason type', () => {
    const item = { productId: uuid, reasonType: 'damage' };
    expect(createAdjustmentSchema.safeParse({ reason: 'x', items: [{ ...item, delta: 0 }] }).success).toBe(false);
    expect(createAdjustmentSchema.safeParse({ reason: 'x', items: [{ ...item, delta: 1.5 }] }).success).toBe(false);
    expect(createAdjustmentSchema.safeParse({ reason: 'x', items: [{ ...item }] }).success).toBe(false);
    expect(createAdjustmentSchema.safeParse({ reason: 'x', items: [{ ...item, delta: -2, reasonType: 'theft' }] }).success).toBe(false);
    expect(createAdjustmentSchema.safeParse({ reason: 'x', items: [{ ...item, delta: -2 }] }).success).toBe(true);
    expect(createAdjustmentSchema.safeParse({ reason: '', items: [{ ...item, delta: -2 }] }).success).toBe(false);
  });

  it('refuses negative and fractional transfer quantities; flags a transfer to its own branch', () => {
    const base = { fromBranchId: uuid, toBranchId: uuid2 };
    expect(createTransferSchema.safeParse({ ...base, items: [{ productId: uuid, quantity: -1 }] }).success).toBe(false);
    expect(createTransferSchema.safeParse({ ...base, items: [{ productId: uuid, quantity: 2.5 }] }).success).toBe(false);
    expect(createTransferSchema.safeParse({ ...base, items: [] }).success).toBe(false);
    expect(createTransferSchema.safeParse({ ...base, items: [{ productId: uuid, quantity: 3 }] }).success).toBe(true);
    expect(isSameBranchTransfer({ fromBranchId: uuid, toBranchId: uuid })).toBe(true);
    expect(isSameBranchTransfer(base)).toBe(false);
    expect(receiveTransferSchema.safeParse({ items: [{ itemId: uuid, quantityReceived: -1 }] }).success).toBe(false);
  });
});

describe('adjustmentFormSchema (the adjustment form as typed)', () => {
  const base = {
    productId: '88888888-8888-4888-8888-888888888888',
    branchId: '99999999-9999-4999-8999-999999999999',
    batchId: '',
    reasonType: 'damage',
    entry: 'delta',
    amount: '-3',
    newBatchNumber: '',
    newBatchExpiry: '',
    reason: ' Broken ',
    note: '',
  } as const;
  const issues = (result: { error?: { issues: { path: PropertyKey[]; message: string }[] } }) => result.error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`);

  it('gives the request: a change as typed, or counted less what is on hand', () => {
    expect(adjustmentFormSchema({ current: 20, onHand: 20 }).parse(base)).toEqual({ branchId: base.branchId, reason: 'Broken', items: [{ productId: base.productId, delta: -3, reasonType: 'damage', note: null }] });
    expect(adjustmentFormSchema({ current: 20, onHand: 12 }).parse({ ...base, entry: 'counted', amount: '15', newBatchNumber: 'B-1', newBatchExpiry: '2030-01-31' }).items[0]).toEqual({
      productId: base.productId,
      delta: 3,
      reasonType: 'damage',
      note: null,
      batchNumber: 'B-1',
      expiryDate: '2030-01-31',
    });
  });

  it('refuses with a sentence beside the field', () => {
    const schema = adjustmentFormSchema({ current: 20, onHand: 20 });
    expect(issues(schema.safeParse({ ...base, productId: '', amount: 'x', reason: '' }))).toEqual([
      'reason: Enter a reason for the adjustment.',
      'productId: Choose a product.',
      'amount: Enter a whole number of pieces, e.g. 5 or -3.',
    ]);
    expect(issues(schema.safeParse({ ...base, entry: 'counted', amount: '-1' }))).toEqual(['amount: Enter the counted whole number of pieces (0 or more).']);
    expect(issues(schema.safeParse({ ...base, entry: 'counted', amount: '20' }))).toEqual(['amount: Enter a change other than 0.']);
    expect(issues(schema.safeParse({ ...base, amount: '-21' }))).toEqual(['amount: The adjustment would make stock negative. Available: 20.']);
    expect(issues(schema.safeParse({ ...base, amount: '4', newBatchExpiry: '2030-02-30' }))).toEqual(['newBatchNumber: Enter both the batch number and its expiry date, or neither.']);
  });
});
