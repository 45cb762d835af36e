import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { AdjustmentListQueryInput } from '@pharmapoint/domain/stock';
import { Badge } from '@/components/ui/badge';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorState } from '@/components/ui/error-state';
import { LoadingState } from '@/components/ui/loading-state';
import { Pagination } from '@/components/ui/pagination';
import { Table, TBody, Td, Th, THead, Tr } from '@/components/ui/table';
import { errorMessage } from '@/lib/api';
import { formatDateTime, formatNumber } from '@/lib/format';
import { useAdjustments } from '@/features/stock/api/stock';

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
  if (adjustments.isPending) return <LoadingState message={t('list.loading')} />;
  if (adjustments.isError) return <ErrorState message={`${t('list.loadFailed')} ${errorMessage(adjustments.error)}`} onRetry={() => void adjustments.refetch()} />;
  if (adjustments.data.items.length === 0) {
    return (
      <div className="p-4">
        <EmptyState title={t('list.empty')} description={compact ? undefined : t('list.emptyHint')} />
      </div>
    );
  }
  return (
    <>
      <Table caption={t('list.caption')}>
        <THead>
          <Tr>
            <Th>{t('list.date')}</Th>
            <Th>{t('list.branch')}</Th>
            <Th>{t('list.product')}</Th>
            <Th>{t('list.type')}</Th>
            <Th numeric>{t('list.change')}</Th>
            <Th>{t('list.batch')}</Th>
            <Th>{t('list.reason')}</Th>
            <Th>{t('list.user')}</Th>
          </Tr>
        </THead>
        <TBody>
          {adjustments.data.items.flatMap((adjustment) =>
            adjustment.items.map((item, index) => (
              <Tr key={item.id} data-adjustment-id={adjustment.id}>
                <Td className="whitespace-nowrap">{index === 0 ? formatDateTime(adjustment.createdAt) : ''}</Td>
                <Td>{adjustment.branchName}</Td>
                <Td>
                  <Link to={`/app/products/history/${item.productId}`} className="font-medium text-slate-900 hover:text-primary hover:underline">
                    {item.productName}
                  </Link>
                </Td>
                <Td>
                  <Badge tone={item.reasonType === 'count_correction' ? 'info' : item.reasonType === 'other' ? 'neutral' : 'warning'}>{t(`reasonTypes.${item.reasonType}`)}</Badge>
                </Td>
                <Td numeric className={item.delta < 0 ? 'text-red-700' : 'text-emerald-700'}>
                  {item.delta > 0 ? `+${formatNumber(item.delta)}` : formatNumber(item.delta)}
                </Td>
                <Td>{item.batchNumber ?? t('list.fefo')}</Td>
                <Td>
                  {adjustment.reason}
                  {item.note ? <span className="block text-xs text-slate-500">{item.note}</span> : null}
                </Td>
                <Td>{adjustment.userName ?? '—'}</Td>
              </Tr>
            )),
          )}
        </TBody>
      </Table>
      {onPageChange && page ? (
        <div className="border-t border-slate-100 px-4">
          <Pagination page={page} pageSize={Number(query.limit ?? 50)} total={adjustments.data.total} onPageChange={onPageChange} />
        </div>
      ) : null}
    </>
  );
}
