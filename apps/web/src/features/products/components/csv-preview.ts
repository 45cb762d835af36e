import { IMPORT_FIELDS, normalizeImportRow, type ImportField, type ImportMapping, type ImportRowError } from '@pharmapoint/domain/product-import';

/**
 * Reading a CSV file in the browser for the import preview: RFC 4180 records (quoted cells, doubled quotes,
 * commas and line breaks inside quotes, CRLF or LF, a byte-order mark), the mapped values of each row and
 * the same row checks the server makes (normalizeImportRow). The server reads the file again and decides.
 */

export interface CsvTable {
  headers: string[];
  /** Data records with their row number in the file (the header is row 1). Blank lines are skipped. */
  rows: { row: number; cells: string[] }[];
  /** Set when a quoted cell is never closed. */
  error?: string;
}

export function parseCsv(text: string): CsvTable {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const records: string[][] = [];
  let record: string[] = [];
  let cell = '';
  let quoted = false;
  let i = 0;
  let unclosed = false;
  while (i < source.length) {
    const ch = source[i]!;
    if (quoted) {
      if (ch === '"') {
        if (source[i + 1] === '"') {
          cell += '"';
          i += 2;
          continue;
        }
        quoted = false;
        i += 1;
        continue;
      }
      cell += ch;
      i += 1;
      continue;
    }
    if (ch === '"' && cell === '') {
      quoted = true;
      i += 1;
      continue;
    }
    if (ch === ',') {
      record.push(cell);
      cell = '';
      i += 1;
      continue;
    }
    if (ch === '\r' || ch === '\n') {
      record.push(cell);
      records.push(record);
      record = [];
      cell = '';
      i += ch === '\r' && source[i + 1] === '\n' ? 2 : 1;
      continue;
    }
    cell += ch;
    i += 1;
  }
  if (quoted) unclosed = true;
  if (cell !== '' || record.length > 0) {
    record.push(cell);
    records.push(record);
  }
  const [header = [], ...data] = records;
  const rows = data
    .map((cells, index) => ({ row: index + 2, cells }))
    .filter((r) => r.cells.some((c) => c.trim() !== ''));
  return { headers: header.map((h) => h.trim()), rows, ...(unclosed ? { error: 'unclosed' } : {}) };
}

/** The values of one record by field, through the mapping (field → header). */
export function mappedValues(table: CsvTable, cells: readonly string[], mapping: ImportMapping): Partial<Record<ImportField, string>> {
  const values: Partial<Record<ImportField, string>> = {};
  for (const field of IMPORT_FIELDS) {
    const header = mapping[field];
    if (!header) continue;
    const index = table.headers.indexOf(header);
    if (index >= 0) values[field] = cells[index] ?? '';
  }
  return values;
}

/** The row errors the browser can find before uploading (every row), with the settings' categories. */
export function previewErrors(table: CsvTable, mapping: ImportMapping, categories: readonly string[]): ImportRowError[] {
  const errors: ImportRowError[] = [];
  if (!mapping.name) return [{ row: 1, field: 'name', message: 'Map a column to Name' }];
  for (const record of table.rows) {
    const result = normalizeImportRow(mappedValues(table, record.cells, mapping), record.row, { categories });
    errors.push(...result.errors);
  }
  return errors;
}
