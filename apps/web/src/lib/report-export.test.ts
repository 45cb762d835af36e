import { describe, expect, it } from 'vitest';
import { excelSheet, money, toCsv, type ExportColumn } from './report-export';

interface Row {
  name: string;
  cents: number;
}
const columns: ExportColumn<Row>[] = [
  { header: 'Product', value: (row) => row.name },
  { header: 'Revenue (KSh)', value: (row) => money(row.cents) },
];

describe('report exports', () => {
  it('writes CSV with a byte-order mark, the headers and the rows as shown, quoting where needed', () => {
    const csv = toCsv([{ name: 'Amoxil 500mg, caps', cents: 123456 }, { name: 'Panadol "Extra"', cents: 5 }], columns);
    expect(csv.startsWith('\uFEFF')).toBe(true);
    expect(csv.slice(1).split('\r\n')).toEqual(['Product,Revenue (KSh)', '"Amoxil 500mg, caps",1234.56', '"Panadol ""Extra""",0.05']);
  });

  it('builds a sheet with its name cut to Excel’s 31 characters', () => {
    const sheet = excelSheet('A sheet name that is much longer than Excel allows', [{ name: 'x', cents: 100 }], columns);
    expect(sheet.name).toHaveLength(31);
    expect(sheet.headers).toEqual(['Product', 'Revenue (KSh)']);
    expect(sheet.cells).toEqual([['x', 1]]);
  });
});
