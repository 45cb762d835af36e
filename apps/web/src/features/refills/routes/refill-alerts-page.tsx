import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CheckCircle2, Download, MessageCircle } from 'lucide-react';
import {
  REFILL_DUE_FILTERS,
  REFILL_PAGE_SIZE,
  refillReminderText,
  whatsappReminderLink,
  type RefillDueFilter,
  type RefillReminder,
  type RefillReminderListQueryInput,
} from '@pharmapoint/domain/refills';
import { Badge } from '@/components/ui/badge';
import { Button, buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { DataTable, dataTableColumns } from '@/components/ui/data-table';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorState } from '@/components/ui/error-state';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { LoadingState } from '@/components/ui/loading-state';
import { PageHeader } from '@/components/ui/page-header';
import { Select } from '@/components/ui/select';
import { usePermissions } from '@/features/auth/hooks/use-permissions';
import { fetchRefillReminders, useCompleteRefill, useRefillReminders } from '@/features/refills/api/refills';
import { AutoReminderCard } from '@/features/refills/components/auto-reminder-card';
import { RefillSmsCell } from '@/features/refills/components/refill-sms-cell';
import { errorMessage } from '@/lib/api';
import { formatDate } from '@/lib/format';
import { downloadCsv } from '@/lib/report-export';
import { toast } from '@/lib/toast';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { pageParam, useUrlFilters } from '@/lib/use-url-filters';
import '@/i18n/refills';

function StatusBadge({ reminder }: { reminder: RefillReminder }) {
  const { t } = useTranslation('refills');
  if (reminder.status === 'overdue') return <Badge tone="danger" className="whitespace-nowrap">{t('status.overdue', { count: -reminder.daysLeft })}</Badge>;
  if (reminder.status === 'due') return <Badge tone="warning" className="whitespace-nowrap">{t('status.due')}</Badge>;
  if (reminder.status === 'upcoming') return <Badge tone="info" className="whitespace-nowrap">{t('status.upcoming', { count: reminder.daysLeft })}</Badge>;
  return <Badge className="whitespace-nowrap">{t('status.later', { count: reminder.daysLeft })}</Badge>;
}

/** Opens the reminder in WhatsApp (a wa.me link with the text pre-filled); a missing or invalid phone is said. */
function WhatsAppAction({ reminder, pharmacyName }: { reminder: RefillReminder; pharmacyName: string }) {
  const { t } = useTranslation('refills');
  const text = refillReminderText({ clientName: reminder.client.name, pharmacyName, refillDate: reminder.refillDate });
  const link = whatsappReminderLink(reminder.client.phone, text);
  const label = t('actions.whatsapp');
  if (!link.ok) {
    return (
      <Button size="sm" variant="outline" icon={<MessageCircle aria-hidden className="size-4" />} onClick={() => toast.error(link.error)}>
        {label}
      </Button>
    );
  }
  return (
    <a
      href={link.url}
      target="_blank"
      rel="noopener noreferrer"
      className={buttonClasses('outline', 'sm')}
      onClick={(event) => {
        event.preventDefault();
        const opened = window.open(link.url, '_blank');
        if (!opened) toast.error(t('whatsappFailed', { client: reminder.client.name }));
        else opened.opener = null;
      }}
    >
      <MessageCircle aria-hidden className="size-4" />
      {label}
    </a>
  );
}

/** /app/reports/refill-alerts (report:inventory): refills overdue, due today or upcoming, with their reminders. */
export default function RefillAlertsPage() {
  const { t } = useTranslation('refills');
  const { me, isDemo, can } = usePermissions();
  const { params, update } = useUrlFilters();
  const due: RefillDueFilter = (REFILL_DUE_FILTERS as readonly string[]).includes(params.get('due') ?? '') ? (params.get('due') as RefillDueFilter) : 'window';
  const branchId = params.get('branchId') ?? '';
  const q = params.get('q') ?? '';
  const page = pageParam(params);
  const [search, setSearch] = useState(q);
  const [typed] = useDebouncedValue(search.trim(), 300);
  const latest = useRef({ q, update });
  latest.current = { q, update };
  useEffect(() => {
    if (typed === latest.current.q) return;
    latest.current.update({ q: typed || null, page: null });
  }, [typed]);

  const query: RefillReminderListQueryInput = { due, branchId: branchId || undefined, search: q || undefined, limit: REFILL_PAGE_SIZE, offset: (page - 1) * REFILL_PAGE_SIZE };
  const reminders = useRefillReminders(query);
  const complete = useCompleteRefill();
  const [exporting, setExporting] = useState(false);
  const data = reminders.data;
  const pharmacyName = data?.pharmacyName ?? '';

  const columns = useMemo(() => {
    const column = dataTableColumns<RefillReminder>();
    return [
      column.accessor((r) => r.client.name, {
        id: 'client',
        header: t('columns.client'),
        meta: { rowHeader: true, cellClassName: 'font-normal normal-case tracking-normal' },
        cell: ({ row: { original: r } }) => (
          <div className="min-w-0">
            <div className="font-medium text-slate-900">{r.client.name}</div>
            <div className="text-xs text-slate-600">{r.client.phone || t('noPhone')}</div>
          </div>
        ),
      }),
      column.accessor('productName', {
        header: t('columns.product'),
        cell: ({ row: { original: r } }) => (
          <div>
            <div>{r.productName}</div>
            <div className="text-xs text-slate-600">
              {r.invoiceNumber}
              {r.lines.length > 1 ? ` · ${t('merged', { count: r.lines.length })}` : ''}
            </div>
          </div>
        ),
      }),
      column.accessor('branchName', { header: t('columns.branch'), meta: { cellClassName: 'whitespace-nowrap' } }),
      column.accessor('refillDate', {
        header: t('columns.refillDate'),
        meta: { cellClassName: 'whitespace-nowrap' },
        cell: ({ getValue }) => <time dateTime={getValue()}>{formatDate(`${getValue()}T00:00:00`)}</time>,
      }),
      column.accessor('status', { header: t('columns.status'), cell: ({ row }) => <StatusBadge reminder={row.original} /> }),
      column.display({
        id: 'sms',
        header: t('columns.sms'),
        cell: ({ row }) => <RefillSmsCell reminder={row.original} disabled={isDemo} />,
      }),
      column.display({
        id: 'actions',
        header: t('columns.actions'),
        cell: ({ row: { original: r } }) => (
          <div className="flex flex-wrap gap-2">
            <WhatsAppAction reminder={r} pharmacyName={pharmacyName} />
            <Button
              size="sm"
              variant="secondary"
              icon={<CheckCircle2 aria-hidden className="size-4" />}
              disabled={isDemo}
              loading={complete.isPending && complete.variables?.saleId === r.saleId && complete.variables.line === r.line}
              onClick={() =>
                complete.mutateAsync({ saleId: r.saleId, line: r.line }).then(
                  () => toast.success(t('completed', { client: r.client.name })),
                  (error: unknown) => toast.error(errorMessage(error)),
                )
              }
            >
              {t('actions.complete')}
            </Button>
          </div>
        ),
      }),
    ];
  }, [t, pharmacyName, isDemo, complete]);

  const exportCsv = async () => {
    setExporting(true);
    try {
      const rows: RefillReminder[] = [];
      for (let offset = 0; ; offset += 200) {
        const chunk = await fetchRefillReminders({ ...query, limit: 200, offset });
        rows.push(...chunk.items);
        if (rows.length >= chunk.total || chunk.items.length === 0) break;
      }
      downloadCsv(`refill-alerts-${data?.today ?? 'today'}.csv`, rows, [
        { header: t('columns.client'), value: (r) => r.client.name },
        { header: t('columns.phone'), value: (r) => r.client.phone },
        { header: t('columns.product'), value: (r) => r.productName },
        { header: t('columns.invoice'), value: (r) => r.invoiceNumber },
        { header: t('columns.branch'), value: (r) => r.branchName },
        { header: t('columns.saleDate'), value: (r) => r.saleDate },
        { header: t('columns.refillDate'), value: (r) => r.refillDate },
        { header: t('columns.daysLeft'), value: (r) => r.daysLeft },
        { header: t('columns.status'), value: (r) => t(`statusName.${r.status}`) },
      ]);
    } catch (error) {
      toast.error(errorMessage(error));
    } finally {
      setExporting(false);
    }
  };

  return (
    <div className="space-y-6">
      <PageHeader
        title={t('title')}
        description={t('description')}
        actions={
          <Button variant="outline" icon={<Download aria-hidden className="size-4" />} loading={exporting} disabled={!data || data.total === 0} onClick={() => void exportCsv()}>
            {t('exportCsv')}
          </Button>
        }
      />
      <Card flush>
        <div className="grid gap-3 border-b border-slate-100 p-4 sm:grid-cols-2 lg:grid-cols-3" role="group" aria-label={t('filters')}>
          <Field label={t('filterStatus')}>
            <Select value={due} onChange={(e) => update({ due: e.target.value === 'window' ? null : e.target.value, page: null })} options={REFILL_DUE_FILTERS.map((d) => ({ value: d, label: t(`due.${d}`) }))} />
          </Field>
          <Field label={t('branch')}>
            <Select
              value={branchId}
              placeholder={t('allBranches')}
              options={(me?.allowedBranches ?? []).map((b) => ({ value: b.id, label: b.name }))}
              onChange={(e) => update({ branchId: e.target.value || null, page: null })}
            />
          </Field>
          <Field label={t('search')}>
            <Input type="search" value={search} placeholder={t('searchPlaceholder')} onChange={(event) => setSearch(event.target.value)} />
          </Field>
        </div>
        {reminders.isPending ? (
          <LoadingState message={t('loading')} />
        ) : reminders.isError || !data ? (
          <div className="p-4">
            <ErrorState message={t('loadFailed')} onRetry={() => void reminders.refetch()} />
          </div>
        ) : (
          <DataTable
            caption={t('caption')}
            columns={columns}
            data={data.items}
            getRowId={(r) => `${r.saleId}:${r.line}`}
            rowProps={(r) => ({ 'data-refill': `${r.saleId}:${r.line}` })}
            empty={<EmptyState title={t('emptyTitle')} description={t('emptyDescription')} />}
            stateClassName="p-4"
            pagination={{ page, pageSize: REFILL_PAGE_SIZE, total: data.total, onPageChange: (p) => update({ page: String(p) }) }}
          />
        )}
      </Card>
      <AutoReminderCard canEdit={!isDemo && (can('settings:business') || can('settings:system'))} />
    </div>
  );
}
