import Papa from 'papaparse';
import {
  mappedValues as mappedRecord,
  normalizeImportRow,
  readImportCsv,
  type CsvTable as ImportTable,
  type ImportField,
  type ImportMapping,
  type ImportRowError,
} from '@pharmapoint/domain/product-import';
import { pharmacyToday } from '@/lib/format';

/**
 * Reading a CSV file in the browser for the import preview: papaparse under the domain's rules (readImportCsv, the
 * same the server applies), the mapped values of each row and the same row checks the server makes
 * (normalizeImportRow). The server reads the file again and decides.
 */

export interface CsvTable extends ImportTable {
  /** Why the file cannot be read (the sentence the server would give after 'The CSV file is malformed: '). */
  error?: string;
}

export function parseCsv(text: string): CsvTable {
  const read = readImportCsv(text, (source, options) => Papa.parse<string[]>(source, options));
  if ('error' in read) return { headers: [], rows: [], error: read.error };
  return read.table;
}

/** The values of one record by field, through the mapping (field → header). */
export function mappedValues(table: CsvTable, cells: readonly string[], mapping: ImportMapping): Partial<Record<ImportField, string>> {
  return mappedRecord(table.headers, cells, mapping);
}

/** The row errors the browser can find before uploading (every row), with the settings' categories and today's business date. */
export function previewErrors(table: CsvTable, mapping: ImportMapping, categories: readonly string[], today: string = pharmacyToday()): ImportRowError[] {
  const errors: ImportRowError[] = [];
  if (!mapping.name) return [{ row: 1, field: 'name', message: 'Map a column to Name' }];
  for (const record of table.rows) {
    // `today`: opening stock that has already expired is refused, as the server refuses it (decision 0050).
    const result = normalizeImportRow(mappedValues(table, record.cells, mapping), record.row, { categories, today });
    errors.push(...result.errors);
  }
  return errors;
}
