import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { INVENTORY_VIEWS, type InventoryLine, type InventoryReportResponse, type InventoryView } from '@pharmapoint/domain/inventory-report';
import { REPORT_PAGE_SIZE } from '@pharmapoint/domain/report-period';
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
import { Tabs } from '@/components/ui/tabs';
import { usePermissions } from '@/features/auth/hooks/use-permissions';
import { useInventoryReport } from '@/features/reports/api/report-pages';
import { ProductCell } from '@/features/reports/components/report-frame';
import { PrintHeading, ReportActions } from '@/features/reports/components/report-frame';
import { errorMessage } from '@/lib/api';
import { formatDate, formatMoney, formatNumber } from '@/lib/format';
import { useLiveStock } from '@/lib/live-stock/live-stock';
import { downloadCsv, downloadExcel, excelSheet, money, type ExportColumn } from '@/lib/report-export';
import { pageParam, useUrlFilters } from '@/lib/use-url-filters';

type Group = InventoryReportResponse['byBranch'][number] | InventoryReportResponse['byCategory'][number];

/** A summary table (per branch or per category): pieces, value at cost and at selling price, value at risk, lines to reorder. */
function GroupTable({ caption, labelHeader, rows }: { caption: string; labelHeader: string; rows: { key: string; label: string; group: Group }[] }) {
  const { t } = useTranslation('reportPages');
  return (
    <Table caption={caption}>
      <THead>
        <Tr>
          <Th scope="col">{labelHeader}</Th>
          <Th scope="col" className="text-right">{t('inventory.onHand')}</Th>
          <Th scope="col" className="text-right">{t('inventory.costValue')}</Th>
          <Th scope="col" className="text-right">{t('inventory.retailValue')}</Th>
          <Th scope="col" className="text-right">{t('inventory.atRiskValue')}</Th>
          <Th scope="col" className="text-right">{t('inventory.reorderCount')}</Th>
        </Tr>
      </THead>
      <TBody>
        {rows.map(({ key, label, group }) => (
          <Tr key={key}>
            <Th scope="row" className="font-normal">{label}</Th>
            <Td className="text-right tabular-nums">{formatNumber(group.onHand)}</Td>
            <Td className="whitespace-nowrap text-right tabular-nums">{formatMoney(group.costValueCents)}</Td>
            <Td className="whitespace-nowrap text-right tabular-nums">{formatMoney(group.retailValueCents)}</Td>
            <Td className="whitespace-nowrap text-right tabular-nums">{formatMoney(group.atRiskValueCents)}</Td>
            <Td className="text-right tabular-nums">{formatNumber(group.reorderLines)}</Td>
          </Tr>
        ))}
      </TBody>
    </Table>
  );
}

/**
 * /app/reports/inventory (report:inventory): stock on hand valued at cost (the settings' valuation method) and at
 * selling price per branch and category, reorder suggestions with the pieces sold in the last 30 days, and the stock
 * that will expire before it sells at the current rate.
 */
export default function InventoryReportPage() {
  const { t } = useTranslation('reportPages');
  const { me } = usePermissions();
  useLiveStock();
  const { params, update } = useUrlFilters();
  const branchId = params.get('branchId') ?? '';
  const category = params.get('category') ?? '';
  const view = (INVENTORY_VIEWS as readonly string[]).includes(params.get('view') ?? '') ? (params.get('view') as InventoryView) : 'stock';
  const page = pageParam(params);
  const report = useInventoryReport({ branchId: branchId || undefined, category: category || undefined, view, page, pageSize: REPORT_PAGE_SIZE });
  const data = report.data;
  const branches = me?.allowedBranches ?? [];
  const categoryName = (c: string | null) => c || t('noCategory');

  const columns = useMemo(() => {
    const column = dataTableColumns<InventoryLine>();
    const product = column.accessor('productName', {
      header: t('product'),
      cell: ({ row: { original: l } }) => <ProductCell productId={l.productId} name={l.productName} sku={l.sku} />,
    });
    const branch = column.accessor('branchName', { header: t('branch'), meta: { cellClassName: 'whitespace-nowrap' } });
    const onHand = column.accessor('onHand', { header: t('inventory.onHand'), meta: { numeric: true }, cell: ({ getValue }) => formatNumber(getValue()) });
    const sold = column.accessor('soldLast30Days', { header: t('inventory.sold30'), meta: { numeric: true }, cell: ({ getValue }) => formatNumber(getValue()) });
    const days = column.accessor('daysOfStock', { header: t('inventory.daysOfStock'), meta: { numeric: true }, cell: ({ getValue }) => (getValue() === null ? t('inventory.noSales') : formatNumber(getValue())) });
    const money$ = (key: 'costValueCents' | 'retailValueCents' | 'atRiskValueCents', header: string) =>
      column.accessor(key, { header, meta: { numeric: true, cellClassName: 'whitespace-nowrap' }, cell: ({ getValue }) => formatMoney(getValue()) });
    if (view === 'reorder') {
      return [
        product,
        branch,
        onHand,
        column.accessor('reorderLevel', { header: t('inventory.reorderLevel'), meta: { numeric: true }, cell: ({ getValue }) => formatNumber(getValue()) }),
        sold,
        days,
        column.accessor('suggestedQuantity', { header: t('inventory.suggested'), meta: { numeric: true }, cell: ({ getValue }) => formatNumber(getValue() ?? 0) }),
      ];
    }
    if (view === 'expiring') {
      return [
        product,
        branch,
        onHand,
        column.accessor('earliestExpiry', { header: t('inventory.earliestExpiry'), meta: { cellClassName: 'whitespace-nowrap' }, cell: ({ getValue }) => formatDate(getValue()) }),
        sold,
        column.accessor('atRiskQuantity', { header: t('inventory.atRiskQuantity'), meta: { numeric: true }, cell: ({ getValue }) => formatNumber(getValue()) }),
        money$('atRiskValueCents', t('inventory.atRiskValue')),
      ];
    }
    return [
      product,
      column.accessor('category', { header: t('category'), cell: ({ getValue }) => categoryName(getValue()) }),
      branch,
      onHand,
      money$('costValueCents', t('inventory.costValue')),
      money$('retailValueCents', t('inventory.retailValue')),
      sold,
      days,
    ];
    // eslint-disable-next-line react-hooks/exhaustive-deps -- categoryName only reads t.
  }, [t, view]);

  const exportColumns: ExportColumn<InventoryLine>[] = useMemo(() => {
    const base: ExportColumn<InventoryLine>[] = [
      { header: t('product'), value: (l) => l.productName },
      { header: 'SKU', value: (l) => l.sku },
    ];
    if (view === 'reorder')
      return [
        ...base,
        { header: t('branch'), value: (l) => l.branchName },
        { header: t('inventory.onHand'), value: (l) => l.onHand },
        { header: t('inventory.reorderLevel'), value: (l) => l.reorderLevel },
        { header: t('inventory.sold30'), value: (l) => l.soldLast30Days },
        { header: t('inventory.daysOfStock'), value: (l) => l.daysOfStock },
        { header: t('inventory.suggested'), value: (l) => l.suggestedQuantity },
      ];
    if (view === 'expiring')
      return [
        ...base,
        { header: t('branch'), value: (l) => l.branchName },
        { header: t('inventory.onHand'), value: (l) => l.onHand },
        { header: t('inventory.earliestExpiry'), value: (l) => l.earliestExpiry },
        { header: t('inventory.sold30'), value: (l) => l.soldLast30Days },
        { header: t('inventory.atRiskQuantity'), value: (l) => l.atRiskQuantity },
        { header: t('inventory.atRiskValue'), value: (l) => money(l.atRiskValueCents) },
      ];
    return [
      ...base,
      { header: t('category'), value: (l) => categoryName(l.category) },
      { header: t('branch'), value: (l) => l.branchName },
      { header: t('inventory.onHand'), value: (l) => l.onHand },
      { header: t('inventory.costValue'), value: (l) => money(l.costValueCents) },
      { header: t('inventory.retailValue'), value: (l) => money(l.retailValueCents) },
      { header: t('inventory.sold30'), value: (l) => l.soldLast30Days },
      { header: t('inventory.daysOfStock'), value: (l) => l.daysOfStock },
    ];
    // eslint-disable-next-line react-hooks/exhaustive-deps -- categoryName only reads t.
  }, [t, view]);

  const groupColumns = (label: string, name: (g: Group) => string): ExportColumn<Group>[] => [
    { header: label, value: name },
    { header: t('inventory.onHand'), value: (g) => g.onHand },
    { header: t('inventory.costValue'), value: (g) => money(g.costValueCents) },
    { header: t('inventory.retailValue'), value: (g) => money(g.retailValueCents) },
    { header: t('inventory.atRiskValue'), value: (g) => money(g.atRiskValueCents) },
    { header: t('inventory.reorderCount'), value: (g) => g.reorderLines },
  ];
  const fileBase = `inventory-${view}-${data?.today ?? 'report'}`;
  const viewLabel = t(`inventory.views.${view}`);
  const emptyText = view === 'reorder' ? t('inventory.emptyReorder') : view === 'expiring' ? t('inventory.emptyExpiring') : t('inventory.emptyStock');
  const categories = [...new Set([...(data?.byCategory.map((c) => c.category).filter((c) => c !== '') ?? []), ...(category ? [category] : [])])].sort();

  const table = data ? (
    <DataTable
      caption={t('inventory.caption', { view: viewLabel })}
      columns={columns}
      data={data.items}
      getRowId={(l) => `${l.branchId}:${l.productId}`}
      empty={<EmptyState title={t('inventory.emptyTitle')} description={emptyText} />}
      stateClassName="p-4"
      pagination={{ page: data.page, pageSize: data.pageSize, total: data.total, onPageChange: (p) => update({ page: String(p) }) }}
    />
  ) : null;

  return (
    <div className="space-y-6">
      <PageHeader
        className="print:hidden"
        title={t('inventory.title')}
        description={t('inventory.description')}
        actions={
          <ReportActions
            disabled={!data}
            onCsv={() => data && downloadCsv(`${fileBase}.csv`, data.items, exportColumns)}
            onExcel={() =>
              data &&
              void downloadExcel(`${fileBase}.xlsx`, [
                excelSheet(viewLabel, data.items, exportColumns),
                excelSheet(t('inventory.sheetBranches'), data.byBranch, groupColumns(t('branch'), (g) => ('branchName' in g ? g.branchName : ''))),
                excelSheet(t('inventory.sheetCategories'), data.byCategory, groupColumns(t('category'), (g) => ('category' in g ? categoryName(g.category) : ''))),
              ])
            }
          />
        }
      />
      <PrintHeading
        title={`${t('inventory.title')} — ${viewLabel}`}
        filters={[`${t('branch')}: ${branches.find((b) => b.id === branchId)?.name ?? t('allBranches')}`, `${t('category')}: ${category || t('allCategories')}`]}
      />
      <Card flush className="print:hidden">
        <div className="grid gap-3 p-4 sm:grid-cols-2" role="group" aria-label={t('filters')}>
          <Field label={t('branch')}>
            <Select value={branchId} placeholder={t('allBranches')} options={branches.map((b) => ({ value: b.id, label: b.name }))} onChange={(e) => update({ branchId: e.target.value })} />
          </Field>
          <Field label={t('category')}>
            <Select value={category} placeholder={t('allCategories')} options={categories.map((c) => ({ value: c, label: c }))} onChange={(e) => update({ category: e.target.value })} />
          </Field>
        </div>
      </Card>
      {report.isPending ? (
        <LoadingState message={t('inventory.loading')} />
      ) : report.isError || !data ? (
        <ErrorState message={`${t('inventory.loadFailed')} ${errorMessage(report.error)}`} onRetry={() => void report.refetch()} />
      ) : (
        <>
          <p className="text-sm text-slate-600">{t('inventory.valuation', { method: t(`inventory.methods.${data.valuationMethod}`) })}</p>
          <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
            <StatCard label={t('inventory.costValue')} value={formatMoney(data.totals.costValueCents)} hint={t('inventory.piecesHint', { lines: formatNumber(data.totals.lines) })} tone="primary" />
            <StatCard label={t('inventory.retailValue')} value={formatMoney(data.totals.retailValueCents)} hint={`${formatNumber(data.totals.onHand)} ${t('pieces').toLowerCase()}`} />
            <StatCard label={t('inventory.atRisk')} value={formatMoney(data.totals.atRiskValueCents)} hint={t('inventory.atRiskHint', { quantity: formatNumber(data.totals.atRiskQuantity) })} tone={data.totals.atRiskValueCents > 0 ? 'warning' : 'neutral'} />
            <StatCard label={t('inventory.reorderCount')} value={formatNumber(data.totals.reorderLines)} hint={t('inventory.reorderHint')} tone={data.totals.reorderLines > 0 ? 'warning' : 'neutral'} />
          </div>
          {data.totals.lines > 0 ? (
            <div className="grid grid-cols-1 gap-4 2xl:grid-cols-2">
              <Card title={t('inventory.byBranch')} flush>
                <GroupTable caption={t('inventory.byBranch')} labelHeader={t('branch')} rows={data.byBranch.map((g) => ({ key: g.branchId, label: g.branchName, group: g }))} />
              </Card>
              <Card title={t('inventory.byCategory')} flush>
                <GroupTable caption={t('inventory.byCategory')} labelHeader={t('category')} rows={data.byCategory.map((g) => ({ key: g.category, label: categoryName(g.category), group: g }))} />
              </Card>
            </div>
          ) : null}
          <Card flush>
            <Tabs
              label={t('inventory.title')}
              value={view}
              onValueChange={(id) => update({ view: id === 'stock' ? '' : id })}
              items={INVENTORY_VIEWS.map((v) => ({ id: v, label: t(`inventory.views.${v}`), content: v === view ? table : null }))}
            />
          </Card>
        </>
      )}
    </div>
  );
}
