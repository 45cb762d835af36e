import { describe, expect, it } from 'vitest';
import {
  autoMapping,
  IMPORT_TEMPLATE_CSV,
  normalizeImportRow,
  parseImportDate,
  parsePercentToBasisPoints,
  parseShillingsToCents,
} from '@pharmapoint/domain/product-import';
import { parseImportCsv } from '../src/modules/product-import/import.csv.ts';
import { AppError } from '../src/platform/errors.ts';

describe('import values', () => {
  it('reads shillings with up to 2 decimals as cents', () => {
    expect(parseShillingsToCents('12')).toBe(1200);
    expect(parseShillingsToCents('12.5')).toBe(1250);
    expect(parseShillingsToCents('1,250.05')).toBe(125005);
    expect(parseShillingsToCents('KSh 30')).toBe(3000);
    expect(parseShillingsToCents('0')).toBe(0);
    expect(parseShillingsToCents('-5')).toBeUndefined();
    expect(parseShillingsToCents('1.005')).toBeUndefined();
    expect(parseShillingsToCents('abc')).toBeUndefined();
  });

  it('reads percentages as basis points and dates in two spellings', () => {
    expect(parsePercentToBasisPoints('16')).toBe(1600);
    expect(parsePercentToBasisPoints('22.5%')).toBe(2250);
    expect(parseImportDate('2027-06-30')).toBe('2027-06-30');
    expect(parseImportDate('30/06/2027')).toBe('2027-06-30');
    expect(parseImportDate('31/02/2027')).toBeUndefined();
    expect(parseImportDate('next year')).toBeUndefined();
  });

  it('validates a row and reports every bad field with its row number', () => {
    const { errors } = normalizeImportRow(
      { name: '', sellingPrice: '-3', openingQuantity: '2.5', expiryDate: '2027-13-01', minMargin: '100', isDda: 'maybe' },
      7,
    );
    expect(errors.map((e) => e.field).sort()).toEqual(['expiryDate', 'isDda', 'minMargin', 'name', 'openingQuantity', 'sellingPrice']);
    expect(errors.every((e) => e.row === 7)).toBe(true);
    expect(errors.find((e) => e.field === 'name')?.message).toBe('Name is required');
  });

  it('normalises a good row', () => {
    const { row, errors } = normalizeImportRow(
      { name: ' Amoxil 500mg ', sku: 'AMX', barcodes: '111; 222|111', sellingPrice: '18', purchasePrice: '12.40', openingQuantity: '1,000', isDda: 'No', taxRate: '16', expiryDate: '01/02/2028' },
      2,
    );
    expect(errors).toEqual([]);
    expect(row).toMatchObject({ name: 'Amoxil 500mg', sku: 'AMX', barcodes: ['111', '222'], sellingPriceCents: 1800, purchasePriceCents: 1240, openingQuantity: 1000, isDda: false, taxRateBasisPoints: 1600, expiryDate: '2028-02-01' });
  });

  it('checks categories against the settings when given', () => {
    expect(normalizeImportRow({ name: 'X', category: 'medicine' }, 2, { categories: ['Medicine'] }).row?.category).toBe('Medicine');
    expect(normalizeImportRow({ name: 'X', category: 'Food' }, 2, { categories: ['Medicine'] }).errors[0]?.field).toBe('category');
  });
});

describe('CSV parsing', () => {
  it('maps the template by itself', () => {
    const parsed = parseImportCsv(IMPORT_TEMPLATE_CSV);
    expect(parsed.records).toHaveLength(2);
    expect(parsed.records[0]).toMatchObject({ row: 2, values: { name: 'Paracetamol 500mg Tablets', sku: 'PARA-500', sellingPrice: '2.00', expiryDate: '2030-06-30' } });
    expect(parsed.mapping.openingQuantity).toBe('Opening Quantity');
  });

  it('guesses common header spellings', () => {
    expect(autoMapping(['Product Name', 'Qty', 'Price', 'Cost', 'Batch No', 'Expiry'])).toEqual({
      name: 'Product Name',
      openingQuantity: 'Qty',
      sellingPrice: 'Price',
      purchasePrice: 'Cost',
      batchNumber: 'Batch No',
      expiryDate: 'Expiry',
    });
  });

  it('reads quoted fields with commas, quotes and line breaks, and numbers rows as records of the file', () => {
    const csv = 'Item,Qty\r\n"Cough syrup, ""strong""",3\r\n\r\n"Two\nlines",4\r\n';
    const parsed = parseImportCsv(csv, { name: 'Item', openingQuantity: 'Qty' });
    expect(parsed.records.map((r) => [r.row, r.values.name])).toEqual([
      [2, 'Cough syrup, "strong"'],
      [4, 'Two\nlines'],
    ]);
  });

  it('refuses a malformed file with a clear 400', () => {
    const cases = ['', 'Name,Qty\n"unterminated,1\n', 'Qty\n1\n', 'Name,Name\nA,B\n'];
    for (const csv of cases) {
      let caught: unknown;
      try {
        parseImportCsv(csv);
      } catch (error) {
        caught = error;
      }
      expect(caught, csv).toBeInstanceOf(AppError);
      expect((caught as AppError).status).toBe(400);
      expect((caught as AppError).message).toMatch(/^The CSV file is malformed: /);
    }
    expect(() => parseImportCsv('Name\nA\n', { name: 'Product' })).toThrow(/'Product' mapped to Name is not in the file/);
  });

  it('flags a row with more cells than the header', () => {
    const parsed = parseImportCsv('Name,Qty\nA,1,extra\n');
    expect(parsed.records[0]?.shapeError).toMatch(/3 cells/);
  });
});
