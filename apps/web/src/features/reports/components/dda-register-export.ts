import { ddaParticulars, ddaReference, type DdaRegister, type DdaRegisterLine } from '@pharmapoint/domain/dda-register';
import { downloadBlob, downloadCsv, type ExportColumn } from '@/lib/report-export';
import { formatDate, formatNumber } from '@/lib/format';

/**
 * The DDA register's files: a CSV (every line of every register, with an opening and a totals row per register) and
 * a PDF in the bound-register layout (landscape A4, a page per drug and branch, continued on further pages when long;
 * jspdf is loaded only when asked for).
 */

export interface DdaRegisterHeading {
  pharmacyName: string;
  from: string;
  to: string;
}

/** A CSV row: a line of a register, or its opening balance or totals. */
export interface DdaCsvRow {
  register: DdaRegister;
  line: DdaRegisterLine | null;
  row: 'opening' | 'line' | 'totals';
}

export type Translate = (key: string, values?: Record<string, unknown>) => string;

export function ddaCsvRows(registers: readonly DdaRegister[]): DdaCsvRow[] {
  return registers.flatMap((register) => [
    { register, line: null, row: 'opening' as const },
    ...register.lines.map((line) => ({ register, line, row: 'line' as const })),
    { register, line: null, row: 'totals' as const },
  ]);
}

export function ddaCsvColumns(t: Translate): ExportColumn<DdaCsvRow>[] {
  const line = (pick: (l: DdaRegisterLine) => string | number | null | undefined) => (r: DdaCsvRow) => (r.line ? pick(r.line) : '');
  const rx = (pick: (d: NonNullable<DdaRegisterLine['dispensing']>) => string | null) => line((l) => (l.dispensing ? pick(l.dispensing) : ''));
  return [
    { header: t('columns.branch'), value: (r) => r.register.branchName },
    { header: t('columns.drug'), value: (r) => r.register.productName },
    { header: t('columns.sku'), value: (r) => r.register.sku },
    { header: t('columns.date'), value: (r) => (r.line ? r.line.date : '') },
    { header: t('columns.entry'), value: (r) => (r.row === 'opening' ? t('openingBalance') : r.row === 'totals' ? t('totals') : t(`kinds.${r.line!.kind}`)) },
    { header: t('columns.batch'), value: line((l) => l.batchNumber) },
    { header: t('columns.expiry'), value: line((l) => l.expiryDate) },
    { header: t('columns.particulars'), value: line((l) => ddaParticulars(l)) },
    { header: t('columns.supplier'), value: line((l) => l.supplierName) },
    { header: t('columns.invoice'), value: line((l) => l.invoiceNumber) },
    { header: t('columns.patient'), value: rx((d) => d.patientName) },
    { header: t('columns.patientAddress'), value: rx((d) => d.patientAddress) },
    { header: t('columns.patientId'), value: rx((d) => d.patientId) },
    { header: t('columns.prescriber'), value: rx((d) => d.prescriber) },
    { header: t('columns.licence'), value: rx((d) => d.prescriberLicence) },
    { header: t('columns.hospital'), value: rx((d) => d.hospital) },
    { header: t('columns.prescriptionNumber'), value: rx((d) => d.prescriptionNumber) },
    { header: t('columns.prescriptionDate'), value: rx((d) => d.prescriptionDate) },
    { header: t('columns.received'), value: (r) => (r.row === 'totals' ? r.register.totalReceived : r.line ? r.line.received || '' : '') },
    { header: t('columns.issued'), value: (r) => (r.row === 'totals' ? r.register.totalIssued : r.line ? r.line.issued || '' : '') },
    {
      header: t('columns.balance'),
      value: (r) => (r.row === 'opening' ? r.register.openingBalance : r.row === 'totals' ? r.register.closingBalance : r.line!.balance),
    },
    { header: t('columns.batchBalance'), value: line((l) => l.batchBalance) },
    { header: t('columns.enteredBy'), value: line((l) => l.enteredBy) },
  ];
}

export function ddaFileName(heading: DdaRegisterHeading, extension: 'csv' | 'pdf'): string {
  return `dda-register-${heading.from}-to-${heading.to}.${extension}`;
}

export function downloadDdaCsv(heading: DdaRegisterHeading, registers: readonly DdaRegister[], t: Translate): void {
  downloadCsv(ddaFileName(heading, 'csv'), ddaCsvRows(registers), ddaCsvColumns(t));
}

/** Landscape A4 in millimetres: the columns of the bound register. */
const PAGE = { width: 297, height: 210, margin: 12 };
const COLUMNS = [
  { key: 'date', width: 20 },
  { key: 'particulars', width: 86 },
  { key: 'reference', width: 38 },
  { key: 'batch', width: 26 },
  { key: 'received', width: 18, right: true },
  { key: 'issued', width: 18, right: true },
  { key: 'balance', width: 20, right: true },
  { key: 'enteredBy', width: 47 },
] as const;

/** The PDF of these registers: a page (or more) per drug and branch, headed like the printed register. */
export async function downloadDdaPdf(heading: DdaRegisterHeading, registers: readonly DdaRegister[], t: Translate): Promise<void> {
  const { jsPDF } = await import('jspdf');
  const doc = new jsPDF({ unit: 'mm', format: 'a4', orientation: 'landscape' });
  const period = t('period', { from: formatDate(heading.from), to: formatDate(heading.to) });
  const x0 = PAGE.margin;
  const lineHeight = 4;

  const header = (register: DdaRegister, continued: boolean): number => {
    let y = PAGE.margin + 4;
    doc.setFont('helvetica', 'bold');
    doc.setFontSize(13);
    doc.text(`${t('title')} — ${heading.pharmacyName}`, x0, y);
    y += 6;
    doc.setFontSize(11);
    doc.text(`${register.productName}${register.sku ? ` (${register.sku})` : ''}${continued ? ` — ${t('continued')}` : ''}`, x0, y);
    doc.setFont('helvetica', 'normal');
    doc.setFontSize(9);
    y += 5;
    doc.text(`${t('branchLabel')}: ${register.branchName}    ${period}    ${t('unitLabel')}: ${register.unit}`, x0, y);
    y += 6;
    doc.setFont('helvetica', 'bold');
    let x = x0;
    for (const column of COLUMNS) {
      const label = t(`columns.${column.key}`);
      doc.text(label, 'right' in column ? x + column.width - 1 : x, y, 'right' in column ? { align: 'right' } : undefined);
      x += column.width;
    }
    doc.setFont('helvetica', 'normal');
    y += 1.5;
    doc.line(x0, y, PAGE.width - PAGE.margin, y);
    return y + lineHeight;
  };

  const row = (y: number, cells: Record<(typeof COLUMNS)[number]['key'], string>): number => {
    const wrapped = COLUMNS.map((column) => doc.splitTextToSize(cells[column.key] ?? '', column.width - 2) as string[]);
    let x = x0;
    COLUMNS.forEach((column, i) => {
      const lines = wrapped[i]!;
      if ('right' in column) doc.text(lines, x + column.width - 1, y, { align: 'right' });
      else doc.text(lines, x, y);
      x += column.width;
    });
    return y + Math.max(...wrapped.map((w) => w.length)) * lineHeight;
  };

  registers.forEach((register, index) => {
    if (index > 0) doc.addPage();
    doc.setFontSize(8);
    let y = header(register, false);
    const ensure = (needed: number) => {
      if (y + needed <= PAGE.height - PAGE.margin) return;
      doc.addPage();
      y = header(register, true);
    };
    y = row(y, { date: formatDate(heading.from), particulars: t('openingBalance'), reference: '', batch: '', received: '', issued: '', balance: formatNumber(register.openingBalance), enteredBy: '' });
    for (const line of register.lines) {
      ensure(lineHeight * 3);
      y = row(y, {
        date: formatDate(line.date),
        particulars: ddaParticulars(line),
        reference: ddaReference(line),
        batch: line.batchNumber ?? '',
        received: line.received ? formatNumber(line.received) : '',
        issued: line.issued ? formatNumber(line.issued) : '',
        balance: formatNumber(line.balance),
        enteredBy: line.enteredBy ?? '',
      });
    }
    if (register.truncated) {
      ensure(lineHeight * 2);
      y = row(y, { date: '', particulars: t('truncated', { shown: register.lines.length, count: register.lineCount }), reference: '', batch: '', received: '', issued: '', balance: '', enteredBy: '' });
    }
    ensure(lineHeight * 3);
    doc.line(x0, y - lineHeight + 1, PAGE.width - PAGE.margin, y - lineHeight + 1);
    doc.setFont('helvetica', 'bold');
    y = row(y, {
      date: formatDate(heading.to),
      particulars: t('totalsAndClosing'),
      reference: '',
      batch: '',
      received: formatNumber(register.totalReceived),
      issued: formatNumber(register.totalIssued),
      balance: formatNumber(register.closingBalance),
      enteredBy: '',
    });
    doc.setFont('helvetica', 'normal');
  });
  if (registers.length === 0) {
    doc.setFontSize(12);
    doc.text(`${t('title')} — ${heading.pharmacyName}`, x0, PAGE.margin + 4);
    doc.setFontSize(10);
    doc.text(`${period}: ${t('emptyTitle')}`, x0, PAGE.margin + 12);
  }
  downloadBlob(ddaFileName(heading, 'pdf'), doc.output('blob'));
}
