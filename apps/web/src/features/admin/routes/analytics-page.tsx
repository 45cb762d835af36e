import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BarChart3 } from 'lucide-react';
import type { AdminAnalyticsResponse } from '@pharmapoint/domain/admin';
import { PageHeader } from '@/components/ui/page-header';
import { DataTable, dataTableColumns } from '@/components/ui/data-table';
import { EmptyState } from '@/components/ui/empty-state';
import { StatCard } from '@/components/ui/stat-card';
import { Badge } from '@/components/ui/badge';
import { errorMessage } from '@/lib/api';
import { formatDate, formatMoney, formatNumber } from '@/lib/format';
import { currentMonth, useAnalytics } from '@/features/admin/api/admin';
import { MonthField } from '@/features/admin/components/month-field';
import '@/features/admin/admin-catalogue';

type Row = AdminAnalyticsResponse['pharmacies'][number];

/** Analytics (issue 11 item 8): active pharmacies and each pharmacy's sales of a month, counts and totals only. */
export default function AnalyticsPage() {
  const { t } = useTranslation('admin');
  const [month, setMonth] = useState(currentMonth());
  const analytics = useAnalytics(month);
  const data = analytics.data;

  const columns = useMemo(() => {
    const column = dataTableColumns<Row>();
    return [
      column.display({
        id: 'name',
        header: t('saas.pharmacy'),
        meta: { rowHeader: true },
        cell: ({ row: { original: p } }) => (
          <>
            <span className="font-medium text-slate-900">{p.name}</span> {p.isDemo ? <Badge tone="warning">{t('saas.demo')}</Badge> : null}
          </>
        ),
      }),
      column.display({ id: 'count', header: t('analytics.salesCount'), meta: { numeric: true }, cell: ({ row }) => formatNumber(row.original.salesCount) }),
      column.display({ id: 'total', header: t('analytics.salesTotal'), meta: { numeric: true, cellClassName: 'whitespace-nowrap' }, cell: ({ row }) => formatMoney(row.original.salesTotalCents) }),
      column.display({ id: 'last', header: t('analytics.lastSale'), meta: { cellClassName: 'whitespace-nowrap' }, cell: ({ row }) => formatDate(row.original.lastSaleDate) }),
    ];
  }, [t]);

  return (
    <div className="min-w-0 space-y-4">
      <PageHeader title={t('analytics.title')} description={t('analytics.description')} />
      <MonthField value={month} onChange={setMonth} max={currentMonth()} />
      {data ? (
        <div className="grid grid-cols-2 gap-3 md:grid-cols-4">
          <StatCard label={t('analytics.active')} value={formatNumber(data.totals.activePharmacies)} tone="positive" icon={<BarChart3 className="size-5" />} />
          <StatCard label={t('analytics.salesCount')} value={formatNumber(data.totals.salesCount)} />
          <StatCard label={t('analytics.salesTotal')} value={formatMoney(data.totals.salesTotalCents)} tone="primary" />
          <StatCard label={t('saas.signUps')} value={formatNumber(data.totals.signUps)} />
        </div>
      ) : null}
      <DataTable
        caption={t('analytics.caption')}
        columns={columns}
        data={data?.pharmacies}
        getRowId={(row) => row.id}
        isLoading={analytics.isPending}
        error={analytics.isError ? errorMessage(analytics.error) : undefined}
        onRetry={() => void analytics.refetch()}
        empty={<EmptyState title={t('saas.empty')} description={t('saas.emptyDescription')} />}
        pagination={{ pageSize: 25 }}
        framed
      />
    </div>
  );
}
