import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { FileText, Receipt, Undo2, Wallet } from 'lucide-react';
import { SALE_STATUSES, tillPaymentMethods, type Sale } from '@pharmapoint/domain/sales';
import type { SaleHistoryItem } from '@pharmapoint/domain/sales-history';
import { Button, buttonClasses } from '@/components/ui/button';
import { DataTable, dataTableColumns } from '@/components/ui/data-table';
import { EmptyState } from '@/components/ui/empty-state';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { PageHeader } from '@/components/ui/page-header';
import { Select } from '@/components/ui/select';
import { StatCard } from '@/components/ui/stat-card';
import { errorMessage } from '@/lib/api';
import { formatDate, formatDateTime, formatMoney } from '@/lib/format';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { usePermissions } from '@/features/auth/hooks/use-permissions';
import { useDocumentSettings, useSaleFilterOptions, useSalesHistory } from '@/features/sales/api/sales';
import { DateRangeFields, dateQuery, type DateRangeValue } from '@/features/sales/components/date-range-fields';
import { SaleDetailDialog } from '@/features/sales/components/sale-detail-dialog';
import { SaleStatusBadge } from '@/features/sales/components/sale-status-badge';

const PAGE_SIZE = 25;
const INITIAL_RANGE: DateRangeValue = { preset: 'last30Days', from: '', to: '' };

/**
 * /app/allsales (issue 10 item 7, decision 0037): every sale the user's branches made, filtered on the server (date
 * filter values of seed 002 section 4, branch, payment method, cashier, client, invoice number, status), paged on
 * the server, with the totals of the whole filtered set; a row opens the sale's detail with its reprint. The cashier
 * and client choices are those of the sales in the chosen range and branch.
 */
export default function AllSalesPage() {
  const { t } = useTranslation('sales');
  const { me, canAny } = usePermissions();
  const mayReturn = canAny(['pos:refund', 'sales:refund']);
  const settings = useDocumentSettings();
  const [range, setRange] = useState<DateRangeValue>(INITIAL_RANGE);
  const [branchId, setBranchId] = useState('');
  const [paymentMethod, setPaymentMethod] = useState('');
  const [cashierId, setCashierId] = useState('');
  const [clientId, setClientId] = useState('');
  const [status, setStatus] = useState('');
  const [invoice, setInvoice] = useState('');
  const [invoiceNumber] = useDebouncedValue(invoice.trim(), 300);
  const [page, setPage] = useState(1);
  const [openId, setOpenId] = useState<string | null>(null);
  const query = {
    ...dateQuery(range),
    branchId: branchId || undefined,
    paymentMethod: paymentMethod || undefined,
    cashierId: cashierId || undefined,
    clientId: clientId || undefined,
    status: (status || undefined) as Sale['status'] | undefined,
    invoiceNumber: invoiceNumber || undefined,
    limit: PAGE_SIZE,
    offset: (page - 1) * PAGE_SIZE,
  };
  const list = useSalesHistory(query);
  const data = list.data;
  // The cashiers and clients of the sales in the range and branch (the filters' choices).
  const options = useSaleFilterOptions({ ...dateQuery(range), branchId: branchId || undefined });

  const set = <T,>(setter: (v: T) => void) => (value: T) => {
    setter(value);
    setPage(1);
  };
  const branches = (me?.allowedBranches ?? []).map((b) => ({ value: b.id, label: b.name }));
  const methods = tillPaymentMethods(settings.data?.settings.paymentMethods).map((m) => ({ value: m, label: m }));
  const cashiers = (options.data?.cashiers ?? []).map((c) => ({ value: c.id, label: c.name }));
  const clients = (options.data?.clients ?? []).map((c) => ({ value: c.id, label: c.phone ? `${c.name} (${c.phone})` : c.name }));
  const filtered = branchId !== '' || paymentMethod !== '' || cashierId !== '' || clientId !== '' || status !== '' || invoice !== '' || range.preset !== INITIAL_RANGE.preset;

  const columns = useMemo(() => {
    const column = dataTableColumns<SaleHistoryItem>();
    return [
      column.display({
        id: 'invoice',
        header: t('table.invoice'),
        meta: { rowHeader: true, cellClassName: 'whitespace-nowrap' },
        cell: ({ row: { original: s } }) => (
          <>
            <button type="button" className="font-medium text-primary underline-offset-2 hover:underline" onClick={() => setOpenId(s.id)} aria-label={t('table.open', { invoice: s.invoiceNumber })}>
              {s.invoiceNumber}
            </button>
            <span className="block text-xs text-slate-500">{formatDateTime(s.createdAt)}</span>
          </>
        ),
      }),
      column.display({
        id: 'client',
        header: t('table.client'),
        cell: ({ row: { original: s } }) => (
          <>
            <span className="break-words">{s.clientName}</span>
            <span className="block text-xs text-slate-500">{s.cashier.name} · {s.branchName}</span>
          </>
        ),
      }),
      column.display({ id: 'date', header: t('table.saleDate'), meta: { cellClassName: 'whitespace-nowrap' }, cell: ({ row }) => formatDate(row.original.saleDate) }),
      column.display({
        id: 'payment',
        header: t('table.payment'),
        cell: ({ row: { original: s } }) => (
          <>
            {s.paymentMethod}
            {s.balanceDueCents > 0 ? <span className="block text-xs text-amber-700">{t('table.owes', { amount: formatMoney(s.balanceDueCents) })}</span> : null}
          </>
        ),
      }),
      column.display({
        id: 'total',
        header: t('table.total'),
        meta: { numeric: true, cellClassName: 'whitespace-nowrap' },
        cell: ({ row: { original: s } }) => (
          <>
            {formatMoney(s.totalCents)}
            {s.refundedCents > 0 ? <span className="block text-xs text-slate-500">{t('table.refunded', { amount: formatMoney(s.refundedCents) })}</span> : null}
          </>
        ),
      }),
      column.display({ id: 'status', header: t('table.status'), cell: ({ row }) => <SaleStatusBadge status={row.original.status} /> }),
    ];
  }, [t]);

  const totals = data?.totals;
  return (
    <div className="min-w-0 space-y-4">
      <PageHeader
        title={t('allSales.title')}
        description={t('allSales.description')}
        actions={
          <div className="flex flex-wrap gap-2">
            <Link to="/app/sales/returns" className={buttonClasses('outline', 'sm')}><Undo2 className="size-4" aria-hidden="true" />{t('nav.returns')}</Link>
            <Link to="/app/sales/documents" className={buttonClasses('outline', 'sm')}><FileText className="size-4" aria-hidden="true" />{t('nav.documents')}</Link>
            <Link to="/app/sales/payment-summary" className={buttonClasses('outline', 'sm')}><Wallet className="size-4" aria-hidden="true" />{t('nav.paymentSummary')}</Link>
          </div>
        }
      />
      <section aria-label={t('filters.label')} className="grid gap-3 rounded-lg border border-slate-200 bg-white p-4 sm:grid-cols-2 lg:grid-cols-4">
        <DateRangeFields value={range} onChange={set(setRange)} />
        <Field label={t('filters.branch')}>
          <Select value={branchId} onChange={(e) => set(setBranchId)(e.target.value)} options={[{ value: '', label: t('filters.allBranches') }, ...branches]} />
        </Field>
        <Field label={t('filters.paymentMethod')}>
          <Select value={paymentMethod} onChange={(e) => set(setPaymentMethod)(e.target.value)} options={[{ value: '', label: t('filters.allMethods') }, ...methods]} />
        </Field>
        <Field label={t('filters.cashier')}>
          <Select value={cashierId} onChange={(e) => set(setCashierId)(e.target.value)} options={[{ value: '', label: t('filters.allCashiers') }, ...cashiers]} />
        </Field>
        <Field label={t('filters.client')}>
          <Select value={clientId} onChange={(e) => set(setClientId)(e.target.value)} options={[{ value: '', label: t('filters.allClients') }, ...clients]} />
        </Field>
        <Field label={t('filters.invoiceNumber')}>
          <Input value={invoice} placeholder="INV-000123" onChange={(e) => set(setInvoice)(e.target.value)} />
        </Field>
        <Field label={t('filters.status')}>
          <Select value={status} onChange={(e) => set(setStatus)(e.target.value)} options={[{ value: '', label: t('filters.allStatuses') }, ...SALE_STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) }))]} />
        </Field>
        {filtered ? (
          <div className="flex items-end">
            <Button
              variant="ghost"
              size="sm"
              onClick={() => {
                setRange(INITIAL_RANGE);
                setBranchId('');
                setPaymentMethod('');
                setCashierId('');
                setClientId('');
                setStatus('');
                setInvoice('');
                setPage(1);
              }}
            >
              {t('filters.reset')}
            </Button>
          </div>
        ) : null}
      </section>
      <section aria-label={t('totals.label')} className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <StatCard label={t('totals.count')} value={totals ? String(totals.count) : '—'} />
        <StatCard label={t('totals.total')} value={totals ? formatMoney(totals.totalCents) : '—'} tone="primary" />
        <StatCard label={t('totals.refunded')} value={totals ? formatMoney(totals.refundedCents) : '—'} hint={totals ? t('totals.net', { amount: formatMoney(totals.netCents) }) : undefined} />
        <StatCard label={t('totals.owed')} value={totals ? formatMoney(totals.balanceDueCents) : '—'} tone={totals && totals.balanceDueCents > 0 ? 'warning' : 'neutral'} />
      </section>
      <div className="rounded-lg border border-slate-200 bg-white">
        <DataTable
          caption={t('table.caption')}
          columns={columns}
          data={data?.items}
          getRowId={(s) => s.id}
          rowProps={(s) => ({ 'data-invoice': s.invoiceNumber })}
          isLoading={list.isPending}
          loadingMessage={t('loading')}
          error={list.isError ? `${t('error')}: ${errorMessage(list.error)}` : undefined}
          onRetry={() => void list.refetch()}
          empty={<EmptyState icon={<Receipt className="size-10" aria-hidden="true" />} title={t('empty.title')} description={filtered ? t('empty.filtered') : t('empty.description')} />}
          stateClassName={list.isSuccess ? 'p-4' : undefined}
          pagination={{ page, pageSize: PAGE_SIZE, total: data?.total ?? 0, onPageChange: setPage }}
        />
      </div>
      <SaleDetailDialog saleId={openId} onOpenChange={(open) => !open && setOpenId(null)} mayReturn={mayReturn} />
    </div>
  );
}
