import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { CalendarClock, CalendarX2 } from 'lucide-react';
import type { BranchSummaryResponse } from '@pharmapoint/domain/stock';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorState } from '@/components/ui/error-state';
import { errorMessage } from '@/lib/api';
import { formatNumber } from '@/lib/format';
import { useBranchSummary } from '@/features/dashboard/api/branch-summary';

type BranchRow = BranchSummaryResponse['branches'][number];

/** The segments of the bar, in order; colours pass 3:1 against white (non-text contrast). */
const SEGMENTS = [
  { key: 'out', className: 'bg-red-600' },
  { key: 'low', className: 'bg-amber-500' },
  { key: 'good', className: 'bg-emerald-600' },
] as const;

/** Percent widths that add up to 100 (a non-zero segment keeps at least a sliver so it stays visible). */
export function segmentWidths(counts: readonly number[]): number[] {
  const total = counts.reduce((a, b) => a + b, 0);
  if (total === 0) return counts.map(() => 0);
  return counts.map((n) => (n === 0 ? 0 : Math.max(1.5, (n / total) * 100)));
}

function StockBar({ branch }: { branch: BranchRow }) {
  const { t } = useTranslation('dashboard');
  const counts = [branch.out, branch.low, branch.good];
  const widths = segmentWidths(counts);
  const total = counts.reduce((a, b) => a + b, 0);
  const label = t('stockHealth.chartLabel', {
    branch: branch.branchName,
    out: formatNumber(branch.out),
    low: formatNumber(branch.low),
    good: formatNumber(branch.good),
    total: formatNumber(total),
  });
  return (
    <div role="img" aria-label={label} className="flex h-4 w-full overflow-hidden rounded-full bg-slate-200">
      {SEGMENTS.map((segment, i) =>
        widths[i] ? <div key={segment.key} className={`${segment.className} h-full`} style={{ width: `${widths[i]}%` }} /> : null,
      )}
    </div>
  );
}

function BranchHealth({ branch, days, canReport }: { branch: BranchRow; days: number; canReport: boolean }) {
  const { t } = useTranslation('dashboard');
  const statusLink = (status: 'out' | 'low') => `/app/reports/low-stock?branchId=${branch.branchId}&status=${status}`;
  const counts: Record<(typeof SEGMENTS)[number]['key'], number> = { out: branch.out, low: branch.low, good: branch.good };
  const linkClass = 'font-medium text-primary underline-offset-2 hover:underline';
  return (
    <Card title={t('stockHealth.branchTitle', { branch: branch.branchName })} headingLevel={3} data-branch-id={branch.branchId}>
      <div className="space-y-4">
        <StockBar branch={branch} />
        <dl className="grid grid-cols-3 gap-2 text-sm">
          {SEGMENTS.map((segment) => (
            <div key={segment.key} className="flex flex-col">
              <dt className="flex items-center gap-1.5 text-slate-600">
                <span className={`inline-block size-3 rounded-sm ${segment.className}`} aria-hidden="true" />
                {t(`stockHealth.status.${segment.key}`)}
              </dt>
              <dd className="text-lg font-semibold tabular-nums text-slate-900">
                {canReport && segment.key !== 'good' && counts[segment.key] > 0 ? (
                  <Link to={statusLink(segment.key)} className={linkClass} aria-label={t(`stockHealth.viewStatus.${segment.key}`, { count: counts[segment.key], branch: branch.branchName })}>
                    {formatNumber(counts[segment.key])}
                  </Link>
                ) : (
                  formatNumber(counts[segment.key])
                )}
              </dd>
            </div>
          ))}
        </dl>
        <div>
          <h4 className="text-sm font-semibold text-slate-900">{t('stockHealth.expiryTitle')}</h4>
          <ul className="mt-2 space-y-2 text-sm">
            <li className="flex items-start gap-2">
              <CalendarX2 className={`mt-0.5 size-4 shrink-0 ${branch.expiredBatches > 0 ? 'text-red-600' : 'text-slate-400'}`} aria-hidden="true" />
              <span className="text-slate-700">
                {t('stockHealth.expired', { count: branch.expiredBatches, quantity: formatNumber(branch.expiredQuantity) })}
                {canReport && branch.expiredBatches > 0 ? (
                  <>
                    {' '}
                    <Link to={`/app/reports/expiry?branchId=${branch.branchId}&days=0`} className={linkClass}>
                      {t('stockHealth.viewExpired', { branch: branch.branchName })}
                    </Link>
                  </>
                ) : null}
              </span>
            </li>
            <li className="flex items-start gap-2">
              <CalendarClock className={`mt-0.5 size-4 shrink-0 ${branch.nearExpiryBatches > 0 ? 'text-amber-600' : 'text-slate-400'}`} aria-hidden="true" />
              <span className="text-slate-700">
                {t('stockHealth.nearExpiry', { count: branch.nearExpiryBatches, quantity: formatNumber(branch.nearExpiryQuantity), days })}
                {canReport && branch.nearExpiryBatches > 0 ? (
                  <>
                    {' '}
                    <Link to={`/app/reports/expiry?branchId=${branch.branchId}&days=${days}`} className={linkClass}>
                      {t('stockHealth.viewNearExpiry', { branch: branch.branchName })}
                    </Link>
                  </>
                ) : null}
              </span>
            </li>
          </ul>
        </div>
      </div>
    </Card>
  );
}

function Skeleton() {
  const { t } = useTranslation('dashboard');
  return (
    <div role="status" className="grid gap-4 md:grid-cols-2">
      <span className="sr-only">{t('stockHealth.loading')}</span>
      {[0, 1].map((i) => (
        <div key={i} className="animate-pulse space-y-4 rounded-lg border border-slate-200 bg-white p-4" aria-hidden="true">
          <div className="h-4 w-1/3 rounded bg-slate-200" />
          <div className="h-4 w-full rounded-full bg-slate-200" />
          <div className="grid grid-cols-3 gap-2">
            <div className="h-10 rounded bg-slate-100" />
            <div className="h-10 rounded bg-slate-100" />
            <div className="h-10 rounded bg-slate-100" />
          </div>
          <div className="h-12 rounded bg-slate-100" />
        </div>
      ))}
    </div>
  );
}

/** The dashboard's "Stock health": per visible branch, out / low / good products as a stacked bar and the expiry alerts. */
export function StockHealth({ canReport }: { canReport: boolean }) {
  const { t } = useTranslation('dashboard');
  const summary = useBranchSummary(true);
  return (
    <section aria-labelledby="stock-health-title" className="space-y-3">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="stock-health-title" className="text-lg font-semibold text-slate-900">
          {t('stockHealth.title')}
        </h2>
        {canReport ? (
          <p className="flex gap-4 text-sm">
            <Link to="/app/reports/expiry" className="font-medium text-primary hover:underline">
              {t('stockHealth.expiryReport')}
            </Link>
            <Link to="/app/reports/low-stock" className="font-medium text-primary hover:underline">
              {t('stockHealth.lowStockReport')}
            </Link>
          </p>
        ) : null}
      </div>
      {summary.isPending ? (
        <Skeleton />
      ) : summary.isError ? (
        <ErrorState title={t('stockHealth.loadFailed')} message={errorMessage(summary.error)} onRetry={() => void summary.refetch()} />
      ) : summary.data.branches.length === 0 ? (
        <EmptyState title={t('stockHealth.emptyTitle')} description={t('stockHealth.emptyDescription')} />
      ) : (
        <div className="grid gap-4 md:grid-cols-2">
          {summary.data.branches.map((branch) => (
            <BranchHealth key={branch.branchId} branch={branch} days={summary.data.expiryAlertDays} canReport={canReport} />
          ))}
        </div>
      )}
    </section>
  );
}
