import Papa from 'papaparse';

/**
 * One column of an exported report: its header as shown on screen and how a row gives its cell. A cell is text or a
 * number (money is exported in shillings with two decimals, as the screen shows it: `money(cents)`).
 */
export interface ExportColumn<Row> {
  header: string;
  value: (row: Row) => string | number | null | undefined;
}

/** Money as exported: shillings with two decimals (a number, so a spreadsheet can add it up). */
export function money(cents: number): number {
  return Math.round(cents) / 100;
}

function cells<Row>(rows: readonly Row[], columns: readonly ExportColumn<Row>[]): (string | number)[][] {
  return rows.map((row) => columns.map((column) => column.value(row) ?? ''));
}

/** Hands a file to the browser's download. */
export function downloadBlob(fileName: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** The CSV text of exactly these rows and columns, UTF-8 with a byte-order mark so Excel reads shillings and names right. */
export function toCsv<Row>(rows: readonly Row[], columns: readonly ExportColumn<Row>[]): string {
  return '\uFEFF' + Papa.unparse({ fields: columns.map((column) => column.header), data: cells(rows, columns) });
}

export function downloadCsv<Row>(fileName: string, rows: readonly Row[], columns: readonly ExportColumn<Row>[]): void {
  downloadBlob(fileName, new Blob([toCsv(rows, columns)], { type: 'text/csv;charset=utf-8' }));
}

/** One sheet of an Excel workbook, its cells already taken from the rows (`excelSheet`). */
export interface ExportSheet {
  name: string;
  headers: string[];
  cells: (string | number)[][];
}

export function excelSheet<Row>(name: string, rows: readonly Row[], columns: readonly ExportColumn<Row>[]): ExportSheet {
  return { name: name.slice(0, 31), headers: columns.map((column) => column.header), cells: cells(rows, columns) };
}

/**
 * An .xlsx workbook of these sheets (headers bold), downloaded. The writer is loaded only when a user asks for a
 * workbook, so no page's first load carries it.
 */
export async function downloadExcel(fileName: string, sheets: readonly ExportSheet[]): Promise<void> {
  const { default: writeExcelFile } = await import('write-excel-file/browser');
  const workbook = sheets.map((sheet) => ({
    sheet: sheet.name,
    data: [sheet.headers.map((value) => ({ value, fontWeight: 'bold' as const })), ...sheet.cells.map((row) => row.map((value) => ({ value })))],
  }));
  downloadBlob(fileName, await writeExcelFile(workbook).toBlob());
}
