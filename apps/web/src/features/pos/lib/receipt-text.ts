import { unitsOfLine, type Sale } from '@pharmapoint/domain/sales';
import { formatDateTime, formatMoney } from '@/lib/format';

/** What the receipt says about the pharmacy (settings, with the pharmacy's name when settings hold none). */
export interface ReceiptBusiness {
  name: string;
  /** The pharmacy theme's logo (an https URL or an inline image), when it has one. */
  logoUrl?: string | null;
  address: string;
  phone: string;
  email: string;
  taxNumber: string;
  footer: string;
  returnPolicy: string;
  currencySymbol: string;
}

/** Papers of the print layout: 80 mm and 58 mm thermal rolls, or an A4 sheet (decision 0025). */
export const PAPER_WIDTHS = ['80', '58', 'a4'] as const;
export type PaperWidth = (typeof PAPER_WIDTHS)[number];

/** Characters per line of plain text on each paper (the PDF and WhatsApp text use them too). */
export const CHARS_PER_LINE: Record<PaperWidth, number> = { '80': 42, '58': 32, a4: 60 };

/** The printed width of a paper, mm (A4's text column is kept receipt-narrow). */
export const PAPER_MM: Record<PaperWidth, number> = { '80': 80, '58': 58, a4: 120 };

function pad(left: string, right: string, width: number): string {
  const space = width - left.length - right.length;
  if (space >= 1) return `${left}${' '.repeat(space)}${right}`;
  return `${left}\n${' '.repeat(Math.max(0, width - right.length))}${right}`;
}

/** A line's quantity as the receipt shows it: '2 × pack of 10' in W, '3' in P. */
export function receiptQuantity(line: Sale['lines'][number]): string {
  const units = unitsOfLine(line.quantity, line.unitMode, line.packageSize);
  return line.unitMode === 'W' ? `${units} pk` : String(units);
}

/**
 * The receipt as plain text (the WhatsApp message and the PDF's body), with every field of issue 9 item 6 that the
 * sale and the settings hold.
 */
export function receiptText(sale: Sale, business: ReceiptBusiness, width = 42, labels: Record<string, string> = {}): string {
  const money = (cents: number) => formatMoney(cents, business.currencySymbol);
  const l = (key: string, fallback: string) => labels[key] ?? fallback;
  const rule = '-'.repeat(width);
  const out: string[] = [];
  out.push(business.name || sale.branchName);
  out.push(sale.branchName);
  if (business.address) out.push(business.address);
  if (business.phone) out.push(business.phone);
  if (business.taxNumber) out.push(`${l('taxNumber', 'PIN')}: ${business.taxNumber}`);
  out.push(rule);
  out.push(`${l('invoice', 'Invoice')}: ${sale.invoiceNumber}`);
  out.push(`${l('date', 'Date')}: ${formatDateTime(sale.createdAt)}`);
  if (sale.isBackdated) out.push(`${l('saleDate', 'Sale date')}: ${sale.saleDate}`);
  out.push(`${l('cashier', 'Cashier')}: ${sale.cashier.name}`);
  out.push(`${l('client', 'Client')}: ${sale.clientName}`);
  out.push(rule);
  for (const line of sale.lines) {
    out.push(line.name);
    out.push(pad(`  ${receiptQuantity(line)} x ${money(line.unitPriceCents)}`, money(line.grossCents), width));
    if (line.prescription?.doctorName) {
      out.push(`  ${l('prescriber', 'Prescriber')}: ${line.prescription.doctorName}${line.prescription.hospitalName ? `, ${line.prescription.hospitalName}` : ''}`);
    }
  }
  out.push(rule);
  out.push(pad(l('subtotal', 'Subtotal'), money(sale.subtotalCents), width));
  if (sale.discountCents) out.push(pad(l('discount', 'Discount'), money(-sale.discountCents), width));
  out.push(pad(l('tax', 'Tax'), money(sale.taxCents), width));
  if (sale.roundingCents) out.push(pad(l('rounding', 'Rounding'), money(sale.roundingCents), width));
  out.push(pad(l('total', 'TOTAL'), money(sale.totalCents), width));
  for (const payment of sale.payments) {
    out.push(pad(`${payment.method}${payment.reference ? ` (${payment.reference})` : ''}`, money(payment.amountCents), width));
  }
  out.push(pad(l('paid', 'Amount paid'), money(sale.amountPaidCents), width));
  out.push(pad(l('change', 'Change'), money(sale.changeCents), width));
  if (sale.balanceDueCents) out.push(pad(l('balance', 'Balance due'), money(sale.balanceDueCents), width));
  out.push(rule);
  if (business.footer) out.push(business.footer);
  if (business.returnPolicy) out.push(business.returnPolicy);
  return out.join('\n');
}

/**
 * The wa.me link that opens WhatsApp with the receipt for the client's number (digits only, Kenyan 07…/01… made
 * 2547…/2541…); without a number WhatsApp asks whom to send it to.
 */
export function whatsappLink(phone: string | null | undefined, text: string): string {
  let digits = (phone ?? '').replace(/\D/g, '');
  if (/^0\d{9}$/.test(digits)) digits = `254${digits.slice(1)}`;
  return `https://wa.me/${digits}?text=${encodeURIComponent(text)}`;
}
