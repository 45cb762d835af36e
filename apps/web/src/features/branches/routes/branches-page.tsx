import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Plus } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { DataTable, dataTableColumns } from '@/components/ui/data-table';
import { EmptyState } from '@/components/ui/empty-state';
import { PageHeader } from '@/components/ui/page-header';
import { errorMessage } from '@/lib/api';
import { toast } from '@/lib/toast';
import { useBranches, useUpdateBranch, type Branch, type BranchPatch } from '@/features/branches/api/branches';
import { BranchDialog } from '@/features/branches/components/branch-dialog';
import '@/features/branches/branches-catalogue';

type DialogState = { mode: 'add' } | { mode: 'edit'; branch: Branch } | null;

export default function BranchesPage() {
  const { t } = useTranslation('branches');
  const query = useBranches();
  const update = useUpdateBranch();
  const [dialog, setDialog] = useState<DialogState>(null);
  const [deactivating, setDeactivating] = useState<Branch | null>(null);

  const { mutateAsync: updateBranch } = update;
  const patch = useCallback(
    async (branch: Branch, change: BranchPatch, message: string) => {
      try {
        await updateBranch({ id: branch.id, patch: change });
        toast.success(message);
        return true;
      } catch (error) {
        toast.error(errorMessage(error));
        return false;
      }
    },
    [updateBranch],
  );

  const header = (
    <PageHeader
      title={t('title')}
      description={t('description')}
      actions={
        <Button icon={<Plus className="size-4" aria-hidden="true" />} onClick={() => setDialog({ mode: 'add' })}>
          {t('add')}
        </Button>
      }
    />
  );

  const updatePending = update.isPending;
  const columns = useMemo(() => {
    const column = dataTableColumns<Branch>();
    return [
      column.accessor('name', { header: t('columns.name'), meta: { rowHeader: true, cellClassName: 'font-medium text-slate-900' } }),
      column.accessor('address', { header: t('columns.address'), cell: ({ getValue }) => getValue() || t('notSet') }),
      column.accessor('phone', { header: t('columns.phone'), cell: ({ getValue }) => getValue() || t('notSet') }),
      column.accessor('isDefault', { header: t('columns.default'), cell: ({ getValue }) => (getValue() ? <Badge tone="primary">{t('defaultBadge')}</Badge> : null) }),
      column.accessor('isActive', {
        header: t('columns.status'),
        cell: ({ getValue }) => (getValue() ? <Badge tone="success">{t('active')}</Badge> : <Badge tone="neutral">{t('inactive')}</Badge>),
      }),
      column.display({
        id: 'actions',
        header: t('columns.actions'),
        meta: { headerClassName: 'text-right' },
        cell: ({ row: { original: branch } }) => (
          <div className="flex flex-wrap justify-end gap-2">
            <Button variant="outline" size="sm" aria-label={t('actions.editNamed', { name: branch.name })} onClick={() => setDialog({ mode: 'edit', branch })}>
              {t('actions.edit')}
            </Button>
            {branch.isActive && !branch.isDefault ? (
              <Button
                variant="outline"
                size="sm"
                aria-label={t('actions.setDefaultNamed', { name: branch.name })}
                disabled={updatePending}
                onClick={() => void patch(branch, { isDefault: true }, t('defaultSet', { name: branch.name }))}
              >
                {t('actions.setDefault')}
              </Button>
            ) : null}
            {branch.isActive ? (
              <Button variant="ghost" size="sm" aria-label={t('actions.deactivateNamed', { name: branch.name })} onClick={() => setDeactivating(branch)}>
                {t('actions.deactivate')}
              </Button>
            ) : (
              <Button
                variant="ghost"
                size="sm"
                aria-label={t('actions.reactivateNamed', { name: branch.name })}
                disabled={updatePending}
                onClick={() => void patch(branch, { isActive: true }, t('reactivated', { name: branch.name }))}
              >
                {t('actions.reactivate')}
              </Button>
            )}
          </div>
        ),
      }),
    ];
  }, [t, updatePending, patch]);

  const body = (
    <DataTable
      framed
      caption={t('caption')}
      columns={columns}
      data={query.data}
      getRowId={(branch) => branch.id}
      isLoading={query.isPending}
      error={query.isError ? `${t('loadFailed')} ${errorMessage(query.error)}` : undefined}
      onRetry={() => void query.refetch()}
      empty={<EmptyState title={t('empty')} />}
    />
  );

  return (
    <div>
      {header}
      {body}
      {dialog ? (
        <BranchDialog
          key={dialog.mode === 'edit' ? dialog.branch.id : 'new'}
          open
          onOpenChange={(open) => (open ? undefined : setDialog(null))}
          branch={dialog.mode === 'edit' ? dialog.branch : null}
        />
      ) : null}
      <ConfirmDialog
        open={deactivating !== null}
        onOpenChange={(open) => (open ? undefined : setDeactivating(null))}
        title={t('confirmDeactivate.title', { name: deactivating?.name ?? '' })}
        description={t('confirmDeactivate.description')}
        confirmLabel={t('actions.deactivate')}
        destructive
        loading={update.isPending}
        onConfirm={async () => {
          if (!deactivating) return;
          await patch(deactivating, { isActive: false }, t('deactivated', { name: deactivating.name }));
          setDeactivating(null);
        }}
      />
    </div>
  );
}
