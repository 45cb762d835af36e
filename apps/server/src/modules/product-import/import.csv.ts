import Papa from 'papaparse';
import {
  autoMapping,
  IMPORT_FIELDS,
  IMPORT_HEADERS,
  IMPORT_MAX_ROWS,
  type ImportField,
  type ImportMapping,
} from '@pharmapoint/domain/product-import';
import { AppError } from '../../platform/errors.ts';

/** One data record of the file: its row number as in the file (header = 1) and its values by field. */
export interface CsvRecord {
  row: number;
  values: Partial<Record<ImportField, string>>;
  /** Set when the record's shape is wrong (too many or too few cells). */
  shapeError?: string;
}

export interface ParsedCsv {
  headers: string[];
  mapping: ImportMapping;
  records: CsvRecord[];
}

function malformed(message: string, details?: unknown): AppError {
  return new AppError('VALIDATION_FAILED', { message: `The CSV file is malformed: ${message}`, details });
}

/**
 * Parses an import file (RFC 4180 through papaparse: quoted fields, embedded commas, quotes and line breaks,
 * CRLF or LF, a byte-order mark) and applies the column mapping (the given one, else the automatic one).
 * Rows are numbered as records of the file, the header being row 1; blank records are skipped but counted.
 * Throws 400 for a file that cannot be read as CSV or whose mapping names a missing column.
 */
export function parseImportCsv(text: string, requested?: ImportMapping): ParsedCsv {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (!source.trim()) throw malformed('the file is empty');
  const result = Papa.parse<string[]>(source, { header: false, skipEmptyLines: false, delimiter: '' });
  const quoteError = result.errors.find((e) => e.type === 'Quotes');
  if (quoteError) throw malformed(`${quoteError.message} (row ${(quoteError.row ?? 0) + 1})`, { row: (quoteError.row ?? 0) + 1 });
  const delimiter = result.meta.delimiter;
  if (delimiter !== ',' && delimiter !== ';' && delimiter !== '\t') throw malformed('use commas between columns');
  const [headerRow, ...rows] = result.data;
  const headers = (headerRow ?? []).map((h) => h.trim());
  if (!headers.some(Boolean)) throw malformed('the first row must name the columns');
  const seen = new Set<string>();
  for (const h of headers) {
    if (!h) continue;
    if (seen.has(h.toLowerCase())) throw malformed(`the column '${h}' appears twice`);
    seen.add(h.toLowerCase());
  }
  if (rows.length > IMPORT_MAX_ROWS + 1) throw malformed(`at most ${IMPORT_MAX_ROWS} rows can be imported at once`);

  const mapping = requested && Object.keys(requested).length ? requested : autoMapping(headers);
  const index = new Map(headers.map((h, i) => [h.toLowerCase(), i] as const));
  const columns: [ImportField, number][] = [];
  for (const field of IMPORT_FIELDS) {
    const header = mapping[field];
    if (header === undefined) continue;
    const i = index.get(header.trim().toLowerCase());
    if (i === undefined) throw malformed(`the column '${header}' mapped to ${IMPORT_HEADERS[field]} is not in the file`);
    columns.push([field, i]);
  }
  if (!columns.some(([f]) => f === 'name')) {
    throw malformed(`no column gives the product name (map a column to '${IMPORT_HEADERS.name}')`);
  }

  const records: CsvRecord[] = [];
  rows.forEach((cells, i) => {
    if (cells.every((c) => c.trim() === '')) return; // a blank line, or the file's trailing newline
    const record: CsvRecord = { row: i + 2, values: {} };
    if (cells.length > headers.length && cells.slice(headers.length).some((c) => c.trim() !== '')) {
      record.shapeError = `Row has ${cells.length} cells but the header has ${headers.length}`;
    }
    for (const [field, column] of columns) {
      const value = cells[column];
      if (value !== undefined) record.values[field] = value;
    }
    records.push(record);
  });
  return { headers, mapping, records };
}
