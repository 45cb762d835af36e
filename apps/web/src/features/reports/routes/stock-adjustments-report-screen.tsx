import { useMemo } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { StockAdjustmentLine } from '@pharmapoint/domain/inventory-report';
import { REPORT_PAGE_SIZE, reportRangeProblem } from '@pharmapoint/domain/report-period';
import { ADJUSTMENT_REASON_TYPES, type AdjustmentReasonType } from '@pharmapoint/domain/stock';
import { buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { DataTable, dataTableColumns } from '@/components/ui/data-table';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorState } from '@/components/ui/error-state';
import { Field } from '@/components/ui/field';
import { LoadingState } from '@/components/ui/loading-state';
import { PageHeader } from '@/components/ui/page-header';
import { Select } from '@/components/ui/select';
import { StatCard } from '@/components/ui/stat-card';
import { Table, TBody, Td, Th, THead, Tr } from '@/components/ui/table';
import { usePermissions } from '@/features/auth/hooks/use-permissions';
import { useStockAdjustmentReport } from '@/features/reports/api/report-pages';
import { ProductCell } from '@/features/reports/components/report-frame';
import { DateRangeFields, PrintHeading, ReportActions, periodLine } from '@/features/reports/components/report-frame';
import { errorMessage } from '@/lib/api';
import { formatDate, formatMoney, formatNumber } from '@/lib/format';
import { useLiveStock } from '@/lib/live-stock/live-stock';
import { downloadCsv, money, type ExportColumn } from '@/lib/report-export';
import { pageParam, useUrlFilters } from '@/lib/use-url-filters';

/** /app/reports/stock-adjustments (report:inventory): the adjustment lines of a period with pieces and value, by type and branch. */
export default function StockAdjustmentsReportPage() {
  const { t } = useTranslation('reportPages');
  const { me } = usePermissions();
  useLiveStock();
  const { params, update } = useUrlFilters();
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  const branchId = params.get('branchId') ?? '';
  const reasonParam = params.get('reasonType') ?? '';
  const reasonType = (ADJUSTMENT_REASON_TYPES as readonly string[]).includes(reasonParam) ? (reasonParam as AdjustmentReasonType) : undefined;
  const page = pageParam(params);
  const rangeProblem = reportRangeProblem(from || undefined, to || undefined);
  const report = useStockAdjustmentReport({ from: from || undefined, to: to || undefined, branchId: branchId || undefined, reasonType, page, pageSize: REPORT_PAGE_SIZE }, rangeProblem === null);
  const data = report.data;
  const branches = me?.allowedBranches ?? [];
  const typeLabel = (type: string) => t(`adjustments.types.${type}`, { defaultValue: type });

  const columns = useMemo(() => {
    const column = dataTableColumns<StockAdjustmentLine>();
    return [
      column.accessor('date', { header: t('adjustments.date'), meta: { cellClassName: 'whitespace-nowrap' }, cell: ({ getValue }) => formatDate(getValue()) }),
      column.accessor('productName', { header: t('product'), cell: ({ row: { original: l } }) => <ProductCell productId={l.productId} name={l.productName} sku={l.sku} /> }),
      column.accessor('branchName', { header: t('branch'), meta: { cellClassName: 'whitespace-nowrap' } }),
      column.accessor('delta', { header: t('adjustments.change'), meta: { numeric: true }, cell: ({ getValue }) => (getValue() > 0 ? `+${formatNumber(getValue())}` : formatNumber(getValue())) }),
      column.accessor('reasonType', { header: t('adjustments.reasonType'), cell: ({ getValue }) => typeLabel(getValue()) }),
      column.accessor('reason', { header: t('adjustments.reason') }),
      column.accessor('userName', { header: t('adjustments.user'), cell: ({ getValue }) => getValue() ?? '' }),
      column.accessor('valueCents', { header: t('adjustments.value'), meta: { numeric: true, cellClassName: 'whitespace-nowrap' }, cell: ({ getValue }) => formatMoney(getValue()) }),
    ];
    // eslint-disable-next-line react-hooks/exhaustive-deps -- typeLabel only reads t.
  }, [t]);
  const exportColumns: ExportColumn<StockAdjustmentLine>[] = [
    { header: t('adjustments.date'), value: (l) => l.date },
    { header: t('product'), value: (l) => l.productName },
    { header: t('branch'), value: (l) => l.branchName },
    { header: t('adjustments.change'), value: (l) => l.delta },
    { header: t('adjustments.reasonType'), value: (l) => typeLabel(l.reasonType) },
    { header: t('adjustments.reason'), value: (l) => l.reason },
    { header: t('adjustments.user'), value: (l) => l.userName },
    { header: t('adjustments.value'), value: (l) => money(l.valueCents) },
  ];

  return (
    <div className="space-y-6">
      <PageHeader
        className="print:hidden"
        title={t('adjustments.title')}
        description={t('adjustments.description')}
        actions={
          <div className="flex flex-wrap gap-2">
            <Link to="/app/reports/view-adjustments" className={buttonClasses('outline', 'md', 'print:hidden')}>
              {t('adjustments.viewAll')}
            </Link>
            <ReportActions disabled={!data} onCsv={() => data && downloadCsv(`stock-adjustments-${data.from}-to-${data.to}.csv`, data.items, exportColumns)} />
          </div>
        }
      />
      <PrintHeading
        title={t('adjustments.title')}
        filters={[
          ...(data ? [periodLine(t, data.from, data.to)] : []),
          `${t('branch')}: ${branches.find((b) => b.id === branchId)?.name ?? t('allBranches')}`,
          `${t('adjustments.reasonType')}: ${reasonType ? typeLabel(reasonType) : t('adjustments.allTypes')}`,
        ]}
      />
      <Card flush className="print:hidden">
        <div className="grid gap-3 p-4 sm:grid-cols-2 lg:grid-cols-4" role="group" aria-label={t('filters')}>
          <DateRangeFields from={from || data?.from || ''} to={to || data?.to || ''} onChange={(range) => update(range)} />
          <Field label={t('branch')}>
            <Select value={branchId} placeholder={t('allBranches')} options={branches.map((b) => ({ value: b.id, label: b.name }))} onChange={(e) => update({ branchId: e.target.value })} />
          </Field>
          <Field label={t('adjustments.reasonType')}>
            <Select value={reasonType ?? ''} placeholder={t('adjustments.allTypes')} options={ADJUSTMENT_REASON_TYPES.map((v) => ({ value: v, label: typeLabel(v) }))} onChange={(e) => update({ reasonType: e.target.value })} />
          </Field>
        </div>
      </Card>
      {rangeProblem ? (
        <p role="status" className="rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
          {rangeProblem}
        </p>
      ) : report.isPending ? (
        <LoadingState message={t('adjustments.loading')} />
      ) : report.isError || !data ? (
        <ErrorState message={`${t('adjustments.loadFailed')} ${errorMessage(report.error)}`} onRetry={() => void report.refetch()} />
      ) : (
        <>
          <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
            <StatCard label={t('adjustments.adjustments')} value={formatNumber(data.totals.adjustments)} hint={t('adjustments.adjustmentsHint', { count: data.totals.lines })} tone="primary" />
            <StatCard label={t('adjustments.added')} value={formatNumber(data.totals.piecesAdded)} tone="positive" />
            <StatCard label={t('adjustments.removed')} value={formatNumber(data.totals.piecesRemoved)} tone={data.totals.piecesRemoved > 0 ? 'negative' : 'neutral'} />
            <StatCard label={t('adjustments.netValue')} value={formatMoney(data.totals.netValueCents)} />
          </div>
          {data.totals.lines > 0 ? (
            <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
              {[
                { title: t('adjustments.byReason'), header: t('adjustments.reasonType'), rows: data.byReason.map((r) => ({ key: r.reasonType, label: typeLabel(r.reasonType), ...r })) },
                { title: t('adjustments.byBranch'), header: t('branch'), rows: data.byBranch.map((r) => ({ key: r.branchId, label: r.branchName, ...r })) },
              ].map((group) => (
                <Card key={group.title} title={group.title} flush>
                  <Table caption={group.title}>
                    <THead>
                      <Tr>
                        <Th scope="col">{group.header}</Th>
                        <Th scope="col" className="text-right">{t('adjustments.added')}</Th>
                        <Th scope="col" className="text-right">{t('adjustments.removed')}</Th>
                        <Th scope="col" className="text-right">{t('adjustments.netValue')}</Th>
                      </Tr>
                    </THead>
                    <TBody>
                      {group.rows.map((r) => (
                        <Tr key={r.key}>
                          <Th scope="row" className="font-normal">{r.label}</Th>
                          <Td className="text-right tabular-nums">{formatNumber(r.piecesAdded)}</Td>
                          <Td className="text-right tabular-nums">{formatNumber(r.piecesRemoved)}</Td>
                          <Td className="whitespace-nowrap text-right tabular-nums">{formatMoney(r.netValueCents)}</Td>
                        </Tr>
                      ))}
                    </TBody>
                  </Table>
                </Card>
              ))}
            </div>
          ) : null}
          <Card flush>
            <DataTable
              caption={t('adjustments.caption')}
              columns={columns}
              data={data.items}
              getRowId={(l) => `${l.adjustmentId}:${l.line}`}
              empty={<EmptyState title={t('adjustments.emptyTitle')} description={t('adjustments.emptyDescription')} />}
              stateClassName="p-4"
              pagination={{ page: data.page, pageSize: data.pageSize, total: data.total, onPageChange: (p) => update({ page: String(p) }) }}
            />
          </Card>
        </>
      )}
    </div>
  );
}
