import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Adjustment, AdjustmentListQueryInput } from '@pharmapoint/domain/stock';
import { Badge } from '@/components/ui/badge';
import { DataTable, dataTableColumns } from '@/components/ui/data-table';
import { EmptyState } from '@/components/ui/empty-state';
import { errorMessage } from '@/lib/api';
import { formatDate, formatDateTime, formatNumber } from '@/lib/format';
import { useAdjustments } from '@/features/stock/api/stock';

/** One table row: a line of an adjustment (the date shows on the adjustment's first line only). */
interface AdjustmentLine {
  adjustment: Adjustment;
  item: Adjustment['items'][number];
  isFirst: boolean;
}

/**
 * The batches a line actually changed (from the ledger), not the rule that chose them: one batch by its number,
 * several as a list with each one's change; the expiry date in the tooltip.
 */
function LineBatches({ item }: { item: Adjustment['items'][number] }) {
  const { t } = useTranslation('stock');
  const name = (batchNumber: string | null) => batchNumber ?? t('products:history.unbatched');
  if (item.batches.length === 0) return <>{item.batchNumber ?? '—'}</>;
  if (item.batches.length === 1) {
    const [only] = item.batches;
    return <span title={only!.expiryDate ? formatDate(only!.expiryDate) : undefined}>{name(only!.batchNumber)}</span>;
  }
  return (
    <ul className="space-y-0.5">
      {item.batches.map((batch, index) => (
        <li key={`${batch.batchId ?? 'none'}-${index}`} className="whitespace-nowrap" title={batch.expiryDate ? formatDate(batch.expiryDate) : undefined}>
          {name(batch.batchNumber)} <span className="text-slate-500">({batch.delta > 0 ? '+' : ''}{formatNumber(batch.delta)})</span>
        </li>
      ))}
    </ul>
  );
}

/** Stock adjustments (newest first) with their lines; paged when onPageChange is given. */
export function AdjustmentsTable({
  query,
  compact,
  page,
  onPageChange,
}: {
  query: AdjustmentListQueryInput;
  compact?: boolean;
  page?: number;
  onPageChange?: (page: number) => void;
}) {
  const { t } = useTranslation('stock');
  const adjustments = useAdjustments(query);
  const lines = useMemo(
    () => adjustments.data?.items.flatMap((adjustment) => adjustment.items.map((item, index) => ({ adjustment, item, isFirst: index === 0 }))),
    [adjustments.data],
  );

  const columns = useMemo(() => {
    const column = dataTableColumns<AdjustmentLine>();
    return [
      column.display({
        id: 'date',
        header: t('list.date'),
        meta: { cellClassName: 'whitespace-nowrap' },
        cell: ({ row: { original: line } }) => (line.isFirst ? formatDateTime(line.adjustment.createdAt) : ''),
      }),
      column.display({ id: 'branch', header: t('list.branch'), cell: ({ row }) => row.original.adjustment.branchName }),
      column.display({
        id: 'product',
        header: t('list.product'),
        cell: ({ row: { original: line } }) => (
          <Link to={`/app/products/history/${line.item.productId}`} className="font-medium text-slate-900 hover:text-primary hover:underline">
            {line.item.productName}
          </Link>
        ),
      }),
      column.display({
        id: 'type',
        header: t('list.type'),
        cell: ({ row: { original: line } }) => (
          <Badge tone={line.item.reasonType === 'count_correction' ? 'info' : line.item.reasonType === 'other' ? 'neutral' : 'warning'}>
            {t(`reasonTypes.${line.item.reasonType}`)}
          </Badge>
        ),
      }),
      column.display({
        id: 'change',
        header: t('list.change'),
        meta: { numeric: true },
        cell: ({ row: { original: line } }) => (
          <span className={line.item.delta < 0 ? 'text-red-700' : 'text-emerald-700'}>
            {line.item.delta > 0 ? `+${formatNumber(line.item.delta)}` : formatNumber(line.item.delta)}
          </span>
        ),
      }),
      column.display({ id: 'batch', header: t('list.batch'), cell: ({ row }) => <LineBatches item={row.original.item} /> }),
      column.display({
        id: 'reason',
        header: t('list.reason'),
        cell: ({ row: { original: line } }) => (
          <>
            {line.adjustment.reason}
            {line.item.note ? <span className="block text-xs text-slate-500">{line.item.note}</span> : null}
          </>
        ),
      }),
      column.display({ id: 'user', header: t('list.user'), cell: ({ row }) => row.original.adjustment.userName ?? '—' }),
    ];
  }, [t]);

  return (
    <DataTable
      caption={t('list.caption')}
      columns={columns}
      data={lines}
      getRowId={(line) => line.item.id}
      rowProps={(line) => ({ 'data-adjustment-id': line.adjustment.id })}
      isLoading={adjustments.isPending}
      loadingMessage={t('list.loading')}
      error={adjustments.isError ? `${t('list.loadFailed')} ${errorMessage(adjustments.error)}` : undefined}
      onRetry={() => void adjustments.refetch()}
      empty={<EmptyState title={t('list.empty')} description={compact ? undefined : t('list.emptyHint')} />}
      stateClassName={adjustments.isSuccess ? 'p-4' : undefined}
      pagination={onPageChange && page ? { page, pageSize: Number(query.limit ?? 50), total: adjustments.data?.total ?? 0, onPageChange } : undefined}
    />
  );
}
