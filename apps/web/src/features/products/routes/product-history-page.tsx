import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ArrowLeft, PackagePlus, Pencil, SlidersHorizontal } from 'lucide-react';
import { STOCK_MOVEMENT_KINDS, type StockMovementKind } from '@pharmapoint/domain/stock';
import type { ProductDetailResponse } from '@pharmapoint/domain/products';
import { formatPackage } from '@pharmapoint/domain/display';
import { Badge } from '@/components/ui/badge';
import { Button, buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorState } from '@/components/ui/error-state';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { LoadingState } from '@/components/ui/loading-state';
import { PageHeader } from '@/components/ui/page-header';
import { Pagination } from '@/components/ui/pagination';
import { Select } from '@/components/ui/select';
import { Table, TBody, Td, Th, THead, Tr } from '@/components/ui/table';
import { ApiError, errorMessage } from '@/lib/api';
import { formatDate, formatDateTime, formatMoney, formatNumber, formatPercent } from '@/lib/format';
import { usePermissions } from '@/features/auth/hooks/use-permissions';
import { useProduct, useProductMovements } from '@/features/products/api/products';
import { ExpiryBadge, StockStatusBadge } from '@/components/stock-status-badge';
import { ReceiveStockDialog } from '@/features/products/components/receive-stock-dialog';
import { useDisplayedQuantity, useLiveStock } from '@/lib/live-stock/live-stock';

const PAGE_SIZE = 25;

/** /app/products/history/:id: the product, its stock and batches per branch, price changes and its ledger. */
export default function ProductHistoryPage() {
  const { t } = useTranslation('products');
  const { id = '' } = useParams();
  useLiveStock();
  const product = useProduct(id);

  if (product.isPending) return <LoadingState message={t('history.loading')} />;
  if (product.isError) {
    const notFound = product.error instanceof ApiError && product.error.status === 404;
    return (
      <div>
        <PageHeader title={t('history.title')} eyebrow={<BackLink />} />
        <ErrorState
          title={notFound ? t('history.notFound') : undefined}
          message={`${t('history.loadFailed')} ${errorMessage(product.error)}`}
          onRetry={notFound ? undefined : () => void product.refetch()}
        />
      </div>
    );
  }
  return <ProductHistory detail={product.data} />;
}

function BackLink() {
  const { t } = useTranslation('products');
  return (
    <Link to="/app/products" className="inline-flex items-center gap-1 hover:text-primary">
      <ArrowLeft className="size-4" aria-hidden="true" />
      {t('form.backToProducts')}
    </Link>
  );
}

function ProductHistory({ detail }: { detail: ProductDetailResponse }) {
  const { t } = useTranslation('products');
  const { me, can, isDemo } = usePermissions();
  const shown = useDisplayedQuantity();
  const [receiving, setReceiving] = useState(false);
  const p = detail.product;
  const branchName = new Map(detail.branches.map((b) => [b.branchId, b.branchName]));

  return (
    <div className="space-y-6">
      <PageHeader
        eyebrow={<BackLink />}
        title={p.name}
        description={[t('history.title'), p.sku, p.category, p.isActive ? null : t('list.inactive')].filter(Boolean).join(' · ')}
        actions={
          <>
            {can('inventory:adjust') && !isDemo ? (
              <Link to={`/app/stock-adjustments?productId=${p.id}`} className={buttonClasses('outline')}>
                <SlidersHorizontal className="size-4" aria-hidden="true" />
                {t('history.adjust')}
              </Link>
            ) : null}
            {can('inventory:update') && !isDemo && detail.branches.length > 0 ? (
              <Button variant="outline" icon={<PackagePlus className="size-4" aria-hidden="true" />} onClick={() => setReceiving(true)}>
                {t('receive.open')}
              </Button>
            ) : null}
            {can('product:update') && !isDemo ? (
              <Link to={`/app/products/edit/${p.id}`} className={buttonClasses('primary')}>
                <Pencil className="size-4" aria-hidden="true" />
                {t('history.edit')}
              </Link>
            ) : null}
          </>
        }
      />

      <Card title={t('history.details')}>
        <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-2 lg:grid-cols-4">
          <Detail label={t('fields.barcodes')} value={p.barcodes.join(', ') || '—'} />
          <Detail label={t('fields.packageSize')} value={formatPackage(p)} />
          <Detail label={t('fields.isDda')} value={p.isDda ? t('yes') : t('no')} />
          <Detail label={t('fields.taxApplied')} value={p.taxApplied ? formatPercent(p.taxRateBasisPoints / 100) : t('no')} />
          <Detail label={t('fields.minMargin')} value={p.minMarginBasisPoints === null ? t('history.defaultMargin') : formatPercent(p.minMarginBasisPoints / 100)} />
          <Detail label={t('fields.lowStockThreshold')} value={formatNumber(p.lowStockThreshold)} />
          <Detail label={t('fields.reorderLevel')} value={formatNumber(p.reorderLevel)} />
          <Detail
            label={t('history.restrictedTo')}
            value={p.restrictedBranchIds.length === 0 ? t('history.allBranches') : p.restrictedBranchIds.map((id) => branchName.get(id) ?? id).join(', ')}
          />
          {p.lastPriceUpdateAt ? (
            <Detail label={t('history.lastPriceChange')} value={`${formatDateTime(p.lastPriceUpdateAt)} · ${p.lastPriceUpdateReason ?? '—'}`} />
          ) : null}
        </dl>
      </Card>

      <Card title={t('history.stockByBranch')} flush>
        {detail.branches.length === 0 ? (
          <div className="p-4">
            <EmptyState title={t('history.noBranches')} />
          </div>
        ) : (
          <Table caption={t('history.stockByBranch')}>
            <THead>
              <Tr>
                <Th>{t('branchColumns.branch')}</Th>
                <Th numeric>{t('history.onHand')}</Th>
                <Th numeric>{t('history.reserved')}</Th>
                <Th numeric>{t('history.expiredQty')}</Th>
                <Th>{t('columns.status')}</Th>
                <Th numeric>{t('branchColumns.sellingPrice')}</Th>
                <Th numeric>{t('branchColumns.purchasePrice')}</Th>
                <Th numeric>{t('branchColumns.minSellingPrice')}</Th>
                <Th numeric>
                  {t('branchColumns.margin')} / {t('branchColumns.markup')}
                </Th>
              </Tr>
            </THead>
            <TBody>
              {detail.branches.map((b) => {
                const live = shown(p.id, b.branchId, b.quantity);
                return (
                  <Tr key={b.branchId} data-branch-id={b.branchId}>
                    <Th scope="row" className="font-medium normal-case tracking-normal">
                      {b.branchName}
                      {b.branchId === me?.branch?.id ? <span className="ml-1 text-xs text-slate-500">{t('history.current')}</span> : null}
                    </Th>
                    <Td numeric>
                      <span data-testid="branch-quantity" className={live.pending ? 'italic text-primary' : undefined}>
                        {formatNumber(live.quantity)}
                      </span>
                    </Td>
                    <Td numeric>{formatNumber(b.reservedQuantity)}</Td>
                    <Td numeric className={b.expiredQuantity > 0 ? 'text-red-700' : undefined}>
                      {formatNumber(b.expiredQuantity)}
                    </Td>
                    <Td>
                      <StockStatusBadge status={b.status} />
                      {/* Whether the branch offers it, beside its status (one column fewer: the table fits at 1366). */}
                      <span className="mt-1 block whitespace-nowrap text-xs text-slate-500">
                        {t('branchColumns.available')}: {b.isAvailable ? t('yes') : t('no')}
                      </span>
                    </Td>
                    <Td numeric className="whitespace-nowrap">{formatMoney(b.sellingPriceCents)}</Td>
                    <Td numeric className="whitespace-nowrap">{formatMoney(b.purchasePriceCents)}</Td>
                    <Td numeric className="whitespace-nowrap">{formatMoney(b.minimumSellingPriceCents)}</Td>
                    <Td numeric className="whitespace-nowrap">
                      {b.marginPercent === null ? '—' : formatPercent(b.marginPercent)} / {b.markupPercent === null ? '—' : formatPercent(b.markupPercent)}
                    </Td>
                  </Tr>
                );
              })}
            </TBody>
          </Table>
        )}
      </Card>

      <Card title={t('history.batches')} flush>
        {detail.batches.length === 0 ? (
          <div className="p-4">
            <EmptyState title={t('history.noBatches')} description={t('history.noBatchesHint')} />
          </div>
        ) : (
          <Table caption={t('history.batches')}>
            <THead>
              <Tr>
                <Th>{t('batchColumns.batchNumber')}</Th>
                <Th>{t('branchColumns.branch')}</Th>
                <Th>{t('batchColumns.expiry')}</Th>
                <Th numeric>{t('batchColumns.quantity')}</Th>
                <Th numeric>{t('history.reserved')}</Th>
                <Th numeric>{t('batchColumns.unitCost')}</Th>
                <Th>{t('batchColumns.source')}</Th>
                <Th>{t('batchColumns.received')}</Th>
              </Tr>
            </THead>
            <TBody>
              {detail.batches.map((batch) => (
                <Tr key={batch.id} className={batch.isExpired ? 'bg-red-50/60' : undefined}>
                  <Th scope="row" className="font-medium normal-case tracking-normal">
                    {batch.batchNumber ?? t('history.unbatched')}
                  </Th>
                  <Td>{branchName.get(batch.branchId) ?? ''}</Td>
                  <Td className="whitespace-nowrap">
                    <span className="mr-2">{batch.expiryDate ? formatDate(batch.expiryDate) : '—'}</span>
                    <ExpiryBadge expired={batch.isExpired} nearExpiry={batch.daysToExpiry !== null && batch.daysToExpiry >= 0 && batch.daysToExpiry <= 30} />
                  </Td>
                  <Td numeric>{formatNumber(batch.quantity)}</Td>
                  <Td numeric>{formatNumber(batch.reservedQuantity)}</Td>
                  <Td numeric className="whitespace-nowrap">{formatMoney(batch.unitCostCents)}</Td>
                  <Td>{t(`batchSources.${batch.source}`, { defaultValue: batch.source })}</Td>
                  <Td className="whitespace-nowrap">{formatDate(batch.receivedAt)}</Td>
                </Tr>
              ))}
            </TBody>
          </Table>
        )}
      </Card>

      {detail.priceChanges.length > 0 ? (
        <Card title={t('history.priceChanges')} flush>
          <Table caption={t('history.priceChanges')}>
            <THead>
              <Tr>
                <Th>{t('movementColumns.at')}</Th>
                <Th>{t('branchColumns.branch')}</Th>
                <Th numeric>{t('branchColumns.sellingPrice')}</Th>
                <Th numeric>{t('branchColumns.purchasePrice')}</Th>
                <Th>{t('movementColumns.reason')}</Th>
                <Th>{t('movementColumns.user')}</Th>
              </Tr>
            </THead>
            <TBody>
              {detail.priceChanges.map((change) => (
                <Tr key={change.id}>
                  <Td className="whitespace-nowrap">{formatDateTime(change.at)}</Td>
                  <Td>{branchName.get(change.branchId) ?? ''}</Td>
                  <Td numeric>
                    {change.oldSellingPriceCents === null ? '' : `${formatMoney(change.oldSellingPriceCents)} → `}
                    {formatMoney(change.newSellingPriceCents)}
                  </Td>
                  <Td numeric>
                    {change.oldPurchasePriceCents === null ? '' : `${formatMoney(change.oldPurchasePriceCents)} → `}
                    {formatMoney(change.newPurchasePriceCents)}
                  </Td>
                  <Td>{change.reason ?? '—'}</Td>
                  <Td>{change.userName ?? '—'}</Td>
                </Tr>
              ))}
            </TBody>
          </Table>
        </Card>
      ) : null}

      <Movements productId={p.id} branches={detail.branches.map((b) => ({ id: b.branchId, name: b.branchName }))} />

      {receiving ? <ReceiveStockDialog open onOpenChange={setReceiving} detail={detail} defaultBranchId={me?.branch?.id} /> : null}
    </div>
  );
}

function Detail({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</dt>
      <dd className="mt-0.5 text-slate-900">{value}</dd>
    </div>
  );
}

function Movements({ productId, branches }: { productId: string; branches: { id: string; name: string }[] }) {
  const { t } = useTranslation('products');
  const [kind, setKind] = useState<StockMovementKind | ''>('');
  const [branchId, setBranchId] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [page, setPage] = useState(1);
  const movements = useProductMovements(productId, {
    kind: kind || undefined,
    branchId: branchId || undefined,
    from: from || undefined,
    to: to || undefined,
    limit: PAGE_SIZE,
    offset: (page - 1) * PAGE_SIZE,
  });
  const filter = (apply: () => void) => {
    apply();
    setPage(1);
  };

  let body;
  if (movements.isPending) body = <LoadingState message={t('history.loadingMovements')} />;
  else if (movements.isError) body = <ErrorState message={`${t('history.movementsFailed')} ${errorMessage(movements.error)}`} onRetry={() => void movements.refetch()} />;
  else if (movements.data.items.length === 0) body = <EmptyState title={t('history.noMovements')} />;
  else {
    body = (
      <>
        <Table caption={t('history.movements')}>
          <THead>
            <Tr>
              <Th>{t('movementColumns.at')}</Th>
              <Th>{t('branchColumns.branch')}</Th>
              <Th>{t('movementColumns.kind')}</Th>
              <Th numeric>{t('movementColumns.change')}</Th>
              <Th numeric>{t('movementColumns.after')}</Th>
              <Th>{t('movementColumns.batch')}</Th>
              <Th>{t('movementColumns.reason')}</Th>
              <Th>{t('movementColumns.user')}</Th>
            </Tr>
          </THead>
          <TBody>
            {movements.data.items.map((m) => (
              <Tr key={m.id}>
                <Td className="whitespace-nowrap">{formatDateTime(m.at)}</Td>
                <Td>{m.branchName}</Td>
                <Td>
                  <Badge tone={m.delta > 0 ? 'success' : m.delta < 0 ? 'warning' : 'neutral'}>{t(`movementKinds.${m.kind}`, { defaultValue: m.kind })}</Badge>
                </Td>
                <Td numeric className={m.delta < 0 ? 'text-red-700' : 'text-emerald-700'}>
                  {m.delta > 0 ? `+${formatNumber(m.delta)}` : formatNumber(m.delta)}
                </Td>
                <Td numeric>{formatNumber(m.quantityAfter)}</Td>
                <Td>{m.batchNumber ? `${m.batchNumber}${m.expiryDate ? ` · ${formatDate(m.expiryDate)}` : ''}` : '—'}</Td>
                <Td>{m.reason ?? '—'}</Td>
                <Td>{m.userName ?? '—'}</Td>
              </Tr>
            ))}
          </TBody>
        </Table>
        <div className="border-t border-slate-100 px-4">
          <Pagination page={page} pageSize={PAGE_SIZE} total={movements.data.total} onPageChange={setPage} />
        </div>
      </>
    );
  }

  return (
    <Card title={t('history.movements')} flush>
      <div className="grid gap-3 border-b border-slate-100 p-4 sm:grid-cols-2 lg:grid-cols-4" role="group" aria-label={t('history.movementFilters')}>
        <Field label={t('history.filterKind')}>
          <Select
            value={kind}
            placeholder={t('history.allKinds')}
            options={STOCK_MOVEMENT_KINDS.map((k) => ({ value: k, label: t(`movementKinds.${k}`) }))}
            onChange={(e) => filter(() => setKind(e.target.value as StockMovementKind | ''))}
          />
        </Field>
        <Field label={t('history.filterBranch')}>
          <Select value={branchId} placeholder={t('history.allBranches')} options={branches.map((b) => ({ value: b.id, label: b.name }))} onChange={(e) => filter(() => setBranchId(e.target.value))} />
        </Field>
        <Field label={t('history.filterFrom')}>
          <Input type="date" value={from} max={to || undefined} onChange={(e) => filter(() => setFrom(e.target.value))} />
        </Field>
        <Field label={t('history.filterTo')}>
          <Input type="date" value={to} min={from || undefined} onChange={(e) => filter(() => setTo(e.target.value))} />
        </Field>
      </div>
      {body}
    </Card>
  );
}
