import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ArrowLeft, Smartphone, Wallet } from 'lucide-react';
import { AGING_BUCKETS, type CreditCustomer } from '@pharmapoint/domain/sales-history';
import { TILL_MPESA_RECONCILE_PERMISSIONS } from '@pharmapoint/domain/till-mpesa';
import { Button, buttonClasses } from '@/components/ui/button';
import { DataTable, dataTableColumns } from '@/components/ui/data-table';
import { EmptyState } from '@/components/ui/empty-state';
import { Field } from '@/components/ui/field';
import { PageHeader } from '@/components/ui/page-header';
import { Select } from '@/components/ui/select';
import { StatCard } from '@/components/ui/stat-card';
import { errorMessage } from '@/lib/api';
import { formatDate, formatMoney } from '@/lib/format';
import { usePermissions } from '@/features/auth/hooks/use-permissions';
import { useCreditOutstanding, usePaymentSummary } from '@/features/sales/api/sales';
import { DateRangeFields, dateQuery, type DateRangeValue } from '@/features/sales/components/date-range-fields';
import { MPESA_PAYMENTS_PATH, MpesaUnmatchedNotice } from '@/features/sales/components/mpesa-unmatched-notice';
import { RecordPaymentDialog } from '@/features/sales/components/record-payment-dialog';

interface DayRow {
  date: string;
  byMethod: Map<string, number>;
  netCents: number;
}

/**
 * /app/sales/payment-summary (issue 10 item 10, decision 0039): for a date range and branch, the money per payment
 * method and day (sales net of change, later payments of credit sales, refunds paid out); below, what each customer
 * still owes on credit sales with its aging, and recording a customer's later payment (allocated oldest first).
 */
export default function PaymentSummaryPage() {
  const { t } = useTranslation('sales');
  const { me, canAny, isDemo } = usePermissions();
  const mayRecord = canAny(['sales:create', 'pos:access']) && !isDemo;
  const [range, setRange] = useState<DateRangeValue>({ preset: 'thisMonth', from: '', to: '' });
  const [branchId, setBranchId] = useState('');
  const [paying, setPaying] = useState<CreditCustomer | null>(null);
  const summary = usePaymentSummary({ ...dateQuery(range), branchId: branchId || undefined });
  const credit = useCreditOutstanding(branchId || undefined);
  const branches = (me?.allowedBranches ?? []).map((b) => ({ value: b.id, label: b.name }));
  const methods = useMemo(() => summary.data?.methods ?? [], [summary.data]);

  const days = useMemo<DayRow[]>(() => {
    const byDate = new Map<string, DayRow>();
    for (const r of summary.data?.rows ?? []) {
      let day = byDate.get(r.date);
      if (!day) byDate.set(r.date, (day = { date: r.date, byMethod: new Map(), netCents: 0 }));
      day.byMethod.set(r.method, r.netCents);
      day.netCents += r.netCents;
    }
    return [...byDate.values()].sort((a, b) => b.date.localeCompare(a.date));
  }, [summary.data]);

  const dayColumns = useMemo(() => {
    const column = dataTableColumns<DayRow>();
    return [
      column.display({ id: 'date', header: t('summary.date'), meta: { rowHeader: true, cellClassName: 'whitespace-nowrap' }, cell: ({ row }) => formatDate(row.original.date) }),
      ...methods.map((m) =>
        column.display({ id: `m-${m}`, header: m, meta: { numeric: true, cellClassName: 'whitespace-nowrap' }, cell: ({ row }) => formatMoney(row.original.byMethod.get(m) ?? 0) }),
      ),
      column.display({ id: 'net', header: t('summary.dayTotal'), meta: { numeric: true, cellClassName: 'whitespace-nowrap font-semibold' }, cell: ({ row }) => formatMoney(row.original.netCents) }),
    ];
  }, [t, methods]);

  const creditColumns = useMemo(() => {
    const column = dataTableColumns<CreditCustomer>();
    return [
      column.display({
        id: 'customer',
        header: t('credit.customer'),
        meta: { rowHeader: true },
        cell: ({ row: { original: c } }) => (
          <>
            <span className="font-medium text-slate-900">{c.name}</span>
            {c.phone ? <span className="block text-xs text-slate-500">{c.phone}</span> : null}
            <span className="block text-xs text-slate-500">{t('credit.invoices', { count: c.invoices.length, date: formatDate(c.oldestSaleDate) })}</span>
          </>
        ),
      }),
      column.display({ id: 'balance', header: t('credit.balance'), meta: { numeric: true, cellClassName: 'whitespace-nowrap font-semibold' }, cell: ({ row }) => formatMoney(row.original.balanceCents) }),
      ...AGING_BUCKETS.map((b) =>
        column.display({ id: b, header: t(`aging.${b}`), meta: { numeric: true, cellClassName: 'whitespace-nowrap' }, cell: ({ row }) => formatMoney(row.original.buckets[b]) }),
      ),
      column.display({
        id: 'actions',
        header: t('credit.actions'),
        cell: ({ row: { original: c } }) =>
          mayRecord ? (
            <Button size="sm" onClick={() => setPaying(c)} aria-label={t('credit.recordLabel', { client: c.name })}>
              {t('credit.record')}
            </Button>
          ) : null,
      }),
    ];
  }, [t, mayRecord]);

  const s = summary.data;
  return (
    <div className="min-w-0 space-y-4">
      <PageHeader
        eyebrow={
          <Link to="/app/allsales" className="inline-flex items-center gap-1 hover:text-primary">
            <ArrowLeft className="size-4" aria-hidden="true" />
            {t('nav.backToSales')}
          </Link>
        }
        title={t('summary.title')}
        description={t('summary.description')}
        actions={
          canAny(TILL_MPESA_RECONCILE_PERMISSIONS) ? (
            <Link to={MPESA_PAYMENTS_PATH} className={buttonClasses('outline', 'sm')}>
              <Smartphone className="size-4" aria-hidden="true" />
              {t('nav.mpesaPayments')}
            </Link>
          ) : undefined
        }
      />
      <MpesaUnmatchedNotice />
      <section aria-label={t('filters.label')} className="grid gap-3 rounded-lg border border-slate-200 bg-white p-4 sm:grid-cols-2 lg:grid-cols-4">
        <DateRangeFields value={range} onChange={setRange} />
        <Field label={t('filters.branch')}>
          <Select value={branchId} onChange={(e) => setBranchId(e.target.value)} options={[{ value: '', label: t('filters.allBranches') }, ...branches]} />
        </Field>
      </section>
      <section aria-label={t('summary.totalsLabel')} className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        {(s?.totals ?? []).map((m) => (
          <StatCard key={m.method} label={m.method} value={formatMoney(m.netCents)} hint={t('summary.methodHint', { sales: formatMoney(m.salesCents), collected: formatMoney(m.collectedCents), refunded: formatMoney(m.refundedCents) })} />
        ))}
        <StatCard label={t('summary.net')} value={s ? formatMoney(s.netCents) : '—'} tone="primary" hint={s ? t('summary.range', { from: formatDate(s.from), to: formatDate(s.to) }) : undefined} />
        <StatCard label={t('summary.creditGiven')} value={s ? formatMoney(s.creditGivenCents) : '—'} tone="warning" />
      </section>
      <div className="rounded-lg border border-slate-200 bg-white">
        <DataTable
          caption={t('summary.caption')}
          columns={dayColumns}
          data={summary.isSuccess ? days : undefined}
          getRowId={(d) => d.date}
          isLoading={summary.isPending}
          loadingMessage={t('loading')}
          error={summary.isError ? `${t('error')}: ${errorMessage(summary.error)}` : undefined}
          onRetry={() => void summary.refetch()}
          empty={<EmptyState icon={<Wallet className="size-10" aria-hidden="true" />} title={t('summary.emptyTitle')} description={t('summary.emptyDescription')} />}
          stateClassName="p-4"
        />
      </div>
      <section aria-labelledby="credit-heading" className="space-y-3">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h2 id="credit-heading" className="text-lg font-semibold text-slate-900">{t('credit.title')}</h2>
          {credit.data ? <p className="text-sm text-slate-600">{t('credit.total', { amount: formatMoney(credit.data.totals.balanceCents), date: formatDate(credit.data.asOf) })}</p> : null}
        </div>
        <div className="rounded-lg border border-slate-200 bg-white">
          <DataTable
            caption={t('credit.caption')}
            columns={creditColumns}
            data={credit.data?.customers}
            getRowId={(c) => c.clientId}
            isLoading={credit.isPending}
            loadingMessage={t('loading')}
            error={credit.isError ? `${t('error')}: ${errorMessage(credit.error)}` : undefined}
            onRetry={() => void credit.refetch()}
            empty={<EmptyState icon={<Wallet className="size-10" aria-hidden="true" />} title={t('credit.emptyTitle')} description={t('credit.emptyDescription')} />}
            stateClassName="p-4"
          />
        </div>
      </section>
      <RecordPaymentDialog customer={paying} onOpenChange={(open) => !open && setPaying(null)} />
    </div>
  );
}
