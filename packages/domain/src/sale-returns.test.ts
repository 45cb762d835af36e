import { describe, expect, it } from 'vitest';
import { formatReturnNumber, lineRefundCents, returnBatches, returnRefundCents, splitRefund, statusAfterReturns } from './sale-returns.ts';

describe('sale returns', () => {
  it('a line refunded in any number of returns adds up to its total exactly', () => {
    for (const [total, sold] of [[1000, 3], [9999, 7], [12_345, 1], [100, 9]] as const) {
      for (const steps of [[1, 1, 1], [2, 1], [sold]]) {
        let before = 0;
        let sum = 0;
        for (const n of steps) {
          if (before + n > sold) break;
          sum += lineRefundCents(total, sold, before, n);
          before += n;
        }
        if (before === sold) expect(sum).toBe(total);
      }
    }
    expect(lineRefundCents(1000, 3, 0, 1)).toBe(333);
    expect(lineRefundCents(1000, 3, 1, 1)).toBe(334);
  });
  it('puts pieces back latest expiry first, never more than a batch gave less earlier returns', () => {
    const takes = [
      { batchId: 'soon', expiryDate: '2026-12-01', quantity: 5, returned: 0 },
      { batchId: 'late', expiryDate: '2027-06-01', quantity: 2, returned: 1 },
    ];
    expect(returnBatches(takes, 3)!.map((x) => [x.batch.batchId, x.quantity])).toEqual([['late', 1], ['soon', 2]]);
    expect(returnBatches(takes, 6)!.map((x) => x.quantity)).toEqual([1, 5]);
    expect(returnBatches(takes, 7)).toBeNull();
  });
  it('the status after returns, the refund split and the return number', () => {
    expect(statusAfterReturns([{ sold: 2, returned: 0 }])).toBe('completed');
    expect(statusAfterReturns([{ sold: 2, returned: 1 }, { sold: 1, returned: 1 }])).toBe('partially_returned');
    expect(statusAfterReturns([{ sold: 2, returned: 2 }, { sold: 1, returned: 1 }])).toBe('returned');
    expect(returnRefundCents([300, 200], true, -4)).toBe(496);
    expect(returnRefundCents([300, 200], false, -4)).toBe(500);
    expect(splitRefund(1000, 400)).toEqual({ creditCents: 400, paidOutCents: 600 });
    expect(splitRefund(1000, 0)).toEqual({ creditCents: 0, paidOutCents: 1000 });
    expect(formatReturnNumber(12)).toBe('RET-000012');
  });
});
