import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ArrowLeft, Plus } from 'lucide-react';
import type { PurchaseReturn } from '@pharmapoint/domain/purchases';
import { buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { DataTable, dataTableColumns } from '@/components/ui/data-table';
import { EmptyState } from '@/components/ui/empty-state';
import { PageHeader } from '@/components/ui/page-header';
import { errorMessage } from '@/lib/api';
import { formatDate, formatMoney, formatNumber } from '@/lib/format';
import { usePermissions } from '@/features/auth/hooks/use-permissions';
import { usePurchaseReturns } from '@/features/purchases/api/purchases';
import '@/features/purchases/purchases-catalogue';

const PAGE_SIZE = 25;

/** /app/purchase-returns: pieces sent back to suppliers, newest first, with their batches and reasons. */
export default function PurchaseReturnsPage() {
  const { t } = useTranslation('purchases');
  const { isDemo } = usePermissions();
  const [page, setPage] = useState(1);
  const returns = usePurchaseReturns({ limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE });
  const columns = useMemo(() => {
    const column = dataTableColumns<PurchaseReturn>();
    return [
      column.display({ id: 'number', header: t('returns.number'), meta: { rowHeader: true, cellClassName: 'whitespace-nowrap font-medium' }, cell: ({ row }) => row.original.returnNumber }),
      column.display({ id: 'date', header: t('list.date'), meta: { cellClassName: 'whitespace-nowrap' }, cell: ({ row }) => formatDate(row.original.date) }),
      column.display({ id: 'purchase', header: t('returns.purchase'), meta: { cellClassName: 'whitespace-nowrap' }, cell: ({ row }) => row.original.purchaseNumber }),
      column.display({ id: 'supplier', header: t('list.supplier'), cell: ({ row }) => row.original.supplierName }),
      column.display({
        id: 'items',
        header: t('returns.items'),
        cell: ({ row }) => (
          <ul className="space-y-0.5">
            {row.original.items.map((item) => (
              <li key={item.id}>
                {t('returns.itemLine', { name: item.name, count: formatNumber(item.quantity), batch: item.batchNumber ?? '—' })}
              </li>
            ))}
          </ul>
        ),
      }),
      column.display({ id: 'reason', header: t('returns.reason'), cell: ({ row }) => row.original.reason }),
      column.display({ id: 'total', header: t('list.total'), meta: { numeric: true }, cell: ({ row }) => formatMoney(row.original.totalCents) }),
    ];
  }, [t]);
  return (
    <div className="space-y-6">
      <PageHeader
        title={t('returns.title')}
        description={t('returns.description')}
        actions={
          <div className="flex flex-wrap gap-2">
            <Link to="/app/purchases/view" className={buttonClasses('outline')}>
              <ArrowLeft className="size-4" aria-hidden="true" />
              {t('form.backToList')}
            </Link>
            {!isDemo ? (
              <Link to="/app/purchase-returns/create" className={buttonClasses('primary')}>
                <Plus className="size-4" aria-hidden="true" />
                {t('returns.new')}
              </Link>
            ) : null}
          </div>
        }
      />
      <Card flush>
        <DataTable
          caption={t('returns.caption')}
          columns={columns}
          data={returns.data?.items}
          getRowId={(r) => r.id}
          isLoading={returns.isPending}
          loadingMessage={t('returns.loading')}
          error={returns.isError ? `${t('messages.loadFailed')} ${errorMessage(returns.error)}` : undefined}
          onRetry={() => void returns.refetch()}
          empty={<EmptyState title={t('returns.empty')} description={t('returns.emptyHint')} />}
          stateClassName={returns.isSuccess ? 'p-4' : undefined}
          pagination={{ page, pageSize: PAGE_SIZE, total: returns.data?.total ?? 0, onPageChange: setPage }}
        />
      </Card>
    </div>
  );
}
