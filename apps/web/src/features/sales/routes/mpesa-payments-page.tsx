import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Smartphone, Wallet } from 'lucide-react';
import { DATE_PRESETS, type DatePreset } from '@pharmapoint/domain/sales-history';
import { TILL_MPESA_ATTENTION_TEXT, TILL_MPESA_STATUSES, type TillMpesaRequest, type TillMpesaStatus } from '@pharmapoint/domain/till-mpesa';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { Button, buttonClasses } from '@/components/ui/button';
import { DataTable, dataTableColumns } from '@/components/ui/data-table';
import { EmptyState } from '@/components/ui/empty-state';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { PageHeader } from '@/components/ui/page-header';
import { Select } from '@/components/ui/select';
import { errorMessage } from '@/lib/api';
import { formatDateTime, formatMoney } from '@/lib/format';
import { pageParam, useUrlFilters } from '@/lib/use-url-filters';
import { usePermissions } from '@/features/auth/hooks/use-permissions';
import { useTillMpesaPayments } from '@/features/sales/api/till-mpesa';
import { ResolveMpesaDialog } from '@/features/sales/components/resolve-mpesa-dialog';
import { SaleDetailDialog } from '@/features/sales/components/sale-detail-dialog';

const PAGE_SIZE = 25;
/** The statuses the owner filters by ('resolved' is what reconciling leaves). */
const STATUS_FILTERS: readonly TillMpesaStatus[] = TILL_MPESA_STATUSES;
const TONES: Record<TillMpesaStatus, BadgeTone> = { pending: 'info', completed: 'success', failed: 'danger', cancelled: 'neutral', unmatched: 'warning', resolved: 'primary' };

function isStatus(value: string | null): value is TillMpesaStatus {
  return value !== null && (TILL_MPESA_STATUSES as readonly string[]).includes(value);
}
function isPreset(value: string | null): value is DatePreset {
  return value !== null && (DATE_PRESETS as readonly string[]).includes(value);
}

/**
 * /app/sales/mpesa-payments (decision 0068): the till's M-Pesa payment requests for the owner, filtered and paged on
 * the server (status, day, branch; kept in the address bar, so the notice can link to the unmatched ones), each with
 * its time, branch, cashier, phone, amount, M-Pesa receipt, status and the sale's invoice. Unmatched money (paid
 * after the cashier stopped waiting) is reconciled here: refunded to the customer, or applied to a sale.
 */
export default function MpesaPaymentsPage() {
  const { t } = useTranslation('sales');
  const { me, can, canAny, isDemo } = usePermissions();
  const maySeeSales = can('sales:read');
  const mayReturn = canAny(['pos:refund', 'sales:refund']);
  const { params, update, clear } = useUrlFilters();
  const status = isStatus(params.get('status')) ? (params.get('status') as TillMpesaStatus) : '';
  const preset = isPreset(params.get('preset')) ? (params.get('preset') as DatePreset) : '';
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  const branchId = params.get('branchId') ?? '';
  const page = pageParam(params);
  const [resolving, setResolving] = useState<TillMpesaRequest | null>(null);
  const [saleId, setSaleId] = useState<string | null>(null);

  const list = useTillMpesaPayments({
    status: status || undefined,
    preset: preset || undefined,
    from: preset === 'custom' ? from || undefined : undefined,
    to: preset === 'custom' ? to || undefined : undefined,
    branchId: branchId || undefined,
    limit: PAGE_SIZE,
    offset: (page - 1) * PAGE_SIZE,
  });
  const data = list.data;
  const branches = (me?.allowedBranches ?? []).map((b) => ({ value: b.id, label: b.name }));
  const filtered = status !== '' || preset !== '' || branchId !== '';

  const columns = useMemo(() => {
    const column = dataTableColumns<TillMpesaRequest>();
    const saleLink = (sale: { id: string; invoiceNumber: string }) =>
      maySeeSales ? (
        <button type="button" className="font-medium text-primary underline-offset-2 hover:underline" onClick={() => setSaleId(sale.id)} aria-label={t('mpesa.table.openSale', { invoice: sale.invoiceNumber })}>
          {sale.invoiceNumber}
        </button>
      ) : (
        <span>{sale.invoiceNumber}</span>
      );
    return [
      column.display({
        id: 'time',
        header: t('mpesa.table.time'),
        meta: { rowHeader: true },
        cell: ({ row: { original: p } }) => (
          <>
            <span className="whitespace-nowrap font-medium text-slate-900">{formatDateTime(p.createdAt)}</span>
            <span className="block text-xs text-slate-500">{t('mpesa.table.where', { branch: p.branch.name, cashier: p.requestedBy.name })}</span>
          </>
        ),
      }),
      column.display({ id: 'phone', header: t('mpesa.table.phone'), meta: { cellClassName: 'whitespace-nowrap' }, cell: ({ row }) => row.original.phoneNumber }),
      column.display({
        id: 'amount',
        header: t('mpesa.table.amount'),
        meta: { numeric: true, cellClassName: 'whitespace-nowrap' },
        cell: ({ row: { original: p } }) => (
          <>
            {formatMoney(p.amountCents)}
            {p.paidCents !== null && p.paidCents !== p.amountCents ? <span className="block text-xs text-amber-700">{t('mpesa.table.paid', { amount: formatMoney(p.paidCents) })}</span> : null}
          </>
        ),
      }),
      column.display({ id: 'receipt', header: t('mpesa.table.receipt'), meta: { cellClassName: 'whitespace-nowrap font-mono text-xs' }, cell: ({ row }) => row.original.mpesaReceipt ?? '—' }),
      column.display({
        id: 'status',
        header: t('mpesa.table.status'),
        cell: ({ row: { original: p } }) => (
          <div className="min-w-40 space-y-1">
            <Badge tone={TONES[p.status]}>{t(`mpesa.status.${p.status}`)}</Badge>
            {p.attention ? <span className="block text-xs text-slate-600">{TILL_MPESA_ATTENTION_TEXT[p.attention]}</span> : null}
            {p.status === 'failed' && p.failureReason ? <span className="block text-xs text-slate-600">{p.failureReason}</span> : null}
            {p.resolution ? (
              <span className="block text-xs text-slate-600">
                {p.resolution.kind === 'refunded' ? t('mpesa.table.refunded', { reference: p.resolution.reference ?? '' }) : t('mpesa.table.applied', { invoice: p.resolution.sale?.invoiceNumber ?? '' })}
                {' · '}
                {t('mpesa.table.by', { name: p.resolution.resolvedBy.name, date: formatDateTime(p.resolution.resolvedAt) })}
                {p.resolution.note ? <span className="block italic">{p.resolution.note}</span> : null}
              </span>
            ) : null}
          </div>
        ),
      }),
      column.display({
        id: 'sale',
        header: t('mpesa.table.sale'),
        meta: { cellClassName: 'whitespace-nowrap' },
        cell: ({ row: { original: p } }) => (
          <>
            {p.sale ? saleLink(p.sale) : <span className="text-slate-400">—</span>}
            {p.resolution?.sale && p.resolution.sale.id !== p.sale?.id ? <span className="block text-xs">{t('mpesa.table.appliedTo')} {saleLink(p.resolution.sale)}</span> : null}
          </>
        ),
      }),
      column.display({
        id: 'actions',
        header: () => <span className="sr-only">{t('mpesa.table.actions')}</span>,
        cell: ({ row: { original: p } }) =>
          p.status === 'unmatched' && !isDemo ? (
            <Button size="sm" onClick={() => setResolving(p)} aria-label={t('mpesa.table.reconcileLabel', { receipt: p.mpesaReceipt ?? '' })}>
              {t('mpesa.table.reconcile')}
            </Button>
          ) : null,
      }),
    ];
  }, [t, maySeeSales, isDemo]);

  return (
    <div className="min-w-0 space-y-4">
      <PageHeader
        title={t('mpesa.title')}
        description={t('mpesa.description')}
        actions={
          <Link to="/app/sales/payment-summary" className={buttonClasses('outline', 'sm')}>
            <Wallet className="size-4" aria-hidden="true" />
            {t('nav.paymentSummary')}
          </Link>
        }
      />
      <section aria-label={t('mpesa.filters')} className="grid gap-3 rounded-lg border border-slate-200 bg-white p-4 sm:grid-cols-2 lg:grid-cols-4">
        <Field label={t('filters.status')}>
          <Select value={status} onChange={(e) => update({ status: e.target.value })} options={[{ value: '', label: t('filters.allStatuses') }, ...STATUS_FILTERS.map((s) => ({ value: s, label: t(`mpesa.status.${s}`) }))]} />
        </Field>
        <Field label={t('filters.dateRange')}>
          <Select
            value={preset}
            onChange={(e) => update({ preset: e.target.value, ...(e.target.value === 'custom' ? {} : { from: null, to: null }) })}
            options={[{ value: '', label: t('mpesa.anyDate') }, ...DATE_PRESETS.map((p) => ({ value: p, label: t(`presets.${p}`) }))]}
          />
        </Field>
        {preset === 'custom' ? (
          <>
            <Field label={t('filters.startDate')}>
              <Input type="date" value={from} max={to || undefined} onChange={(e) => update({ from: e.target.value })} />
            </Field>
            <Field label={t('filters.endDate')}>
              <Input type="date" value={to} min={from || undefined} onChange={(e) => update({ to: e.target.value })} />
            </Field>
          </>
        ) : null}
        <Field label={t('filters.branch')}>
          <Select value={branchId} onChange={(e) => update({ branchId: e.target.value })} options={[{ value: '', label: t('filters.allBranches') }, ...branches]} />
        </Field>
        {filtered ? (
          <div className="flex items-end">
            <Button variant="ghost" size="sm" onClick={clear}>
              {t('filters.reset')}
            </Button>
          </div>
        ) : null}
      </section>
      <div className="rounded-lg border border-slate-200 bg-white">
        <DataTable
          caption={t('mpesa.table.caption')}
          columns={columns}
          data={data?.items}
          getRowId={(p) => p.id}
          rowProps={(p) => ({ 'data-receipt': p.mpesaReceipt ?? undefined, 'data-status': p.status })}
          isLoading={list.isPending}
          loadingMessage={t('mpesa.loading')}
          error={list.isError ? `${t('mpesa.error')}: ${errorMessage(list.error)}` : undefined}
          onRetry={() => void list.refetch()}
          empty={
            <EmptyState
              icon={<Smartphone className="size-10" aria-hidden="true" />}
              title={status === 'unmatched' ? t('mpesa.empty.unmatchedTitle') : t('mpesa.empty.title')}
              description={filtered ? t('mpesa.empty.filtered') : t('mpesa.empty.description')}
            />
          }
          stateClassName={list.isSuccess ? 'p-4' : undefined}
          pagination={{ page, pageSize: PAGE_SIZE, total: data?.total ?? 0, onPageChange: (next) => update({ page: next > 1 ? String(next) : null }) }}
        />
      </div>
      <ResolveMpesaDialog payment={resolving} onOpenChange={(open) => !open && setResolving(null)} />
      <SaleDetailDialog saleId={saleId} onOpenChange={(open) => !open && setSaleId(null)} mayReturn={mayReturn} />
    </div>
  );
}
