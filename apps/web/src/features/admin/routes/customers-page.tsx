import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Banknote, CalendarPlus, Eye, Mail, Power, PowerOff, Search, UserPlus } from 'lucide-react';
import type { AdminPharmacy } from '@pharmapoint/domain/subscription';
import { MAX_TRIAL_EXTENSION_DAYS } from '@pharmapoint/domain/admin';
import { PageHeader } from '@/components/ui/page-header';
import { DataTable, dataTableColumns } from '@/components/ui/data-table';
import { EmptyState } from '@/components/ui/empty-state';
import { Button, buttonClasses } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Field } from '@/components/ui/field';
import { Dialog } from '@/components/ui/dialog';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Badge } from '@/components/ui/badge';
import { errorMessage } from '@/lib/api';
import { formatDate, formatNumber } from '@/lib/format';
import { toast } from '@/lib/toast';
import { usePharmacies, usePharmacyAction } from '@/features/admin/api/admin';
import { PharmacyStatusBadge } from '@/features/admin/components/pharmacy-status-badge';
import { OfflinePaymentDialog } from '@/features/admin/components/offline-payment-dialog';
import { newUuid } from '@/lib/idempotency';
import '@/features/admin/admin-catalogue';

/** An extension's dialog holds the Idempotency-Key of its request: Extend pressed twice, or retried, extends once. */
type Dialogs = { kind: 'view' | 'deactivate' | 'reactivate' | 'payment'; pharmacy: AdminPharmacy } | { kind: 'extend'; pharmacy: AdminPharmacy; key: string } | null;

function matches(p: AdminPharmacy, query: string): boolean {
  if (!query) return true;
  const q = query.toLowerCase();
  return [p.name, p.id, p.ownerEmail ?? ''].some((value) => value.toLowerCase().includes(q));
}

/**
 * Customers (seed 002 section 2, admin customers; issue 11 item 8): search the pharmacies, view one's subscription
 * and usage, extend a trial, record a payment made outside M-Pesa, deactivate and reactivate. Each action is audited by the server in the pharmacy's log.
 */
export default function CustomersPage() {
  const { t } = useTranslation('admin');
  const pharmacies = usePharmacies();
  const action = usePharmacyAction();
  const [query, setQuery] = useState('');
  const [dialog, setDialog] = useState<Dialogs>(null);
  const [days, setDays] = useState('7');
  const [daysError, setDaysError] = useState<string | null>(null);

  const rows = useMemo(() => (pharmacies.data ?? []).filter((p) => !p.isDemo && matches(p, query.trim())), [pharmacies.data, query]);

  const columns = useMemo(() => {
    const column = dataTableColumns<AdminPharmacy>();
    return [
      column.display({
        id: 'pharmacy',
        header: t('customers.pharmacy'),
        meta: { rowHeader: true },
        cell: ({ row: { original: p } }) => (
          <>
            <span className="font-medium text-slate-900">{p.name}</span>
            <span className="block text-xs text-slate-500">{p.ownerEmail ?? p.id}</span>
          </>
        ),
      }),
      column.display({ id: 'status', header: t('customers.status'), cell: ({ row }) => <PharmacyStatusBadge status={row.original.subscription.status} /> }),
      column.display({
        id: 'until',
        header: t('customers.until'),
        meta: { cellClassName: 'whitespace-nowrap' },
        cell: ({ row: { original: p } }) => formatDate(p.plan === 'trial' ? p.subscription.trialEndDate : p.subscription.hostingPaidUntil),
      }),
      column.display({ id: 'products', header: t('saas.products'), meta: { numeric: true }, cell: ({ row }) => formatNumber(row.original.usage.products) }),
      column.display({ id: 'transactions', header: t('saas.transactions'), meta: { numeric: true }, cell: ({ row }) => formatNumber(row.original.usage.transactions) }),
      column.display({
        id: 'actions',
        header: t('customers.actions'),
        cell: ({ row: { original: p } }) => {
          const inactive = p.subscription.storedStatus === 'inactive';
          return (
            <div className="flex flex-wrap gap-1">
              <Button size="sm" variant="ghost" aria-label={t('customers.viewLabel', { name: p.name })} icon={<Eye className="size-4" aria-hidden="true" />} onClick={() => setDialog({ kind: 'view', pharmacy: p })}>
                {t('customers.view')}
              </Button>
              {p.plan === 'trial' && !inactive ? (
                <Button
                  size="sm"
                  variant="outline"
                  aria-label={t('customers.extendLabel', { name: p.name })}
                  icon={<CalendarPlus className="size-4" aria-hidden="true" />}
                  onClick={() => {
                    setDays('7');
                    setDaysError(null);
                    setDialog({ kind: 'extend', pharmacy: p, key: newUuid() });
                  }}
                >
                  {t('customers.extend')}
                </Button>
              ) : null}
              {p.subscription.storedStatus && !inactive ? (
                <Button
                  size="sm"
                  variant="outline"
                  aria-label={t('customers.recordPaymentLabel', { name: p.name })}
                  icon={<Banknote className="size-4" aria-hidden="true" />}
                  onClick={() => setDialog({ kind: 'payment', pharmacy: p })}
                >
                  {t('customers.recordPayment')}
                </Button>
              ) : null}
              {inactive ? (
                <Button size="sm" variant="outline" aria-label={t('customers.reactivateLabel', { name: p.name })} icon={<Power className="size-4" aria-hidden="true" />} onClick={() => setDialog({ kind: 'reactivate', pharmacy: p })}>
                  {t('customers.reactivate')}
                </Button>
              ) : p.subscription.storedStatus ? (
                <Button size="sm" variant="ghost" aria-label={t('customers.deactivateLabel', { name: p.name })} icon={<PowerOff className="size-4" aria-hidden="true" />} onClick={() => setDialog({ kind: 'deactivate', pharmacy: p })}>
                  {t('customers.deactivate')}
                </Button>
              ) : null}
            </div>
          );
        },
      }),
    ];
  }, [t]);

  async function run(kind: 'extend' | 'deactivate' | 'reactivate' | 'resend-invitation', pharmacy: AdminPharmacy, idempotencyKey = '') {
    if (kind === 'extend') {
      const n = Number(days);
      if (!Number.isInteger(n) || n < 1 || n > MAX_TRIAL_EXTENSION_DAYS) {
        setDaysError(t('customers.daysError', { max: MAX_TRIAL_EXTENSION_DAYS }));
        return;
      }
    }
    try {
      const answer = await action.mutateAsync({
        pharmacyId: pharmacy.id,
        action: kind === 'extend' ? { kind: 'extend-trial', days: Number(days), idempotencyKey } : { kind },
      });
      toast.success(answer.message);
      setDialog(null);
    } catch (error) {
      toast.error(errorMessage(error));
    }
  }

  const p = dialog?.pharmacy;
  return (
    <div className="min-w-0 space-y-4">
      <PageHeader
        title={t('customers.title')}
        description={t('customers.description')}
        actions={
          <Link to="/app/admin/customers/new" className={buttonClasses('primary')}>
            <UserPlus className="size-4" aria-hidden="true" />
            {t('customers.new')}
          </Link>
        }
      />
      <div className="max-w-md">
        <Field label={t('customers.search')}>
          <Input type="search" value={query} onChange={(event) => setQuery(event.target.value)} placeholder={t('customers.searchPlaceholder')} />
        </Field>
      </div>
      <DataTable
        caption={t('customers.caption')}
        columns={columns}
        data={pharmacies.data ? rows : undefined}
        getRowId={(row) => row.id}
        isLoading={pharmacies.isPending}
        error={pharmacies.isError ? errorMessage(pharmacies.error) : undefined}
        onRetry={() => void pharmacies.refetch()}
        empty={<EmptyState icon={<Search className="size-8" />} title={query ? t('customers.noMatch') : t('saas.empty')} description={query ? t('customers.noMatchBody') : t('saas.emptyDescription')} />}
        pagination={{ pageSize: 25 }}
        framed
      />

      {p && dialog.kind === 'view' ? (
        <Dialog
          open
          onOpenChange={(open) => !open && setDialog(null)}
          title={p.name}
          description={p.ownerEmail ?? p.id}
          footer={
            <Button variant="outline" icon={<Mail className="size-4" aria-hidden="true" />} loading={action.isPending} onClick={() => void run('resend-invitation', p)}>
              {t('customers.resend')}
            </Button>
          }
        >
          <dl className="grid grid-cols-2 gap-x-4 gap-y-2 text-sm">
            <dt className="text-slate-500">{t('customers.status')}</dt>
            <dd>
              <PharmacyStatusBadge status={p.subscription.status} />
            </dd>
            <dt className="text-slate-500">{t('customers.message')}</dt>
            <dd>{p.subscription.statusMessage}</dd>
            <dt className="text-slate-500">{t('customers.plan')}</dt>
            <dd>{p.plan ? t(`customers.plans.${p.plan}`) : '—'}</dd>
            <dt className="text-slate-500">{t('customers.trialEnds')}</dt>
            <dd>{formatDate(p.subscription.trialEndDate)}</dd>
            <dt className="text-slate-500">{t('customers.hostingUntil')}</dt>
            <dd>{formatDate(p.subscription.hostingPaidUntil)}</dd>
            <dt className="text-slate-500">{t('saas.created')}</dt>
            <dd>{formatDate(p.createdAt)}</dd>
            {(['products', 'transactions', 'users', 'branches'] as const).map((key) => (
              <div key={key} className="contents">
                <dt className="text-slate-500">{t(`saas.${key}`)}</dt>
                <dd>
                  {formatNumber(p.usage[key])}
                  {p.subscription.limits ? (
                    <Badge className="ml-2">{t('customers.limit', { limit: limitText(p.subscription.limits, key) })}</Badge>
                  ) : null}
                </dd>
              </div>
            ))}
          </dl>
        </Dialog>
      ) : null}

      {p && dialog.kind === 'extend' ? (
        <ConfirmDialog
          open
          onOpenChange={(open) => !open && setDialog(null)}
          title={t('customers.extendTitle', { name: p.name })}
          description={t('customers.extendBody', { date: formatDate(p.subscription.trialEndDate) })}
          confirmLabel={t('customers.extendConfirm')}
          loading={action.isPending}
          onConfirm={() => run('extend', p, dialog.key)}
        >
          <Field label={t('customers.days')} error={daysError ?? undefined} hint={t('customers.daysHint', { max: MAX_TRIAL_EXTENSION_DAYS })}>
            <Input
              type="number"
              inputMode="numeric"
              min={1}
              max={MAX_TRIAL_EXTENSION_DAYS}
              value={days}
              onChange={(event) => {
                setDays(event.target.value);
                setDaysError(null);
                // Another number of days is another request: it gets its own key (the same key with another body is refused).
                setDialog({ kind: 'extend', pharmacy: p, key: newUuid() });
              }}
            />
          </Field>
        </ConfirmDialog>
      ) : null}

      {p && dialog.kind === 'payment' ? <OfflinePaymentDialog pharmacy={p} onClose={() => setDialog(null)} /> : null}

      {p && (dialog.kind === 'deactivate' || dialog.kind === 'reactivate') ? (
        <ConfirmDialog
          open
          onOpenChange={(open) => !open && setDialog(null)}
          title={t(`customers.${dialog.kind}Title`, { name: p.name })}
          description={t(`customers.${dialog.kind}Body`)}
          confirmLabel={t(`customers.${dialog.kind}`)}
          destructive={dialog.kind === 'deactivate'}
          loading={action.isPending}
          onConfirm={() => run(dialog.kind as 'deactivate' | 'reactivate', p)}
        />
      ) : null}
    </div>
  );
}

function limitText(limits: NonNullable<AdminPharmacy['subscription']['limits']>, key: 'products' | 'transactions' | 'users' | 'branches'): string {
  const value = { products: limits.maxProducts, transactions: limits.maxTransactions, users: limits.maxUsers, branches: limits.maxBranches }[key];
  return value === -1 ? '∞' : formatNumber(value);
}
