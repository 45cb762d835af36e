import type { jsPDF } from 'jspdf';
import type { Sale } from '@pharmapoint/domain/sales';
import type { Settings } from '@pharmapoint/domain/settings';
import { formatDateTime, formatMoney } from '@/lib/format';

/**
 * Sales documents as PDF (issue 10 item 9, decision 0037): an A4 invoice or an 80 mm receipt per sale, one or many
 * sales in one file (a page each), built with jspdf (loaded only when a document is asked for). The back office's
 * sales screens use it; the till keeps its own receipt dialog.
 */

export type SaleDocumentKind = 'invoice' | 'receipt';

/** What a document says about the pharmacy. */
export interface DocumentBusiness {
  name: string;
  address: string;
  phone: string;
  email: string;
  taxNumber: string;
  footer: string;
  returnPolicy: string;
  currencySymbol: string;
}

export function documentBusinessOf(settings: Settings | undefined, fallbackName = ''): DocumentBusiness {
  return {
    name: settings?.pharmacyName || fallbackName,
    address: settings?.pharmacyAddress ?? '',
    phone: settings?.pharmacyPhone ?? '',
    email: settings?.pharmacyEmail ?? '',
    taxNumber: settings?.vatNumber ?? '',
    footer: settings?.receiptFooter ?? '',
    returnPolicy: settings?.returnPolicy ?? '',
    currencySymbol: settings?.currencySymbol || 'KSh',
  };
}

/** A line's quantity as documents show it: packages in W mode, pieces in P. */
export function documentQuantity(line: Sale['lines'][number]): string {
  if (line.unitMode === 'W') return `${line.quantity / Math.max(1, line.packageSize)} pk`;
  return String(line.quantity);
}

/** The file name: one sale's invoice number, or how many sales. */
export function documentFileName(kind: SaleDocumentKind, sales: readonly Pick<Sale, 'invoiceNumber'>[]): string {
  if (sales.length === 1) return `${kind === 'invoice' ? 'Invoice' : 'Receipt'}-${sales[0]!.invoiceNumber}.pdf`;
  return `${kind === 'invoice' ? 'Invoices' : 'Receipts'}-${sales.length}-sales.pdf`;
}

function invoicePage(doc: jsPDF, sale: Sale, business: DocumentBusiness): void {
  const money = (cents: number) => formatMoney(cents, business.currencySymbol);
  const left = 18;
  const right = 192;
  let y = 20;
  doc.setFont('helvetica', 'bold');
  doc.setFontSize(16);
  doc.text(business.name || sale.branchName, left, y);
  doc.setFontSize(20);
  doc.text('INVOICE', right, y, { align: 'right' });
  doc.setFont('helvetica', 'normal');
  doc.setFontSize(9);
  y += 6;
  for (const row of [sale.branchName, business.address, business.phone, business.email, business.taxNumber ? `PIN: ${business.taxNumber}` : ''].filter(Boolean)) {
    doc.text(row, left, y);
    y += 4.5;
  }
  let ry = 26;
  for (const [label, value] of [
    ['Invoice', sale.invoiceNumber],
    ['Date', formatDateTime(sale.createdAt)],
    ['Sale date', sale.saleDate],
    ['Cashier', sale.cashier.name],
    ['Status', sale.status.replace('_', ' ')],
  ] as const) {
    doc.text(`${label}: ${value}`, right, ry, { align: 'right' });
    ry += 4.5;
  }
  y = Math.max(y, ry) + 4;
  doc.setFont('helvetica', 'bold');
  doc.text('Bill to', left, y);
  doc.setFont('helvetica', 'normal');
  y += 4.5;
  doc.text(sale.clientName + (sale.client?.phone ? ` (${sale.client.phone})` : ''), left, y);
  y += 8;

  const cols = { item: left, qty: 120, price: 150, total: right };
  doc.setFillColor(241, 245, 249);
  doc.rect(left - 2, y - 4.5, right - left + 4, 7, 'F');
  doc.setFont('helvetica', 'bold');
  doc.text('Item', cols.item, y);
  doc.text('Qty', cols.qty, y, { align: 'right' });
  doc.text('Unit price', cols.price, y, { align: 'right' });
  doc.text('Amount', cols.total, y, { align: 'right' });
  doc.setFont('helvetica', 'normal');
  y += 7;
  for (const line of sale.lines) {
    if (y > 260) {
      doc.addPage();
      y = 20;
    }
    const name = doc.splitTextToSize(line.name + (line.isDda && line.prescription ? ` (Rx: ${line.prescription.doctorName ?? ''})` : ''), 95) as string[];
    doc.text(name, cols.item, y);
    doc.text(documentQuantity(line), cols.qty, y, { align: 'right' });
    doc.text(money(line.unitPriceCents), cols.price, y, { align: 'right' });
    doc.text(money(line.grossCents), cols.total, y, { align: 'right' });
    y += 4.5 * name.length + 1.5;
  }
  y += 2;
  doc.line(110, y, right, y);
  y += 6;
  const sums: [string, number][] = [
    ['Subtotal', sale.subtotalCents],
    ...(sale.discountCents > 0 ? ([['Discount', -sale.discountCents]] as [string, number][]) : []),
    ['Tax', sale.taxCents],
    ['Total', sale.totalCents],
    ...sale.payments.map((p) => [`Paid (${p.method}${p.reference ? ` ${p.reference}` : ''})`, p.amountCents] as [string, number]),
    ...(sale.changeCents > 0 ? ([['Change', sale.changeCents]] as [string, number][]) : []),
    ...(sale.balanceDueCents > 0 ? ([['Balance due', sale.balanceDueCents]] as [string, number][]) : []),
  ];
  for (const [label, cents] of sums) {
    doc.setFont('helvetica', label === 'Total' || label === 'Balance due' ? 'bold' : 'normal');
    doc.text(label, 150, y, { align: 'right' });
    doc.text(money(cents), right, y, { align: 'right' });
    y += 5;
  }
  doc.setFont('helvetica', 'normal');
  y += 6;
  for (const note of [business.footer, business.returnPolicy].filter(Boolean)) {
    const rows = doc.splitTextToSize(note, right - left) as string[];
    doc.text(rows, left, y);
    y += rows.length * 4.5 + 2;
  }
}

function receiptRows(sale: Sale, business: DocumentBusiness, width: number): string[] {
  const money = (cents: number) => formatMoney(cents, business.currencySymbol);
  const pad = (l: string, r: string) => (l.length + r.length + 1 <= width ? `${l}${' '.repeat(width - l.length - r.length)}${r}` : `${l}\n${' '.repeat(Math.max(0, width - r.length))}${r}`);
  const rule = '-'.repeat(width);
  const out = [business.name || sale.branchName, sale.branchName, business.address, business.phone, business.taxNumber ? `PIN: ${business.taxNumber}` : ''].filter(Boolean);
  out.push(rule, `Invoice: ${sale.invoiceNumber}`, `Date: ${formatDateTime(sale.createdAt)}`, `Cashier: ${sale.cashier.name}`, `Client: ${sale.clientName}`, rule);
  for (const line of sale.lines) {
    out.push(line.name.slice(0, width));
    out.push(pad(`  ${documentQuantity(line)} x ${money(line.unitPriceCents)}`, money(line.grossCents)));
    if (line.isDda && line.prescription?.doctorName) out.push(`  Rx: ${line.prescription.doctorName}`.slice(0, width));
  }
  out.push(rule, pad('Subtotal', money(sale.subtotalCents)));
  if (sale.discountCents > 0) out.push(pad('Discount', `-${money(sale.discountCents)}`));
  out.push(pad('Tax', money(sale.taxCents)), pad('TOTAL', money(sale.totalCents)));
  for (const p of sale.payments) out.push(pad(p.method, money(p.amountCents)));
  if (sale.changeCents > 0) out.push(pad('Change', money(sale.changeCents)));
  if (sale.balanceDueCents > 0) out.push(pad('Balance due', money(sale.balanceDueCents)));
  out.push(rule);
  if (business.footer) out.push(business.footer);
  if (business.returnPolicy) out.push(business.returnPolicy);
  return out.flatMap((row) => row.split('\n'));
}

/** Builds the PDF of one or many sales: a page each. */
export async function buildSalesPdf(kind: SaleDocumentKind, sales: readonly Sale[], business: DocumentBusiness): Promise<jsPDF> {
  const { jsPDF: Pdf } = await import('jspdf');
  if (kind === 'invoice') {
    const doc = new Pdf({ unit: 'mm', format: 'a4' });
    sales.forEach((sale, i) => {
      if (i > 0) doc.addPage();
      invoicePage(doc, sale, business);
    });
    return doc;
  }
  const width = 42;
  const lineHeight = 3.6;
  const pages = sales.map((sale) => receiptRows(sale, business, width));
  const height = (rows: string[]) => Math.max(60, rows.length * lineHeight + 12);
  const doc = new Pdf({ unit: 'mm', format: [80, height(pages[0] ?? [])] });
  pages.forEach((rows, i) => {
    if (i > 0) doc.addPage([80, height(rows)]);
    doc.setFont('courier', 'normal');
    doc.setFontSize(8);
    rows.forEach((row, k) => doc.text(row, 3, 6 + k * lineHeight));
  });
  return doc;
}

/** Saves the PDF (the browser's download). */
export async function downloadSalesPdf(kind: SaleDocumentKind, sales: readonly Sale[], business: DocumentBusiness): Promise<void> {
  const doc = await buildSalesPdf(kind, sales, business);
  doc.save(documentFileName(kind, sales));
}

/** Opens the PDF in a new tab with the print dialog; false when the browser blocked the tab. */
export async function printSalesPdf(kind: SaleDocumentKind, sales: readonly Sale[], business: DocumentBusiness): Promise<boolean> {
  const tab = window.open('', '_blank');
  const doc = await buildSalesPdf(kind, sales, business);
  doc.autoPrint();
  const url = doc.output('bloburl').toString();
  if (!tab) return false;
  tab.location.href = url;
  return true;
}
