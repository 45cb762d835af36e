import { z } from 'zod';
import { isExpired } from './stock-status.ts';

/**
 * Bulk product import (POST /api/products/import) and the CSV template: the fields a file may carry, the
 * automatic column mapping, and the validation of one row. Shared by the server (which decides) and the
 * browser (which previews the same errors before uploading).
 */

/** The fields of an import row, in template order. Product fields, then the per-branch fields. */
export const IMPORT_FIELDS = [
  'name',
  'sku',
  'barcodes',
  'category',
  'packageSize',
  'packageType',
  'unit',
  'isDda',
  'taxApplied',
  'taxRate',
  'minMargin',
  'lowStockThreshold',
  'reorderLevel',
  'branch',
  'sellingPrice',
  'purchasePrice',
  'openingQuantity',
  'batchNumber',
  'expiryDate',
  'unitCost',
] as const;
export type ImportField = (typeof IMPORT_FIELDS)[number];

/** The template's header of each field (also the first name the automatic mapping looks for). */
export const IMPORT_HEADERS: Record<ImportField, string> = {
  name: 'Name',
  sku: 'SKU',
  barcodes: 'Barcodes',
  category: 'Category',
  packageSize: 'Package Size',
  packageType: 'Package Type',
  unit: 'Unit',
  isDda: 'DDA',
  taxApplied: 'Tax Applied',
  taxRate: 'Tax Rate (%)',
  minMargin: 'Min Margin (%)',
  lowStockThreshold: 'Low Stock Threshold',
  reorderLevel: 'Reorder Level',
  branch: 'Branch',
  sellingPrice: 'Selling Price (KSh)',
  purchasePrice: 'Purchase Price (KSh)',
  openingQuantity: 'Opening Quantity',
  batchNumber: 'Batch Number',
  expiryDate: 'Expiry Date',
  unitCost: 'Unit Cost (KSh)',
};

/** Other spellings the automatic mapping accepts (compared without case, spaces, punctuation). */
const ALIASES: Record<ImportField, readonly string[]> = {
  name: ['product', 'productname', 'item', 'itemname', 'description'],
  sku: ['code', 'itemcode', 'productcode'],
  barcodes: ['barcode', 'ean', 'upc'],
  category: ['group', 'type'],
  packageSize: ['packsize', 'pack', 'packagesize'],
  packageType: ['packtype', 'packaging'],
  unit: ['uom', 'unitofmeasure', 'unittype'],
  isDda: ['dda', 'controlled', 'isdda', 'controlledmedicine'],
  taxApplied: ['tax', 'vat', 'taxable', 'applytax'],
  taxRate: ['vatrate', 'taxrate', 'taxpercent'],
  minMargin: ['margin', 'minimummargin', 'minmargin'],
  lowStockThreshold: ['lowstock', 'threshold', 'lowstocklevel'],
  reorderLevel: ['reorder', 'reorderpoint'],
  branch: ['branchname', 'location', 'store'],
  sellingPrice: ['price', 'sellingprice', 'retailprice', 'saleprice'],
  purchasePrice: ['cost', 'costprice', 'buyingprice', 'purchaseprice'],
  openingQuantity: ['quantity', 'qty', 'stock', 'openingstock', 'quantityonhand'],
  batchNumber: ['batch', 'batchno', 'lot', 'lotnumber'],
  expiryDate: ['expiry', 'expires', 'expdate', 'bestbefore'],
  unitCost: ['unitcost', 'costperunit', 'batchcost'],
};

/** Most rows a single import may carry. */
export const IMPORT_MAX_ROWS = 50_000;

/** Import modes: every row or none; or the valid rows, skipping the others. */
export const IMPORT_MODES = ['all-or-nothing', 'valid-only'] as const;
export type ImportMode = (typeof IMPORT_MODES)[number];

/** A mapping from field to the CSV header that carries it. */
export const importMappingSchema = z.partialRecord(z.enum(IMPORT_FIELDS), z.string().min(1));
export type ImportMapping = z.infer<typeof importMappingSchema>;

/** One row's problem, with the row number as in the file (the header is row 1). */
export const importRowErrorSchema = z.object({
  row: z.number().int(),
  field: z.string(),
  message: z.string(),
});
export type ImportRowError = z.infer<typeof importRowErrorSchema>;

/** The answer of POST /api/products/import (also the last NDJSON line when progress is streamed). */
export const importResultSchema = z.object({
  /** Rows written (or, in a dry run, that would be). */
  imported: z.number().int(),
  /** Rows not written. */
  skipped: z.number().int(),
  errors: z.array(importRowErrorSchema),
  /** Data rows in the file (blank lines not counted). */
  total: z.number().int(),
  /** New products created (or that would be). */
  productsCreated: z.number().int(),
  mode: z.enum(IMPORT_MODES),
  dryRun: z.boolean(),
});
export type ImportResult = z.infer<typeof importResultSchema>;

/** A progress line of the NDJSON stream (Accept: application/x-ndjson). */
export const importProgressSchema = z.object({
  type: z.literal('progress'),
  phase: z.enum(['validating', 'writing', 'done']),
  /** Rows processed so far in this phase, of total. */
  done: z.number().int(),
  total: z.number().int(),
});
export type ImportProgress = z.infer<typeof importProgressSchema>;

/**
 * A line of the import's NDJSON stream: progress lines, then the result, or an error when the import failed after
 * the stream began (a refusal before it is an ordinary error answer).
 */
export type ImportStreamLine =
  | ImportProgress
  | ({ type: 'result' } & ImportResult)
  | { type: 'error'; error: { code: string; message: string; details?: unknown } };

/**
 * POST /api/products/import query: mode, dry run, and the column mapping as a JSON object of field to CSV header
 * (e.g. {"name":"Product","openingQuantity":"Qty"}); without one the mapping is automatic.
 */
export const importQuerySchema = z.strictObject({
  mode: z.enum(IMPORT_MODES).default('all-or-nothing'),
  dryRun: z.enum(['true', 'false']).default('false'),
  mapping: z.string().max(10_000).optional(),
});
export type ImportQueryInput = z.input<typeof importQuerySchema>;

/** The import as JSON: the file's text and, optionally, the mapping (which wins over the query's). */
export const importJsonBodySchema = z.strictObject({
  csv: z.string(),
  mapping: importMappingSchema.optional(),
});

/** POST /api/products/import body: the file itself (text/csv), or JSON { csv, mapping? }. */
export const importBodySchema = z.union([z.string().describe('The CSV file'), importJsonBodySchema]);

/**
 * GET /api/products/export query: the filters of the product list. branchId is a branch, or 'all' for one line
 * per product and branch; default the session's branch (else all).
 */
export const exportQuerySchema = z.strictObject({
  q: z.string().max(200).optional(),
  category: z.string().max(60).optional(),
  status: z.enum(['out', 'low', 'good']).optional(),
  branchId: z.union([z.uuid(), z.literal('all')]).optional(),
  active: z.enum(['true', 'false']).optional(),
  dda: z.enum(['true', 'false']).optional(),
});
export type ExportQuery = z.infer<typeof exportQuerySchema>;

/** The answer of the template and the export: a CSV file (text/csv, UTF-8). */
export const csvFileSchema = z.string().describe('A CSV file (RFC 4180, UTF-8)');

const normalise = (header: string) => header.toLowerCase().replace(/[^a-z0-9]/g, '');

/** Guesses the mapping from a file's headers: the template's names first, then common aliases. */
export function autoMapping(headers: readonly string[]): ImportMapping {
  const byKey = new Map(headers.map((h) => [normalise(h), h] as const));
  const mapping: ImportMapping = {};
  const used = new Set<string>();
  for (const field of IMPORT_FIELDS) {
    const candidates = [normalise(IMPORT_HEADERS[field]), normalise(field), ...ALIASES[field]];
    for (const candidate of candidates) {
      const header = byKey.get(candidate);
      if (header !== undefined && !used.has(header)) {
        mapping[field] = header;
        used.add(header);
        break;
      }
    }
  }
  return mapping;
}

/** The template file: the header and two example rows. */
export const IMPORT_TEMPLATE_CSV: string = [
  IMPORT_FIELDS.map((f) => IMPORT_HEADERS[f]).join(','),
  'Paracetamol 500mg Tablets,PARA-500,6001234567890,Medicine,100,tablets,tablet,No,No,0,22,5,2,Main Branch,2.00,1.20,500,PCM2401,2030-06-30,1.20',
  'Tramadol 50mg Capsules,TRAM-50,,Medicine,100,capsules,capsule,Yes,No,0,22,5,2,Main Branch,8.00,4.00,100,TR2409,2027-01-31,4.00',
].join('\r\n') + '\r\n';

/** A row after validation: typed values, money in cents, rates in basis points, dates as YYYY-MM-DD. */
export interface NormalizedImportRow {
  row: number;
  name: string;
  sku: string | null;
  barcodes: string[];
  category: string | null;
  packageSize: number | null;
  packageType: string | null;
  unit: string | null;
  isDda: boolean | null;
  taxApplied: boolean | null;
  taxRateBasisPoints: number | null;
  minMarginBasisPoints: number | null;
  lowStockThreshold: number | null;
  reorderLevel: number | null;
  branch: string | null;
  sellingPriceCents: number | null;
  purchasePriceCents: number | null;
  openingQuantity: number;
  batchNumber: string | null;
  expiryDate: string | null;
  unitCostCents: number | null;
}

/** Parses KSh with up to 2 decimals ('1,250.50', 'KSh 30', '12') into cents; undefined when it is not money. */
export function parseShillingsToCents(text: string): number | undefined {
  const cleaned = text.trim().replace(/^(ksh|kes)\.?\s*/i, '').replace(/,/g, '');
  if (!/^\d+(\.\d{1,2})?$/.test(cleaned)) return undefined;
  const [whole, fraction = ''] = cleaned.split('.');
  const cents = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  return Number.isSafeInteger(cents) ? cents : undefined;
}

/** Parses a percentage with up to 2 decimals ('16', '16.5', '16%') into basis points. */
export function parsePercentToBasisPoints(text: string): number | undefined {
  const cleaned = text.trim().replace(/%$/, '').trim();
  if (!/^\d+(\.\d{1,2})?$/.test(cleaned)) return undefined;
  const [whole, fraction = ''] = cleaned.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

const TRUE_WORDS = new Set(['yes', 'y', 'true', '1', 'x']);
const FALSE_WORDS = new Set(['no', 'n', 'false', '0']);

/** Parses yes/no, true/false, 1/0, Y/N. */
export function parseFlag(text: string): boolean | undefined {
  const t = text.trim().toLowerCase();
  if (TRUE_WORDS.has(t)) return true;
  if (FALSE_WORDS.has(t)) return false;
  return undefined;
}

/** Parses a date as YYYY-MM-DD or DD/MM/YYYY (en-GB, as Kenyan files write it) into YYYY-MM-DD. */
export function parseImportDate(text: string): string | undefined {
  const t = text.trim();
  let y: number, m: number, d: number;
  let match = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(t);
  if (match) [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  else if ((match = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(t))) [d, m, y] = [Number(match[1]), Number(match[2]), Number(match[3])];
  else return undefined;
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return undefined;
  if (y < 2000 || y > 2100) return undefined;
  return date.toISOString().slice(0, 10);
}

function parseCount(text: string): number | undefined {
  const t = text.trim().replace(/,/g, '');
  if (!/^\d+$/.test(t)) return undefined;
  const n = Number(t);
  return Number.isSafeInteger(n) && n <= 2_000_000_000 ? n : undefined;
}

/**
 * Validates one CSV record (values by field, already mapped) into a typed row, or the row's errors. Empty
 * cells mean "not given" (defaults apply) except the required name. Messages are shown to the user as-is.
 * `today` (the business date): a row whose opening stock has an expiry date before it is refused, as receiving
 * expired stock is (decision 0050); without it the date is not compared.
 */
export function normalizeImportRow(
  values: Partial<Record<ImportField, string>>,
  row: number,
  options: { categories?: readonly string[]; today?: string } = {},
): { row?: NormalizedImportRow; errors: ImportRowError[] } {
  const errors: ImportRowError[] = [];
  const fail = (field: ImportField, message: string) => errors.push({ row, field, message });
  const text = (field: ImportField): string | null => {
    const v = values[field]?.trim();
    return v ? v : null;
  };
  const limited = (field: ImportField, max: number): string | null => {
    const v = text(field);
    if (v !== null && v.length > max) {
      fail(field, `${IMPORT_HEADERS[field]} must be at most ${max} characters`);
      return null;
    }
    return v;
  };
  const count = (field: ImportField, min = 0): number | null => {
    const v = text(field);
    if (v === null) return null;
    const n = parseCount(v);
    if (n === undefined || n < min) {
      fail(field, `${IMPORT_HEADERS[field]} must be a whole number${min > 0 ? ` of at least ${min}` : ' of 0 or more'}`);
      return null;
    }
    return n;
  };
  const money = (field: ImportField): number | null => {
    const v = text(field);
    if (v === null) return null;
    const cents = parseShillingsToCents(v);
    if (cents === undefined) {
      fail(field, `${IMPORT_HEADERS[field]} must be an amount in KSh of 0 or more with at most 2 decimals`);
      return null;
    }
    return cents;
  };
  const flag = (field: ImportField): boolean | null => {
    const v = text(field);
    if (v === null) return null;
    const b = parseFlag(v);
    if (b === undefined) {
      fail(field, `${IMPORT_HEADERS[field]} must be Yes or No`);
      return null;
    }
    return b;
  };

  const name = limited('name', 200);
  if (name === null && !errors.length) fail('name', 'Name is required');
  const sku = limited('sku', 64);
  const barcodeText = text('barcodes');
  const barcodes = barcodeText ? [...new Set(barcodeText.split(/[;|]/).map((b) => b.trim()).filter(Boolean))] : [];
  if (barcodes.some((b) => b.length > 64)) fail('barcodes', 'Barcodes must be at most 64 characters each');
  let category = limited('category', 60);
  if (category !== null && options.categories?.length) {
    const given = category.toLowerCase();
    const known = options.categories.find((c) => c.toLowerCase() === given);
    if (!known) fail('category', `Unknown category '${category}'. Use one of: ${options.categories.join(', ')}`);
    category = known ?? null;
  }
  const packageSize = count('packageSize', 1);
  const packageType = limited('packageType', 40);
  const unit = limited('unit', 40);
  const isDda = flag('isDda');
  const taxApplied = flag('taxApplied');
  let taxRateBasisPoints: number | null = null;
  const taxText = text('taxRate');
  if (taxText !== null) {
    const bp = parsePercentToBasisPoints(taxText);
    if (bp === undefined || bp > 10_000) fail('taxRate', 'Tax rate must be a percentage between 0 and 100');
    else taxRateBasisPoints = bp;
  }
  let minMarginBasisPoints: number | null = null;
  const marginText = text('minMargin');
  if (marginText !== null) {
    const bp = parsePercentToBasisPoints(marginText);
    if (bp === undefined || bp <= 0 || bp >= 10_000) fail('minMargin', 'Minimum margin must be between 0 and 100 (exclusive)');
    else minMarginBasisPoints = bp;
  }
  const lowStockThreshold = count('lowStockThreshold');
  const reorderLevel = count('reorderLevel');
  const branch = limited('branch', 80);
  const sellingPriceCents = money('sellingPrice');
  const purchasePriceCents = money('purchasePrice');
  const openingQuantity = count('openingQuantity') ?? 0;
  const batchNumber = limited('batchNumber', 64);
  let expiryDate: string | null = null;
  const expiryText = text('expiryDate');
  if (expiryText !== null) {
    const parsed = parseImportDate(expiryText);
    if (!parsed) fail('expiryDate', 'Expiry date must be a date as YYYY-MM-DD or DD/MM/YYYY');
    else expiryDate = parsed;
  }
  // Expired stock never enters the shelf by any route (decisions 0033, 0035 and 0050).
  if (expiryDate !== null && options.today && isExpired(expiryDate, options.today) && openingQuantity > 0) {
    fail('expiryDate', `${batchNumber ? `Batch ${batchNumber}` : 'This batch'} expired on ${expiryDate}: expired stock cannot be imported as sellable stock`);
  }
  const unitCostCents = money('unitCost');
  if (openingQuantity === 0 && (batchNumber !== null || expiryDate !== null) && !errors.some((e) => e.field === 'openingQuantity')) {
    fail('openingQuantity', 'A batch needs an opening quantity above 0');
  }

  if (errors.length || name === null) return { errors };
  return {
    errors,
    row: {
      row,
      name,
      sku,
      barcodes,
      category,
      packageSize,
      packageType,
      unit,
      isDda,
      taxApplied,
      taxRateBasisPoints,
      minMarginBasisPoints,
      lowStockThreshold,
      reorderLevel,
      branch,
      sellingPriceCents,
      purchasePriceCents,
      openingQuantity,
      batchNumber,
      expiryDate,
      unitCostCents,
    },
  };
}

// ------------------------------------------------------------------------------------------- reading the file

/**
 * How papaparse reads an import file, in the browser (preview) and on the server (import) alike: records of
 * cells (RFC 4180: quoted cells, doubled quotes, commas and line breaks inside quotes, CRLF or LF), every line
 * kept so row numbers are the file's, and the delimiter detected (comma, semicolon or tab).
 */
export const IMPORT_CSV_PARSE_OPTIONS = { header: false, skipEmptyLines: false } as const;

/** The options of one file: IMPORT_CSV_PARSE_OPTIONS and the delimiter its header line uses. */
export type CsvParseOptions = typeof IMPORT_CSV_PARSE_OPTIONS & { delimiter: ',' | ';' | '\t' };

/** The delimiter of a file: the one of comma, semicolon and tab its first line uses most (outside quotes); comma by default. */
export function csvDelimiter(source: string): ',' | ';' | '\t' {
  const counts = { ',': 0, ';': 0, '\t': 0 };
  let quoted = false;
  for (const ch of source) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && ch === '\n') break;
    else if (!quoted && (ch === ',' || ch === ';' || ch === '\t')) counts[ch] += 1;
  }
  return counts[';'] > counts[','] && counts[';'] >= counts['\t'] ? ';' : counts['\t'] > counts[','] ? '\t' : ',';
}

/** What the rules read of papaparse's answer (Papa.parse<string[]>(text, IMPORT_CSV_PARSE_OPTIONS)). */
export interface CsvParseResult {
  data: string[][];
  errors: { type: string; message: string; row?: number | undefined }[];
  meta: { delimiter: string };
}

/** An import file read: its trimmed headers and its data records with their row number in the file (header = 1). */
export interface CsvTable {
  headers: string[];
  rows: { row: number; cells: string[] }[];
}

/**
 * The one set of rules for an import file (the browser's preview and the server's import apply the same): a
 * byte-order mark is dropped; the file must not be empty, must close its quotes, use commas (or ; or tab), name
 * its columns in the first row without naming one twice, and carry at most IMPORT_MAX_ROWS rows; blank records are
 * skipped but counted. `parse` is papaparse with the options given (the domain does no I/O and loads no parser). Answers the table, or the sentence why the file cannot be read (and the row, when one is to blame).
 */
export function readImportCsv(text: string, parse: (source: string, options: CsvParseOptions) => CsvParseResult): { table: CsvTable } | { error: string; row?: number } {
  // One kind of line break: a file edited on two systems mixes CRLF and LF, and papaparse keeps the first it sees.
  const source = (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).replace(/\r\n?/g, '\n');
  if (!source.trim()) return { error: 'the file is empty' };
  const result = parse(source, { ...IMPORT_CSV_PARSE_OPTIONS, delimiter: csvDelimiter(source) });
  const quoteError = result.errors.find((e) => e.type === 'Quotes');
  if (quoteError) {
    const row = (quoteError.row ?? 0) + 1;
    return { error: `a quoted cell is never closed (row ${row})`, row };
  }
  const delimiter = result.meta.delimiter;
  if (delimiter !== ',' && delimiter !== ';' && delimiter !== '\t') return { error: 'use commas between columns' };
  const [headerRow, ...records] = result.data;
  const headers = (headerRow ?? []).map((h) => h.trim());
  if (!headers.some(Boolean)) return { error: 'the first row must name the columns' };
  const seen = new Set<string>();
  for (const h of headers) {
    if (!h) continue;
    if (seen.has(h.toLowerCase())) return { error: `the column '${h}' appears twice` };
    seen.add(h.toLowerCase());
  }
  // + 1: the file's trailing line break reads as one empty record.
  if (records.length > IMPORT_MAX_ROWS + 1) return { error: `at most ${IMPORT_MAX_ROWS} rows can be imported at once` };
  const rows = records.flatMap((cells, i) => (cells.every((c) => c.trim() === '') ? [] : [{ row: i + 2, cells }]));
  return { table: { headers, rows } };
}

/** Why a mapping cannot be used with these headers (a mapped column missing, or no Name column), or null. */
export function mappingProblem(headers: readonly string[], mapping: ImportMapping): string | null {
  const known = new Set(headers.map((h) => h.toLowerCase()));
  for (const field of IMPORT_FIELDS) {
    const header = mapping[field];
    if (header !== undefined && !known.has(header.trim().toLowerCase())) return `the column '${header}' mapped to ${IMPORT_HEADERS[field]} is not in the file`;
  }
  if (!mapping.name) return `no column gives the product name (map a column to '${IMPORT_HEADERS.name}')`;
  return null;
}

/** The values of one record by field, through the mapping (field → header, matched without case). */
export function mappedValues(headers: readonly string[], cells: readonly string[], mapping: ImportMapping): Partial<Record<ImportField, string>> {
  const index = new Map(headers.map((h, i) => [h.toLowerCase(), i] as const));
  const values: Partial<Record<ImportField, string>> = {};
  for (const field of IMPORT_FIELDS) {
    const header = mapping[field];
    if (header === undefined) continue;
    const column = index.get(header.trim().toLowerCase());
    const value = column === undefined ? undefined : cells[column];
    if (value !== undefined) values[field] = value;
  }
  return values;
}

/** A record with more non-empty cells than the header names columns. */
export function shapeProblem(headers: readonly string[], cells: readonly string[]): string | null {
  return cells.length > headers.length && cells.slice(headers.length).some((c) => c.trim() !== '')
    ? `Row has ${cells.length} cells but the header has ${headers.length}`
    : null;
}
