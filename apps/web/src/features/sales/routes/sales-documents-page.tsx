import { useCallback, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ArrowLeft, Download, Eye, FileText, Printer } from 'lucide-react';
import type { Sale } from '@pharmapoint/domain/sales';
import type { SaleHistoryItem } from '@pharmapoint/domain/sales-history';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { DataTable, dataTableColumns } from '@/components/ui/data-table';
import { EmptyState } from '@/components/ui/empty-state';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { PageHeader } from '@/components/ui/page-header';
import { Select } from '@/components/ui/select';
import { errorMessage } from '@/lib/api';
import { formatDate, formatMoney } from '@/lib/format';
import { buildSalesPdf, documentBusinessOf, downloadSalesPdf, printSalesPdf, type SaleDocumentKind } from '@/lib/sale-documents';
import { toast } from '@/lib/toast';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { fetchSale, useDocumentSettings, useSalesHistory } from '@/features/sales/api/sales';
import { DateRangeFields, dateQuery, type DateRangeValue } from '@/features/sales/components/date-range-fields';
import { SaleStatusBadge } from '@/features/sales/components/sale-status-badge';

const PAGE_SIZE = 25;
/** At most this many sales in one document (one PDF page each). */
const MAX_AT_ONCE = 50;

/**
 * /app/sales/documents (issue 10 item 9, decision 0037): invoices (A4) and receipts (80 mm) of the filtered sales,
 * one or many at once (ticked rows, a page each), to view in a new tab, print or download as PDF (jspdf).
 */
export default function SalesDocumentsPage() {
  const { t } = useTranslation('sales');
  const settings = useDocumentSettings();
  const [range, setRange] = useState<DateRangeValue>({ preset: 'today', from: '', to: '' });
  const [invoice, setInvoice] = useState('');
  const [invoiceNumber] = useDebouncedValue(invoice.trim(), 300);
  const [kind, setKind] = useState<SaleDocumentKind>('invoice');
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [busy, setBusy] = useState<string | null>(null);
  const list = useSalesHistory({ ...dateQuery(range), invoiceNumber: invoiceNumber || undefined, limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE });
  const items = list.data?.items;
  const allOnPage = (items ?? []).length > 0 && (items ?? []).every((s) => selected.has(s.id));

  const run = useCallback(async (action: 'view' | 'print' | 'download', ids: readonly string[]) => {
    if (ids.length === 0) return;
    setBusy(`${action}:${ids.join(',')}`);
    const tab = action === 'view' ? window.open('', '_blank') : null;
    try {
      const sales: Sale[] = [];
      for (const id of ids.slice(0, MAX_AT_ONCE)) sales.push(await fetchSale(id));
      const business = documentBusinessOf(settings.data?.settings);
      if (action === 'download') await downloadSalesPdf(kind, sales, business);
      else if (action === 'print') {
        if (!(await printSalesPdf(kind, sales, business))) toast.error(t('documents.popupBlocked'));
      } else {
        const doc = await buildSalesPdf(kind, sales, business);
        if (tab) tab.location.href = doc.output('bloburl').toString();
        else toast.error(t('documents.popupBlocked'));
      }
    } catch (error) {
      tab?.close();
      toast.error(t('documents.failed', { message: errorMessage(error) }));
    } finally {
      setBusy(null);
    }
  }, [kind, settings.data, t]);

  const columns = useMemo(() => {
    const column = dataTableColumns<SaleHistoryItem>();
    return [
      column.display({
        id: 'pick',
        header: t('documents.pick'),
        cell: ({ row: { original: s } }) => (
          <Checkbox
            label={<span className="sr-only">{t('documents.pickLabel', { invoice: s.invoiceNumber })}</span>}
            checked={selected.has(s.id)}
            onCheckedChange={(on) =>
              setSelected((now) => {
                const next = new Set(now);
                if (on) next.add(s.id);
                else next.delete(s.id);
                return next;
              })
            }
          />
        ),
      }),
      column.display({
        id: 'invoice',
        header: t('table.invoice'),
        meta: { rowHeader: true, cellClassName: 'whitespace-nowrap' },
        cell: ({ row: { original: s } }) => (
          <>
            <span className="font-medium">{s.invoiceNumber}</span>
            <span className="block text-xs text-slate-500">{formatDate(s.saleDate)}</span>
          </>
        ),
      }),
      column.display({ id: 'client', header: t('table.client'), cell: ({ row }) => <span className="break-words">{row.original.clientName}</span> }),
      column.display({ id: 'total', header: t('table.total'), meta: { numeric: true, cellClassName: 'whitespace-nowrap' }, cell: ({ row }) => formatMoney(row.original.totalCents) }),
      column.display({ id: 'status', header: t('table.status'), cell: ({ row }) => <SaleStatusBadge status={row.original.status} /> }),
      column.display({
        id: 'actions',
        header: t('table.actions'),
        cell: ({ row: { original: s } }) => (
          <div className="flex flex-wrap gap-1">
            <Button size="sm" variant="ghost" onClick={() => void run('view', [s.id])} aria-label={t('documents.viewOne', { kind: t(`documents.kind.${kind}`), invoice: s.invoiceNumber })} icon={<Eye className="size-4" aria-hidden="true" />} />
            <Button size="sm" variant="ghost" onClick={() => void run('print', [s.id])} aria-label={t('documents.printOne', { kind: t(`documents.kind.${kind}`), invoice: s.invoiceNumber })} icon={<Printer className="size-4" aria-hidden="true" />} />
            <Button
              size="sm"
              variant="ghost"
              loading={busy === `download:${s.id}`}
              onClick={() => void run('download', [s.id])}
              aria-label={t('documents.downloadOne', { kind: t(`documents.kind.${kind}`), invoice: s.invoiceNumber })}
              icon={<Download className="size-4" aria-hidden="true" />}
            />
          </div>
        ),
      }),
    ];
  }, [t, selected, kind, busy, run]);

  const picked = [...selected];
  return (
    <div className="min-w-0 space-y-4">
      <PageHeader
        eyebrow={
          <Link to="/app/allsales" className="inline-flex items-center gap-1 hover:text-primary">
            <ArrowLeft className="size-4" aria-hidden="true" />
            {t('nav.backToSales')}
          </Link>
        }
        title={t('documents.title')}
        description={t('documents.description')}
      />
      <section aria-label={t('filters.label')} className="grid gap-3 rounded-lg border border-slate-200 bg-white p-4 sm:grid-cols-2 lg:grid-cols-4">
        <DateRangeFields
          value={range}
          onChange={(v) => {
            setRange(v);
            setPage(1);
          }}
        />
        <Field label={t('filters.invoiceNumber')}>
          <Input
            value={invoice}
            placeholder="INV-000123"
            onChange={(e) => {
              setInvoice(e.target.value);
              setPage(1);
            }}
          />
        </Field>
        <Field label={t('documents.kindLabel')}>
          <Select value={kind} onChange={(e) => setKind(e.target.value as SaleDocumentKind)} options={[{ value: 'invoice', label: t('documents.kind.invoice') }, { value: 'receipt', label: t('documents.kind.receipt') }]} />
        </Field>
      </section>
      <div className="flex flex-wrap items-center gap-2 rounded-lg border border-slate-200 bg-white p-3">
        <Checkbox
          label={t('documents.selectPage')}
          checked={allOnPage}
          disabled={!items || items.length === 0}
          onCheckedChange={(on) =>
            setSelected((now) => {
              const next = new Set(now);
              for (const s of items ?? []) {
                if (on) next.add(s.id);
                else next.delete(s.id);
              }
              return next;
            })
          }
        />
        <span className="text-sm text-slate-600" aria-live="polite">{t('documents.selected', { count: picked.length })}</span>
        <div className="ml-auto flex flex-wrap gap-2">
          <Button size="sm" variant="outline" disabled={picked.length === 0 || busy !== null} onClick={() => void run('view', picked)} icon={<Eye className="size-4" aria-hidden="true" />}>{t('documents.viewSelected')}</Button>
          <Button size="sm" variant="outline" disabled={picked.length === 0 || busy !== null} onClick={() => void run('print', picked)} icon={<Printer className="size-4" aria-hidden="true" />}>{t('documents.printSelected')}</Button>
          <Button size="sm" disabled={picked.length === 0 || busy !== null} loading={busy?.startsWith('download:') && picked.length > 1} onClick={() => void run('download', picked)} icon={<Download className="size-4" aria-hidden="true" />}>
            {t('documents.downloadSelected')}
          </Button>
          {picked.length > 0 ? <Button size="sm" variant="ghost" onClick={() => setSelected(new Set())}>{t('documents.clear')}</Button> : null}
        </div>
        {picked.length > MAX_AT_ONCE ? <p className="w-full text-sm text-amber-800">{t('documents.tooMany', { max: MAX_AT_ONCE })}</p> : null}
      </div>
      <div className="rounded-lg border border-slate-200 bg-white">
        <DataTable
          caption={t('documents.caption')}
          columns={columns}
          data={items}
          getRowId={(s) => s.id}
          rowProps={(s) => ({ 'data-invoice': s.invoiceNumber })}
          isLoading={list.isPending}
          loadingMessage={t('loading')}
          error={list.isError ? `${t('error')}: ${errorMessage(list.error)}` : undefined}
          onRetry={() => void list.refetch()}
          empty={<EmptyState icon={<FileText className="size-10" aria-hidden="true" />} title={t('empty.title')} description={t('empty.filtered')} />}
          stateClassName={list.isSuccess ? 'p-4' : undefined}
          pagination={{ page, pageSize: PAGE_SIZE, total: list.data?.total ?? 0, onPageChange: setPage }}
        />
      </div>
    </div>
  );
}
