import { describe, expect, it } from 'vitest';
import {
  DDA_RANGE_ORDER_MESSAGE,
  DDA_RANGE_TOO_LONG_MESSAGE,
  ddaLineKind,
  ddaParticulars,
  ddaRangeProblem,
  ddaReference,
  ddaRegisterQuerySchema,
  defaultDdaRange,
  foldDdaRegister,
} from './dda-register.ts';

describe('DDA register folding', () => {
  it('runs the balance from the opening through every line, with totals received and issued and the closing balance', () => {
    const fold = foldDdaRegister(
      12,
      [
        { id: 'a', batchId: 'B1', delta: 30 },
        { id: 'b', batchId: 'B0', delta: -5 },
        { id: 'c', batchId: 'B1', delta: -3 },
        { id: 'd', batchId: 'B1', delta: 1 },
        { id: 'e', batchId: 'B0', delta: -7 },
      ],
      new Map([['B0', 12]]),
    );
    expect(fold.lines.map((l) => [l.id, l.received, l.issued, l.balance, l.batchBalance])).toEqual([
      ['a', 30, 0, 42, 30],
      ['b', 0, 5, 37, 7],
      ['c', 0, 3, 34, 27],
      ['d', 1, 0, 35, 28],
      ['e', 0, 7, 28, 0],
    ]);
    expect(fold).toMatchObject({ openingBalance: 12, totalReceived: 31, totalIssued: 15, closingBalance: 28 });
    expect(fold.batches).toEqual([
      { batchId: 'B0', openingBalance: 12, totalReceived: 0, totalIssued: 12, closingBalance: 0 },
      { batchId: 'B1', openingBalance: 0, totalReceived: 31, totalIssued: 3, closingBalance: 28 },
    ]);
    // The batches add up to the drug.
    expect(fold.batches.reduce((n, b) => n + b.closingBalance, 0)).toBe(fold.closingBalance);
  });

  it('keeps the opening as the closing balance when nothing moved', () => {
    const fold = foldDdaRegister(9, [], new Map([['B', 9]]));
    expect(fold).toMatchObject({ lines: [], totalReceived: 0, totalIssued: 0, closingBalance: 9 });
    expect(fold.batches).toEqual([{ batchId: 'B', openingBalance: 9, totalReceived: 0, totalIssued: 0, closingBalance: 9 }]);
  });

  it('reads ledger kinds as register kinds', () => {
    expect(['purchase_receipt', 'sale', 'reserved_sold', 'sale_return', 'purchase_return', 'transfer_in', 'transfer_out', 'opening', 'import', 'adjustment'].map((k) => ddaLineKind(k, 1))).toEqual([
      'receipt',
      'dispensing',
      'dispensing',
      'customer_return',
      'supplier_return',
      'transfer_in',
      'transfer_out',
      'opening',
      'opening',
      'adjustment',
    ]);
  });
});

describe('DDA register range', () => {
  it('refuses an end before the start and a range over 5 years, with clear sentences', () => {
    expect(ddaRangeProblem('2026-03-02', '2026-03-01')).toBe(DDA_RANGE_ORDER_MESSAGE);
    expect(ddaRangeProblem('2020-01-01', '2024-12-31')).toBeNull();
    expect(ddaRangeProblem('2020-01-01', '2025-01-01')).toBe(DDA_RANGE_TOO_LONG_MESSAGE);
    expect(ddaRangeProblem('2026-03-01', '2026-03-01')).toBeNull();
    const order = ddaRegisterQuerySchema.safeParse({ from: '2026-03-02', to: '2026-03-01' });
    expect(order.success ? null : order.error.issues.map((i) => i.message)).toEqual([DDA_RANGE_ORDER_MESSAGE]);
    const long = ddaRegisterQuerySchema.safeParse({ from: '2019-01-01', to: '2026-03-01' });
    expect(long.success ? null : long.error.issues.map((i) => i.message)).toEqual([DDA_RANGE_TOO_LONG_MESSAGE]);
    const missing = ddaRegisterQuerySchema.safeParse({ to: '2026-03-01' });
    expect(missing.success ? null : missing.error.issues.map((i) => i.message)).toEqual(['Enter the start date.']);
    const bad = ddaRegisterQuerySchema.safeParse({ from: '2026-02-30', to: '2026-03-01' });
    expect(bad.success ? null : bad.error.issues.map((i) => i.message)).toEqual(['The start date must be a real date (YYYY-MM-DD).']);
    expect(ddaRegisterQuerySchema.parse({ from: '2026-03-01', to: '2026-03-31', page: '2' })).toEqual({ from: '2026-03-01', to: '2026-03-31', page: 2, pageSize: 10 });
  });

  it('shows this month up to today by default', () => {
    expect(defaultDdaRange('2026-11-28')).toEqual({ from: '2026-11-01', to: '2026-11-28' });
  });
});

describe('DDA register wording', () => {
  const dispensing = {
    invoiceNumber: 'INV-000007',
    patientName: 'Jane Wanjiku',
    patientPhone: '254712345678',
    patientAddress: 'Nairobi, Moi Avenue 1',
    patientId: '12345678',
    prescriber: 'Dr. Otieno',
    prescriberLicence: 'KMPDC-1',
    hospital: 'Kenyatta National Hospital',
    prescriptionNumber: 'RX-9',
    prescriptionDate: '2026-11-27',
  };
  const none = { supplierName: null, dispensing: null, otherBranchName: null, reason: null, returnNumber: null };
  it('says who the pieces came from or went to', () => {
    expect(ddaParticulars({ ...none, kind: 'receipt', supplierName: 'Harleys Ltd' })).toBe('Received from Harleys Ltd');
    expect(ddaParticulars({ ...none, kind: 'dispensing', dispensing })).toBe('Issued to Jane Wanjiku, Nairobi, Moi Avenue 1 (prescribed by Dr. Otieno, Kenyatta National Hospital)');
    expect(ddaParticulars({ ...none, kind: 'customer_return', dispensing, returnNumber: 'RET-000001' })).toBe('Returned by Jane Wanjiku, Nairobi, Moi Avenue 1 (RET-000001)');
    expect(ddaParticulars({ ...none, kind: 'transfer_out', otherBranchName: 'Westlands Branch' })).toBe('Transfer to Westlands Branch');
    expect(ddaParticulars({ ...none, kind: 'adjustment', reason: 'Adjustment: damaged' })).toBe('Adjustment: damaged');
    expect(ddaReference({ invoiceNumber: 'INV-000007', dispensing })).toBe('INV-000007 / Rx RX-9');
    expect(ddaReference({ invoiceNumber: null, dispensing: null })).toBe('');
  });
});
