import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { LOW_STOCK_STATUSES, STOCK_REPORT_PAGE_SIZE, type LowStockItem, type LowStockQueryInput } from '@pharmapoint/domain/stock-reports';
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
import { StockStatusBadge } from '@/components/stock-status-badge';
import { useLowStock } from '@/features/reports/api/stock-reports';
import { ProductHistoryLink } from '@/features/reports/components/product-history-link';
import { useLiveStock } from '@/lib/live-stock/live-stock';
import { errorMessage } from '@/lib/api';
import { pageParam, useUrlFilters } from '@/lib/use-url-filters';
import { formatNumber } from '@/lib/format';

type LowStatus = NonNullable<LowStockQueryInput['status']>;

/** /app/reports/low-stock (report:inventory): active products at or below their threshold per branch (low or out). */
export default function LowStockReportPage() {
  const { t } = useTranslation('reports');
  const { t: tp } = useTranslation('products');
  const { me } = usePermissions();
  useLiveStock();
  const { params, update } = useUrlFilters();
  const branchId = params.get('branchId') ?? '';
  const rawStatus = params.get('status');
  const status = (LOW_STOCK_STATUSES as readonly string[]).includes(rawStatus ?? '') ? (rawStatus as LowStatus) : undefined;
  const page = pageParam(params);
  const report = useLowStock({ branchId: branchId || undefined, status, page, pageSize: STOCK_REPORT_PAGE_SIZE });
  const columns = useMemo(() => {
    const column = dataTableColumns<LowStockItem>();
    return [
      column.accessor('productName', {
        header: t('product'),
        cell: ({ row: { original: item } }) => <ProductHistoryLink productId={item.productId} name={item.productName} sku={item.sku} />,
      }),
      column.accessor('branchName', { header: t('branch'), meta: { cellClassName: 'whitespace-nowrap' } }),
      column.accessor('status', { header: t('lowStock.status'), cell: ({ getValue }) => <StockStatusBadge status={getValue()} /> }),
      column.accessor('quantity', { header: t('lowStock.quantity'), meta: { numeric: true }, cell: ({ getValue }) => formatNumber(getValue()) }),
      column.accessor('lowStockThreshold', { header: t('lowStock.threshold'), meta: { numeric: true }, cell: ({ getValue }) => formatNumber(getValue()) }),
      column.accessor('reorderLevel', { header: t('lowStock.reorderLevel'), meta: { numeric: true }, cell: ({ getValue }) => formatNumber(getValue()) }),
    ];
  }, [t]);

  const data = report.data;

  return (
    <div className="space-y-6">
      <PageHeader title={t('lowStock.title')} description={t('lowStock.description')} />
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
          <Field label={t('lowStock.status')}>
            <Select
              value={status ?? ''}
              placeholder={t('lowStock.allStatuses')}
              options={LOW_STOCK_STATUSES.map((s) => ({ value: s, label: tp(`status.${s}`) }))}
              onChange={(e) => update({ status: e.target.value })}
            />
          </Field>
        </div>
        {report.isPending ? (
          <LoadingState message={t('lowStock.loading')} />
        ) : report.isError || !data ? (
          <div className="p-4">
            <ErrorState message={`${t('lowStock.loadFailed')} ${errorMessage(report.error)}`} onRetry={() => void report.refetch()} />
          </div>
        ) : (
          <>
            <div className="grid gap-3 p-4 sm:grid-cols-2">
              <StatCard label={t('lowStock.outCount')} value={formatNumber(data.counts.out)} tone={data.counts.out > 0 ? 'negative' : 'neutral'} hint={t('lowStock.countHint')} />
              <StatCard label={t('lowStock.lowCount')} value={formatNumber(data.counts.low)} tone={data.counts.low > 0 ? 'warning' : 'neutral'} hint={t('lowStock.countHint')} />
            </div>
            <DataTable
              caption={t('lowStock.caption')}
              columns={columns}
              data={data.items}
              getRowId={(item) => `${item.productId}:${item.branchId}`}
              rowProps={(item) => ({ 'data-product-id': item.productId })}
              empty={<EmptyState title={t('lowStock.emptyTitle')} description={t('lowStock.emptyDescription')} />}
              stateClassName="p-4"
              pagination={{ page: data.page, pageSize: data.pageSize, total: data.total, onPageChange: (p) => update({ page: String(p) }) }}
            />
          </>
        )}
      </Card>
    </div>
  );
}
