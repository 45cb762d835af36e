import { useState, type HTMLAttributes, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  createColumnHelper,
  createPaginatedRowModel,
  createSortedRowModel,
  functionalUpdate,
  rowPaginationFeature,
  rowSortingFeature,
  sortFn_alphanumeric,
  sortFn_basic,
  sortFn_datetime,
  sortFn_text,
  tableFeatures,
  useTable,
  type ColumnDef,
  type Header,
  type PaginationState,
  type RowData,
  type Row,
  type SortingState,
  type Updater,
} from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { ArrowDown, ArrowUp, ArrowUpDown } from 'lucide-react';
import { cn } from '@/lib/cn';
import { Card } from '@/components/ui/card';
import { ErrorState } from '@/components/ui/error-state';
import { LoadingState } from '@/components/ui/loading-state';
import { Pagination } from '@/components/ui/pagination';
import { Table, TBody, Td, Th, THead, Tr } from '@/components/ui/table';

/** Per column: how its cells are laid out. */
export interface DataTableColumnMeta {
  /** Right-aligned tabular figures. */
  numeric?: boolean;
  /** This column names the row: its cells are <th scope="row">. */
  rowHeader?: boolean;
  headerClassName?: string;
  cellClassName?: string;
}

const features = tableFeatures({
  rowSortingFeature,
  sortedRowModel: createSortedRowModel(),
  sortFns: { alphanumeric: sortFn_alphanumeric, basic: sortFn_basic, datetime: sortFn_datetime, text: sortFn_text },
  rowPaginationFeature,
  paginatedRowModel: createPaginatedRowModel(),
  columnMeta: {} as DataTableColumnMeta,
});

export type DataTableFeatures = typeof features;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- columns of one table hold values of different types.
export type DataTableColumn<T extends RowData> = ColumnDef<DataTableFeatures, T, any>;

/** Typed column builders for rows of type T: `const column = dataTableColumns<Product>()`. */
export function dataTableColumns<T extends RowData>() {
  return createColumnHelper<DataTableFeatures, T>();
}

/** The screen pages on the server: rows are one page, `total` counts them all. `page` is 1-based. */
export interface ServerPagination {
  page: number;
  pageSize: number;
  total: number;
  onPageChange: (page: number) => void;
}

type RowAttributes = HTMLAttributes<HTMLTableRowElement> & { [data: `data-${string}`]: string | undefined };

/** Lists longer than this, shown without paging, render only the rows in view. */
export const VIRTUALIZE_FROM = 100;

const DEFAULT_COLUMN = { enableSorting: false } as const;

export interface DataTableProps<T extends RowData> {
  /** Names the table for screen readers (sr-only). */
  caption: string;
  /** Keep the array stable (module scope or useMemo): a new array rebuilds the table's models. */
  columns: DataTableColumn<T>[];
  /** Undefined until the first load. */
  data: T[] | undefined;
  getRowId: (row: T) => string;
  /** Extra attributes of a body row, e.g. `{ 'data-product-id': id }`. */
  rowProps?: (row: T) => RowAttributes;
  /** No rows yet: shows the loading state. */
  isLoading?: boolean;
  loadingMessage?: ReactNode;
  /** A message: the error state replaces the table (with Try Again when onRetry). */
  error?: ReactNode;
  onRetry?: () => void;
  /** Shown instead of the table when there are no rows (usually an <EmptyState>). */
  empty: ReactNode;
  /**
   * Sorting done by the server: the current sort and a callback for the next one (the rows arrive sorted).
   * Without these, sortable columns (`enableSorting: true`) sort the loaded rows in the browser.
   */
  sorting?: SortingState;
  onSortingChange?: (sorting: SortingState) => void;
  /** Server pages, or `{ pageSize }` to page the loaded rows in the browser. None: every row (virtualised when long). */
  pagination?: ServerPagination | { pageSize: number };
  /** Classes around the loading, error and empty states (e.g. padding inside a card). */
  stateClassName?: string;
  /** Puts the table and its pagination in a flush card; the loading, error and empty states stay outside it. */
  framed?: boolean;
  className?: string;
  wrapperClassName?: string;
}

/**
 * The app's data table: accessible <table> markup (caption, column headers, row headers, aria-sort) on
 * @tanstack/react-table for sorting and paging, with the loading, error (Try Again) and empty states, and
 * @tanstack/react-virtual for long unpaged lists.
 */
export function DataTable<T extends RowData>({
  caption,
  columns,
  data,
  getRowId,
  rowProps,
  isLoading,
  loadingMessage,
  error,
  onRetry,
  empty,
  sorting,
  onSortingChange,
  pagination,
  stateClassName,
  framed,
  className,
  wrapperClassName,
}: DataTableProps<T>) {
  const server = pagination && 'total' in pagination ? pagination : undefined;
  const clientPageSize = pagination && !('total' in pagination) ? pagination.pageSize : undefined;
  const [clientSorting, setClientSorting] = useState<SortingState>([]);
  const [clientPage, setClientPage] = useState<PaginationState>({ pageIndex: 0, pageSize: clientPageSize ?? 50 });
  const manualSorting = sorting !== undefined;
  const rows = data ?? NO_ROWS;

  const sortingState = sorting ?? clientSorting;
  const paginationState: PaginationState = server
    ? { pageIndex: server.page - 1, pageSize: server.pageSize }
    : { pageIndex: clientPage.pageIndex, pageSize: clientPageSize ?? Math.max(rows.length, 1) };

  const table = useTable({
    features,
    columns,
    data: rows,
    getRowId: (row: T) => getRowId(row),
    defaultColumn: DEFAULT_COLUMN,
    state: { sorting: sortingState, pagination: paginationState },
    onSortingChange: (updater: Updater<SortingState>) => {
      const next = functionalUpdate(updater, sortingState);
      if (manualSorting) onSortingChange?.(next);
      else setClientSorting(next);
    },
    onPaginationChange: (updater: Updater<PaginationState>) => {
      const next = functionalUpdate(updater, paginationState);
      if (server) server.onPageChange(next.pageIndex + 1);
      else setClientPage(next);
    },
    manualSorting,
    manualPagination: Boolean(server) || clientPageSize === undefined,
    rowCount: server?.total,
    // A first click sorts A→Z / low→high whatever the type; the server's sorts always have a column.
    sortDescFirst: false,
    enableSortingRemoval: !manualSorting,
    enableMultiSort: false,
    // New rows of a server page are that page: never jump back to the first. Browser paging starts over when the
    // rows change (new data, a new sort).
    autoResetPageIndex: !server,
  });

  // State, not a ref: the wrapper is attached after the rows' layout effects run, and the virtualiser must render
  // again once it has its scroll element.
  const [scrollElement, setScrollElement] = useState<HTMLDivElement | null>(null);

  if (error) {
    return (
      <div className={stateClassName}>
        <ErrorState message={error} onRetry={onRetry} />
      </div>
    );
  }
  if (isLoading || data === undefined) {
    return (
      <div className={stateClassName}>
        <LoadingState message={loadingMessage} />
      </div>
    );
  }
  if (rows.length === 0) return <div className={stateClassName}>{empty}</div>;

  const shown = table.getRowModel().rows;
  const virtual = !pagination && shown.length > VIRTUALIZE_FROM;
  const headers = table.getHeaderGroups();
  const columnCount = table.getAllLeafColumns().length;

  const renderRow = (row: Row<DataTableFeatures, T>, extra?: HTMLAttributes<HTMLTableRowElement> & { ref?: (node: HTMLTableRowElement | null) => void }) => (
    <Tr key={row.id} {...rowProps?.(row.original)} {...extra}>
      {row.getAllCells().map((cell) => {
        const meta = cell.column.columnDef.meta;
        const content = <table.FlexRender cell={cell} />;
        return meta?.rowHeader ? (
          <Th key={cell.id} scope="row" numeric={meta.numeric} className={meta.cellClassName}>
            {content}
          </Th>
        ) : (
          <Td key={cell.id} numeric={meta?.numeric} className={meta?.cellClassName}>
            {content}
          </Td>
        );
      })}
    </Tr>
  );

  const content = (
    <>
      <Table
        caption={caption}
        className={className}
        wrapperRef={setScrollElement}
        wrapperClassName={cn(virtual && 'max-h-[70vh] overflow-y-auto', wrapperClassName)}
        aria-rowcount={virtual ? shown.length + 1 : undefined}
      >
        <THead className={virtual ? 'sticky top-0 z-10' : undefined}>
          {headers.map((group) => (
            <Tr key={group.id}>
              {group.headers.map((header) => (
                <HeaderCell key={header.id} header={header} render={<table.FlexRender header={header} />} />
              ))}
            </Tr>
          ))}
        </THead>
        <TBody>{virtual ? <VirtualRows rows={shown} scrollElement={scrollElement} columnCount={columnCount} renderRow={renderRow} /> : shown.map((row) => renderRow(row))}</TBody>
      </Table>
      {server ? (
        <div className="border-t border-slate-100 px-4">
          <Pagination page={server.page} pageSize={server.pageSize} total={server.total} onPageChange={(page) => table.setPageIndex(page - 1)} />
        </div>
      ) : clientPageSize !== undefined && rows.length > clientPageSize ? (
        <div className="border-t border-slate-100 px-4">
          <Pagination
            page={table.state.pagination.pageIndex + 1}
            pageSize={clientPageSize}
            total={table.getPrePaginatedRowModel().rows.length}
            onPageChange={(page) => table.setPageIndex(page - 1)}
          />
        </div>
      ) : null}
    </>
  );
  return framed ? <Card flush>{content}</Card> : content;
}

const NO_ROWS: never[] = [];

function HeaderCell<T extends RowData>({ header, render }: { header: Header<DataTableFeatures, T, unknown>; render: ReactNode }) {
  const { t } = useTranslation();
  const { column } = header;
  const meta = column.columnDef.meta;
  if (header.isPlaceholder) return <Th className={meta?.headerClassName} />;
  if (!column.getCanSort()) {
    return (
      <Th numeric={meta?.numeric} className={meta?.headerClassName}>
        {render}
      </Th>
    );
  }
  const direction = column.getIsSorted();
  const Icon = direction === 'asc' ? ArrowUp : direction === 'desc' ? ArrowDown : ArrowUpDown;
  const label = typeof column.columnDef.header === 'string' ? column.columnDef.header : column.id;
  return (
    <Th numeric={meta?.numeric} className={meta?.headerClassName} aria-sort={direction === 'asc' ? 'ascending' : direction === 'desc' ? 'descending' : 'none'}>
      {/* Sorting only reads: demo visitors may use it. */}
      <button type="button" className="inline-flex items-center gap-1 uppercase hover:text-slate-900" onClick={column.getToggleSortingHandler()}>
        {render}
        <Icon className="size-3.5" aria-hidden="true" />
        <span className="sr-only">{t('table.sortBy', { column: label })}</span>
      </button>
    </Th>
  );
}

/** Renders the rows in (and near) view, with spacer rows above and below so the scroll height stays true. */
function VirtualRows<T extends RowData>({
  rows,
  scrollElement,
  columnCount,
  renderRow,
}: {
  rows: Row<DataTableFeatures, T>[];
  scrollElement: HTMLDivElement | null;
  columnCount: number;
  renderRow: (row: Row<DataTableFeatures, T>, extra: HTMLAttributes<HTMLTableRowElement> & { ref: (node: HTMLTableRowElement | null) => void }) => ReactNode;
}) {
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollElement,
    estimateSize: () => 44,
    getItemKey: (index) => rows[index]!.id,
    overscan: 10,
  });
  const items = virtualizer.getVirtualItems();
  const before = items[0]?.start ?? 0;
  const after = virtualizer.getTotalSize() - (items.at(-1)?.end ?? 0);
  return (
    <>
      {before > 0 ? <SpacerRow height={before} columnCount={columnCount} /> : null}
      {items.map((item) =>
        renderRow(rows[item.index]!, { ref: virtualizer.measureElement, 'data-index': item.index, 'aria-rowindex': item.index + 2 } as HTMLAttributes<HTMLTableRowElement> & {
          ref: (node: HTMLTableRowElement | null) => void;
        }),
      )}
      {after > 0 ? <SpacerRow height={after} columnCount={columnCount} /> : null}
    </>
  );
}

function SpacerRow({ height, columnCount }: { height: number; columnCount: number }) {
  return (
    <tr aria-hidden="true" style={{ height }}>
      <td colSpan={columnCount} className="p-0" />
    </tr>
  );
}
