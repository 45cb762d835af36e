import '@/features/dashboard/i18n';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AlertTriangle, RefreshCw } from 'lucide-react';
import { useQueryClient } from '@tanstack/react-query';
import {
  DATE_PRESETS,
  isRangeProblem,
  presetOf,
  resolveDateFilter,
  type DashboardSalesQuery,
  type DashboardSalesResponse,
  type ProfitStatus,
} from '@pharmapoint/domain/dashboard';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { ErrorState } from '@/components/ui/error-state';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { LoadingState } from '@/components/ui/loading-state';
import { Select } from '@/components/ui/select';
import { StatCard, type StatTone } from '@/components/ui/stat-card';
import { formatMoney, formatPercent } from '@/lib/format';
import { useUrlFilters } from '@/lib/use-url-filters';
import { useDashboardSales } from '@/features/dashboard/api/dashboard';

/** The chart library is loaded only with the dashboard's chart, never with the till or the sign-in page. */
const SalesChart = lazy(() => import('@/features/dashboard/components/sales-chart'));

/** Green for profit, red for a loss, grey at break even. */
export function profitTone(status: ProfitStatus): StatTone {
  return status === 'Profitable' ? 'positive' : status === 'Loss' ? 'negative' : 'neutral';
}

const STATUS_KEYS: Record<ProfitStatus, string> = { Profitable: 'profitable', Loss: 'loss', 'Break Even': 'breakEven' };

/** The dashboard's filters as kept in the address bar. */
export function useDashboardFilters() {
  const { params, update, clear } = useUrlFilters();
  const query: DashboardSalesQuery = {
    dateFilter: presetOf(params.get('dateFilter') ?? undefined),
    startDate: params.get('startDate') || undefined,
    endDate: params.get('endDate') || undefined,
    branchId: params.get('branch') || undefined,
    paymentMethod: params.get('paymentMethod') || undefined,
  };
  if (query.dateFilter !== 'custom') {
    delete query.startDate;
    delete query.endDate;
  }
  return { query, update, clear };
}

/** The four cards of the Sales overview: Total Sales, Purchase Cost, Total Profit, Profit Margin. */
export function SalesCards({ data }: { data: DashboardSalesResponse }) {
  const { t } = useTranslation('overview');
  const { totals } = data;
  const tone = profitTone(totals.status);
  const status = t(`sales.status.${STATUS_KEYS[totals.status]}`);
  return (
    <div className="grid gap-4 sm:grid-cols-2 md:grid-cols-4">
      <StatCard label={t('sales.cards.totalSales')} value={formatMoney(totals.totalRevenue)} hint={t('sales.saleCount', { count: totals.saleCount })} />
      <StatCard
        label={t('sales.cards.purchaseCost')}
        value={formatMoney(totals.totalCost)}
        hint={totals.costEstimated ? t('sales.estimated', { amount: formatMoney(totals.estimatedCostCents) }) : undefined}
      />
      <StatCard label={t('sales.cards.totalProfit')} value={formatMoney(totals.totalProfit)} tone={tone} hint={status} />
      <StatCard label={t('sales.cards.profitMargin')} value={formatPercent(totals.profitMargin, 1)} tone={tone} hint={status} />
    </div>
  );
}

/** Net profit after the period's expenses, the top 3 expense categories and the High Expense Alert. */
function ProfitAnalysis({ data }: { data: DashboardSalesResponse }) {
  const { t } = useTranslation('overview');
  const { totals } = data;
  const rows: [string, string, string?][] = [
    [t('profit.revenue'), formatMoney(totals.totalRevenue)],
    [t('profit.cost'), formatMoney(totals.totalCost)],
    [t('profit.gross'), formatMoney(totals.totalProfit)],
    [t('profit.expenses'), formatMoney(totals.expensesCents)],
    [t('profit.net'), formatMoney(totals.netProfit), totals.netProfit > 0 ? 'text-emerald-700' : totals.netProfit < 0 ? 'text-red-700' : 'text-slate-700'],
    [t('profit.netMargin'), formatPercent(totals.netMargin, 1)],
  ];
  return (
    <div className="grid gap-4 md:grid-cols-2">
      <Card title={t('profit.title')} description={data.range.label}>
        <dl className="divide-y divide-slate-100 text-sm">
          {rows.map(([label, value, colour]) => (
            <div key={label} className="flex justify-between gap-2 py-2">
              <dt className="text-slate-600">{label}</dt>
              <dd className={`font-semibold tabular-nums ${colour ?? 'text-slate-900'}`}>{value}</dd>
            </div>
          ))}
        </dl>
      </Card>
      <Card title={t('expenses.title')} description={t('expenses.total', { amount: formatMoney(totals.expensesCents) })}>
        {totals.highExpense ? (
          <div role="alert" className="mb-3 flex gap-2 rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
            <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            <div>
              <p className="font-semibold">{t('expenses.highAlert')}</p>
              <p>{t('expenses.highAlertBody')}</p>
            </div>
          </div>
        ) : null}
        {data.topExpenseCategories.length === 0 ? (
          <p className="text-sm text-slate-500">{t('expenses.none')}</p>
        ) : (
          <ol className="space-y-2 text-sm">
            {data.topExpenseCategories.map((c) => (
              <li key={c.category} className="flex justify-between gap-2">
                <span className="break-words text-slate-700">{c.category}</span>
                <span className="font-semibold tabular-nums text-slate-900">{formatMoney(c.amountCents)}</span>
              </li>
            ))}
          </ol>
        )}
      </Card>
    </div>
  );
}

/**
 * The Sales overview: the Sales Filters panel (kept in the address bar, so a view can be bookmarked and shared),
 * the four cards, the sales chart and the profit analysis, all from GET /api/dashboard/sales.
 */
export function SalesOverview({ branches }: { branches: readonly { id: string; name: string }[] }) {
  const { t } = useTranslation('overview');
  const queryClient = useQueryClient();
  const { query, update, clear } = useDashboardFilters();
  const problem = query.dateFilter === 'custom' ? resolveDateFilter('custom', '1970-01-01', query) : null;
  const rangeError = problem && isRangeProblem(problem) ? problem : null;
  const sales = useDashboardSales(query, rangeError === null);
  const [refreshing, setRefreshing] = useState(false);
  const data = sales.data;
  const busy = refreshing || sales.isFetching;
  const methods = data?.paymentMethods ?? ['Cash', 'M-Pesa'];

  const refresh = async () => {
    setRefreshing(true);
    try {
      await queryClient.invalidateQueries({ queryKey: ['dashboard'] });
    } finally {
      setRefreshing(false);
    }
  };

  return (
    <section aria-labelledby="sales-overview-heading" className="space-y-4">
      <h2 id="sales-overview-heading" className="sr-only">
        {t('sales.title')}
      </h2>
      <div className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
        <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
          <h3 className="text-base font-semibold text-slate-900">{t('sales.filtersTitle')}</h3>
          <button type="button" className="text-sm font-medium text-primary underline-offset-2 hover:underline" onClick={clear}>
            {t('sales.reset')}
          </button>
        </div>
        <div className="grid gap-3 sm:grid-cols-2 md:grid-cols-4">
          <Field label={t('sales.dateRange')}>
            <Select
              value={query.dateFilter}
              onChange={(e) => update({ dateFilter: e.target.value === 'today' ? null : e.target.value, ...(e.target.value === 'custom' ? {} : { startDate: null, endDate: null }) })}
              options={DATE_PRESETS.map((p) => ({ value: p, label: t(`sales.presets.${p}`) }))}
            />
          </Field>
          {query.dateFilter === 'custom' ? (
            <>
              <Field label={t('sales.startDate')} error={rangeError?.path === 'startDate' ? rangeError.message : undefined}>
                <Input type="date" value={query.startDate ?? ''} onChange={(e) => update({ startDate: e.target.value })} />
              </Field>
              <Field label={t('sales.endDate')} error={rangeError?.path === 'endDate' ? rangeError.message : undefined}>
                <Input type="date" value={query.endDate ?? ''} min={query.startDate} onChange={(e) => update({ endDate: e.target.value })} />
              </Field>
            </>
          ) : null}
          <Field label={t('sales.branch')}>
            <Select
              value={query.branchId ?? ''}
              onChange={(e) => update({ branch: e.target.value })}
              options={[{ value: '', label: t('sales.allBranches') }, ...branches.map((b) => ({ value: b.id, label: b.name }))]}
            />
          </Field>
          <Field label={t('sales.paymentMethod')}>
            <Select
              value={query.paymentMethod ?? ''}
              onChange={(e) => update({ paymentMethod: e.target.value })}
              options={[{ value: '', label: t('sales.allMethods') }, ...methods.map((m) => ({ value: m, label: m }))]}
            />
          </Field>
          <div className="flex items-end">
            <Button variant="outline" onClick={() => void refresh()} disabled={busy} icon={<RefreshCw className="size-4" aria-hidden="true" />}>
              {busy ? t('sales.refreshing') : t('sales.refresh')}
            </Button>
          </div>
        </div>
      </div>
      {rangeError ? null : sales.isError ? (
        <ErrorState title={t('sales.errorTitle')} message={sales.error.message} onRetry={() => void sales.refetch()} retryLabel={t('sales.tryAgain')} />
      ) : !data ? (
        <LoadingState message={t('sales.loading')} />
      ) : (
        <>
          <SalesCards data={data} />
          <Suspense fallback={<LoadingState message={t('chart.loading')} />}>
            <SalesChart data={data} />
          </Suspense>
          <ProfitAnalysis data={data} />
        </>
      )}
    </section>
  );
}
