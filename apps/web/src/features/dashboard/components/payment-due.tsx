import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { AlertTriangle } from 'lucide-react';
import type { PaymentDueResponse } from '@pharmapoint/domain/supplier-payments';
import { Badge } from '@/components/ui/badge';
import { Card } from '@/components/ui/card';
import { ErrorState } from '@/components/ui/error-state';
import { api, errorMessage } from '@/lib/api';
import { formatDate, formatMoney } from '@/lib/format';

/** How many invoices the card lists (the answer lists the soonest 20 and counts them all); the report has them all. */
const SHOWN = 5;

/**
 * The dashboard's payment-due alert (seed 002: supplier balance tracking with payment-due alerts; issue 10 item 6):
 * supplier invoices due within 7 days or overdue, from GET /api/reports/suppliers/payment-due (report:financial).
 * Nothing is shown while nothing is due: an alert that is always there stops being read.
 */
export function PaymentDueAlert() {
  const { t } = useTranslation('dashboard');
  const due = useQuery({
    queryKey: ['supplier-payments', 'payment-due'] as const,
    queryFn: ({ signal }) => api.get<PaymentDueResponse>('/api/reports/suppliers/payment-due', { signal }),
  });
  if (due.isPending) return null;
  if (due.isError) {
    return (
      <Card title={t('paymentDue.title')}>
        <ErrorState title={t('paymentDue.error')} message={errorMessage(due.error)} onRetry={() => void due.refetch()} />
      </Card>
    );
  }
  const { invoices, invoiceCount, totalCents, overdueCount, windowDays } = due.data;
  if (invoiceCount === 0) return null;
  return (
    <Card
      title={t('paymentDue.title')}
      description={t('paymentDue.summary', { count: invoiceCount, total: formatMoney(totalCents), days: windowDays })}
      actions={
        <Link to="/app/reports/suppliers" className="text-sm font-medium text-primary underline-offset-2 hover:underline">
          {t('paymentDue.open')}
        </Link>
      }
      className="border-amber-300"
    >
      {overdueCount > 0 ? (
        <p role="alert" className="mb-3 flex items-center gap-2 text-sm font-medium text-red-700">
          <AlertTriangle className="size-4" aria-hidden="true" />
          {t('paymentDue.overdue', { count: overdueCount })}
        </p>
      ) : null}
      <ul className="divide-y divide-slate-100 text-sm">
        {invoices.slice(0, SHOWN).map((invoice) => (
          <li key={invoice.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
            <span className="min-w-0">
              <span className="font-medium text-slate-900">{invoice.supplierName}</span>
              <span className="block text-xs text-slate-500">
                {invoice.purchaseNumber} · {t('paymentDue.dueOn', { date: formatDate(invoice.dueDate) })}
              </span>
            </span>
            <span className="flex items-center gap-2">
              <span className="font-semibold tabular-nums text-slate-900">{formatMoney(invoice.outstandingCents)}</span>
              {invoice.daysOverdue > 0 ? (
                <Badge tone="danger">{t('paymentDue.daysOverdue', { count: invoice.daysOverdue })}</Badge>
              ) : (
                <Badge tone="warning">{t('paymentDue.dueSoon')}</Badge>
              )}
            </span>
          </li>
        ))}
      </ul>
      {invoiceCount > SHOWN ? <p className="mt-2 text-xs text-slate-500">{t('paymentDue.more', { count: invoiceCount - SHOWN })}</p> : null}
    </Card>
  );
}
