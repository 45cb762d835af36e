import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { StockTransferPair } from '@pharmapoint/domain/inventory-report';
import { REPORT_PAGE_SIZE, reportRangeProblem } from '@pharmapoint/domain/report-period';
import { TRANSFER_STATUSES } from '@pharmapoint/domain/stock';
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
import { useStockTransferReport } from '@/features/reports/api/report-pages';
import { DateRangeFields, PrintHeading, ReportActions, periodLine } from '@/features/reports/components/report-frame';
import { errorMessage } from '@/lib/api';
import { formatMoney, formatNumber } from '@/lib/format';
import { useLiveStock } from '@/lib/live-stock/live-stock';
import { downloadCsv, money, type ExportColumn } from '@/lib/report-export';
import { pageParam, useUrlFilters } from '@/lib/use-url-filters';

type Status = StockTransferPair['status'];

/** /app/reports/stock-transfers (report:inventory): transfers requested in a period by branch pair and status. */
export default function StockTransfersReportPage() {
  const { t } = useTranslation('reportPages');
  const { me } = usePermissions();
  useLiveStock();
  const { params, update } = useUrlFilters();
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  const branchId = params.get('branchId') ?? '';
  const statusParam = params.get('status') ?? '';
  const status = (TRANSFER_STATUSES as readonly string[]).includes(statusParam) ? (statusParam as Status) : undefined;
  const page = pageParam(params);
  const rangeProblem = reportRangeProblem(from || undefined, to || undefined);
  const report = useStockTransferReport({ from: from || undefined, to: to || undefined, branchId: branchId || undefined, status, page, pageSize: REPORT_PAGE_SIZE }, rangeProblem === null);
  const data = report.data;
  const branches = me?.allowedBranches ?? [];
  const statusLabel = (s: string) => t(`transfers.statuses.${s}`, { defaultValue: s });

  const columns = useMemo(() => {
    const column = dataTableColumns<StockTransferPair>();
    const pieces = (key: 'transfers' | 'piecesRequested' | 'piecesDispatched' | 'piecesReceived', header: string) =>
      column.accessor(key, { header, meta: { numeric: true }, cell: ({ getValue }) => formatNumber(getValue()) });
    return [
      column.accessor('fromBranchName', { header: t('transfers.fromBranch'), meta: { rowHeader: true } }),
      column.accessor('toBranchName', { header: t('transfers.toBranch') }),
      column.accessor('status', { header: t('transfers.status'), cell: ({ getValue }) => statusLabel(getValue()) }),
      pieces('transfers', t('transfers.transfers')),
      pieces('piecesRequested', t('transfers.requested')),
      pieces('piecesDispatched', t('transfers.dispatched')),
      pieces('piecesReceived', t('transfers.received')),
      column.accessor('valueDispatchedCents', { header: t('transfers.value'), meta: { numeric: true, cellClassName: 'whitespace-nowrap' }, cell: ({ getValue }) => formatMoney(getValue()) }),
    ];
    // eslint-disable-next-line react-hooks/exhaustive-deps -- statusLabel only reads t.
  }, [t]);
  const exportColumns: ExportColumn<StockTransferPair>[] = [
    { header: t('transfers.fromBranch'), value: (p) => p.fromBranchName },
    { header: t('transfers.toBranch'), value: (p) => p.toBranchName },
    { header: t('transfers.status'), value: (p) => statusLabel(p.status) },
    { header: t('transfers.transfers'), value: (p) => p.transfers },
    { header: t('transfers.requested'), value: (p) => p.piecesRequested },
    { header: t('transfers.dispatched'), value: (p) => p.piecesDispatched },
    { header: t('transfers.received'), value: (p) => p.piecesReceived },
    { header: t('transfers.value'), value: (p) => money(p.valueDispatchedCents) },
  ];

  return (
    <div className="space-y-6">
      <PageHeader
        className="print:hidden"
        title={t('transfers.title')}
        description={t('transfers.description')}
        actions={<ReportActions disabled={!data} onCsv={() => data && downloadCsv(`stock-transfers-${data.from}-to-${data.to}.csv`, data.items, exportColumns)} />}
      />
      <PrintHeading
        title={t('transfers.title')}
        filters={[
          ...(data ? [periodLine(t, data.from, data.to)] : []),
          `${t('branch')}: ${branches.find((b) => b.id === branchId)?.name ?? t('allBranches')}`,
          `${t('transfers.status')}: ${status ? statusLabel(status) : t('transfers.allStatuses')}`,
        ]}
      />
      <Card flush className="print:hidden">
        <div className="grid gap-3 p-4 sm:grid-cols-2 lg:grid-cols-4" role="group" aria-label={t('filters')}>
          <DateRangeFields from={from || data?.from || ''} to={to || data?.to || ''} onChange={(range) => update(range)} />
          <Field label={t('branch')}>
            <Select value={branchId} placeholder={t('allBranches')} options={branches.map((b) => ({ value: b.id, label: b.name }))} onChange={(e) => update({ branchId: e.target.value })} />
          </Field>
          <Field label={t('transfers.status')}>
            <Select value={status ?? ''} placeholder={t('transfers.allStatuses')} options={TRANSFER_STATUSES.map((v) => ({ value: v, label: statusLabel(v) }))} onChange={(e) => update({ status: e.target.value })} />
          </Field>
        </div>
      </Card>
      {rangeProblem ? (
        <p role="status" className="rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
          {rangeProblem}
        </p>
      ) : report.isPending ? (
        <LoadingState message={t('transfers.loading')} />
      ) : report.isError || !data ? (
        <ErrorState message={`${t('transfers.loadFailed')} ${errorMessage(report.error)}`} onRetry={() => void report.refetch()} />
      ) : (
        <>
          <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
            <StatCard label={t('transfers.transfers')} value={formatNumber(data.totals.transfers)} tone="primary" />
            <StatCard label={t('transfers.requested')} value={formatNumber(data.totals.piecesRequested)} />
            <StatCard label={t('transfers.received')} value={formatNumber(data.totals.piecesReceived)} hint={`${t('transfers.dispatched')}: ${formatNumber(data.totals.piecesDispatched)}`} />
            <StatCard label={t('transfers.value')} value={formatMoney(data.totals.valueDispatchedCents)} />
          </div>
          {data.byStatus.length > 0 ? (
            <Card title={t('transfers.byStatus')}>
              <ul className="flex flex-wrap gap-2 text-sm">
                {data.byStatus.map((s) => (
                  <li key={s.status} className="rounded-md border border-slate-200 px-3 py-1">
                    {statusLabel(s.status)}: <span className="font-semibold">{formatNumber(s.transfers)}</span>
                  </li>
                ))}
              </ul>
            </Card>
          ) : null}
          <Card flush>
            <DataTable
              caption={t('transfers.caption')}
              columns={columns}
              data={data.items}
              getRowId={(p) => `${p.fromBranchId}:${p.toBranchId}:${p.status}`}
              empty={<EmptyState title={t('transfers.emptyTitle')} description={t('transfers.emptyDescription')} />}
              stateClassName="p-4"
              pagination={{ page: data.page, pageSize: data.pageSize, total: data.total, onPageChange: (p) => update({ page: String(p) }) }}
            />
          </Card>
        </>
      )}
    </div>
  );
}
