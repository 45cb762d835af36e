import { useTranslation } from 'react-i18next';
import { Building2 } from 'lucide-react';
import { errorMessage } from '@/lib/api';
import { formatDate, formatMoney, formatNumber } from '@/lib/format';
import { PageHeader } from '@/components/ui/page-header';
import { Card } from '@/components/ui/card';
import { Badge } from '@/components/ui/badge';
import { StatCard } from '@/components/ui/stat-card';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorState } from '@/components/ui/error-state';
import { LoadingState } from '@/components/ui/loading-state';
import { Table, TBody, THead, Td, Th, Tr } from '@/components/ui/table';
import { BackgroundJobsCard } from '@/features/admin/components/background-jobs-card';
import { useOverview, usePharmacies } from '@/features/admin/api/admin';
import { PharmacyStatusBadge } from '@/features/admin/components/pharmacy-status-badge';
import '@/features/admin/admin-catalogue';

function monthLabel(month: string): string {
  const [year, m] = month.split('-').map(Number);
  return new Date(Date.UTC(year!, m! - 1, 1)).toLocaleDateString('en-GB', { month: 'short', year: 'numeric', timeZone: 'UTC' });
}

/**
 * The SaaS dashboard (seed 002 section 2; issue 11 item 8): pharmacies by status (trial, active, hosting due soon,
 * hosting expired, inactive), sign-ups and revenue by month, demo conversions, every pharmacy, and the background jobs.
 */
export default function SaasDashboardPage() {
  const { t } = useTranslation('admin');
  const overview = useOverview();
  const query = usePharmacies();
  const pharmacies = query.data ?? [];
  const o = overview.data;
  const conversion = o && o.demos.registrations > 0 ? Math.round((o.demos.converted / o.demos.registrations) * 1000) / 10 : 0;

  return (
    <div className="min-w-0 space-y-6">
      <PageHeader title={t('saas.title')} description={t('saas.description')} />
      {overview.isPending ? (
        <LoadingState />
      ) : overview.isError ? (
        <ErrorState message={errorMessage(overview.error)} onRetry={() => void overview.refetch()} />
      ) : o ? (
        <>
          <section aria-label={t('saas.byStatus')} className="grid grid-cols-2 gap-3 md:grid-cols-3 xl:grid-cols-6">
            <StatCard label={t('saas.total')} value={formatNumber(o.pharmacies.total)} icon={<Building2 className="size-5" />} />
            <StatCard label={t('saas.trial')} value={formatNumber(o.pharmacies.trial)} tone="primary" hint={t('saas.trialExpiredHint', { count: o.pharmacies.trialExpired })} />
            <StatCard label={t('saas.active')} value={formatNumber(o.pharmacies.active)} tone="positive" />
            <StatCard label={t('saas.hostingDueSoon')} value={formatNumber(o.pharmacies.hostingDueSoon)} tone="warning" />
            <StatCard label={t('saas.hostingExpired')} value={formatNumber(o.pharmacies.hostingExpired)} tone="negative" />
            <StatCard label={t('saas.inactive')} value={formatNumber(o.pharmacies.inactive)} />
          </section>
          <div className="grid gap-4 lg:grid-cols-3">
            <Card title={t('saas.monthsTitle')} flush className="lg:col-span-2">
              <Table caption={t('saas.monthsTitle')}>
                <THead>
                  <Tr>
                    <Th>{t('saas.month')}</Th>
                    <Th numeric>{t('saas.signUps')}</Th>
                    <Th numeric>{t('saas.licences')}</Th>
                    <Th numeric>{t('saas.hosting')}</Th>
                  </Tr>
                </THead>
                <TBody>
                  {[...o.months].reverse().map((m) => (
                    <Tr key={m.month}>
                      <Th scope="row">{monthLabel(m.month)}</Th>
                      <Td numeric>{formatNumber(m.signUps)}</Td>
                      <Td numeric>{formatMoney(m.licenceCents)}</Td>
                      <Td numeric>{formatMoney(m.hostingCents)}</Td>
                    </Tr>
                  ))}
                </TBody>
              </Table>
            </Card>
            <Card title={t('saas.demosTitle')}>
              <dl className="grid grid-cols-2 gap-y-2 text-sm">
                <dt className="text-slate-500">{t('saas.demoRegistrations')}</dt>
                <dd className="text-right font-semibold">{formatNumber(o.demos.registrations)}</dd>
                <dt className="text-slate-500">{t('saas.demoVerified')}</dt>
                <dd className="text-right font-semibold">{formatNumber(o.demos.verified)}</dd>
                <dt className="text-slate-500">{t('saas.demoAccessed')}</dt>
                <dd className="text-right font-semibold">{formatNumber(o.demos.accessed)}</dd>
                <dt className="text-slate-500">{t('saas.demoConverted')}</dt>
                <dd className="text-right font-semibold">
                  {formatNumber(o.demos.converted)} <span className="text-xs font-normal text-slate-500">({conversion}%)</span>
                </dd>
              </dl>
            </Card>
          </div>
        </>
      ) : null}
      {query.isPending ? (
        <LoadingState />
      ) : query.isError ? (
        <ErrorState message={errorMessage(query.error)} onRetry={() => void query.refetch()} />
      ) : pharmacies.length === 0 ? (
        <EmptyState title={t('saas.empty')} description={t('saas.emptyDescription')} />
      ) : (
        <Card title={t('saas.caption')} flush>
          <Table caption={t('saas.caption')}>
            <THead>
              <Tr>
                <Th>{t('saas.pharmacy')}</Th>
                <Th>{t('saas.status')}</Th>
                <Th numeric>{t('saas.products')}</Th>
                <Th numeric>{t('saas.users')}</Th>
                <Th numeric>{t('saas.branches')}</Th>
                <Th numeric>{t('saas.transactions')}</Th>
                <Th>{t('saas.created')}</Th>
              </Tr>
            </THead>
            <TBody>
              {pharmacies.map((pharmacy) => (
                <Tr key={pharmacy.id}>
                  <Th scope="row" className="font-medium">
                    {pharmacy.name} {pharmacy.isDemo ? <Badge tone="warning">{t('saas.demo')}</Badge> : null}
                  </Th>
                  <Td>
                    <PharmacyStatusBadge status={pharmacy.subscription.status} />
                    <span className="block text-xs text-slate-500">{pharmacy.subscription.statusMessage}</span>
                  </Td>
                  <Td numeric>{formatNumber(pharmacy.usage.products)}</Td>
                  <Td numeric>{formatNumber(pharmacy.usage.users)}</Td>
                  <Td numeric>{formatNumber(pharmacy.usage.branches)}</Td>
                  <Td numeric>{formatNumber(pharmacy.usage.transactions)}</Td>
                  <Td>{formatDate(pharmacy.createdAt)}</Td>
                </Tr>
              ))}
            </TBody>
          </Table>
        </Card>
      )}
      <BackgroundJobsCard />
    </div>
  );
}
