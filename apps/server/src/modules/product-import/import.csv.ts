import Papa from 'papaparse';
import {
  autoMapping,
  mappedValues,
  mappingProblem,
  readImportCsv,
  shapeProblem,
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
 * Parses an import file with papaparse under the domain's rules (readImportCsv: the same the browser's preview
 * applies) and applies the column mapping (the given one, else the automatic one). Rows are numbered as records
 * of the file, the header being row 1; blank records are skipped but counted. Throws 400 for a file that cannot
 * be read as CSV or whose mapping names a missing column.
 */
export function parseImportCsv(text: string, requested?: ImportMapping): ParsedCsv {
  const read = readImportCsv(text, (source, options) => Papa.parse<string[]>(source, options));
  if ('error' in read) throw malformed(read.error, read.row === undefined ? undefined : { row: read.row });
  const { headers, rows } = read.table;
  const mapping = requested && Object.keys(requested).length ? requested : autoMapping(headers);
  const problem = mappingProblem(headers, mapping);
  if (problem) throw malformed(problem);
  const records = rows.map(({ row, cells }): CsvRecord => {
    const record: CsvRecord = { row, values: mappedValues(headers, cells, mapping) };
    const shapeError = shapeProblem(headers, cells);
    if (shapeError) record.shapeError = shapeError;
    return record;
  });
  return { headers, mapping, records };
}
