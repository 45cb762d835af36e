import { useEffect, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { UserPlus } from 'lucide-react';
import { CONTACT_TYPES, type Contact, type ContactListQueryInput } from '@pharmapoint/domain/contacts';
import { Badge } from '@/components/ui/badge';
import { Button, buttonClasses } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { DataTable, dataTableColumns } from '@/components/ui/data-table';
import { EmptyState } from '@/components/ui/empty-state';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { PageHeader } from '@/components/ui/page-header';
import { Select } from '@/components/ui/select';
import { errorMessage } from '@/lib/api';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { useUrlFilters } from '@/lib/use-url-filters';
import { toast } from '@/lib/toast';
import { usePermissions } from '@/features/auth/hooks/use-permissions';
import { useContacts, useSaveContact } from '../api/contacts';
import { ContactFormDialog } from '../components/contact-form-dialog';
import { ExportContactsButton, ImportContactsButton } from '../components/contacts-csv';

const PAGE_SIZE = 50;
const TYPES = ['all', ...CONTACT_TYPES] as const;
const STATUSES = ['active', 'inactive', 'all'] as const;

/** The phone as people read it: +254 712 345 678. */
export function phoneText(phone: string | null): string {
  if (!phone) return '—';
  return phone.startsWith('254') && phone.length === 12 ? `+${phone.slice(0, 3)} ${phone.slice(3, 6)} ${phone.slice(6, 9)} ${phone.slice(9)}` : phone;
}

/** /app/contacts: customers, suppliers and other contacts; searched, filtered, paged on the server; add, edit, deactivate, CSV. */
export default function ContactsPage() {
  const { t } = useTranslation('contacts');
  const { can, isDemo } = usePermissions();
  const { params, update, clear } = useUrlFilters();
  const q = params.get('q') ?? '';
  const type = (TYPES as readonly string[]).includes(params.get('type') ?? '') ? (params.get('type') as (typeof TYPES)[number]) : 'all';
  const status = (STATUSES as readonly string[]).includes(params.get('status') ?? '') ? (params.get('status') as (typeof STATUSES)[number]) : 'active';
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
  const [search, setSearch] = useState(q);
  const [typed] = useDebouncedValue(search.trim(), 300);
  const latest = useRef({ q, update });
  latest.current = { q, update };
  useEffect(() => {
    if (typed === latest.current.q) return;
    latest.current.update({ q: typed || null, page: null });
  }, [typed]);

  const query: ContactListQueryInput = { type, status, search: q || undefined, limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE };
  const contacts = useContacts(query);
  const canCreate = (can('contact:create') || can('supplier:create')) && !isDemo;
  const canEdit = (can('contact:update') || can('supplier:update')) && !isDemo;
  const [editing, setEditing] = useState<Contact | null | 'new'>(null);
  const [deactivating, setDeactivating] = useState<Contact | null>(null);
  const save = useSaveContact();
  const filtersActive = Boolean(q || type !== 'all' || status !== 'active');

  const columns = useMemo(() => {
    const column = dataTableColumns<Contact>();
    return [
      column.accessor('name', {
        header: t('columns.name'),
        meta: { rowHeader: true, cellClassName: 'font-normal normal-case tracking-normal' },
        cell: ({ row: { original: c } }) => (
          <>
            <Link to={`/app/contacts/${c.id}`} className="font-medium text-slate-900 hover:text-primary hover:underline">
              {c.name}
            </Link>
            {!c.isActive ? <span className="ml-2 text-xs font-semibold text-slate-600">{t('list.inactive')}</span> : null}
            {c.email ? <span className="block text-xs text-slate-500">{c.email}</span> : null}
          </>
        ),
      }),
      column.accessor('type', { header: t('columns.type'), cell: ({ getValue }) => <Badge tone={getValue() === 'supplier' ? 'info' : getValue() === 'customer' ? 'primary' : 'neutral'}>{t(`types.${getValue()}`)}</Badge> }),
      column.accessor('phone', { header: t('columns.phone'), meta: { cellClassName: 'whitespace-nowrap text-slate-600' }, cell: ({ getValue }) => phoneText(getValue()) }),
      column.accessor('location', { header: t('columns.location'), meta: { cellClassName: 'text-slate-600' }, cell: ({ getValue }) => getValue() ?? '—' }),
      column.display({
        id: 'terms',
        header: t('columns.creditTerms'),
        meta: { cellClassName: 'text-slate-600' },
        cell: ({ row: { original: c } }) => (c.type === 'supplier' ? (c.creditPeriodDays != null ? t('list.days', { count: c.creditPeriodDays }) : t('list.defaultTerms')) : '—'),
      }),
      column.display({
        id: 'actions',
        header: t('columns.actions'),
        meta: { headerClassName: 'text-right' },
        cell: ({ row: { original: c } }) => (
          <div className="flex justify-end gap-1">
            <Link to={`/app/contacts/${c.id}`} className={buttonClasses('ghost', 'sm')} aria-label={t('list.viewOf', { name: c.name })}>
              {t('list.view')}
            </Link>
            {canEdit ? (
              <Button variant="outline" size="sm" aria-label={t('list.editOf', { name: c.name })} onClick={() => setEditing(c)}>
                {t('list.edit')}
              </Button>
            ) : null}
            {canEdit && c.isActive ? (
              <Button variant="ghost" size="sm" aria-label={t('list.deactivateOf', { name: c.name })} onClick={() => setDeactivating(c)}>
                {t('list.deactivate')}
              </Button>
            ) : null}
            {canEdit && !c.isActive ? (
              <Button
                variant="ghost"
                size="sm"
                aria-label={t('list.reactivateOf', { name: c.name })}
                onClick={async () => {
                  try {
                    await save.mutateAsync({ id: c.id, body: { isActive: true }, key: '' });
                    toast.success(t('list.reactivated', { name: c.name }));
                  } catch (error) {
                    toast.error(errorMessage(error));
                  }
                }}
              >
                {t('list.reactivate')}
              </Button>
            ) : null}
          </div>
        ),
      }),
    ];
  }, [t, canEdit, save]);

  return (
    <div>
      <PageHeader
        title={t('list.title')}
        description={t('list.description')}
        actions={
          <>
            <ExportContactsButton query={{ type, status, search: q || undefined }} />
            {canCreate ? <ImportContactsButton defaultType={type === 'all' ? 'customer' : type} /> : null}
            {canCreate ? (
              <Button icon={<UserPlus className="size-4" aria-hidden="true" />} onClick={() => setEditing('new')}>
                {t('list.add')}
              </Button>
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
        <Field label={t('list.type')}>
          <Select value={type} options={TYPES.map((value) => ({ value, label: t(`types.${value}`) }))} onChange={(event) => update({ type: event.target.value === 'all' ? null : event.target.value, page: null })} />
        </Field>
        <Field label={t('list.status')}>
          <Select value={status} options={STATUSES.map((value) => ({ value, label: t(`statuses.${value}`) }))} onChange={(event) => update({ status: event.target.value === 'active' ? null : event.target.value, page: null })} />
        </Field>
        {contacts.data ? (
          <p role="status" className="text-sm text-slate-600 sm:col-span-2 lg:col-span-4">
            {t('list.count', { count: contacts.data.total })}
          </p>
        ) : null}
      </form>
      <DataTable
        framed
        caption={t('list.caption')}
        columns={columns}
        data={contacts.data?.items}
        getRowId={(c) => c.id}
        isLoading={contacts.isPending}
        loadingMessage={t('list.loading')}
        error={contacts.isError ? `${t('list.loadFailed')} ${errorMessage(contacts.error)}` : undefined}
        onRetry={() => void contacts.refetch()}
        pagination={{ page, pageSize: PAGE_SIZE, total: contacts.data?.total ?? 0, onPageChange: (next) => update({ page: next > 1 ? String(next) : null }) }}
        empty={
          <EmptyState
            title={filtersActive ? t('list.noMatches') : t('list.empty')}
            action={
              filtersActive ? (
                <Button
                  variant="outline"
                  size="sm"
                  onClick={() => {
                    setSearch('');
                    clear();
                  }}
                >
                  {t('list.clearFilters')}
                </Button>
              ) : null
            }
          />
        }
      />
      <ContactFormDialog open={editing !== null} onOpenChange={(open) => (open ? undefined : setEditing(null))} contact={editing === 'new' ? null : editing} defaultType={type === 'all' ? 'customer' : type} />
      <ConfirmDialog
        open={deactivating !== null}
        onOpenChange={(open) => (open ? undefined : setDeactivating(null))}
        title={t('list.deactivateTitle', { name: deactivating?.name ?? '' })}
        description={t('list.deactivateText')}
        confirmLabel={t('list.deactivate')}
        destructive
        loading={save.isPending}
        onConfirm={async () => {
          if (!deactivating) return;
          try {
            await save.mutateAsync({ id: deactivating.id, body: { isActive: false }, key: '' });
            toast.success(t('list.deactivated', { name: deactivating.name }));
            setDeactivating(null);
          } catch (error) {
            toast.error(errorMessage(error));
          }
        }}
      />
    </div>
  );
}
