import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Download, Printer, Undo2 } from 'lucide-react';
import { Button, buttonClasses } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { ErrorState } from '@/components/ui/error-state';
import { LoadingState } from '@/components/ui/loading-state';
import { errorMessage } from '@/lib/api';
import { formatDate, formatDateTime, formatMoney } from '@/lib/format';
import { documentBusinessOf, documentQuantity, downloadSalesPdf, printSalesPdf } from '@/lib/sale-documents';
import { toast } from '@/lib/toast';
import { useDocumentSettings, useSale, useSaleReturns } from '@/features/sales/api/sales';
import { SaleStatusBadge } from '@/features/sales/components/sale-status-badge';

/**
 * One sale in full (issue 10 item 7): its lines with the batches they took and any prescription, its payments, its
 * returns and void, and reprinting its receipt or invoice (print dialog or PDF). A link opens it on the returns screen.
 */
export function SaleDetailDialog({ saleId, onOpenChange, mayReturn }: { saleId: string | null; onOpenChange: (open: boolean) => void; mayReturn: boolean }) {
  const { t } = useTranslation('sales');
  const sale = useSale(saleId);
  const returns = useSaleReturns(saleId);
  const settings = useDocumentSettings();
  const business = documentBusinessOf(settings.data?.settings);
  const s = sale.data;

  async function reprint(kind: 'receipt' | 'invoice') {
    if (!s) return;
    if (!(await printSalesPdf(kind, [s], business))) toast.error(t('documents.popupBlocked'));
  }

  return (
    <Dialog
      open={saleId !== null}
      onOpenChange={onOpenChange}
      size="xl"
      title={s ? t('detail.title', { invoice: s.invoiceNumber }) : t('detail.loadingTitle')}
      description={s ? t('detail.description', { client: s.clientName, date: formatDateTime(s.createdAt), branch: s.branchName }) : undefined}
      footer={
        s ? (
          <div className="flex flex-wrap justify-end gap-2">
            {mayReturn && s.status !== 'voided' && s.status !== 'returned' ? (
              <Link to={`/app/sales/returns?sale=${s.id}`} className={buttonClasses('outline')}>
                <Undo2 className="size-4" aria-hidden="true" />
                {t('detail.returnItems')}
              </Link>
            ) : null}
            <Button variant="outline" onClick={() => void downloadSalesPdf('invoice', [s], business)} icon={<Download className="size-4" aria-hidden="true" />}>
              {t('detail.invoicePdf')}
            </Button>
            <Button onClick={() => void reprint('receipt')} icon={<Printer className="size-4" aria-hidden="true" />}>
              {t('detail.reprintReceipt')}
            </Button>
          </div>
        ) : undefined
      }
    >
      {sale.isPending ? <LoadingState message={t('detail.loading')} /> : null}
      {sale.isError ? <ErrorState message={errorMessage(sale.error)} onRetry={() => void sale.refetch()} /> : null}
      {s ? (
        <div className="space-y-5 text-sm">
          <dl className="grid grid-cols-2 gap-x-4 gap-y-2 sm:grid-cols-4">
            <div>
              <dt className="text-xs text-slate-500">{t('detail.status')}</dt>
              <dd><SaleStatusBadge status={s.status} /></dd>
            </div>
            <div>
              <dt className="text-xs text-slate-500">{t('detail.saleDate')}</dt>
              <dd>{formatDate(s.saleDate)}{s.isBackdated ? ` (${t('detail.backdated')})` : ''}</dd>
            </div>
            <div>
              <dt className="text-xs text-slate-500">{t('detail.cashier')}</dt>
              <dd className="break-words">{s.cashier.name}</dd>
            </div>
            <div>
              <dt className="text-xs text-slate-500">{t('detail.client')}</dt>
              <dd className="break-words">{s.clientName}{s.client?.phone ? ` · ${s.client.phone}` : ''}</dd>
            </div>
          </dl>

          <section aria-labelledby="sale-lines">
            <h3 id="sale-lines" className="mb-2 font-semibold text-slate-900">{t('detail.lines')}</h3>
            <ul className="divide-y divide-slate-100 rounded-md border border-slate-200">
              {s.lines.map((line) => (
                <li key={line.line} className="p-3">
                  <div className="flex flex-wrap justify-between gap-2">
                    <span className="font-medium text-slate-900">{line.name}</span>
                    <span className="tabular-nums">{documentQuantity(line)} × {formatMoney(line.unitPriceCents)} = {formatMoney(line.totalCents)}</span>
                  </div>
                  <p className="text-xs text-slate-500">
                    {t('detail.batches')}: {line.batches.map((b) => `${b.batchNumber ?? t('detail.noBatch')}${b.expiryDate ? ` (${t('detail.expires', { date: formatDate(b.expiryDate) })})` : ''} × ${b.quantity}`).join(', ') || '—'}
                  </p>
                  {line.prescription ? (
                    <p className="text-xs text-slate-600">
                      {t('detail.prescription', {
                        doctor: line.prescription.doctorName ?? '—',
                        hospital: line.prescription.hospitalName ?? '—',
                        number: line.prescription.prescriptionNumber ?? '—',
                      })}
                    </p>
                  ) : null}
                  {line.needsRefill && line.refillDueDate ? <p className="text-xs text-slate-600">{t('detail.refill', { date: formatDate(line.refillDueDate) })}</p> : null}
                </li>
              ))}
            </ul>
          </section>

          <div className="grid gap-5 sm:grid-cols-2">
            <section aria-labelledby="sale-payments">
              <h3 id="sale-payments" className="mb-2 font-semibold text-slate-900">{t('detail.payments')}</h3>
              <dl className="space-y-1">
                {s.payments.map((p, i) => (
                  <div key={i} className="flex justify-between gap-2">
                    <dt>{p.method}{p.reference ? ` · ${p.reference}` : ''}</dt>
                    <dd className="tabular-nums">{formatMoney(p.amountCents)}</dd>
                  </div>
                ))}
                {s.changeCents > 0 ? <Row label={t('detail.change')} value={formatMoney(s.changeCents)} /> : null}
                {s.balanceDueCents > 0 ? <Row label={t('detail.balanceDue')} value={formatMoney(s.balanceDueCents)} strong /> : null}
              </dl>
            </section>
            <section aria-labelledby="sale-totals">
              <h3 id="sale-totals" className="mb-2 font-semibold text-slate-900">{t('detail.totals')}</h3>
              <dl className="space-y-1">
                <Row label={t('detail.subtotal')} value={formatMoney(s.subtotalCents)} />
                {s.discountCents > 0 ? <Row label={t('detail.discount')} value={`-${formatMoney(s.discountCents)}`} /> : null}
                <Row label={t('detail.tax')} value={formatMoney(s.taxCents)} />
                <Row label={t('detail.total')} value={formatMoney(s.totalCents)} strong />
              </dl>
            </section>
          </div>

          <section aria-labelledby="sale-returns">
            <h3 id="sale-returns" className="mb-2 font-semibold text-slate-900">{t('detail.returns')}</h3>
            {returns.isPending ? <p className="text-slate-500">{t('detail.loading')}</p> : null}
            {returns.isError ? <p className="text-red-700">{errorMessage(returns.error)}</p> : null}
            {returns.data && returns.data.items.length === 0 ? <p className="text-slate-500">{t('detail.noReturns')}</p> : null}
            <ul className="space-y-2">
              {returns.data?.items.map((r) => (
                <li key={r.id} className="rounded-md border border-slate-200 p-3">
                  <div className="flex flex-wrap justify-between gap-2">
                    <span className="font-medium">{r.returnNumber} · {r.kind === 'void' ? t('detail.void') : t('detail.return')}</span>
                    <span className="tabular-nums">{t('detail.refund', { amount: formatMoney(r.refundCents) })}</span>
                  </div>
                  <p className="text-xs text-slate-500">{formatDateTime(r.createdAt)} · {r.createdBy.name} · {r.reason}</p>
                  <p className="text-xs text-slate-600">
                    {r.items.map((i) => `${i.name} × ${i.quantity} (${t(`condition.${i.condition}`)})`).join(', ')}
                  </p>
                  <p className="text-xs text-slate-600">
                    {r.creditCents > 0 ? t('detail.creditPart', { amount: formatMoney(r.creditCents) }) : null}
                    {r.creditCents > 0 && r.paidOutCents > 0 ? ' · ' : null}
                    {r.paidOutCents > 0 ? t('detail.paidOut', { amount: formatMoney(r.paidOutCents), method: r.refundMethod ?? '' }) : null}
                  </p>
                </li>
              ))}
            </ul>
          </section>
        </div>
      ) : null}
    </Dialog>
  );
}

function Row({ label, value, strong }: { label: string; value: string; strong?: boolean }) {
  return (
    <div className={strong ? 'flex justify-between gap-2 font-semibold' : 'flex justify-between gap-2'}>
      <dt>{label}</dt>
      <dd className="tabular-nums">{value}</dd>
    </div>
  );
}
