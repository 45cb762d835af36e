import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { UsersRound } from 'lucide-react';
import { LEAD_STATUSES, type DemoRegistration, type Lead, type LeadStatus } from '@pharmapoint/domain/demo';
import { PageHeader } from '@/components/ui/page-header';
import { DataTable, dataTableColumns } from '@/components/ui/data-table';
import { EmptyState } from '@/components/ui/empty-state';
import { StatCard } from '@/components/ui/stat-card';
import { Tabs } from '@/components/ui/tabs';
import { Badge } from '@/components/ui/badge';
import { Select } from '@/components/ui/select';
import { errorMessage } from '@/lib/api';
import { formatDate, formatDateTime, formatNumber } from '@/lib/format';
import { toast } from '@/lib/toast';
import { useDemos, useUpdateLead } from '@/features/admin/api/admin';
import '@/features/admin/admin-catalogue';

/**
 * Demo users (seed 002 section 2, admin demos; issue 11 item 8): every demo registration with its verification and
 * access counts, and the leads with their follow-up status, which the operator changes here.
 */
export default function DemosPage() {
  const { t } = useTranslation('admin');
  const demos = useDemos();
  const updateLead = useUpdateLead();
  const [tab, setTab] = useState('registrations');
  const registrations = demos.data?.registrations;
  const leads = demos.data?.leads;

  const registrationColumns = useMemo(() => {
    const column = dataTableColumns<DemoRegistration>();
    return [
      column.display({
        id: 'name',
        header: t('demos.person'),
        meta: { rowHeader: true },
        cell: ({ row: { original: r } }) => (
          <>
            <span className="font-medium text-slate-900">{r.name}</span>
            <span className="block text-xs text-slate-500">{r.email}</span>
            <span className="block text-xs text-slate-500">{r.phone}</span>
          </>
        ),
      }),
      column.display({ id: 'pharmacy', header: t('demos.pharmacyName'), cell: ({ row }) => row.original.pharmacyName ?? '—' }),
      column.display({
        id: 'verified',
        header: t('demos.verified'),
        cell: ({ row: { original: r } }) => (r.emailVerified ? <Badge tone="success">{t('demos.yes')}</Badge> : <Badge tone="warning">{t('demos.notYet')}</Badge>),
      }),
      column.display({ id: 'accessCount', header: t('demos.accessCount'), meta: { numeric: true }, cell: ({ row }) => formatNumber(row.original.accessCount) }),
      column.display({ id: 'lastAccess', header: t('demos.lastAccess'), meta: { cellClassName: 'whitespace-nowrap' }, cell: ({ row }) => formatDateTime(row.original.lastAccessAt) }),
      column.display({ id: 'registered', header: t('demos.registered'), meta: { cellClassName: 'whitespace-nowrap' }, cell: ({ row }) => formatDate(row.original.registeredAt) }),
    ];
  }, [t]);

  const leadColumns = useMemo(() => {
    const column = dataTableColumns<Lead>();
    return [
      column.display({
        id: 'name',
        header: t('demos.person'),
        meta: { rowHeader: true },
        cell: ({ row: { original: l } }) => (
          <>
            <span className="font-medium text-slate-900">{l.name}</span>
            <span className="block text-xs text-slate-500">{l.email}</span>
            <span className="block text-xs text-slate-500">{l.phone}</span>
          </>
        ),
      }),
      column.display({ id: 'pharmacy', header: t('demos.pharmacyName'), cell: ({ row }) => row.original.pharmacyName ?? '—' }),
      column.display({
        id: 'progress',
        header: t('demos.progress'),
        cell: ({ row: { original: l } }) => (
          <div className="flex flex-wrap gap-1">
            <Badge tone={l.emailVerified ? 'success' : 'neutral'}>{l.emailVerified ? t('demos.verifiedBadge') : t('demos.unverifiedBadge')}</Badge>
            {l.demoAccessed ? <Badge tone="info">{t('demos.accessedBadge')}</Badge> : null}
            {l.followUpRequired ? <Badge tone="warning">{t('demos.followUp')}</Badge> : null}
          </div>
        ),
      }),
      column.display({
        id: 'status',
        header: t('demos.leadStatus'),
        cell: ({ row: { original: l } }) => (
          <Select
            aria-label={t('demos.leadStatusLabel', { name: l.name })}
            value={l.leadStatus}
            options={LEAD_STATUSES.map((s) => ({ value: s, label: t(`demos.statuses.${s}`) }))}
            onChange={(event) =>
              void updateLead
                .mutateAsync({ id: l.id, patch: { leadStatus: event.target.value as LeadStatus } })
                .then(() => toast.success(t('demos.leadSaved', { name: l.name })))
                .catch((error: unknown) => toast.error(errorMessage(error)))
            }
          />
        ),
      }),
      column.display({ id: 'created', header: t('demos.registered'), meta: { cellClassName: 'whitespace-nowrap' }, cell: ({ row }) => formatDate(row.original.createdAt) }),
    ];
  }, [t, updateLead]);

  const total = registrations?.length ?? 0;
  const verified = registrations?.filter((r) => r.emailVerified).length ?? 0;
  const entered = registrations?.filter((r) => r.accessCount > 0).length ?? 0;
  const open = leads?.filter((l) => l.followUpRequired).length ?? 0;
  const table = (kind: 'registrations' | 'leads') =>
    kind === 'registrations' ? (
      <DataTable
        caption={t('demos.registrationsCaption')}
        columns={registrationColumns}
        data={registrations}
        getRowId={(r) => r.id}
        isLoading={demos.isPending}
        error={demos.isError ? errorMessage(demos.error) : undefined}
        onRetry={() => void demos.refetch()}
        empty={<EmptyState icon={<UsersRound className="size-8" />} title={t('demos.empty')} description={t('demos.emptyBody')} />}
        pagination={{ pageSize: 25 }}
        framed
      />
    ) : (
      <DataTable
        caption={t('demos.leadsCaption')}
        columns={leadColumns}
        data={leads}
        getRowId={(l) => l.id}
        isLoading={demos.isPending}
        error={demos.isError ? errorMessage(demos.error) : undefined}
        onRetry={() => void demos.refetch()}
        empty={<EmptyState icon={<UsersRound className="size-8" />} title={t('demos.noLeads')} description={t('demos.emptyBody')} />}
        pagination={{ pageSize: 25 }}
        framed
      />
    );

  return (
    <div className="min-w-0 space-y-4">
      <PageHeader title={t('demos.title')} description={t('demos.description')} />
      <div className="grid grid-cols-2 gap-3 md:grid-cols-4">
        <StatCard label={t('demos.total')} value={formatNumber(total)} />
        <StatCard label={t('demos.verified')} value={formatNumber(verified)} tone="positive" />
        <StatCard label={t('demos.entered')} value={formatNumber(entered)} tone="primary" />
        <StatCard label={t('demos.openFollowUps')} value={formatNumber(open)} tone="warning" />
      </div>
      <Tabs
        label={t('demos.tabsLabel')}
        value={tab}
        onValueChange={setTab}
        items={[
          { id: 'registrations', label: t('demos.registrations'), content: table('registrations') },
          { id: 'leads', label: t('demos.leads'), content: table('leads') },
        ]}
      />
    </div>
  );
}
