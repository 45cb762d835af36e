import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Plus } from 'lucide-react';
import { EXPENSE_PERIODS, EXPENSE_STATUS_FILTERS, type ExpenseBucket, type ExpensePeriod } from '@pharmapoint/domain/expense-report';
import { EXPENSE_CATEGORIES, EXPENSE_PAYMENT_METHODS, EXPENSE_SOURCES, type Expense } from '@pharmapoint/domain/expenses';
import { REPORT_PAGE_SIZE, reportRangeProblem } from '@pharmapoint/domain/report-period';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { DataTable, dataTableColumns } from '@/components/ui/data-table';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorState } from '@/components/ui/error-state';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { LoadingState } from '@/components/ui/loading-state';
import { PageHeader } from '@/components/ui/page-header';
import { Select } from '@/components/ui/select';
import { StatCard } from '@/components/ui/stat-card';
import { Td, Th, Tr } from '@/components/ui/table';
import { usePermissions } from '@/features/auth/hooks/use-permissions';
import { useExpenseReport, useVoidExpense } from '@/features/reports/api/report-pages';
import { ExpenseFormDialog } from '@/features/reports/components/expense-form-dialog';
import { BreakdownTable, DateRangeFields, PrintHeading, ReportActions, periodLine } from '@/features/reports/components/report-frame';
import { errorMessage } from '@/lib/api';
import { formatDate, formatMoney, formatNumber } from '@/lib/format';
import { newUuid } from '@/lib/idempotency';
import { downloadCsv, downloadExcel, excelSheet, money, type ExportColumn } from '@/lib/report-export';
import { toast } from '@/lib/toast';
import { pageParam, useUrlFilters } from '@/lib/use-url-filters';

const oneOf = <T extends string>(list: readonly T[], value: string | null): T | undefined => (value && (list as readonly string[]).includes(value) ? (value as T) : undefined);

/**
 * /app/reports/expenses (report:financial): the expenses of a period (the last 30 days by default) by category,
 * branch, payment method, source and period, with the transport breakdown; the list, voided ones marked; recording,
 * editing and voiding an expense by hand for those who keep the report.
 */
export default function ExpensesReportPage() {
  const { t } = useTranslation('reportPages');
  const { me, can } = usePermissions();
  const { params, update } = useUrlFilters();
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  const branchId = params.get('branchId') ?? '';
  const category = params.get('category') ?? '';
  const paymentMethod = oneOf(EXPENSE_PAYMENT_METHODS, params.get('paymentMethod'));
  const source = oneOf(EXPENSE_SOURCES, params.get('source'));
  const status = oneOf(EXPENSE_STATUS_FILTERS, params.get('status')) ?? 'all';
  const period = oneOf(EXPENSE_PERIODS, params.get('period'));
  const page = pageParam(params);
  const rangeProblem = reportRangeProblem(from || undefined, to || undefined);
  const report = useExpenseReport(
    { from: from || undefined, to: to || undefined, branchId: branchId || undefined, category: category || undefined, paymentMethod, source, status, period, page, pageSize: REPORT_PAGE_SIZE },
    rangeProblem === null,
  );
  const data = report.data;
  const branches = me?.allowedBranches ?? [];
  const keeper = can('report:financial') && !me?.isDemo;
  const [editing, setEditing] = useState<Expense | null | undefined>(undefined);
  const [voiding, setVoiding] = useState<Expense | null>(null);
  const [voidReason, setVoidReason] = useState('');
  const [voidKey, setVoidKey] = useState(newUuid);
  const voidExpense = useVoidExpense();

  const sourceLabel = (s: string) => t(`expenses.sources.${s}`, { defaultValue: s });
  const columns = useMemo(() => {
    const column = dataTableColumns<Expense>();
    return [
      column.accessor('date', { header: t('expenses.date'), meta: { cellClassName: 'whitespace-nowrap' }, cell: ({ getValue }) => formatDate(getValue()) }),
      column.accessor('description', {
        header: t('expenses.descriptionCol'),
        meta: { rowHeader: true },
        cell: ({ row: { original: e } }) => (
          <span className={e.voidedAt ? 'text-slate-500 line-through' : undefined}>
            {e.description}
            {e.voidedAt ? (
              <span className="ml-2 inline-flex no-underline">
                <Badge tone="danger">{t('expenses.voidedBadge')}</Badge>
              </span>
            ) : null}
            {e.voidedAt && e.voidReason ? <span className="block text-xs text-slate-500 no-underline">{t('expenses.voidedOn', { reason: e.voidReason })}</span> : null}
          </span>
        ),
      }),
      column.accessor('category', { header: t('category') }),
      column.accessor('branchName', { header: t('branch'), meta: { cellClassName: 'whitespace-nowrap' } }),
      column.accessor('paymentMethod', { header: t('expenses.paymentMethod') }),
      column.accessor('source', { header: t('expenses.source'), cell: ({ getValue }) => sourceLabel(getValue()) }),
      column.accessor((e) => e.recordedBy.name, { id: 'recordedBy', header: t('expenses.recordedBy') }),
      column.accessor('totalCents', { header: t('expenses.amount'), meta: { numeric: true, cellClassName: 'whitespace-nowrap' }, cell: ({ getValue }) => formatMoney(getValue()) }),
      ...(keeper
        ? [
            column.display({
              id: 'actions',
              header: t('expenses.actions'),
              meta: { headerClassName: 'print:hidden', cellClassName: 'whitespace-nowrap print:hidden' },
              cell: ({ row: { original: e } }) =>
                e.voidedAt ? null : (
                  <div className="flex gap-1">
                    <Button size="sm" variant="ghost" aria-label={`${t('expenses.edit')} ${e.description}`} onClick={() => setEditing(e)}>
                      {t('expenses.edit')}
                    </Button>
                    <Button
                      size="sm"
                      variant="ghost"
                      className="text-red-700"
                      aria-label={`${t('expenses.void')} ${e.description}`}
                      onClick={() => {
                        setVoidReason('');
                        setVoidKey(newUuid());
                        setVoiding(e);
                      }}
                    >
                      {t('expenses.void')}
                    </Button>
                  </div>
                ),
            }),
          ]
        : []),
    ];
    // eslint-disable-next-line react-hooks/exhaustive-deps -- sourceLabel only reads t.
  }, [t, keeper]);

  const exportColumns: ExportColumn<Expense>[] = [
    { header: t('expenses.date'), value: (e) => e.date },
    { header: t('expenses.descriptionCol'), value: (e) => e.description },
    { header: t('category'), value: (e) => e.category },
    { header: t('branch'), value: (e) => e.branchName },
    { header: t('expenses.paymentMethod'), value: (e) => e.paymentMethod },
    { header: t('expenses.source'), value: (e) => sourceLabel(e.source) },
    { header: t('expenses.recordedBy'), value: (e) => e.recordedBy.name },
    { header: t('expenses.amount'), value: (e) => money(e.totalCents) },
    { header: t('expenses.voided'), value: (e) => (e.voidedAt ? `${t('expenses.voidedBadge')}: ${e.voidReason ?? ''}` : '') },
  ];
  const bucketColumns = (label: string, name: (b: ExpenseBucket) => string): ExportColumn<ExpenseBucket>[] => [
    { header: label, value: name },
    { header: t('expenses.count'), value: (b) => b.count },
    { header: t('expenses.amount'), value: (b) => money(b.totalCents) },
  ];
  const fileBase = data ? `expenses-${data.from}-to-${data.to}` : 'expenses';
  const periodName = (key: string) => (data?.period === 'day' ? formatDate(key) : data?.period === 'month' ? key.slice(0, 7) : data?.period === 'year' ? key.slice(0, 4) : formatDate(key));

  function exportExcel() {
    if (!data) return;
    const s = data.summary;
    void downloadExcel(`${fileBase}.xlsx`, [
      excelSheet(t('expenses.sheetExpenses'), data.items, exportColumns),
      excelSheet(t('expenses.sheetCategories'), s.byCategory, bucketColumns(t('category'), (b) => b.key)),
      excelSheet(t('expenses.sheetBranches'), s.byBranch, bucketColumns(t('branch'), (b) => (b as ExpenseBucket & { branchName: string }).branchName)),
      excelSheet(t('expenses.sheetMethods'), s.byPaymentMethod, bucketColumns(t('expenses.paymentMethod'), (b) => b.key)),
      excelSheet(t('expenses.sheetSources'), s.bySource, bucketColumns(t('expenses.source'), (b) => sourceLabel(b.key))),
      excelSheet(t('expenses.sheetPeriods'), s.byPeriod, bucketColumns(t('expenses.groupBy'), (b) => b.key)),
      excelSheet(t('expenses.sheetTransport'), s.transport.byType, [
        ...bucketColumns(t('expenses.transportType'), (b) => b.key || t('expenses.notStated')),
        { header: t('expenses.distance'), value: (b) => (b as ExpenseBucket & { distanceKm: number }).distanceKm },
      ]),
    ]);
  }

  const filterLines = [
    ...(data ? [periodLine(t, data.from, data.to)] : []),
    `${t('branch')}: ${branches.find((b) => b.id === branchId)?.name ?? t('allBranches')}`,
    ...(category ? [`${t('category')}: ${category}`] : []),
    ...(paymentMethod ? [`${t('expenses.paymentMethod')}: ${paymentMethod}`] : []),
    ...(source ? [`${t('expenses.source')}: ${sourceLabel(source)}`] : []),
    `${t('expenses.status')}: ${t(`expenses.statuses.${status}`)}`,
  ];
  const s = data?.summary;
  const transportCosts = s ? s.transport.fuelCents + s.transport.tollCents + s.transport.parkingCents + s.transport.mealAllowanceCents : 0;

  return (
    <div className="space-y-6">
      <PageHeader
        className="print:hidden"
        title={t('expenses.title')}
        description={t('expenses.description')}
        actions={
          <div className="flex flex-wrap gap-2">
            {keeper ? (
              <Button icon={<Plus className="size-4" aria-hidden="true" />} onClick={() => setEditing(null)} className="print:hidden">
                {t('expenses.record')}
              </Button>
            ) : null}
            <ReportActions disabled={!data} onCsv={() => data && downloadCsv(`${fileBase}.csv`, data.items, exportColumns)} onExcel={exportExcel} />
          </div>
        }
      />
      <PrintHeading title={t('expenses.title')} filters={filterLines} />
      <Card flush className="print:hidden">
        <div className="grid gap-3 p-4 sm:grid-cols-2 lg:grid-cols-4" role="group" aria-label={t('filters')}>
          <DateRangeFields from={from || data?.from || ''} to={to || data?.to || ''} onChange={(range) => update(range)} />
          <Field label={t('branch')}>
            <Select value={branchId} placeholder={t('allBranches')} options={branches.map((b) => ({ value: b.id, label: b.name }))} onChange={(e) => update({ branchId: e.target.value })} />
          </Field>
          <Field label={t('category')}>
            <Select value={category} placeholder={t('allCategories')} options={EXPENSE_CATEGORIES.map((c) => ({ value: c, label: c }))} onChange={(e) => update({ category: e.target.value })} />
          </Field>
          <Field label={t('expenses.paymentMethod')}>
            <Select value={paymentMethod ?? ''} placeholder={t('expenses.allMethods')} options={EXPENSE_PAYMENT_METHODS.map((m) => ({ value: m, label: m }))} onChange={(e) => update({ paymentMethod: e.target.value })} />
          </Field>
          <Field label={t('expenses.source')}>
            <Select value={source ?? ''} placeholder={t('expenses.allSources')} options={EXPENSE_SOURCES.map((v) => ({ value: v, label: sourceLabel(v) }))} onChange={(e) => update({ source: e.target.value })} />
          </Field>
          <Field label={t('expenses.status')}>
            <Select value={status} options={EXPENSE_STATUS_FILTERS.map((v) => ({ value: v, label: t(`expenses.statuses.${v}`) }))} onChange={(e) => update({ status: e.target.value === 'all' ? '' : e.target.value })} />
          </Field>
          <Field label={t('expenses.groupBy')}>
            <Select value={data?.period ?? period ?? 'day'} options={EXPENSE_PERIODS.map((v) => ({ value: v, label: t(`expenses.periods.${v}`) }))} onChange={(e) => update({ period: e.target.value as ExpensePeriod })} />
          </Field>
        </div>
      </Card>
      {rangeProblem ? (
        <p role="status" className="rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
          {rangeProblem}
        </p>
      ) : report.isPending ? (
        <LoadingState message={t('expenses.loading')} />
      ) : report.isError || !data || !s ? (
        <ErrorState message={`${t('expenses.loadFailed')} ${errorMessage(report.error)}`} onRetry={() => void report.refetch()} />
      ) : (
        <>
          <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
            <StatCard label={t('expenses.total')} value={formatMoney(s.totalCents)} hint={t('expenses.totalHint', { count: s.count })} tone="primary" />
            <StatCard label={t('expenses.voided')} value={formatMoney(s.voidedTotalCents)} hint={t('expenses.voidedHint', { count: s.voidedCount })} />
            <StatCard label={t('expenses.transportTotal')} value={formatMoney(s.transport.totalCents)} hint={t('expenses.transportHint', { base: formatMoney(s.transport.baseCents), costs: formatMoney(transportCosts) })} />
            <StatCard label={t('expenses.topCategory')} value={s.byCategory[0]?.key ?? t('expenses.none')} hint={s.byCategory[0] ? formatMoney(s.byCategory[0].totalCents) : undefined} />
          </div>
          {s.count === 0 && data.total === 0 ? (
            <EmptyState title={t('expenses.emptyTitle')} description={t('expenses.emptyDescription')} />
          ) : (
            <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
              <Card title={t('expenses.byCategory')} flush>
                <BreakdownTable caption={t('expenses.byCategory')} labelHeader={t('category')} countHeader={t('expenses.count')} amountHeader={t('expenses.amount')} rows={s.byCategory.map((b) => ({ key: b.key, label: b.key, count: b.count, cents: b.totalCents }))} />
              </Card>
              <Card title={t('expenses.byBranch')} flush>
                <BreakdownTable caption={t('expenses.byBranch')} labelHeader={t('branch')} countHeader={t('expenses.count')} amountHeader={t('expenses.amount')} rows={s.byBranch.map((b) => ({ key: b.key, label: b.branchName, count: b.count, cents: b.totalCents }))} />
              </Card>
              <Card title={t('expenses.byMethod')} flush>
                <BreakdownTable caption={t('expenses.byMethod')} labelHeader={t('expenses.paymentMethod')} countHeader={t('expenses.count')} amountHeader={t('expenses.amount')} rows={s.byPaymentMethod.map((b) => ({ key: b.key, label: b.key, count: b.count, cents: b.totalCents }))} />
              </Card>
              <Card title={t('expenses.bySource')} flush>
                <BreakdownTable caption={t('expenses.bySource')} labelHeader={t('expenses.source')} countHeader={t('expenses.count')} amountHeader={t('expenses.amount')} rows={s.bySource.map((b) => ({ key: b.key, label: sourceLabel(b.key), count: b.count, cents: b.totalCents }))} />
              </Card>
              <Card title={t('expenses.byPeriod')} flush>
                <BreakdownTable caption={t('expenses.byPeriod')} labelHeader={t(`expenses.periods.${data.period}`)} countHeader={t('expenses.count')} amountHeader={t('expenses.amount')} rows={s.byPeriod.map((b) => ({ key: b.key, label: periodName(b.key), count: b.count, cents: b.totalCents }))} />
              </Card>
              <Card title={t('expenses.transport')} flush>
                <BreakdownTable
                  caption={t('expenses.transportCaption')}
                  labelHeader={t('expenses.cost')}
                  amountHeader={t('expenses.amount')}
                  rows={[
                    { key: 'base', label: t('expenses.base'), cents: s.transport.baseCents },
                    { key: 'fuel', label: t('expenses.fuel'), cents: s.transport.fuelCents },
                    { key: 'tolls', label: t('expenses.tolls'), cents: s.transport.tollCents },
                    { key: 'parking', label: t('expenses.parking'), cents: s.transport.parkingCents },
                    { key: 'meal', label: t('expenses.mealAllowance'), cents: s.transport.mealAllowanceCents },
                    { key: 'total', label: t('expenses.transportTotal'), cents: s.transport.totalCents },
                  ]}
                  extra={s.transport.byType.map((b) => (
                    <Tr key={`type-${b.key}`}>
                      <Th scope="row" className="font-normal text-slate-600">
                        {b.key || t('expenses.notStated')} · {formatNumber(b.count)} · {b.distanceKm} km
                      </Th>
                      <Td className="whitespace-nowrap text-right tabular-nums text-slate-600">{formatMoney(b.totalCents)}</Td>
                    </Tr>
                  ))}
                />
              </Card>
            </div>
          )}
          <Card flush>
            <DataTable
              caption={t('expenses.caption')}
              columns={columns}
              data={data.items}
              getRowId={(e) => e.id}
              rowProps={(e) => ({ 'data-expense-id': e.id })}
              empty={<EmptyState title={t('expenses.emptyTitle')} description={t('expenses.emptyDescription')} />}
              stateClassName="p-4"
              pagination={{ page: data.page, pageSize: data.pageSize, total: data.total, onPageChange: (p) => update({ page: String(p) }) }}
            />
          </Card>
        </>
      )}
      {editing !== undefined && data ? (
        <ExpenseFormDialog
          open
          onOpenChange={(open) => (open ? undefined : setEditing(undefined))}
          expense={editing}
          branches={branches}
          defaultBranchId={me?.branch?.id ?? branches[0]?.id ?? ''}
          today={data?.today ?? new Date().toISOString().slice(0, 10)}
        />
      ) : null}
      <ConfirmDialog
        open={voiding !== null}
        onOpenChange={(open) => (open ? undefined : setVoiding(null))}
        title={t('expenses.voidTitle')}
        description={voiding ? t('expenses.voidDescription', { description: voiding.description, amount: formatMoney(voiding.totalCents) }) : undefined}
        confirmLabel={t('expenses.voidConfirm')}
        destructive
        loading={voidExpense.isPending}
        onConfirm={async () => {
          if (!voiding) return;
          if (!voidReason.trim()) {
            toast.error(t('expenses.voidFailed', { message: 'Enter a reason for voiding the expense.' }));
            return;
          }
          try {
            await voidExpense.mutateAsync({ id: voiding.id, input: { reason: voidReason }, key: voidKey });
            toast.success(t('expenses.voidDone'));
            setVoiding(null);
          } catch (error) {
            toast.error(t('expenses.voidFailed', { message: errorMessage(error) }));
          }
        }}
      >
        <Field label={t('expenses.voidReason')} required>
          <Input value={voidReason} maxLength={200} onChange={(e) => setVoidReason(e.target.value)} />
        </Field>
      </ConfirmDialog>
    </div>
  );
}
