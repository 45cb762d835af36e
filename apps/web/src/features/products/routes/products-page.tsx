import { useEffect, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Download, PackagePlus, SlidersHorizontal, Upload } from 'lucide-react';
import { PRODUCT_SORTS, type ProductListItem, type ProductListQueryInput, type ProductSort } from '@pharmapoint/domain/products';
import { stockStatus } from '@pharmapoint/domain/stock-status';
import { buttonClasses } from '@/components/ui/button';
import { DataTable, dataTableColumns } from '@/components/ui/data-table';
import { EmptyState } from '@/components/ui/empty-state';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { PageHeader } from '@/components/ui/page-header';
import { Select } from '@/components/ui/select';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { useUrlFilters } from '@/lib/use-url-filters';
import { formatDate, formatMoney, formatNumber } from '@/lib/format';
import { usePermissions } from '@/features/auth/hooks/use-permissions';
import { useSettings } from '@/features/settings/api/settings';
import { exportHref, useProducts } from '@/features/products/api/products';
import { StockStatusBadge } from '@/components/stock-status-badge';
import { useDisplayedQuantity, useLiveStock } from '@/lib/live-stock/live-stock';

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
  // The search box writes to the URL after a pause in typing. The address bar's q and update as of now are read
  // through a ref: only a new typed search may write, never a Back navigation or Clear filters meanwhile.
  const [typed] = useDebouncedValue(search.trim(), 300);
  const latest = useRef({ q, update });
  latest.current = { q, update };
  useEffect(() => {
    if (typed === latest.current.q) return;
    latest.current.update({ q: typed || null, page: null });
  }, [typed]);

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

  const columns = useMemo(() => {
    const column = dataTableColumns<ProductListItem>();
    const muted = 'text-slate-600';
    // From tablets up the actions column stays in view while the table scrolls sideways inside its card.
    const sticky = 'md:sticky md:right-0 md:shadow-[-8px_0_8px_-8px_rgba(15,23,42,0.2)]';
    return [
      column.accessor('name', {
        header: t('columns.product'),
        enableSorting: true,
        meta: { rowHeader: true, cellClassName: 'font-normal normal-case tracking-normal' },
        cell: ({ row: { original: item } }) => (
          <>
            <Link to={`/app/products/history/${item.id}`} className="font-medium text-slate-900 hover:text-primary hover:underline">
              {item.name}
            </Link>
            <span className="mt-0.5 flex flex-wrap gap-1 text-xs text-slate-500">
              {item.packageSize > 1 ? <span>{t('list.pack', { size: item.packageSize, type: item.packageType })}</span> : null}
              {item.isDda ? <span className="font-semibold text-amber-700">{t('list.dda')}</span> : null}
              {!item.isActive ? <span className="font-semibold text-slate-600">{t('list.inactive')}</span> : null}
              {!item.isAvailable ? <span>{t('list.unavailable')}</span> : null}
            </span>
          </>
        ),
      }),
      column.accessor('sku', { header: t('columns.sku'), enableSorting: true, meta: { cellClassName: muted }, cell: ({ getValue }) => getValue() ?? '—' }),
      column.accessor('category', { header: t('columns.category'), meta: { cellClassName: muted }, cell: ({ getValue }) => getValue() ?? '—' }),
      column.accessor('sellingPriceCents', {
        id: 'price',
        header: t('columns.sellingPrice'),
        enableSorting: true,
        meta: { numeric: true, cellClassName: 'whitespace-nowrap' },
        cell: ({ getValue }) => formatMoney(getValue()),
      }),
      column.accessor('minimumSellingPriceCents', {
        header: t('columns.minPrice'),
        meta: { numeric: true, cellClassName: `whitespace-nowrap ${muted}` },
        cell: ({ getValue }) => formatMoney(getValue()),
      }),
      column.accessor('quantity', {
        header: t('columns.stock'),
        enableSorting: true,
        meta: { numeric: true },
        cell: ({ row: { original: item } }) => {
          const shown = shownQuantity(item.id, item.branchId, item.quantity);
          return (
            <>
              <span aria-live="polite" data-testid="stock-quantity" className={shown.pending ? 'italic text-primary' : undefined}>
                {formatNumber(shown.quantity)}
              </span>
              {shown.pending ? <span className="sr-only"> {t('list.pending')}</span> : null}
              {item.expiredQuantity > 0 ? <span className="block text-xs text-red-700">{t('list.expiredPieces', { count: item.expiredQuantity })}</span> : null}
              {item.reservedQuantity > 0 ? <span className="block text-xs text-amber-700">{t('list.reservedPieces', { count: item.reservedQuantity })}</span> : null}
            </>
          );
        },
      }),
      column.display({
        id: 'status',
        header: t('columns.status'),
        cell: ({ row: { original: item } }) => {
          const shown = shownQuantity(item.id, item.branchId, item.quantity);
          return <StockStatusBadge status={shown.pending ? stockStatus(shown.quantity, item.lowStockThreshold) : item.status} />;
        },
      }),
      column.accessor('nearestExpiry', {
        id: 'expiry',
        header: t('columns.nearestExpiry'),
        enableSorting: true,
        meta: { cellClassName: `whitespace-nowrap ${muted}` },
        cell: ({ getValue }) => {
          const expiry = getValue();
          return expiry ? formatDate(expiry) : '—';
        },
      }),
      column.display({
        id: 'actions',
        header: t('columns.actions'),
        meta: { headerClassName: `text-right md:bg-slate-50 ${sticky}`, cellClassName: `md:bg-white ${sticky}` },
        cell: ({ row: { original: item } }) => (
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
        ),
      }),
    ];
  }, [t, canEdit, shownQuantity]);

  const sorting = useMemo(() => [{ id: sort, desc: order === 'desc' }], [sort, order]);

  const body = (
    <DataTable
      framed
      caption={t('list.caption', { branch: branchName })}
      className="[&_td]:px-1.5 [&_th]:px-1.5 [&_tr>*:first-child]:pl-3 [&_tr>*:last-child]:pr-3"
      columns={columns}
      data={products.data?.items}
      getRowId={(item) => `${item.id}:${item.branchId}`}
      rowProps={(item) => ({ 'data-product-id': item.id })}
      isLoading={products.isPending}
      loadingMessage={t('list.loading')}
      error={products.isError ? `${t('list.loadFailed')} ${errorMessage(products.error)}` : undefined}
      onRetry={() => void products.refetch()}
      sorting={sorting}
      onSortingChange={(next) => {
        const first = next[0];
        if (!first) return;
        update({ sort: first.id === 'name' ? null : first.id, order: first.desc ? 'desc' : null, page: null });
      }}
      pagination={{ page, pageSize, total: products.data?.total ?? 0, onPageChange: (next) => update({ page: next > 1 ? String(next) : null }) }}
      empty={
        <EmptyState
          title={filtersActive ? t('list.noMatches') : t('list.empty')}
          description={filtersActive ? t('list.noMatchesHint') : t('list.emptyHint')}
          action={
            filtersActive ? (
              <button
                type="button"
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
      }
    />
  );

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
