import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { AlertTriangle, CheckCircle2 } from 'lucide-react';
import { HOSTING_URGENT_DAYS } from '@pharmapoint/domain/subscription';
import { Badge } from '@/components/ui/badge';
import { Card } from '@/components/ui/card';
import { LoadingState } from '@/components/ui/loading-state';
import { PageHeader } from '@/components/ui/page-header';
import { UsageBar } from '@/components/ui/usage-bar';
import { cn } from '@/lib/cn';
import { formatDate } from '@/lib/format';
import { useSubscription, type ResourceKey, type SubscriptionResponse } from '@/features/subscription/api/subscription';
import { MpesaSubscriptionPayment } from '@/features/subscription/components/mpesa-subscription-payment';

const RESOURCES: readonly { key: ResourceKey; limit: 'maxProducts' | 'maxTransactions' | 'maxUsers' | 'maxBranches' }[] = [
  { key: 'products', limit: 'maxProducts' },
  { key: 'transactions', limit: 'maxTransactions' },
  { key: 'users', limit: 'maxUsers' },
  { key: 'branches', limit: 'maxBranches' },
];

/** The standard plan's features (seed 000 section 9). */
const FEATURES = [
  'inventory', 'salesReporting', 'multiUser', 'multiBranch', 'expiryTracking', 'lowStockAlerts', 'analytics', 'customerSupplier',
  'prescriptions', 'barcode', 'receipts', 'backup', 'cloud', 'mobile', 'support',
] as const;

/** /app/subscription and /app/upgrade: plan, status, next action, licence and hosting, usage and the standard plan. */
export default function SubscriptionPage() {
  const { t } = useTranslation('subscription');
  const location = useLocation();
  const query = useSubscription();
  const upgrade = location.pathname.endsWith('/upgrade');

  // The anchor #hosting-payment is linked from the sidebar and banners; scroll once the content is there.
  useEffect(() => {
    if (location.hash === '#hosting-payment' && !query.isPending) document.getElementById('hosting-payment')?.scrollIntoView();
  }, [location.hash, query.isPending]);

  return (
    <div className="space-y-6">
      <PageHeader title={upgrade ? t('upgradeTitle') : t('title')} description={t('description')} />
      {query.isPending ? (
        <LoadingState />
      ) : query.isError ? (
        <p role="alert" className="rounded-md border border-amber-200 bg-amber-50 p-4 text-sm text-amber-900">
          {t('loadFailed')}
        </p>
      ) : (
        <SubscriptionDetails data={query.data} />
      )}
      <StandardPlan />
    </div>
  );
}

function SubscriptionDetails({ data }: { data: SubscriptionResponse }) {
  const { t } = useTranslation('subscription');
  const { subscription, summary, usage } = data;
  const daysLeft = summary.isTrial ? summary.trialDaysLeft : summary.hostingDaysLeft;
  const urgent = summary.nextActionUrgent || (summary.nextAction !== null && daysLeft <= HOSTING_URGENT_DAYS);
  return (
    <>
      <Card title={t('status')}>
        <div className="flex flex-wrap items-center gap-3">
          <p className="text-lg font-semibold text-slate-900">{summary.statusMessage}</p>
          {subscription ? <Badge tone={subscription.planId === 'standard' ? 'primary' : 'info'}>{t(`plans.${subscription.planId}`)}</Badge> : null}
        </div>
        {summary.nextAction ? (
          <div
            role={urgent ? 'alert' : 'status'}
            className={cn(
              'mt-4 flex items-start gap-2 rounded-md border p-3 text-sm',
              urgent ? 'border-red-300 bg-red-50 font-semibold text-red-800' : 'border-amber-200 bg-amber-50 text-amber-900',
            )}
          >
            <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            <p>
              <span className="sr-only">{t('nextAction')}: </span>
              {summary.nextAction}
            </p>
          </div>
        ) : null}
        <dl className="mt-4 grid gap-4 text-sm sm:grid-cols-2 lg:grid-cols-4">
          <div>
            <dt className="text-slate-500">{t('licence')}</dt>
            <dd className="mt-1">
              <Badge tone={summary.licenseActive ? 'success' : 'danger'}>{summary.licenseActive ? t('active') : t('notActive')}</Badge>
            </dd>
          </div>
          <div>
            <dt className="text-slate-500">{t('hosting')}</dt>
            <dd className="mt-1">
              <Badge tone={summary.hostingActive ? 'success' : 'danger'}>{summary.hostingActive ? t('active') : t('notActive')}</Badge>
            </dd>
          </div>
          {subscription?.planId === 'trial' || summary.isTrial ? (
            <div>
              <dt className="text-slate-500">{t('trialEnds')}</dt>
              <dd className="mt-1 font-medium text-slate-900">
                {subscription?.trialEndDate ? formatDate(subscription.trialEndDate) : t('notSet')}
                {summary.trialExpired ? null : <span className="ml-2 text-slate-500">{t('daysLeft', { count: summary.trialDaysLeft })}</span>}
              </dd>
            </div>
          ) : (
            <div>
              <dt className="text-slate-500">{t('hostingPaidUntil')}</dt>
              <dd className="mt-1 font-medium text-slate-900">
                {subscription?.hostingPaidUntil ? formatDate(subscription.hostingPaidUntil) : t('notSet')}
                {summary.hostingActive ? <span className="ml-2 text-slate-500">{t('daysLeft', { count: summary.hostingDaysLeft })}</span> : null}
              </dd>
            </div>
          )}
          <div>
            <dt className="text-slate-500">{t('startDate')}</dt>
            <dd className="mt-1 font-medium text-slate-900">{subscription?.startDate ? formatDate(subscription.startDate) : t('notSet')}</dd>
          </div>
        </dl>
      </Card>

      {subscription ? (
        <Card title={t('usage.title')} description={t('usage.description')}>
          <div className="grid gap-4 md:grid-cols-2">
            {RESOURCES.map((resource) => (
              <UsageBar key={resource.key} label={t(`usage.${resource.key}`)} used={usage[resource.key] ?? 0} limit={subscription[resource.limit]} />
            ))}
          </div>
        </Card>
      ) : null}
    </>
  );
}

function StandardPlan() {
  const { t } = useTranslation('subscription');
  return (
    <>
      <Card title={t('standard.title')} description={t('standard.description')}>
        <dl className="grid gap-4 sm:grid-cols-2">
          <div className="rounded-md border border-slate-200 p-4">
            <dt className="text-sm text-slate-500">{t('standard.licence')}</dt>
            <dd className="text-2xl font-bold text-slate-900">{t('standard.licencePrice')}</dd>
          </div>
          <div className="rounded-md border border-slate-200 p-4">
            <dt className="text-sm text-slate-500">{t('standard.hostingFee')}</dt>
            <dd className="text-2xl font-bold text-slate-900">{t('standard.hostingPrice')}</dd>
          </div>
        </dl>
        <h3 className="mt-5 text-sm font-semibold text-slate-900">{t('standard.featuresTitle')}</h3>
        <ul className="mt-2 grid gap-1.5 text-sm text-slate-700 sm:grid-cols-2 lg:grid-cols-3">
          {FEATURES.map((feature) => (
            <li key={feature} className="flex items-center gap-2">
              <CheckCircle2 className="size-4 text-secondary" aria-hidden="true" />
              {t(`standard.features.${feature}`)}
            </li>
          ))}
        </ul>
      </Card>
      <section id="hosting-payment" aria-labelledby="hosting-payment-title" className="scroll-mt-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
        <h2 id="hosting-payment-title" className="text-base font-semibold text-slate-900">
          {t('hostingPayment.title')}
        </h2>
        <p className="mt-1 text-sm text-slate-600">{t('hostingPayment.description')}</p>
        <MpesaSubscriptionPayment />
      </section>
    </>
  );
}
