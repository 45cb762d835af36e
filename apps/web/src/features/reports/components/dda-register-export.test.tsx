import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import type { DdaRegister } from '@pharmapoint/domain/dda-register';
import { toCsv } from '@/lib/report-export';
import { ddaCsvColumns, ddaCsvRows, ddaFileName } from './dda-register-export';

const register: DdaRegister = {
  branchId: '6f9c2b1e-0000-4000-8000-000000000001',
  branchName: 'Main Branch',
  productId: '6f9c2b1e-0000-4000-8000-000000000002',
  productName: 'Morphine 10mg',
  sku: 'MOR-10',
  unit: 'piece',
  openingBalance: 12,
  totalReceived: 0,
  totalIssued: 5,
  closingBalance: 7,
  lineCount: 1,
  truncated: false,
  lines: [
    {
      movementId: '6f9c2b1e-0000-4000-8000-000000000003',
      sequence: 41,
      at: '2026-11-27T08:00:00.000Z',
      date: '2026-11-27',
      kind: 'dispensing',
      movementKind: 'sale',
      batchId: '6f9c2b1e-0000-4000-8000-000000000004',
      batchNumber: 'MOR-A',
      expiryDate: '2027-06-30',
      reason: 'Sale',
      supplierName: null,
      invoiceNumber: 'INV-000007',
      dispensing: {
        invoiceNumber: 'INV-000007',
        patientName: 'Jane Wanjiku',
        patientPhone: '254712345678',
        patientAddress: 'Nairobi, Moi Avenue 1',
        patientId: '12345678',
        prescriber: 'Dr. Otieno',
        prescriberLicence: 'KMPDC-77',
        hospital: 'Kenyatta National Hospital',
        prescriptionNumber: 'RX-100',
        prescriptionDate: '2026-11-26',
      },
      returnNumber: null,
      otherBranchName: null,
      received: 0,
      issued: 5,
      balance: 7,
      batchBalance: 7,
      enteredBy: 'Mary Achieng',
    },
  ],
  batches: [],
};

/** The catalogue's words are the keys themselves here: the test reads the layout, not the English. */
const t = (key: string) => key;

describe('the DDA register CSV', () => {
  it('has an opening row, each line with its prescription, and a totals row with the closing balance per register', () => {
    const csv = toCsv(ddaCsvRows([register]), ddaCsvColumns(t));
    const [header, ...rows] = Papa.parse<string[]>(csv.slice(1).trim()).data;
    const at = (name: string) => header!.indexOf(`columns.${name}`);
    expect(rows.map((r) => [r[at('entry')], r[at('received')], r[at('issued')], r[at('balance')]])).toEqual([
      ['openingBalance', '', '', '12'],
      ['kinds.dispensing', '', '5', '7'],
      ['totals', '0', '5', '7'],
    ]);
    const line = rows[1]!;
    expect([line[at('patient')], line[at('patientAddress')], line[at('prescriber')], line[at('hospital')], line[at('prescriptionNumber')], line[at('invoice')], line[at('enteredBy')]]).toEqual([
      'Jane Wanjiku',
      'Nairobi, Moi Avenue 1',
      'Dr. Otieno',
      'Kenyatta National Hospital',
      'RX-100',
      'INV-000007',
      'Mary Achieng',
    ]);
    expect(line[at('particulars')]).toBe('Issued to Jane Wanjiku, Nairobi, Moi Avenue 1 (prescribed by Dr. Otieno, Kenyatta National Hospital)');
    expect(ddaFileName({ pharmacyName: 'Afya Bora', from: '2026-11-01', to: '2026-11-28' }, 'csv')).toBe('dda-register-2026-11-01-to-2026-11-28.csv');
  });
});
