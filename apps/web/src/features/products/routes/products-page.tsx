import { useEffect, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ArrowDown, ArrowUp, ArrowUpDown, Download, PackagePlus, SlidersHorizontal, Upload } from 'lucide-react';
import { PRODUCT_SORTS, type ProductListQueryInput, type ProductSort } from '@pharmapoint/domain/products';
import { stockStatus } from '@pharmapoint/domain/stock-status';
import { buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorState } from '@/components/ui/error-state';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { LoadingState } from '@/components/ui/loading-state';
import { PageHeader } from '@/components/ui/page-header';
import { Pagination } from '@/components/ui/pagination';
import { Select } from '@/components/ui/select';
import { Spinner } from '@/components/ui/spinner';
import { Table, TBody, Td, Th, THead, Tr } from '@/components/ui/table';
import { errorMessage } from '@/lib/api';
import { useUrlFilters } from '@/lib/use-url-filters';
import { formatDate, formatMoney, formatNumber } from '@/lib/format';
import { usePermissions } from '@/features/auth/hooks/use-permissions';
import { useSettings } from '@/features/settings/api/settings';
import { exportHref, useProducts } from '@/features/products/api/products';
import { StockStatusBadge } from '@/features/products/components/stock-status-badge';
import { useDisplayedQuantity, useLiveStock } from '@/features/stock/live/live-stock';

const PAGE_SIZES = [25, 50, 100, 200];
const STATUSES = ['out', 'low', 'good'] as const;

/** /app/products: the catalogue of the current branch, searched, filtered, sorted and paged on the server. */
export default function ProductsPage() {
  const { t } = useTranslation('products');
  const { me, can, isDemo } = usePermissions();
  useLiveStock();
  const { params, update, clear } = useUrlFilters();
  const settings = useSettings();
  const shownQuantity = useDisplayedQuantity();

  const q = params.get('q') ?? '';
  const category = params.get('category') ?? '';
  const status = params.get('status') ?? '';
  const active = params.get('active') ?? 'true';
  const sort = (PRODUCT_SORTS as readonly string[]).includes(params.get('sort') ?? '') ? (params.get('sort') as ProductSort) : 'name';
  const order = params.get('order') === 'desc' ? 'desc' : 'asc';
  const pageSize = PAGE_SIZES.includes(Number(params.get('size'))) ? Number(params.get('size')) : 50;
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);

  const [search, setSearch] = useState(q);
  // On phones the secondary filters (active, sort, order, rows per page) sit behind a "More filters" button.
  const [moreFilters, setMoreFilters] = useState(false);
  const secondaryChanged = [active !== 'true', sort !== 'name', order !== 'asc', pageSize !== 50].filter(Boolean).length;
  // The search box writes to the URL after a pause in typing (one request per search, not per key).
  // The address bar's q as of now, read by the typing timer: following q itself would write the box back over a
  // search the user navigated to (Back).
  const currentQ = useRef(q);
  currentQ.current = q;
  useEffect(() => {
    if (search.trim() === currentQ.current) return;
    const timer = window.setTimeout(() => update({ q: search.trim() || null, page: null }), 300);
    return () => window.clearTimeout(timer);
  }, [search, update]);

  const query: ProductListQueryInput = {
    q: q || undefined,
    category: category || undefined,
    status: (STATUSES as readonly string[]).includes(status) ? (status as (typeof STATUSES)[number]) : undefined,
    active: active === 'all' ? undefined : (active as 'true' | 'false'),
    sort,
    order,
    limit: pageSize,
    offset: (page - 1) * pageSize,
  };
  const products = useProducts(query);

  const categories = useMemo(() => settings.data?.settings.categories ?? [], [settings.data]);
  const branchName = me?.allowedBranches.find((b) => b.id === products.data?.branchId)?.name ?? me?.branch?.name ?? '';
  const canCreate = can('product:create') && !isDemo;
  const canEdit = can('product:update') && !isDemo;
  const filtersActive = Boolean(q || category || status || active !== 'true');

  function sortBy(column: ProductSort) {
    if (sort === column) update({ order: order === 'asc' ? 'desc' : 'asc', page: null });
    else update({ sort: column, order: null, page: null });
  }

  function sortHeader(column: ProductSort, label: string, numeric?: boolean) {
    const current = sort === column;
    const Icon = current ? (order === 'asc' ? ArrowUp : ArrowDown) : ArrowUpDown;
    return (
      <Th key={column} numeric={numeric} aria-sort={current ? (order === 'asc' ? 'ascending' : 'descending') : 'none'}>
        <button type="button" data-demo-allow="" className="inline-flex items-center gap-1 uppercase hover:text-slate-900" onClick={() => sortBy(column)}>
          {label}
          <Icon className="size-3.5" aria-hidden="true" />
          <span className="sr-only">{t('list.sortBy', { column: label })}</span>
        </button>
      </Th>
    );
  }

  let body;
  if (products.isPending) body = <LoadingState message={t('list.loading')} />;
  else if (products.isError) body = <ErrorState message={`${t('list.loadFailed')} ${errorMessage(products.error)}`} onRetry={() => void products.refetch()} />;
  else if (products.data.items.length === 0) {
    body = (
      <EmptyState
        title={filtersActive ? t('list.noMatches') : t('list.empty')}
        description={filtersActive ? t('list.noMatchesHint') : t('list.emptyHint')}
        action={
          filtersActive ? (
            <button
              type="button"
              data-demo-allow=""
              className={buttonClasses('outline', 'sm')}
              onClick={() => {
                setSearch('');
                clear();
              }}
            >
              {t('list.clearFilters')}
            </button>
          ) : canCreate ? (
            <Link to="/app/products/add" className={buttonClasses('primary', 'sm')}>
              {t('list.addProduct')}
            </Link>
          ) : null
        }
      />
    );
  } else {
    const { items, total } = products.data;
    body = (
      <Card flush>
        <Table caption={t('list.caption', { branch: branchName })} className="[&_td]:px-1.5 [&_th]:px-1.5 [&_tr>*:first-child]:pl-3 [&_tr>*:last-child]:pr-3">
          <THead>
            <Tr>
              {sortHeader('name', t('columns.product'))}
              {sortHeader('sku', t('columns.sku'))}
              <Th>{t('columns.category')}</Th>
              {sortHeader('price', t('columns.sellingPrice'), true)}
              <Th numeric>{t('columns.minPrice')}</Th>
              {sortHeader('quantity', t('columns.stock'), true)}
              <Th>{t('columns.status')}</Th>
              {sortHeader('expiry', t('columns.nearestExpiry'))}
              {/* From tablets up the actions column stays in view while the table scrolls sideways inside its card. */}
              <Th className="text-right md:sticky md:right-0 md:bg-slate-50 md:shadow-[-8px_0_8px_-8px_rgba(15,23,42,0.2)]">{t('columns.actions')}</Th>
            </Tr>
          </THead>
          <TBody>
            {items.map((item) => {
              const shown = shownQuantity(item.id, item.branchId, item.quantity);
              const rowStatus = shown.pending ? stockStatus(shown.quantity, item.lowStockThreshold) : item.status;
              return (
                <Tr key={`${item.id}:${item.branchId}`} data-product-id={item.id}>
                  <Th scope="row" className="font-normal normal-case tracking-normal">
                    <Link to={`/app/products/history/${item.id}`} className="font-medium text-slate-900 hover:text-primary hover:underline">
                      {item.name}
                    </Link>
                    <span className="mt-0.5 flex flex-wrap gap-1 text-xs text-slate-500">
                      {item.packageSize > 1 ? <span>{t('list.pack', { size: item.packageSize, type: item.packageType })}</span> : null}
                      {item.isDda ? <span className="font-semibold text-amber-700">{t('list.dda')}</span> : null}
                      {!item.isActive ? <span className="font-semibold text-slate-600">{t('list.inactive')}</span> : null}
                      {!item.isAvailable ? <span>{t('list.unavailable')}</span> : null}
                    </span>
                  </Th>
                  <Td className="text-slate-600">{item.sku ?? '—'}</Td>
                  <Td className="text-slate-600">{item.category ?? '—'}</Td>
                  <Td numeric className="whitespace-nowrap">{formatMoney(item.sellingPriceCents)}</Td>
                  <Td numeric className="whitespace-nowrap text-slate-600">
                    {formatMoney(item.minimumSellingPriceCents)}
                  </Td>
                  <Td numeric>
                    <span aria-live="polite" data-testid="stock-quantity" className={shown.pending ? 'italic text-primary' : undefined}>
                      {formatNumber(shown.quantity)}
                    </span>
                    {shown.pending ? <span className="sr-only"> {t('list.pending')}</span> : null}
                    {item.expiredQuantity > 0 ? (
                      <span className="block text-xs text-red-700">{t('list.expiredPieces', { count: item.expiredQuantity })}</span>
                    ) : null}
                  </Td>
                  <Td>
                    <StockStatusBadge status={rowStatus} />
                  </Td>
                  <Td className="whitespace-nowrap text-slate-600">{item.nearestExpiry ? formatDate(item.nearestExpiry) : '—'}</Td>
                  <Td className="md:sticky md:right-0 md:bg-white md:shadow-[-8px_0_8px_-8px_rgba(15,23,42,0.2)]">
                    <div className="flex justify-end gap-1">
                      <Link to={`/app/products/history/${item.id}`} className={buttonClasses('ghost', 'sm')} aria-label={t('list.historyOf', { name: item.name })}>
                        {t('list.history')}
                      </Link>
                      {canEdit ? (
                        <Link to={`/app/products/edit/${item.id}`} className={buttonClasses('outline', 'sm')} aria-label={t('list.editOf', { name: item.name })}>
                          {t('list.edit')}
                        </Link>
                      ) : null}
                    </div>
                  </Td>
                </Tr>
              );
            })}
          </TBody>
        </Table>
        <div className="border-t border-slate-100 px-4">
          <Pagination page={page} pageSize={pageSize} total={total} onPageChange={(next) => update({ page: next > 1 ? String(next) : null })} />
        </div>
      </Card>
    );
  }

  return (
    <div>
      <PageHeader
        title={t('list.title')}
        description={branchName ? t('list.description', { branch: branchName }) : undefined}
        actions={
          <>
            <a
              href={exportHref({ q, category, status, active: active === 'all' ? undefined : active, branchId: products.data?.branchId })}
              download
              className={buttonClasses('outline')}
            >
              <Download className="size-4" aria-hidden="true" />
              {t('list.exportCsv')}
            </a>
            {canCreate ? (
              <Link to="/app/products/bulk-import" className={buttonClasses('outline')}>
                <Upload className="size-4" aria-hidden="true" />
                {t('list.bulkImport')}
              </Link>
            ) : null}
            {canCreate ? (
              <Link to="/app/products/add" className={buttonClasses('primary')}>
                <PackagePlus className="size-4" aria-hidden="true" />
                {t('list.addProduct')}
              </Link>
            ) : null}
          </>
        }
      />

      <form
        role="search"
        aria-label={t('list.filters')}
        data-demo-allow=""
        className="mb-4 grid gap-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:grid-cols-2 lg:grid-cols-4"
        onSubmit={(event) => {
          event.preventDefault();
          update({ q: search.trim() || null, page: null });
        }}
      >
        <Field label={t('list.search')} className="sm:col-span-2">
          <Input type="search" value={search} placeholder={t('list.searchPlaceholder')} onChange={(event) => setSearch(event.target.value)} />
        </Field>
        <Field label={t('list.category')}>
          <Select
            value={category}
            placeholder={t('list.allCategories')}
            options={[...new Set([...categories, ...(category ? [category] : [])])].map((c) => ({ value: c, label: c }))}
            onChange={(event) => update({ category: event.target.value || null, page: null })}
          />
        </Field>
        <Field label={t('list.stockStatus')}>
          <Select
            value={status}
            placeholder={t('list.allStatuses')}
            options={STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) }))}
            onChange={(event) => update({ status: event.target.value || null, page: null })}
          />
        </Field>
        <div className="sm:col-span-2 md:hidden">
          <button
            type="button"
            data-demo-allow=""
            className={buttonClasses('outline', 'sm')}
            aria-expanded={moreFilters}
            aria-controls="product-secondary-filters"
            onClick={() => setMoreFilters((open) => !open)}
          >
            <SlidersHorizontal className="size-4" aria-hidden="true" />
            {secondaryChanged > 0 ? t('list.moreFiltersChanged', { count: secondaryChanged }) : t('list.moreFilters')}
          </button>
        </div>
        <div id="product-secondary-filters" className={`${moreFilters ? 'grid' : 'hidden'} gap-3 sm:col-span-2 sm:grid-cols-2 md:contents`}>
          <Field label={t('list.active')}>
            <Select
              value={active}
              options={[
                { value: 'true', label: t('list.activeOnly') },
                { value: 'false', label: t('list.inactiveOnly') },
                { value: 'all', label: t('list.activeAll') },
              ]}
              onChange={(event) => update({ active: event.target.value === 'true' ? null : event.target.value, page: null })}
            />
          </Field>
          <Field label={t('list.sort')}>
            <Select
              value={sort}
              options={PRODUCT_SORTS.map((s) => ({ value: s, label: t(`sorts.${s}`) }))}
              onChange={(event) => update({ sort: event.target.value === 'name' ? null : event.target.value, page: null })}
            />
          </Field>
          <Field label={t('list.order')}>
            <Select
              value={order}
              options={[
                { value: 'asc', label: t('list.ascending') },
                { value: 'desc', label: t('list.descending') },
              ]}
              onChange={(event) => update({ order: event.target.value === 'asc' ? null : event.target.value, page: null })}
            />
          </Field>
          <Field label={t('list.pageSize')}>
            <Select
              value={String(pageSize)}
              options={PAGE_SIZES.map((size) => ({ value: String(size), label: String(size) }))}
              onChange={(event) => update({ size: event.target.value === '50' ? null : event.target.value, page: null })}
            />
          </Field>
        </div>
        <div className="flex items-center gap-2 text-sm text-slate-600 sm:col-span-2 lg:col-span-4">
          {products.data ? <span role="status">{t('list.count', { count: products.data.total })}</span> : null}
          {products.isFetching && !products.isPending ? <Spinner label={t('list.refreshing')} /> : null}
        </div>
      </form>

      {body}
    </div>
  );
}
