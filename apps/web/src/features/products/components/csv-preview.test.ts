import { describe, expect, it } from 'vitest';
import { autoMapping, IMPORT_TEMPLATE_CSV } from '@pharmapoint/domain/product-import';
import { mappedValues, parseCsv, previewErrors } from './csv-preview';

describe('CSV preview', () => {
  it('reads quoted cells, doubled quotes, embedded commas and line breaks, CRLF and a BOM', () => {
    const table = parseCsv('\uFEFFName,Note\r\n"Cough syrup, 100ml","He said ""twice""\nthen left"\r\n\r\nPlain,x\n');
    expect(table.headers).toEqual(['Name', 'Note']);
    expect(table.rows).toEqual([
      { row: 2, cells: ['Cough syrup, 100ml', 'He said "twice"\nthen left'] },
      { row: 4, cells: ['Plain', 'x'] },
    ]);
    expect(table.error).toBeUndefined();
  });

  it('flags a quote that is never closed, with the row, as the server does', () => {
    expect(parseCsv('Name\n"open').error).toBe('a quoted cell is never closed (row 2)');
  });

  it('reads the file by the same rules as the server: semicolons, one header per column, not empty', () => {
    expect(parseCsv('Name;Qty\nZinc;4\nIron;5\n')).toEqual({ headers: ['Name', 'Qty'], rows: [{ row: 2, cells: ['Zinc', '4'] }, { row: 3, cells: ['Iron', '5'] }] });
    expect(parseCsv('Name,name\nx,y\n').error).toBe("the column 'name' appears twice");
    expect(parseCsv('\uFEFF  \n').error).toBe('the file is empty');
  });

  it('maps the template automatically and finds no errors in it', () => {
    const table = parseCsv(IMPORT_TEMPLATE_CSV);
    const mapping = autoMapping(table.headers);
    expect(mapping.name).toBe('Name');
    expect(mappedValues(table, table.rows[0]!.cells, mapping).sellingPrice).toBe('2.00');
    expect(previewErrors(table, mapping, ['Medicine'])).toEqual([]);
  });

  it('reports row-level errors with the row number of the file', () => {
    const table = parseCsv('Product,Price,Qty\nAmoxil 250mg,12.50,10\n,5,1\nZinc,abc,-2\n');
    const mapping = autoMapping(table.headers);
    const errors = previewErrors(table, mapping, []);
    expect(errors.map((e) => [e.row, e.field])).toEqual([
      [3, 'name'],
      [4, 'sellingPrice'],
      [4, 'openingQuantity'],
    ]);
  });

  it('refuses opening stock that has already expired, as the server does (a batch expiring today is still imported)', () => {
    const table = parseCsv('Name,Opening Quantity,Batch Number,Expiry Date\nOld Syrup,5,OLD1,2026-11-25\nToday Syrup,5,NOW1,2026-11-26\n');
    const errors = previewErrors(table, autoMapping(table.headers), [], '2026-11-26');
    expect(errors.map((e) => [e.row, e.field])).toEqual([[2, 'expiryDate']]);
    expect(errors[0]!.message).toContain('expired on 2026-11-25');
  });

  it('asks for a Name column when none is mapped', () => {
    const table = parseCsv('Foo\nbar\n');
    expect(previewErrors(table, {}, [])[0]).toMatchObject({ row: 1, field: 'name' });
  });
});
