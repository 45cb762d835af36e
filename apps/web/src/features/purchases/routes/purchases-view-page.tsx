import { useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Plus, Trash2, Undo2 } from 'lucide-react';
import { displayPurchaseNumber, PURCHASE_STATUSES, type PurchaseSummary } from '@pharmapoint/domain/purchases';
import { Button, buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { DataTable, dataTableColumns } from '@/components/ui/data-table';
import { EmptyState } from '@/components/ui/empty-state';
import { Field } from '@/components/ui/field';
import { formErrorText } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { PageHeader } from '@/components/ui/page-header';
import { Select } from '@/components/ui/select';
import { errorMessage } from '@/lib/api';
import { formatDate, formatMoney, formatNumber } from '@/lib/format';
import { toast } from '@/lib/toast';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { useUrlFilters } from '@/lib/use-url-filters';
import { usePermissions } from '@/features/auth/hooks/use-permissions';
import { useBulkDeletePurchases, useDeletePurchase, usePurchases, useSuppliers } from '@/features/purchases/api/purchases';
import { PurchaseDetailDialog } from '@/features/purchases/components/purchase-detail-dialog';
import { PurchaseStatusBadge } from '@/features/purchases/components/status-badge';
import '@/features/purchases/purchases-catalogue';

const PAGE_SIZE = 25;

/**
 * /app/purchases/view: every purchase newest first, with the filters of seed 002 section 5 (status, branch, supplier,
 * inclusive date range, text across number, reference, notes, status, supplier, id and item names), paged on the
 * server and kept in the address bar; view, receive, edit, delete one or several.
 */
export default function PurchasesViewPage() {
  const { t } = useTranslation('purchases');
  const { me, can, canAny, isDemo } = usePermissions();
  const { params, update, clear } = useUrlFilters();
  const status = params.get('status') ?? '';
  const branchId = params.get('branchId') ?? '';
  const supplierId = params.get('supplierId') ?? '';
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  const page = Math.max(1, Number(params.get('page') ?? '1') || 1);
  const [search, setSearch] = useState(params.get('q') ?? '');
  const [q] = useDebouncedValue(search.trim(), 300);
  useEffect(() => {
    if ((params.get('q') ?? '') !== q) update({ q });
  }, [q, params, update]);
  const purchases = usePurchases({
    status: (status || undefined) as PurchaseSummary['status'] | undefined,
    branchId: branchId || undefined,
    supplierId: supplierId || undefined,
    from: from || undefined,
    to: to || undefined,
    search: q || undefined,
    limit: PAGE_SIZE,
    offset: (page - 1) * PAGE_SIZE,
  });
  const suppliers = useSuppliers('');
  const canEdit = canAny(['purchase:create', 'purchase:update']) && !isDemo;
  const canDelete = can('purchase:delete') && !isDemo;
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [viewing, setViewing] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<PurchaseSummary | null>(null);
  const [bulkOpen, setBulkOpen] = useState(false);
  const remove = useDeletePurchase();
  const bulk = useBulkDeletePurchases();
  const rows = purchases.data?.items;

  const columns = useMemo(() => {
    const column = dataTableColumns<PurchaseSummary>();
    return [
      ...(canDelete
        ? [
            column.display({
              id: 'select',
              header: () => <span className="sr-only">{t('list.select')}</span>,
              cell: ({ row: { original: p } }) => (
                <input
                  type="checkbox"
                  className="size-4"
                  aria-label={t('list.selectOne', { number: displayPurchaseNumber(p) })}
                  checked={selected.has(p.id)}
                  onChange={(e) =>
                    setSelected((current) => {
                      const next = new Set(current);
                      if (e.target.checked) next.add(p.id);
                      else next.delete(p.id);
                      return next;
                    })
                  }
                />
              ),
            }),
          ]
        : []),
      column.display({
        id: 'number',
        header: t('list.number'),
        meta: { rowHeader: true, cellClassName: 'whitespace-nowrap' },
        cell: ({ row: { original: p } }) => (
          <button type="button" className="font-medium text-primary hover:underline" onClick={() => setViewing(p.id)}>
            {displayPurchaseNumber(p)}
          </button>
        ),
      }),
      column.display({ id: 'date', header: t('list.date'), meta: { cellClassName: 'whitespace-nowrap' }, cell: ({ row }) => formatDate(row.original.date) }),
      column.display({ id: 'supplier', header: t('list.supplier'), cell: ({ row }) => row.original.supplierName }),
      column.display({ id: 'reference', header: t('list.reference'), cell: ({ row }) => row.original.reference ?? '—' }),
      column.display({ id: 'branch', header: t('list.branch'), cell: ({ row }) => row.original.branchName }),
      column.display({
        id: 'items',
        header: t('list.items'),
        meta: { numeric: true },
        cell: ({ row: { original: p } }) => t('list.itemsValue', { count: p.itemCount, quantity: formatNumber(p.totalQuantity) }),
      }),
      column.display({ id: 'total', header: t('list.total'), meta: { numeric: true }, cell: ({ row }) => formatMoney(row.original.totalCents) }),
      column.display({
        id: 'status',
        header: t('list.status'),
        cell: ({ row: { original: p } }) => (
          <span className="flex flex-col items-start gap-0.5">
            <PurchaseStatusBadge status={p.status} />
            {p.receivedQuantity > 0 && p.receivedQuantity < p.totalQuantity ? (
              <span className="text-xs text-slate-500">{t('list.partly', { received: p.receivedQuantity, total: p.totalQuantity })}</span>
            ) : null}
          </span>
        ),
      }),
      column.display({
        id: 'actions',
        header: () => <span className="sr-only">{t('list.actions')}</span>,
        cell: ({ row: { original: p } }) => (
          <div className="flex justify-end gap-1">
            <Button variant="ghost" size="sm" onClick={() => setViewing(p.id)} aria-label={t('list.viewOne', { number: displayPurchaseNumber(p) })}>
              {t('actions.view')}
            </Button>
            {canEdit ? (
              <Link to={`/app/purchases/edit/${p.id}`} className={buttonClasses('ghost', 'sm')} aria-label={t('list.editOne', { number: displayPurchaseNumber(p) })}>
                {t('actions.edit')}
              </Link>
            ) : null}
            {canDelete ? (
              <Button
                variant="ghost"
                size="sm"
                icon={<Trash2 className="size-4" aria-hidden="true" />}
                aria-label={t('list.deleteOne', { number: displayPurchaseNumber(p) })}
                onClick={() => setDeleting(p)}
              />
            ) : null}
          </div>
        ),
      }),
    ];
  }, [t, canDelete, canEdit, selected]);

  async function deleteOne() {
    if (!deleting) return;
    try {
      const result = await remove.mutateAsync(deleting.id);
      toast.success(result.message);
      setSelected((current) => {
        const next = new Set(current);
        next.delete(deleting.id);
        return next;
      });
    } catch (e) {
      toast.error(`${t('messages.deleteFailed')}: ${formErrorText(e)}`);
    } finally {
      setDeleting(null);
    }
  }

  async function deleteSelected() {
    try {
      const result = await bulk.mutateAsync([...selected]);
      if (result.failed > 0) toast.error(result.message);
      else toast.success(result.message);
      setSelected(new Set(result.results.filter((r) => !r.ok).map((r) => r.id)));
    } catch {
      toast.error(t('messages.bulkFailed'));
    } finally {
      setBulkOpen(false);
    }
  }

  const filtered = Boolean(status || branchId || supplierId || from || to || q);
  return (
    <div className="space-y-6">
      <PageHeader
        title={t('list.title')}
        description={t('list.description')}
        actions={
          <div className="flex flex-wrap gap-2">
            {can('purchase:return') && !isDemo ? (
              <Link to="/app/purchase-returns" className={buttonClasses('outline')}>
                <Undo2 className="size-4" aria-hidden="true" />
                {t('returns.title')}
              </Link>
            ) : null}
            {can('purchase:create') && !isDemo ? (
              <Link to="/app/purchases/new" className={buttonClasses('primary')}>
                <Plus className="size-4" aria-hidden="true" />
                {t('form.newTitle')}
              </Link>
            ) : null}
          </div>
        }
      />
      <Card flush>
        <div className="grid gap-3 border-b border-slate-100 p-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-6" role="group" aria-label={t('list.filters')}>
          <Field label={t('list.search')} className="sm:col-span-2 lg:col-span-1 xl:col-span-2">
            <Input type="search" value={search} placeholder={t('list.searchPlaceholder')} onChange={(e) => setSearch(e.target.value)} />
          </Field>
          <Field label={t('list.status')}>
            <Select value={status} placeholder={t('list.allStatuses')} options={PURCHASE_STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) }))} onChange={(e) => update({ status: e.target.value })} />
          </Field>
          <Field label={t('list.branch')}>
            <Select value={branchId} placeholder={t('list.allBranches')} options={(me?.allowedBranches ?? []).map((b) => ({ value: b.id, label: b.name }))} onChange={(e) => update({ branchId: e.target.value })} />
          </Field>
          <Field label={t('list.supplier')}>
            <Select value={supplierId} placeholder={t('list.allSuppliers')} options={(suppliers.data?.items ?? []).map((s) => ({ value: s.id, label: s.name }))} onChange={(e) => update({ supplierId: e.target.value })} />
          </Field>
          <div className="grid grid-cols-2 gap-2">
            <Field label={t('list.from')}>
              <Input type="date" value={from} max={to || undefined} onChange={(e) => update({ from: e.target.value })} />
            </Field>
            <Field label={t('list.to')}>
              <Input type="date" value={to} min={from || undefined} onChange={(e) => update({ to: e.target.value })} />
            </Field>
          </div>
        </div>
        <div className="flex flex-wrap items-center justify-between gap-3 border-b border-slate-100 px-4 py-2 text-sm text-slate-600">
          <span aria-live="polite">
            {purchases.data ? t('list.summary', { count: purchases.data.total, total: formatMoney(purchases.data.totalCents) }) : null}
          </span>
          <div className="flex gap-2">
            {filtered ? (
              <Button
                variant="ghost"
                size="sm"
                onClick={() => {
                  setSearch('');
                  clear();
                }}
              >
                {t('list.clearFilters')}
              </Button>
            ) : null}
            {canDelete && selected.size > 0 ? (
              <Button variant="danger" size="sm" icon={<Trash2 className="size-4" aria-hidden="true" />} onClick={() => setBulkOpen(true)}>
                {t('list.deleteSelected', { count: selected.size })}
              </Button>
            ) : null}
          </div>
        </div>
        <DataTable
          caption={t('list.caption')}
          columns={columns}
          data={rows}
          getRowId={(p) => p.id}
          isLoading={purchases.isPending}
          loadingMessage={t('list.loading')}
          error={purchases.isError ? `${t('messages.loadFailed')} ${errorMessage(purchases.error)}` : undefined}
          onRetry={() => void purchases.refetch()}
          empty={
            <EmptyState
              title={filtered ? t('list.noMatches') : t('list.empty')}
              description={filtered ? t('list.noMatchesHint') : t('list.emptyHint')}
              action={
                can('purchase:create') && !isDemo && !filtered ? (
                  <Link to="/app/purchases/new" className={buttonClasses('primary')}>
                    {t('form.newTitle')}
                  </Link>
                ) : undefined
              }
            />
          }
          stateClassName={purchases.isSuccess ? 'p-4' : undefined}
          pagination={{ page, pageSize: PAGE_SIZE, total: purchases.data?.total ?? 0, onPageChange: (next) => update({ page: String(next) }) }}
        />
      </Card>
      <PurchaseDetailDialog id={viewing} onOpenChange={(open) => !open && setViewing(null)} canEdit={canEdit} />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={t('delete.title', { number: deleting ? displayPurchaseNumber(deleting) : '' })}
        description={t('delete.description')}
        confirmLabel={t('delete.confirm')}
        destructive
        loading={remove.isPending}
        onConfirm={() => void deleteOne()}
      />
      <ConfirmDialog
        open={bulkOpen}
        onOpenChange={setBulkOpen}
        title={t('delete.bulkTitle', { count: selected.size })}
        description={t('delete.description')}
        confirmLabel={t('delete.confirm')}
        destructive
        loading={bulk.isPending}
        onConfirm={() => void deleteSelected()}
      />
    </div>
  );
}
