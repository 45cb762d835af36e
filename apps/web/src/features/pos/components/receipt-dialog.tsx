import { useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { Download, MessageCircle, Printer } from 'lucide-react';
import { unitsOfLine, type Sale } from '@pharmapoint/domain/sales';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Select } from '@/components/ui/select';
import { errorMessage } from '@/lib/api';
import { formatDateTime, formatMoney } from '@/lib/format';
import { toast } from '@/lib/toast';
import { CHARS_PER_LINE, PAPER_MM, receiptText, whatsappLink, type PaperWidth, type ReceiptBusiness } from '@/features/pos/lib/receipt-text';

const PAPER_KEY = 'pp_receipt_paper';

function storedPaper(fallback: PaperWidth): PaperWidth {
  try {
    const value = localStorage.getItem(PAPER_KEY);
    return value === '58' || value === '80' || value === 'a4' ? value : fallback;
  } catch {
    return fallback;
  }
}

export interface ReceiptDialogProps {
  sale: Sale | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  business: ReceiptBusiness;
  /** The client's phone for 'Send on WhatsApp' (the sale's client). */
  printOnOpen?: boolean;
  /** settings.receiptFormat: 'a4' starts on A4, 'thermal' on an 80 mm roll (until this till chooses). */
  receiptFormat?: 'thermal' | 'a4';
}

/**
 * The Sale Receipt modal (seed 001 section 2, issue 9 item 6) and its print-only layout for a thermal roll: 80 mm
 * or 58 mm (this till's printer, remembered in the browser; decision 0025). Print opens the browser's print dialog
 * (by itself when settings.printReceiptByDefault); PDF builds the receipt with jspdf, loaded only now; WhatsApp
 * opens wa.me with the receipt text for the client's number.
 */
export default function ReceiptDialog({ sale, open, onOpenChange, business, printOnOpen, receiptFormat }: ReceiptDialogProps) {
  const { t } = useTranslation('pos');
  const [paper, setPaper] = useState<PaperWidth>(() => storedPaper(receiptFormat === 'a4' ? 'a4' : '80'));
  const printed = useRef<string | null>(null);
  const money = (cents: number) => formatMoney(cents, business.currencySymbol);

  useEffect(() => {
    if (!open || !sale || !printOnOpen || printed.current === sale.id) return;
    printed.current = sale.id;
    // After the print layout is in the page.
    const timer = window.setTimeout(() => window.print(), 50);
    return () => window.clearTimeout(timer);
  }, [open, sale, printOnOpen]);

  if (!sale) return null;
  const labels = {
    invoice: t('receipt.invoice'),
    date: t('receipt.date'),
    saleDate: t('receipt.saleDate'),
    cashier: t('receipt.cashier'),
    client: t('receipt.client'),
    subtotal: t('pay.subtotal'),
    discount: t('pay.discount'),
    tax: t('pay.tax'),
    rounding: t('pay.rounding'),
    total: t('pay.total'),
    paid: t('receipt.amountPaid'),
    change: t('pay.change'),
    balance: t('receipt.balanceDue'),
    prescriber: t('receipt.prescriber'),
    taxNumber: t('receipt.taxNumber'),
  };
  const text = receiptText(sale, business, CHARS_PER_LINE[paper], labels);

  async function downloadPdf() {
    try {
      const { jsPDF } = await import('jspdf');
      const widthMm = paper === 'a4' ? 210 : PAPER_MM[paper];
      const rows = text.split('\n');
      const lineHeight = 3.6;
      const doc = new jsPDF({ unit: 'mm', format: paper === 'a4' ? 'a4' : [widthMm, Math.max(60, rows.length * lineHeight + 12)] });
      doc.setFont('courier', 'normal');
      doc.setFontSize(paper === '80' ? 8 : 7);
      rows.forEach((row, i) => doc.text(row, paper === 'a4' ? 20 : 3, (paper === 'a4' ? 20 : 6) + i * lineHeight));
      doc.save(`${sale!.invoiceNumber}.pdf`);
    } catch (error) {
      toast.error(errorMessage(error));
    }
  }

  const print = (
    <div className={`pp-receipt-print pp-paper-${paper}`} aria-hidden="true">
      <style>{`
        .pp-receipt-print { display: none; }
        @media print {
          @page { size: ${paper === 'a4' ? 'A4' : `${PAPER_MM[paper]}mm auto`}; margin: ${paper === 'a4' ? '15mm' : '0'}; }
          body > *:not(.pp-receipt-print) { display: none !important; }
          .pp-receipt-print { display: block; width: ${PAPER_MM[paper]}mm; padding: 2mm 3mm; font-family: ui-monospace, monospace; font-size: ${paper === '80' ? '9pt' : '7.5pt'}; color: #000; }
          .pp-receipt-print table { width: 100%; border-collapse: collapse; }
          .pp-receipt-print td { vertical-align: top; padding: 0.3mm 0; }
          .pp-receipt-print .r { text-align: right; white-space: nowrap; }
          .pp-receipt-print .c { text-align: center; }
          .pp-receipt-print img { display: block; margin: 0 auto 1mm; max-height: 18mm; max-width: 60%; }
          .pp-receipt-print hr { border: 0; border-top: 1px dashed #000; margin: 1.5mm 0; }
        }
      `}</style>
      <ReceiptBody sale={sale} business={business} money={money} />
    </div>
  );

  return (
    <>
      {open ? createPortal(print, document.body) : null}
      <Dialog
        open={open}
        onOpenChange={onOpenChange}
        title={t('receipt.title')}
        description={t('receipt.description', { invoice: sale.invoiceNumber })}
        size="md"
        footer={
          <>
            <Button variant="outline" icon={<Printer className="size-4" />} onClick={() => window.print()}>
              {t('receipt.print')}
            </Button>
            <Button variant="outline" icon={<Download className="size-4" />} onClick={() => void downloadPdf()}>
              {t('receipt.pdf')}
            </Button>
            <a
              href={whatsappLink(sale.client?.phone, text)}
              target="_blank"
              rel="noreferrer"
              className="inline-flex h-10 items-center gap-2 rounded-md border border-slate-300 bg-white px-4 text-sm font-medium text-slate-700 hover:bg-slate-50"
            >
              <MessageCircle className="size-4" aria-hidden="true" />
              {t('receipt.whatsapp')}
            </a>
            <Button onClick={() => onOpenChange(false)}>{t('receipt.newSale')}</Button>
          </>
        }
      >
        <div className="mb-3 flex items-center justify-end gap-2 text-sm">
          <label htmlFor="pos-paper" className="text-slate-600">
            {t('receipt.paper')}
          </label>
          <Select
            id="pos-paper"
            className="w-28"
            value={paper}
            onChange={(event) => {
              const value = event.target.value as PaperWidth;
              setPaper(value);
              try {
                localStorage.setItem(PAPER_KEY, value);
              } catch {
                // Not remembered.
              }
            }}
            options={[
              { value: '80', label: t('receipt.paper80') },
              { value: '58', label: t('receipt.paper58') },
              { value: 'a4', label: t('receipt.paperA4') },
            ]}
          />
        </div>
        <div className="rounded-md border border-slate-200 bg-slate-50 p-3 font-mono text-xs" data-testid="receipt">
          <ReceiptBody sale={sale} business={business} money={money} />
        </div>
      </Dialog>
    </>
  );
}

function ReceiptBody({ sale, business, money }: { sale: Sale; business: ReceiptBusiness; money: (cents: number) => string }) {
  const { t } = useTranslation('pos');
  return (
    <div>
      {business.logoUrl ? <img src={business.logoUrl} alt="" className="mx-auto mb-1 max-h-16 max-w-[60%] object-contain" /> : null}
      <p className="c text-center text-sm font-bold">{business.name || sale.branchName}</p>
      <p className="c text-center">{sale.branchName}</p>
      {business.address ? <p className="c text-center">{business.address}</p> : null}
      {business.phone ? <p className="c text-center">{business.phone}</p> : null}
      {business.taxNumber ? <p className="c text-center">{t('receipt.taxNumber')}: {business.taxNumber}</p> : null}
      <hr className="my-2 border-dashed border-slate-400" />
      <p>{t('receipt.invoice')}: <strong>{sale.invoiceNumber}</strong></p>
      <p>{t('receipt.date')}: {formatDateTime(sale.createdAt)}</p>
      {sale.isBackdated ? <p>{t('receipt.saleDate')}: {sale.saleDate}</p> : null}
      <p>{t('receipt.cashier')}: {sale.cashier.name}</p>
      <p>{t('receipt.client')}: {sale.clientName}</p>
      <hr className="my-2 border-dashed border-slate-400" />
      <table className="w-full">
        <tbody>
          {sale.lines.map((line) => (
            <tr key={line.line}>
              <td>
                {line.name}
                <br />
                {unitsOfLine(line.quantity, line.unitMode, line.packageSize)} {line.unitMode === 'W' ? t('receipt.packs') : t('receipt.pcs')} × {money(line.unitPriceCents)}
                {line.prescription?.doctorName ? (
                  <>
                    <br />
                    {t('receipt.prescriber')}: {line.prescription.doctorName}
                    {line.prescription.hospitalName ? `, ${line.prescription.hospitalName}` : ''}
                  </>
                ) : null}
              </td>
              <td className="r text-right align-top">{money(line.grossCents)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <hr className="my-2 border-dashed border-slate-400" />
      <table className="w-full">
        <tbody>
          <Row label={t('pay.subtotal')} value={money(sale.subtotalCents)} />
          <Row label={t('pay.discount')} value={money(-sale.discountCents)} />
          <Row label={t('pay.tax')} value={money(sale.taxCents)} />
          {sale.roundingCents ? <Row label={t('pay.rounding')} value={money(sale.roundingCents)} /> : null}
          <Row label={t('pay.total')} value={money(sale.totalCents)} strong />
          {sale.payments.map((p, i) => (
            <Row key={i} label={`${p.method}${p.reference ? ` (${p.reference})` : ''}`} value={money(p.amountCents)} />
          ))}
          <Row label={t('receipt.amountPaid')} value={money(sale.amountPaidCents)} />
          <Row label={t('pay.change')} value={money(sale.changeCents)} strong />
          {sale.balanceDueCents ? <Row label={t('receipt.balanceDue')} value={money(sale.balanceDueCents)} /> : null}
        </tbody>
      </table>
      {business.footer || business.returnPolicy ? <hr className="my-2 border-dashed border-slate-400" /> : null}
      {business.footer ? <p className="c text-center">{business.footer}</p> : null}
      {business.returnPolicy ? <p className="c text-center">{business.returnPolicy}</p> : null}
    </div>
  );
}

function Row({ label, value, strong }: { label: string; value: string; strong?: boolean }) {
  return (
    <tr className={strong ? 'font-bold' : undefined}>
      <td>{label}</td>
      <td className="r text-right tabular-nums">{value}</td>
    </tr>
  );
}
