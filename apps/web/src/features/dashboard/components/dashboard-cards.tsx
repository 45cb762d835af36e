import '@/features/dashboard/i18n';
import { useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { addDays } from '@pharmapoint/domain/sales-history';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { UsageBar } from '@/components/ui/usage-bar';
import { formatDate, formatMoney } from '@/lib/format';
import { useSubscription } from '@/features/subscription/api/subscription';
import { useCreditOutstanding, useRecentExpenses, useRefillWindow, useUnmatchedMpesa } from '@/features/dashboard/api/dashboard';

/** The refill list shows 4, then 'Show N more'. */
export const REFILLS_SHOWN = 4;
/** Recent expenses: the last 7 days, 5 shown. */
const RECENT_EXPENSE_DAYS = 7;

function Muted({ children }: { children: React.ReactNode }) {
  return <p className="text-sm text-slate-500">{children}</p>;
}

/** The last 7 days' expenses, newest first, 5 shown. */
export function RecentExpenses({ today, branchId }: { today: string; branchId: string | undefined }) {
  const { t } = useTranslation('overview');
  const expenses = useRecentExpenses(addDays(today, -(RECENT_EXPENSE_DAYS - 1)), branchId, true);
  return (
    <Card title={t('recentExpenses.title')} description={t('recentExpenses.description')} actions={<Link className="text-sm font-medium text-primary hover:underline" to="/app/reports/expenses">{t('recentExpenses.viewAll')}</Link>}>
      {expenses.isError ? (
        <Muted>{t('recentExpenses.error')}</Muted>
      ) : !expenses.data ? (
        <Muted>{t('recentExpenses.loading')}</Muted>
      ) : expenses.data.items.length === 0 ? (
        <Muted>{t('recentExpenses.none')}</Muted>
      ) : (
        <ul className="divide-y divide-slate-100 text-sm">
          {expenses.data.items.map((e) => (
            <li key={e.id} className="flex justify-between gap-2 py-2">
              <span className="min-w-0">
                <span className="block break-words font-medium text-slate-800">{e.description}</span>
                <span className="block text-xs text-slate-500">
                  {e.category} · {formatDate(e.date)}
                </span>
              </span>
              <span className="shrink-0 font-semibold tabular-nums text-slate-900">{formatMoney(e.totalCents)}</span>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

/** The plan's usage: red above 90 %, yellow above 70 %, unlimited for -1. */
export function PlanUsage() {
  const { t } = useTranslation('overview');
  const subscription = useSubscription();
  const plan = subscription.data?.subscription;
  const usage = subscription.data?.usage;
  const rows = [
    { key: 'products', limit: plan?.maxProducts },
    { key: 'transactions', limit: plan?.maxTransactions },
    { key: 'users', limit: plan?.maxUsers },
    { key: 'branches', limit: plan?.maxBranches },
  ] as const;
  return (
    <Card title={t('planUsage.title')} actions={<Link className="text-sm font-medium text-primary hover:underline" to="/app/subscription">{t('planUsage.manage')}</Link>}>
      {subscription.isError ? (
        <Muted>{t('planUsage.error')}</Muted>
      ) : !plan || !usage ? (
        <Muted>{subscription.isLoading ? t('planUsage.loading') : t('planUsage.none')}</Muted>
      ) : (
        <div className="space-y-3">
          {rows.map((r) => (
            <UsageBar key={r.key} label={t(`planUsage.${r.key}`)} used={usage[r.key]} limit={r.limit ?? -1} />
          ))}
        </div>
      )}
    </Card>
  );
}

/** Supplier payments due are the card above; here what customers owe on credit and M-Pesa money to reconcile. */
export function FinancialControls() {
  const { t } = useTranslation('overview');
  const credit = useCreditOutstanding(true);
  const mpesa = useUnmatchedMpesa(true);
  return (
    <Card title={t('financial.title')}>
      <dl className="divide-y divide-slate-100 text-sm">
        <div className="flex flex-wrap items-center justify-between gap-2 py-2">
          <dt className="text-slate-600">{t('financial.credit')}</dt>
          <dd className="font-semibold tabular-nums text-slate-900">
            {credit.isError ? t('financial.error') : credit.data ? (
              <Link className="hover:underline" to="/app/sales/payment-summary">
                {t('financial.creditValue', { amount: formatMoney(credit.data.totals.balanceCents), count: credit.data.customers.length })}
              </Link>
            ) : '…'}
          </dd>
        </div>
        <div className="flex flex-wrap items-center justify-between gap-2 py-2">
          <dt className="text-slate-600">{t('financial.mpesa')}</dt>
          <dd className="font-semibold tabular-nums">
            {mpesa.isError ? t('financial.error') : mpesa.data ? (
              <Link className={mpesa.data.total > 0 ? 'text-amber-700 hover:underline' : 'text-slate-900 hover:underline'} to="/app/sales/mpesa-payments?status=unmatched">
                {t('financial.mpesaValue', { count: mpesa.data.total })}
              </Link>
            ) : '…'}
          </dd>
        </div>
      </dl>
    </Card>
  );
}

/** Refills overdue, due today or in the next 7 days: 4 shown, then 'Show N more'. */
export function RefillReminders() {
  const { t } = useTranslation('overview');
  const refills = useRefillWindow(true);
  const [all, setAll] = useState(false);
  const items = refills.data?.items ?? [];
  const shown = all ? items : items.slice(0, REFILLS_SHOWN);
  const more = items.length - shown.length;
  const tone = { overdue: 'bg-red-100 text-red-800', due: 'bg-amber-100 text-amber-800', upcoming: 'bg-sky-100 text-sky-800', later: 'bg-slate-100 text-slate-700' } as const;
  return (
    <Card title={t('refills.title')} actions={<Link className="text-sm font-medium text-primary hover:underline" to="/app/reports/refill-alerts">{t('refills.viewAll')}</Link>}>
      {refills.isError ? (
        <Muted>{t('refills.error')}</Muted>
      ) : !refills.data ? (
        <Muted>{t('refills.loading')}</Muted>
      ) : items.length === 0 ? (
        <Muted>{t('refills.none')}</Muted>
      ) : (
        <>
          <ul className="divide-y divide-slate-100 text-sm">
            {shown.map((r) => (
              <li key={`${r.saleId}-${r.line}`} className="flex flex-wrap items-center justify-between gap-2 py-2">
                <span className="min-w-0">
                  <span className="block break-words font-medium text-slate-800">{r.productName}</span>
                  <span className="block text-xs text-slate-500">
                    {r.client.name}
                    {r.client.phone ? ` · ${r.client.phone}` : ''} · {formatDate(r.refillDate)}
                  </span>
                </span>
                <Badge className={tone[r.status]}>{t(`refills.status.${r.status}`, { count: Math.abs(r.daysLeft) })}</Badge>
              </li>
            ))}
          </ul>
          {more > 0 ? (
            <Button variant="ghost" size="sm" className="mt-2" onClick={() => setAll(true)}>
              {t('refills.showMore', { count: more })}
            </Button>
          ) : null}
        </>
      )}
    </Card>
  );
}
