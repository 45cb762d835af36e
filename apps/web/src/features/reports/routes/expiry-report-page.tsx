import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { MAX_EXPIRY_WINDOW_DAYS, STOCK_REPORT_PAGE_SIZE, type ExpiringBatch } from '@pharmapoint/domain/stock-reports';
import { Badge } from '@/components/ui/badge';
import { Card } from '@/components/ui/card';
import { DataTable, dataTableColumns } from '@/components/ui/data-table';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorState } from '@/components/ui/error-state';
import { Field } from '@/components/ui/field';
import { LoadingState } from '@/components/ui/loading-state';
import { PageHeader } from '@/components/ui/page-header';
import { Select } from '@/components/ui/select';
import { StatCard } from '@/components/ui/stat-card';
import { usePermissions } from '@/features/auth/hooks/use-permissions';
import { useExpiringBatches } from '@/features/reports/api/stock-reports';
import { ProductHistoryLink } from '@/features/reports/components/product-history-link';
import { useLiveStock } from '@/lib/live-stock/live-stock';
import { errorMessage } from '@/lib/api';
import { intParam, pageParam, useUrlFilters } from '@/lib/use-url-filters';
import { formatDate, formatMoney, formatNumber } from '@/lib/format';

/** Windows offered besides the settings' expiry alert days. */
const WINDOWS = [0, 7, 14, 30, 60, 90, 180, 365];

function DaysLeft({ batch }: { batch: ExpiringBatch }) {
  const { t } = useTranslation('reports');
  if (batch.isExpired) return <Badge tone="danger" className="whitespace-nowrap">{t('expiry.expiredAgo', { count: -batch.daysLeft })}</Badge>;
  if (batch.daysLeft === 0) return <Badge tone="warning" className="whitespace-nowrap">{t('expiry.expiresToday')}</Badge>;
  return <span className="whitespace-nowrap">{t('expiry.daysLeftCount', { count: batch.daysLeft })}</span>;
}

/** /app/reports/expiry (report:inventory): batches with stock that are expired or expire within the chosen window. */
export default function ExpiryReportPage() {
  const { t } = useTranslation('reports');
  const { me } = usePermissions();
  useLiveStock();
  const { params, update } = useUrlFilters();
  const branchId = params.get('branchId') ?? '';
  const days = intParam(params.get('days'), 0, MAX_EXPIRY_WINDOW_DAYS);
  const page = pageParam(params);
  const report = useExpiringBatches({ branchId: branchId || undefined, days, page, pageSize: STOCK_REPORT_PAGE_SIZE });
  const columns = useMemo(() => {
    const column = dataTableColumns<ExpiringBatch>();
    return [
      column.accessor('productName', {
        header: t('product'),
        cell: ({ row: { original: batch } }) => <ProductHistoryLink productId={batch.productId} name={batch.productName} sku={batch.sku} />,
      }),
      column.accessor('branchName', { header: t('branch'), meta: { cellClassName: 'whitespace-nowrap' } }),
      column.accessor('batchNumber', { header: t('expiry.batch'), cell: ({ getValue }) => getValue() ?? <span className="text-slate-600">{t('expiry.noBatchNumber')}</span> }),
      column.accessor('expiryDate', {
        header: t('expiry.expiryDate'),
        meta: { cellClassName: 'whitespace-nowrap' },
        cell: ({ getValue }) => <time dateTime={getValue()}>{formatDate(`${getValue()}T00:00:00`)}</time>,
      }),
      column.accessor('daysLeft', { header: t('expiry.daysLeft'), cell: ({ row }) => <DaysLeft batch={row.original} /> }),
      column.accessor('quantity', { header: t('expiry.quantity'), meta: { numeric: true }, cell: ({ getValue }) => formatNumber(getValue()) }),
      column.accessor('valueCents', { header: t('expiry.value'), meta: { numeric: true, cellClassName: 'whitespace-nowrap' }, cell: ({ getValue }) => formatMoney(getValue()) }),
    ];
  }, [t]);

  const data = report.data;
  const shownDays = data?.days ?? days;
  const alertDays = data?.expiryAlertDays;
  const windows = [...new Set([...WINDOWS, ...(alertDays !== undefined ? [alertDays] : []), ...(days !== undefined ? [days] : [])])].sort((a, b) => a - b);
  const windowLabel = (n: number) => (n === 0 ? t('expiry.expiredOnly') : t('expiry.withinDays', { count: n }));

  return (
    <div className="space-y-6">
      <PageHeader title={t('expiry.title')} description={t('expiry.description')} />
      <Card flush>
        <div className="grid gap-3 border-b border-slate-100 p-4 sm:grid-cols-2 lg:grid-cols-3" role="group" aria-label={t('filters')}>
          <Field label={t('branch')}>
            <Select
              value={branchId}
              placeholder={t('allBranches')}
              options={(me?.allowedBranches ?? []).map((b) => ({ value: b.id, label: b.name }))}
              onChange={(e) => update({ branchId: e.target.value })}
            />
          </Field>
          <Field label={t('expiry.window')}>
            <Select
              value={shownDays === undefined ? '' : String(shownDays)}
              onChange={(e) => update({ days: e.target.value })}
              options={windows.map((n) => ({
                value: String(n),
                label: n === alertDays ? t('expiry.settingsDefault', { label: windowLabel(n) }) : windowLabel(n),
              }))}
            />
          </Field>
        </div>
        {report.isPending ? (
          <LoadingState message={t('expiry.loading')} />
        ) : report.isError || !data ? (
          <div className="p-4">
            <ErrorState message={`${t('expiry.loadFailed')} ${errorMessage(report.error)}`} onRetry={() => void report.refetch()} />
          </div>
        ) : (
          <>
            <div className="grid gap-3 p-4 sm:grid-cols-2">
              <StatCard
                label={t('expiry.expiredBatches')}
                value={formatNumber(data.totals.expiredBatches)}
                tone={data.totals.expiredBatches > 0 ? 'negative' : 'neutral'}
                hint={t('expiry.expiredHint', { quantity: formatNumber(data.totals.expiredQuantity), value: formatMoney(data.totals.expiredValueCents) })}
              />
              <StatCard
                label={t('expiry.nearBatches', { days: data.days })}
                value={formatNumber(data.totals.nearBatches)}
                tone={data.totals.nearBatches > 0 ? 'warning' : 'neutral'}
                hint={t('expiry.nearHint', { quantity: formatNumber(data.totals.nearQuantity), value: formatMoney(data.totals.nearValueCents) })}
              />
            </div>
            <DataTable
              caption={t('expiry.caption', { days: data.days })}
              columns={columns}
              data={data.items}
              getRowId={(batch) => batch.batchId}
              rowProps={(batch) => ({ 'data-batch-id': batch.batchId })}
              empty={<EmptyState title={t('expiry.emptyTitle')} description={t('expiry.emptyDescription', { days: data.days })} />}
              stateClassName="p-4"
              pagination={{ page: data.page, pageSize: data.pageSize, total: data.total, onPageChange: (p) => update({ page: String(p) }) }}
            />
          </>
        )}
      </Card>
    </div>
  );
}
