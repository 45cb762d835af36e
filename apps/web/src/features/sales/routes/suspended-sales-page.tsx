import { useCallback, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PauseCircle } from 'lucide-react';
import type { SuspendedSaleListQueryInput, SuspendedSaleSummary } from '@pharmapoint/domain/suspended-sales';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { DataTable, dataTableColumns } from '@/components/ui/data-table';
import { EmptyState } from '@/components/ui/empty-state';
import { Field } from '@/components/ui/field';
import { PageHeader } from '@/components/ui/page-header';
import { Select } from '@/components/ui/select';
import { errorMessage } from '@/lib/api';
import { formatDateTime, formatMoney } from '@/lib/format';
import { toast } from '@/lib/toast';
import { usePermissions } from '@/features/auth/hooks/use-permissions';
import { fetchSuspendedSale, useCancelSuspendedSale, useSuspendedSales } from '@/features/sales/api/suspended-sales';
import { writeResumeHandoff } from '@/features/pos/hooks/resume-handoff';

const PAGE_SIZE = 50;

/** The age filter: key -> the list query's age bounds (whole days since suspension). */
const AGES = {
  any: {},
  today: { maxAgeDays: 0 },
  over1: { minAgeDays: 1 },
  over7: { minAgeDays: 7 },
  over30: { minAgeDays: 30 },
} as const satisfies Record<string, Pick<SuspendedSaleListQueryInput, 'minAgeDays' | 'maxAgeDays'>>;
type AgeKey = keyof typeof AGES;
const AGE_LABELS: Record<AgeKey, string> = {
  any: 'filters.ageAny',
  today: 'filters.ageToday',
  over1: 'filters.ageOver1',
  over7: 'filters.ageOver7',
  over30: 'filters.ageOver30',
};

function ageInDays(suspendedAt: string, now = Date.now()): number {
  return Math.max(0, Math.floor((now - Date.parse(suspendedAt)) / 86_400_000));
}

/**
 * /app/suspended-sales (seed 001 sections 2 and 4, decision 0028): the sales suspended at the till with their stock
 * reserved, filtered by branch, customer and age. Resume hands the sale to the till through browser storage and
 * opens /pos; Cancel (after a confirmation) releases the reserved stock. Reading needs sales:read or pos:access; the
 * actions need pos:access (the server checks both).
 */
export default function SuspendedSalesPage() {
  const { t } = useTranslation('suspended');
  const navigate = useNavigate();
  const { me, can, isDemo } = usePermissions();
  const mayAct = can('pos:access');
  const [branchId, setBranchId] = useState('');
  const [clientId, setClientId] = useState('');
  const [age, setAge] = useState<AgeKey>('any');
  const [page, setPage] = useState(1);
  const [resuming, setResuming] = useState<string | null>(null);
  const [toCancel, setToCancel] = useState<SuspendedSaleSummary | null>(null);
  const cancel = useCancelSuspendedSale();

  const query: SuspendedSaleListQueryInput = { branchId: branchId || undefined, clientId: clientId || undefined, ...AGES[age], limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE };
  const list = useSuspendedSales(query);
  // The customers who have suspended sales (the customer filter's choices).
  const everyone = useSuspendedSales({ limit: 200 });
  const customers = useMemo(() => {
    const seen = new Map<string, string>();
    for (const s of everyone.data?.items ?? []) if (!seen.has(s.client.id)) seen.set(s.client.id, s.clientPhone ? `${s.clientName} (${s.clientPhone})` : s.clientName);
    return [...seen].map(([value, label]) => ({ value, label })).sort((a, b) => a.label.localeCompare(b.label));
  }, [everyone.data]);
  const branches = (me?.allowedBranches ?? []).map((b) => ({ value: b.id, label: b.name }));
  const filtered = branchId !== '' || clientId !== '' || age !== 'any';

  const resume = useCallback(
    async (sale: SuspendedSaleSummary) => {
      setResuming(sale.id);
      try {
        const full = await fetchSuspendedSale(sale.id);
        writeResumeHandoff(full);
        await navigate('/pos');
      } catch (error) {
        toast.error(t('resume.failed', { message: errorMessage(error) }));
      } finally {
        setResuming(null);
      }
    },
    [navigate, t],
  );

  async function confirmCancel() {
    if (!toCancel) return;
    try {
      await cancel.mutateAsync(toCancel.id);
      toast.success(t('cancel.done'));
      setToCancel(null);
    } catch (error) {
      toast.error(t('cancel.failed', { message: errorMessage(error) }));
      setToCancel(null);
    }
  }

  const columns = useMemo(() => {
    const column = dataTableColumns<SuspendedSaleSummary>();
    return [
      column.display({
        id: 'customer',
        header: t('table.customer'),
        meta: { rowHeader: true },
        cell: ({ row: { original: s } }) => (
          <>
            <span className="font-medium text-slate-900">{s.clientName}</span>
            {s.clientPhone ? <span className="block text-xs text-slate-500">{s.clientPhone}</span> : null}
            <span className="block break-all text-xs text-slate-500">{s.reservationId}</span>
          </>
        ),
      }),
      column.display({
        id: 'suspended',
        header: t('table.suspendedAt'),
        meta: { cellClassName: 'whitespace-nowrap' },
        cell: ({ row: { original: s } }) => {
          const days = ageInDays(s.suspendedAt);
          return (
            <>
              {formatDateTime(s.suspendedAt)}
              <span className="block text-xs text-slate-500">
                {days === 0 ? t('table.ageToday') : t('table.ageDays', { count: days })} · {s.suspendedBy.name}
              </span>
            </>
          );
        },
      }),
      column.display({ id: 'branch', header: t('table.branch'), cell: ({ row }) => row.original.branchName }),
      column.display({
        id: 'items',
        header: t('table.items'),
        meta: { numeric: true },
        cell: ({ row }) => t('table.itemCount', { count: row.original.cartItemCount }),
      }),
      column.display({
        id: 'total',
        header: t('table.total'),
        meta: { numeric: true, cellClassName: 'whitespace-nowrap' },
        cell: ({ row: { original: s } }) => (
          <>
            {formatMoney(s.totalCents)}
            <span className="block text-xs text-slate-500">
              {t('table.paid')}: {formatMoney(s.amountPaidCents)} ({s.paymentMethod})
            </span>
          </>
        ),
      }),
      column.display({
        id: 'status',
        header: t('table.status'),
        cell: ({ row: { original: s } }) => (
          <Badge tone={s.paymentStatus === 'paid' ? 'success' : s.paymentStatus === 'partial' ? 'warning' : 'neutral'}>{t(`paymentStatus.${s.paymentStatus}`)}</Badge>
        ),
      }),
      column.display({ id: 'reason', header: t('table.reason'), cell: ({ row }) => <span className="break-words">{row.original.notes}</span> }),
      column.display({
        id: 'actions',
        header: t('table.actions'),
        cell: ({ row: { original: s } }) =>
          mayAct ? (
            <div className="flex flex-wrap gap-2">
              <Button size="sm" onClick={() => void resume(s)} loading={resuming === s.id} disabled={resuming !== null} aria-label={t('actions.resumeLabel', { client: s.clientName, reservation: s.reservationId })}>
                {t('actions.resume')}
              </Button>
              <Button
                size="sm"
                variant="outline"
                onClick={() => setToCancel(s)}
                disabled={isDemo || resuming !== null}
                aria-label={t('actions.cancelLabel', { client: s.clientName, reservation: s.reservationId })}
              >
                {t('actions.cancel')}
              </Button>
            </div>
          ) : null,
      }),
    ];
  }, [t, mayAct, isDemo, resuming, resume]);

  return (
    <div className="min-w-0 space-y-4">
      <PageHeader title={t('title')} description={t('description')} />
      <section aria-label={t('filters.label')} className="grid gap-3 rounded-lg border border-slate-200 bg-white p-4 sm:grid-cols-3">
        <Field label={t('filters.branch')}>
          <Select
            value={branchId}
            onChange={(event) => {
              setBranchId(event.target.value);
              setPage(1);
            }}
            options={[{ value: '', label: t('filters.allBranches') }, ...branches]}
          />
        </Field>
        <Field label={t('filters.customer')}>
          <Select
            value={clientId}
            onChange={(event) => {
              setClientId(event.target.value);
              setPage(1);
            }}
            options={[{ value: '', label: t('filters.customerPlaceholder') }, ...customers]}
          />
        </Field>
        <Field label={t('filters.age')}>
          <Select
            value={age}
            onChange={(event) => {
              setAge(event.target.value as AgeKey);
              setPage(1);
            }}
            options={(Object.keys(AGES) as AgeKey[]).map((key) => ({ value: key, label: t(AGE_LABELS[key]) }))}
          />
        </Field>
        {filtered ? (
          <div className="sm:col-span-3">
            <Button
              variant="ghost"
              size="sm"
              onClick={() => {
                setBranchId('');
                setClientId('');
                setAge('any');
                setPage(1);
              }}
            >
              {t('filters.clear')}
            </Button>
          </div>
        ) : null}
      </section>
      <div className="rounded-lg border border-slate-200 bg-white">
        <DataTable
          caption={t('table.caption')}
          columns={columns}
          data={list.data?.items}
          getRowId={(s) => s.id}
          rowProps={(s) => ({ 'data-reservation-id': s.reservationId })}
          isLoading={list.isPending}
          loadingMessage={t('loading')}
          error={list.isError ? `${t('error')}: ${errorMessage(list.error)}` : undefined}
          onRetry={() => void list.refetch()}
          empty={<EmptyState icon={<PauseCircle className="size-10" aria-hidden="true" />} title={t('empty.title')} description={filtered ? t('empty.filtered') : t('empty.description')} />}
          stateClassName={list.isSuccess ? 'p-4' : undefined}
          pagination={{ page, pageSize: PAGE_SIZE, total: list.data?.total ?? 0, onPageChange: setPage }}
        />
      </div>
      <ConfirmDialog
        open={toCancel !== null}
        onOpenChange={(open) => {
          if (!open && !cancel.isPending) setToCancel(null);
        }}
        title={t('cancel.title')}
        description={toCancel ? t('cancel.description', { count: toCancel.cartItemCount, client: toCancel.clientName, reservation: toCancel.reservationId }) : undefined}
        confirmLabel={t('cancel.confirm')}
        cancelLabel={t('cancel.keep')}
        destructive
        loading={cancel.isPending}
        onConfirm={() => void confirmCancel()}
      />
    </div>
  );
}
