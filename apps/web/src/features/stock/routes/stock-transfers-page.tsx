import { useCallback, useId, useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { canTransfer, TRANSFER_STATUSES, type Transfer, type TransferItem, type TransferStatus } from '@pharmapoint/domain/stock';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { DataTable, dataTableColumns } from '@/components/ui/data-table';
import { Dialog } from '@/components/ui/dialog';
import { EmptyState } from '@/components/ui/empty-state';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { LoadingState } from '@/components/ui/loading-state';
import { PageHeader } from '@/components/ui/page-header';
import { Select } from '@/components/ui/select';
import { Table, TBody, Td, Th, THead, Tr } from '@/components/ui/table';
import { errorMessage } from '@/lib/api';
import { formatDate, formatDateTime, formatMoney, formatNumber } from '@/lib/format';
import { useIdempotencyKey } from '@/lib/idempotency';
import { toast } from '@/lib/toast';
import { usePermissions } from '@/features/auth/hooks/use-permissions';
import { useBranches } from '@/features/branches/api/branches';
import { useTransferAction, useTransfers, type TransferStep } from '@/features/stock/api/stock';
import { TransferForm } from '@/features/stock/components/transfer-form';
import { useLiveStock } from '@/lib/live-stock/live-stock';

const PAGE_SIZE = 20;
const STATUS_TONES: Record<TransferStatus, BadgeTone> = {
  requested: 'info',
  approved: 'primary',
  dispatched: 'warning',
  partially_received: 'warning',
  received: 'success',
  cancelled: 'neutral',
};

/** Pieces of a line still on the road: dispatched, not yet received or sent back. */
const inTransit = (item: TransferItem) => Math.max(0, item.quantityDispatched - item.quantityReceived - item.quantityReturned);

/** /app/stock-transfers: request, approve, dispatch, receive (all or part) and cancel transfers between branches. */
export default function StockTransfersPage() {
  const { t } = useTranslation('stock');
  const { me, can, canAny, isDemo } = usePermissions();
  useLiveStock();
  const branches = useBranches();
  const [status, setStatus] = useState<TransferStatus | ''>('');
  const [page, setPage] = useState(1);
  const transfers = useTransfers({ status: status || undefined, limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE });
  const action = useTransferAction();
  const actionPending = action.isPending;
  const [viewing, setViewing] = useState<Transfer | null>(null);
  const [receiving, setReceiving] = useState<Transfer | null>(null);
  const [cancelling, setCancelling] = useState<Transfer | null>(null);
  const canWork = canAny(['inventory:transfer:create', 'inventory:transfer']) && !isDemo;
  const canApprove = can('inventory:transfer:approve') && !isDemo;
  const branchList = (branches.data ?? []).filter((b) => b.isActive).map((b) => ({ id: b.id, name: b.name }));
  const targets = branchList.length > 0 ? branchList : (me?.allowedBranches ?? []).map((b) => ({ id: b.id, name: b.name }));

  const { mutateAsync: runAction } = action;
  const run = useCallback(
    async (transfer: Transfer, step: TransferStep) => {
      try {
        await runAction({ id: transfer.id, action: step });
        toast.success(t(`transfer.done.${step}`));
      } catch (error) {
        toast.error(errorMessage(error));
      }
    },
    [runAction, t],
  );

  const columns = useMemo(() => {
    const column = dataTableColumns<Transfer>();
    const labelOf = (transfer: Transfer) => t('transfer.label', { from: transfer.fromBranchName, to: transfer.toBranchName, date: formatDateTime(transfer.createdAt) });
    return [
      column.accessor('createdAt', { header: t('transfer.created_at'), meta: { cellClassName: 'whitespace-nowrap' }, cell: ({ getValue }) => formatDateTime(getValue()) }),
      column.display({
        id: 'route',
        header: t('transfer.route'),
        meta: { rowHeader: true, cellClassName: 'font-medium normal-case tracking-normal' },
        cell: ({ row: { original: transfer } }) => t('transfer.fromTo', { from: transfer.fromBranchName, to: transfer.toBranchName }),
      }),
      column.display({
        id: 'items',
        header: t('transfer.items'),
        cell: ({ row }) =>
          summarize(row.original).map((s) => (
            <span key={s.name} className="block">
              {t('transfer.itemSummary', { name: s.name, count: s.quantity })}
            </span>
          )),
      }),
      column.accessor('status', {
        header: t('transfer.status'),
        cell: ({ getValue }) => <Badge tone={STATUS_TONES[getValue()]}>{t(`transfer.statuses.${getValue()}`)}</Badge>,
      }),
      column.display({ id: 'requestedBy', header: t('transfer.requestedBy'), cell: ({ row }) => row.original.requested.userName ?? '—' }),
      column.display({
        id: 'actions',
        header: t('transfer.actions'),
        meta: { headerClassName: 'text-right' },
        cell: ({ row: { original: transfer } }) => {
          const label = labelOf(transfer);
          return (
            <div className="flex flex-wrap justify-end gap-2">
              <Button variant="ghost" size="sm" aria-label={t('transfer.viewNamed', { label })} onClick={() => setViewing(transfer)}>
                {t('transfer.view')}
              </Button>
              {canApprove && canTransfer(transfer.status, 'approve') ? (
                <Button size="sm" aria-label={t('transfer.approveNamed', { label })} disabled={actionPending} onClick={() => void run(transfer, 'approve')}>
                  {t('transfer.approve')}
                </Button>
              ) : null}
              {canWork && canTransfer(transfer.status, 'dispatch') ? (
                <Button size="sm" aria-label={t('transfer.dispatchNamed', { label })} disabled={actionPending} onClick={() => void run(transfer, 'dispatch')}>
                  {t('transfer.dispatch')}
                </Button>
              ) : null}
              {canWork && canTransfer(transfer.status, 'receive') ? (
                <Button size="sm" aria-label={t('transfer.receiveNamed', { label })} onClick={() => setReceiving(transfer)}>
                  {t('transfer.receive')}
                </Button>
              ) : null}
              {canWork && canTransfer(transfer.status, 'cancel') ? (
                <Button variant="outline" size="sm" aria-label={t('transfer.cancelNamed', { label })} onClick={() => setCancelling(transfer)}>
                  {t('transfer.cancel')}
                </Button>
              ) : null}
            </div>
          );
        },
      }),
    ];
  }, [t, canApprove, canWork, actionPending, run]);

  const body = (
    <DataTable
      caption={t('transfer.listCaption')}
      columns={columns}
      data={transfers.data?.items}
      getRowId={(transfer) => transfer.id}
      rowProps={(transfer) => ({ 'data-transfer-id': transfer.id })}
      isLoading={transfers.isPending}
      loadingMessage={t('transfer.loading')}
      error={transfers.isError ? `${t('transfer.loadFailed')} ${errorMessage(transfers.error)}` : undefined}
      onRetry={() => void transfers.refetch()}
      empty={<EmptyState title={status ? t('transfer.noneWithStatus') : t('transfer.none')} description={t('transfer.noneHint')} />}
      stateClassName={transfers.isSuccess ? 'p-4' : undefined}
      pagination={{ page, pageSize: PAGE_SIZE, total: transfers.data?.total ?? 0, onPageChange: setPage }}
    />
  );

  return (
    <div className="space-y-6">
      <PageHeader title={t('transfer.title')} description={t('transfer.description')} />
      {canWork ? branches.isPending ? <LoadingState /> : <TransferForm branches={targets} /> : null}
      <Card
        title={t('transfer.listTitle')}
        flush
        actions={
          <Field label={t('transfer.filterStatus')} className="flex items-center gap-2 space-y-0">
            <Select
              className="h-8"
              value={status}
              placeholder={t('transfer.allStatuses')}
              options={TRANSFER_STATUSES.map((s) => ({ value: s, label: t(`transfer.statuses.${s}`) }))}
              onChange={(e) => {
                setStatus(e.target.value as TransferStatus | '');
                setPage(1);
              }}
            />
          </Field>
        }
      >
        {body}
      </Card>

      {viewing ? <TransferDetails transfer={transfers.data?.items.find((x) => x.id === viewing.id) ?? viewing} onClose={() => setViewing(null)} /> : null}
      {receiving ? <ReceiveDialog transfer={receiving} onClose={() => setReceiving(null)} /> : null}
      <ConfirmDialog
        open={cancelling !== null}
        onOpenChange={(open) => (open ? undefined : setCancelling(null))}
        title={t('transfer.confirmCancel.title')}
        description={cancelling && (cancelling.status === 'dispatched' || cancelling.status === 'partially_received') ? t('transfer.confirmCancel.inTransit') : t('transfer.confirmCancel.beforeDispatch')}
        confirmLabel={t('transfer.confirmCancel.confirm')}
        cancelLabel={t('transfer.confirmCancel.keep')}
        destructive
        loading={action.isPending}
        onConfirm={async () => {
          if (!cancelling) return;
          await run(cancelling, 'cancel');
          setCancelling(null);
        }}
      />
    </div>
  );
}

/** Per product: pieces requested (split batch lines added up). */
function summarize(transfer: Transfer): { name: string; quantity: number }[] {
  const byName = new Map<string, number>();
  for (const item of transfer.items) byName.set(item.productName, (byName.get(item.productName) ?? 0) + item.quantityRequested);
  return [...byName].map(([name, quantity]) => ({ name, quantity }));
}

function TransferDetails({ transfer, onClose }: { transfer: Transfer; onClose: () => void }) {
  const { t } = useTranslation('stock');
  const steps = (['requested', 'approved', 'dispatched', 'received', 'cancelled'] as const).filter((s) => transfer[s].at);
  return (
    <Dialog
      open
      onOpenChange={(open) => (open ? undefined : onClose())}
      size="xl"
      title={t('transfer.detailsTitle', { from: transfer.fromBranchName, to: transfer.toBranchName })}
      description={t(`transfer.statuses.${transfer.status}`)}
    >
      <Table caption={t('transfer.itemsCaption')}>
        <THead>
          <Tr>
            <Th>{t('list.product')}</Th>
            <Th>{t('list.batch')}</Th>
            <Th>{t('transfer.expiry')}</Th>
            <Th numeric>{t('transfer.unitCost')}</Th>
            <Th numeric>{t('transfer.requested')}</Th>
            <Th numeric>{t('transfer.dispatched')}</Th>
            <Th numeric>{t('transfer.received')}</Th>
            <Th numeric>{t('transfer.returned')}</Th>
          </Tr>
        </THead>
        <TBody>
          {transfer.items.map((item) => (
            <Tr key={item.id}>
              <Td>{item.productName}</Td>
              <Td>{item.batchNumber ?? (item.batchId ? '—' : t('transfer.fefo'))}</Td>
              <Td>{item.expiryDate ? formatDate(item.expiryDate) : '—'}</Td>
              <Td numeric>{item.unitCostCents === null ? '—' : formatMoney(item.unitCostCents)}</Td>
              <Td numeric>{formatNumber(item.quantityRequested)}</Td>
              <Td numeric>{formatNumber(item.quantityDispatched)}</Td>
              <Td numeric>{formatNumber(item.quantityReceived)}</Td>
              <Td numeric>{formatNumber(item.quantityReturned)}</Td>
            </Tr>
          ))}
        </TBody>
      </Table>
      <ol className="mt-4 space-y-1 text-sm text-slate-700">
        {steps.map((s) => (
          <li key={s}>
            {t(`transfer.steps.${s}`, { name: transfer[s].userName ?? '—', at: formatDateTime(transfer[s].at) })}
          </li>
        ))}
      </ol>
      {transfer.note ? <p className="mt-3 text-sm text-slate-600">{t('transfer.noteShown', { note: transfer.note })}</p> : null}
    </Dialog>
  );
}

function ReceiveDialog({ transfer, onClose }: { transfer: Transfer; onClose: () => void }) {
  const { t } = useTranslation('stock');
  const formId = useId();
  const action = useTransferAction();
  const keys = useIdempotencyKey();
  const lines = transfer.items.filter((item) => inTransit(item) > 0);
  const [amounts, setAmounts] = useState<Record<string, string>>(() => Object.fromEntries(lines.map((l) => [l.id, String(inTransit(l))])));
  const [error, setError] = useState<string | null>(null);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    const items: { itemId: string; quantityReceived: number }[] = [];
    for (const line of lines) {
      const text = (amounts[line.id] ?? '').trim();
      if (!/^\d+$/.test(text) || Number(text) > inTransit(line)) {
        setError(t('transfer.receiveInvalid', { name: line.productName, max: inTransit(line) }));
        return;
      }
      items.push({ itemId: line.id, quantityReceived: Number(text) });
    }
    if (items.every((i) => i.quantityReceived === 0)) {
      setError(t('transfer.receiveNothing'));
      return;
    }
    try {
      await action.mutateAsync({ id: transfer.id, action: 'receive', receive: { items }, key: keys.keyFor(items) });
      toast.success(t('transfer.done.receive'));
      onClose();
    } catch (e) {
      setError(errorMessage(e));
    }
  }

  return (
    <Dialog
      open
      onOpenChange={(open) => (open ? undefined : onClose())}
      size="lg"
      title={t('transfer.receiveTitle', { from: transfer.fromBranchName, to: transfer.toBranchName })}
      description={t('transfer.receiveDescription')}
      footer={
        <>
          <Button variant="outline" onClick={onClose}>
            {t('transfer.close')}
          </Button>
          <Button type="submit" form={formId} loading={action.isPending}>
            {t('transfer.confirmReceive')}
          </Button>
        </>
      }
    >
      <form id={formId} noValidate onSubmit={(event) => void onSubmit(event)} className="space-y-3">
        {lines.map((line) => (
          <Field
            key={line.id}
            label={t('transfer.receiveLine', { name: line.productName, batch: line.batchNumber ?? '—' })}
            hint={t('transfer.inTransit', { count: inTransit(line), expiry: line.expiryDate ? formatDate(line.expiryDate) : '—' })}
          >
            <Input inputMode="numeric" value={amounts[line.id] ?? ''} onChange={(e) => setAmounts((current) => ({ ...current, [line.id]: e.target.value }))} />
          </Field>
        ))}
        {error ? (
          <p role="alert" className="text-sm font-medium text-red-600">
            {error}
          </p>
        ) : null}
      </form>
    </Dialog>
  );
}
