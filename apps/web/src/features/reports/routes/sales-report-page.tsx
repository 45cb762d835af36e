import '@/features/reports/sales-report-i18n';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FileSpreadsheet, FileText, Printer, RefreshCw } from 'lucide-react';
import { DATE_PRESETS, DATE_PRESET_LABELS, isRangeProblem, presetOf, resolveDateFilter } from '@pharmapoint/domain/dashboard';
import {
  SALES_REPORT_PRODUCT_SORTS,
  SLOW_MOVER_DEFAULT_DAYS,
  SLOW_MOVER_MAX_DAYS,
  type ReportFigures,
  type SalesReportProduct,
  type SalesReportResponse,
  type SlowMover,
  type VatRow,
} from '@pharmapoint/domain/sales-report';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorState } from '@/components/ui/error-state';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { LoadingState } from '@/components/ui/loading-state';
import { PageHeader } from '@/components/ui/page-header';
import { Pagination } from '@/components/ui/pagination';
import { Select } from '@/components/ui/select';
import { StatCard } from '@/components/ui/stat-card';
import { usePermissions } from '@/features/auth/hooks/use-permissions';
import { useSalesReport, useSalesReportProducts, useSlowMovers } from '@/features/reports/api/sales-report';
import { ReportSection, type ReportColumn, type ReportTableData } from '@/features/reports/components/report-section';
import { errorMessage } from '@/lib/api';
import { formatDate, formatMoney, formatNumber, formatPercent } from '@/lib/format';
import { downloadExcel, excelSheet, money } from '@/lib/report-export';
import { toast } from '@/lib/toast';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { intParam, pageParam, useUrlFilters } from '@/lib/use-url-filters';

type Sort = (typeof SALES_REPORT_PRODUCT_SORTS)[number];
type GroupBy = 'day' | 'week' | 'month';

function localToday(): string {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** The money, margin and count columns every grouping shares. */
function figureColumns<Row extends Omit<ReportFigures, 'saleCount'> & { saleCount?: number }>(t: (key: string) => string, withSales: boolean): ReportColumn<Row>[] {
  const cents = (header: string, pick: (r: Row) => number): ReportColumn<Row> => ({ header, numeric: true, value: (r) => money(pick(r)), render: (r) => formatMoney(pick(r)) });
  return [
    ...(withSales ? [{ header: t('columns.sales'), numeric: true, value: (r: Row) => r.saleCount ?? 0, render: (r: Row) => formatNumber(r.saleCount ?? 0) }] : []),
    cents(t('columns.revenue'), (r) => r.revenueCents),
    cents(t('columns.cost'), (r) => r.costCents),
    cents(t('columns.profit'), (r) => r.profitCents),
    { header: t('columns.margin'), numeric: true, value: (r) => r.marginPercent, render: (r) => formatPercent(r.marginPercent, 1) },
    cents(t('columns.discounts'), (r) => r.discountCents),
    cents(t('columns.returns'), (r) => r.returnedCents),
    cents(t('columns.tax'), (r) => r.taxCents),
  ];
}

/** The tables of the report, each with exactly the rows and columns shown (and exported). */
function reportTables(data: SalesReportResponse, products: readonly SalesReportProduct[], slow: readonly SlowMover[], t: (key: string, values?: Record<string, unknown>) => string) {
  const productColumns: ReportColumn<SalesReportProduct>[] = [
    { header: t('columns.product'), value: (r) => r.name },
    { header: t('columns.sku'), value: (r) => r.sku ?? '' },
    { header: t('columns.category'), value: (r) => r.category ?? '' },
    { header: t('columns.quantity'), numeric: true, value: (r) => r.quantity, render: (r) => formatNumber(r.quantity) },
    ...figureColumns<SalesReportProduct>(t, false),
  ];
  const byPeriod: ReportTableData<SalesReportResponse['byPeriod'][number]> = {
    id: 'by-period',
    title: t('tables.byPeriod'),
    rows: data.byPeriod,
    rowKey: (r) => r.period,
    columns: [{ header: t('columns.period'), value: (r) => r.period, render: (r) => formatDate(r.period) }, ...figureColumns(t, true)],
  };
  const byHour: ReportTableData<SalesReportResponse['byHour'][number]> = {
    id: 'by-hour',
    title: t('tables.byHour'),
    rows: data.byHour.filter((h) => h.saleCount !== 0 || h.revenueCents !== 0 || h.returnedCents !== 0),
    rowKey: (r) => String(r.hour),
    columns: [
      { header: t('columns.hour'), value: (r) => r.label },
      { header: t('columns.sales'), numeric: true, value: (r) => r.saleCount, render: (r) => formatNumber(r.saleCount) },
      { header: t('columns.revenue'), numeric: true, value: (r) => money(r.revenueCents), render: (r) => formatMoney(r.revenueCents) },
      { header: t('columns.returns'), numeric: true, value: (r) => money(r.returnedCents), render: (r) => formatMoney(r.returnedCents) },
    ],
  };
  const byProduct: ReportTableData<SalesReportProduct> = { id: 'by-product', title: t('tables.byProduct'), rows: products, rowKey: (r) => r.productId, columns: productColumns };
  const byCategory: ReportTableData<SalesReportResponse['byCategory'][number]> = {
    id: 'by-category',
    title: t('tables.byCategory'),
    rows: data.byCategory,
    rowKey: (r) => r.category,
    columns: [
      { header: t('columns.category'), value: (r) => r.category },
      { header: t('columns.quantity'), numeric: true, value: (r) => r.quantity, render: (r) => formatNumber(r.quantity) },
      ...figureColumns<SalesReportResponse['byCategory'][number]>(t, false),
    ],
  };
  const byCashier: ReportTableData<SalesReportResponse['byCashier'][number]> = {
    id: 'by-cashier',
    title: t('tables.byCashier'),
    rows: data.byCashier,
    rowKey: (r) => r.cashierId ?? 'none',
    columns: [{ header: t('columns.cashier'), value: (r) => r.name }, ...figureColumns(t, true)],
  };
  const byBranch: ReportTableData<SalesReportResponse['byBranch'][number]> = {
    id: 'by-branch',
    title: t('tables.byBranch'),
    rows: data.byBranch,
    rowKey: (r) => r.branchId,
    columns: [{ header: t('columns.branch'), value: (r) => r.name }, ...figureColumns(t, true)],
  };
  const byPaymentMethod: ReportTableData<SalesReportResponse['byPaymentMethod'][number]> = {
    id: 'by-payment-method',
    title: t('tables.byPaymentMethod'),
    rows: data.byPaymentMethod,
    rowKey: (r) => r.method,
    columns: [{ header: t('columns.method'), value: (r) => r.method }, ...figureColumns(t, true)],
  };
  const vatTotal: VatRow & { key: string } = { key: 'total', taxType: 'other', label: t('total'), rateBasisPoints: -1, lineCount: data.vat.rows.reduce((a, r) => a + r.lineCount, 0), ...data.vat.total };
  const vat: ReportTableData<VatRow & { key: string }> = {
    id: 'vat',
    title: t('tables.vat'),
    rows: data.vat.rows.length > 0 ? [...data.vat.rows.map((r) => ({ ...r, key: String(r.rateBasisPoints) })), vatTotal] : [],
    rowKey: (r) => r.key,
    columns: [
      { header: t('columns.taxType'), value: (r) => r.label },
      { header: t('columns.taxCode'), value: (r) => (r.key === 'total' || r.taxType === 'other' ? '' : r.taxType) },
      { header: t('columns.lines'), numeric: true, value: (r) => r.lineCount, render: (r) => formatNumber(r.lineCount) },
      { header: t('columns.taxable'), numeric: true, value: (r) => money(r.taxableCents), render: (r) => formatMoney(r.taxableCents) },
      { header: t('columns.tax'), numeric: true, value: (r) => money(r.taxCents), render: (r) => formatMoney(r.taxCents) },
      { header: t('columns.gross'), numeric: true, value: (r) => money(r.grossCents), render: (r) => formatMoney(r.grossCents) },
    ],
  };
  const topSellers: ReportTableData<SalesReportProduct> = { id: 'top-sellers', title: t('tables.topSellers'), rows: data.topSellers, rowKey: (r) => r.productId, columns: productColumns };
  const slowMovers: ReportTableData<SlowMover> = {
    id: 'slow-movers',
    title: t('tables.slowMovers'),
    rows: slow,
    rowKey: (r) => `${r.productId}:${r.branchId}`,
    columns: [
      { header: t('columns.product'), value: (r) => r.name },
      { header: t('columns.sku'), value: (r) => r.sku ?? '' },
      { header: t('columns.category'), value: (r) => r.category ?? '' },
      { header: t('columns.branch'), value: (r) => r.branchName },
      { header: t('columns.stock'), numeric: true, value: (r) => r.stock, render: (r) => formatNumber(r.stock) },
      { header: t('columns.stockValue'), numeric: true, value: (r) => money(r.stockValueCents), render: (r) => formatMoney(r.stockValueCents) },
      { header: t('columns.lastSold'), value: (r) => r.lastSoldOn ?? t('columns.never'), render: (r) => (r.lastSoldOn ? formatDate(r.lastSoldOn) : t('columns.never')) },
    ],
  };
  return { byPeriod, byHour, byProduct, byCategory, byCashier, byBranch, byPaymentMethod, vat, topSellers, slowMovers };
}

/**
 * /app/reports/sales (report:sales): the sales report of a date filter and branch, read from the per-day summaries
 * (decision 0096). Filters live in the address bar; each table downloads as CSV, the whole report as Excel (a sheet
 * per table) or PDF, and prints without the controls.
 */
export default function SalesReportPage() {
  const { t } = useTranslation('salesReport');
  const { me } = usePermissions();
  const { params, update } = useUrlFilters();
  const dateFilter = presetOf(params.get('dateFilter') ?? undefined);
  const startDate = params.get('startDate') ?? '';
  const endDate = params.get('endDate') ?? '';
  const branchId = params.get('branchId') ?? '';
  const rawGroup = params.get('groupBy');
  const groupBy = rawGroup === 'day' || rawGroup === 'week' || rawGroup === 'month' ? (rawGroup as GroupBy) : undefined;
  const rawSort = params.get('sort');
  const sort = (SALES_REPORT_PRODUCT_SORTS as readonly string[]).includes(rawSort ?? '') ? (rawSort as Sort) : 'revenue';
  const days = intParam(params.get('days'), 1, SLOW_MOVER_MAX_DAYS) ?? SLOW_MOVER_DEFAULT_DAYS;
  const page = pageParam(params);
  const slowPage = intParam(params.get('slowPage'), 1, 100_000) ?? 1;
  const [search, setSearch] = useState(params.get('q') ?? '');
  const [typed] = useDebouncedValue(search.trim(), 300);
  const [exporting, setExporting] = useState(false);
  useEffect(() => {
    if ((params.get('q') ?? '') !== typed) update({ q: typed });
  }, [typed, params, update]);

  const custom = dateFilter === 'custom' ? { startDate: startDate || undefined, endDate: endDate || undefined } : {};
  const checked = resolveDateFilter(dateFilter, localToday(), custom);
  const problem = isRangeProblem(checked) ? checked : null;
  const filter = { dateFilter, ...custom, branchId: branchId || undefined };
  const report = useSalesReport({ ...filter, groupBy }, !problem);
  const products = useSalesReportProducts({ ...filter, sort, search: typed || undefined, page }, !problem);
  const slow = useSlowMovers({ branchId: branchId || undefined, days, page: slowPage });
  const data = report.data;

  const tables = useMemo(() => (data ? reportTables(data, products.data?.rows ?? [], slow.data?.rows ?? [], t) : null), [data, products.data, slow.data, t]);
  const fileBase = data ? `sales-report-${data.range.start}-${data.range.end}` : 'sales-report';

  async function exportExcel() {
    if (!tables || !data) return;
    setExporting(true);
    try {
      const list = Object.values(tables) as ReportTableData<unknown>[];
      await downloadExcel(
        `${fileBase}.xlsx`,
        list.map((table) => excelSheet(table.title, table.rows, table.columns)),
      );
    } catch (error) {
      toast.error(errorMessage(error));
    } finally {
      setExporting(false);
    }
  }

  async function exportPdf() {
    if (!tables || !data) return;
    setExporting(true);
    try {
      const { jsPDF } = await import('jspdf');
      const doc = new jsPDF({ unit: 'mm', format: 'a4', orientation: 'landscape' });
      let y = 15;
      doc.setFontSize(15);
      doc.text(`${t('title')} — ${t('period', { start: formatDate(data.range.start), end: formatDate(data.range.end) })}`, 12, y);
      y += 8;
      doc.setFontSize(10);
      const totals: [string, string][] = [
        [t('cards.revenue'), formatMoney(data.totals.totalRevenue)],
        [t('cards.cost'), formatMoney(data.totals.totalCost)],
        [t('cards.profit'), formatMoney(data.totals.totalProfit)],
        [t('cards.margin'), formatPercent(data.totals.profitMargin, 1)],
        [t('cards.discounts'), formatMoney(data.totals.discountCents)],
        [t('cards.returns'), formatMoney(data.totals.returnedCents)],
        [t('cards.tax'), formatMoney(data.totals.taxCents)],
        [t('cards.sales'), formatNumber(data.totals.saleCount)],
      ];
      totals.forEach(([label, value], i) => {
        doc.text(`${label}: ${value}`, 12 + (i % 4) * 68, y + Math.floor(i / 4) * 6);
      });
      y += 16;
      for (const table of Object.values(tables) as ReportTableData<unknown>[]) {
        if (table.rows.length === 0) continue;
        if (y > 180) {
          doc.addPage();
          y = 15;
        }
        doc.setFontSize(12);
        doc.text(table.title, 12, y);
        y += 6;
        doc.setFontSize(8);
        const width = 273 / table.columns.length;
        const line = (cells: string[]) => {
          cells.forEach((cell, i) => doc.text(cell.slice(0, Math.floor(width / 1.7)), 12 + i * width, y));
          y += 5;
          if (y > 200) {
            doc.addPage();
            y = 15;
          }
        };
        line(table.columns.map((c) => c.header));
        for (const row of table.rows) line(table.columns.map((c) => String(c.value(row) ?? '')));
        y += 4;
      }
      doc.save(`${fileBase}.pdf`);
    } catch (error) {
      toast.error(errorMessage(error));
    } finally {
      setExporting(false);
    }
  }

  const empty = data && data.byPeriod.length === 0;

  return (
    <div className="min-w-0 space-y-4">
      <PageHeader
        title={t('title')}
        description={data ? t('period', { start: formatDate(data.range.start), end: formatDate(data.range.end) }) : t('description')}
        actions={
          <div className="flex flex-wrap gap-2 print:hidden">
            <Button
              variant="outline"
              icon={<RefreshCw className="size-4" aria-hidden="true" />}
              disabled={report.isFetching}
              onClick={() => {
                void report.refetch();
                void products.refetch();
                void slow.refetch();
              }}
            >
              {report.isFetching && !report.isPending ? t('refreshing') : t('refresh')}
            </Button>
            <Button variant="outline" icon={<FileSpreadsheet className="size-4" aria-hidden="true" />} disabled={!tables || exporting} onClick={() => void exportExcel()}>
              {t('exportExcel')}
            </Button>
            <Button variant="outline" icon={<FileText className="size-4" aria-hidden="true" />} disabled={!tables || exporting} onClick={() => void exportPdf()}>
              {t('exportPdf')}
            </Button>
            <Button variant="outline" icon={<Printer className="size-4" aria-hidden="true" />} disabled={!data} onClick={() => window.print()}>
              {t('print')}
            </Button>
          </div>
        }
      />
      <form role="search" aria-label={t('filters')} className="grid gap-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:grid-cols-2 lg:grid-cols-5 print:hidden" onSubmit={(e) => e.preventDefault()}>
        <Field label={t('dateRange')}>
          <Select value={dateFilter} options={DATE_PRESETS.map((p) => ({ value: p, label: DATE_PRESET_LABELS[p] }))} onChange={(e) => update({ dateFilter: e.target.value, slowPage: null })} />
        </Field>
        {dateFilter === 'custom' ? (
          <>
            <Field label={t('startDate')} error={problem?.path === 'startDate' ? problem.message : undefined}>
              <Input type="date" value={startDate} onChange={(e) => update({ startDate: e.target.value, slowPage: params.get('slowPage') })} />
            </Field>
            <Field label={t('endDate')} error={problem?.path === 'endDate' ? problem.message : undefined}>
              <Input type="date" value={endDate} onChange={(e) => update({ endDate: e.target.value, slowPage: params.get('slowPage') })} />
            </Field>
          </>
        ) : null}
        <Field label={t('branch')}>
          <Select value={branchId} placeholder={t('allBranches')} options={(me?.allowedBranches ?? []).map((b) => ({ value: b.id, label: b.name }))} onChange={(e) => update({ branchId: e.target.value, slowPage: null })} />
        </Field>
        <Field label={t('groupBy')}>
          <Select
            value={groupBy ?? data?.groupBy ?? 'day'}
            options={(['day', 'week', 'month'] as const).map((g) => ({ value: g, label: t(`groupByOptions.${g}`) }))}
            onChange={(e) => update({ groupBy: e.target.value, page: params.get('page'), slowPage: params.get('slowPage') })}
          />
        </Field>
      </form>

      {problem ? null : report.isPending ? (
        <LoadingState message={t('loading')} />
      ) : report.isError || !data || !tables ? (
        <ErrorState title={t('loadFailed')} message={errorMessage(report.error)} onRetry={() => void report.refetch()} />
      ) : (
        <>
          {empty ? (
            <EmptyState title={t('empty')} description={t('emptyDescription')} />
          ) : (
            <>
              <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4">
                <StatCard label={t('cards.revenue')} value={formatMoney(data.totals.totalRevenue)} tone="primary" />
                <StatCard
                  label={t('cards.cost')}
                  value={formatMoney(data.totals.totalCost)}
                  hint={data.totals.costEstimated ? t('cards.estimatedHint', { amount: formatMoney(data.totals.estimatedCostCents) }) : undefined}
                />
                <StatCard
                  label={t('cards.profit')}
                  value={formatMoney(data.totals.totalProfit)}
                  tone={data.totals.totalProfit > 0 ? 'positive' : data.totals.totalProfit < 0 ? 'negative' : 'neutral'}
                  hint={t(`status.${data.totals.status}`)}
                />
                <StatCard
                  label={t('cards.margin')}
                  value={formatPercent(data.totals.profitMargin, 1)}
                  tone={data.totals.totalProfit > 0 ? 'positive' : data.totals.totalProfit < 0 ? 'negative' : 'neutral'}
                  hint={t(`status.${data.totals.status}`)}
                />
                <StatCard label={t('cards.sales')} value={formatNumber(data.totals.saleCount)} hint={t('cards.salesHint', { voids: data.totals.voidCount, returns: data.totals.returnCount })} />
                <StatCard label={t('cards.discounts')} value={formatMoney(data.totals.discountCents)} />
                <StatCard label={t('cards.returns')} value={formatMoney(data.totals.returnedCents)} hint={t('cards.returnsHint')} tone={data.totals.returnedCents > 0 ? 'warning' : 'neutral'} />
                <StatCard label={t('cards.tax')} value={formatMoney(data.totals.taxCents)} />
              </div>
              <ReportSection table={tables.byPeriod} fileName={`${fileBase}-${tables.byPeriod.id}.csv`} />
              <ReportSection table={tables.vat} fileName={`${fileBase}-${tables.vat.id}.csv`} hint={t('vatHint')} />
              <ReportSection table={tables.topSellers} fileName={`${fileBase}-${tables.topSellers.id}.csv`} />
              <ReportSection
                table={tables.byProduct}
                fileName={`${fileBase}-${tables.byProduct.id}-page-${page}.csv`}
                toolbar={
                  <div className="grid gap-3 sm:grid-cols-2">
                    <Field label={t('search')}>
                      <Input type="search" value={search} onChange={(e) => setSearch(e.target.value)} />
                    </Field>
                    <Field label={t('sort')}>
                      <Select value={sort} options={SALES_REPORT_PRODUCT_SORTS.map((s) => ({ value: s, label: t(`sortOptions.${s}`) }))} onChange={(e) => update({ sort: e.target.value, slowPage: params.get('slowPage') })} />
                    </Field>
                  </div>
                }
                footer={
                  products.data ? (
                    <Pagination page={products.data.page} pageSize={products.data.pageSize} total={products.data.total} onPageChange={(p) => update({ page: String(p), slowPage: params.get('slowPage') })} />
                  ) : null
                }
              />
              <ReportSection table={tables.byCategory} fileName={`${fileBase}-${tables.byCategory.id}.csv`} />
              <ReportSection table={tables.byHour} fileName={`${fileBase}-${tables.byHour.id}.csv`} />
              <ReportSection table={tables.byCashier} fileName={`${fileBase}-${tables.byCashier.id}.csv`} />
              <ReportSection table={tables.byBranch} fileName={`${fileBase}-${tables.byBranch.id}.csv`} />
              <ReportSection table={tables.byPaymentMethod} fileName={`${fileBase}-${tables.byPaymentMethod.id}.csv`} />
            </>
          )}
          <ReportSection
            table={tables.slowMovers}
            fileName={`sales-report-slow-movers-${slow.data?.since ?? ''}-page-${slowPage}.csv`}
            hint={slow.data ? t('slowHint', { since: formatDate(slow.data.since), days: slow.data.days }) : undefined}
            toolbar={
              <Field label={t('slowDays')} className="max-w-xs">
                <Input type="number" min={1} max={SLOW_MOVER_MAX_DAYS} inputMode="numeric" defaultValue={days} onBlur={(e) => update({ days: e.target.value, page: params.get('page'), slowPage: null })} />
              </Field>
            }
            footer={slow.data ? <Pagination page={slow.data.page} pageSize={slow.data.pageSize} total={slow.data.total} onPageChange={(p) => update({ slowPage: String(p), page: params.get('page') })} /> : null}
          />
        </>
      )}
    </div>
  );
}
