import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Plus } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorState } from '@/components/ui/error-state';
import { LoadingState } from '@/components/ui/loading-state';
import { PageHeader } from '@/components/ui/page-header';
import { Table, TBody, Td, Th, THead, Tr } from '@/components/ui/table';
import { errorMessage } from '@/lib/api';
import { toast } from '@/lib/toast';
import { useBranches, useUpdateBranch, type Branch, type BranchPatch } from '@/features/branches/api/branches';
import { BranchDialog } from '@/features/branches/components/branch-dialog';

type DialogState = { mode: 'add' } | { mode: 'edit'; branch: Branch } | null;

export default function BranchesPage() {
  const { t } = useTranslation('branches');
  const query = useBranches();
  const update = useUpdateBranch();
  const [dialog, setDialog] = useState<DialogState>(null);
  const [deactivating, setDeactivating] = useState<Branch | null>(null);

  async function patch(branch: Branch, change: BranchPatch, message: string) {
    try {
      await update.mutateAsync({ id: branch.id, patch: change });
      toast.success(message);
      return true;
    } catch (error) {
      toast.error(errorMessage(error));
      return false;
    }
  }

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

  let body;
  if (query.isPending) body = <LoadingState />;
  else if (query.isError) body = <ErrorState message={`${t('loadFailed')} ${errorMessage(query.error)}`} onRetry={() => void query.refetch()} />;
  else if (query.data.length === 0) body = <EmptyState title={t('empty')} />;
  else {
    body = (
      <Card flush>
        <Table caption={t('caption')}>
          <THead>
            <Tr>
              <Th>{t('columns.name')}</Th>
              <Th>{t('columns.address')}</Th>
              <Th>{t('columns.phone')}</Th>
              <Th>{t('columns.default')}</Th>
              <Th>{t('columns.status')}</Th>
              <Th className="text-right">{t('columns.actions')}</Th>
            </Tr>
          </THead>
          <TBody>
            {query.data.map((branch) => (
              <Tr key={branch.id}>
                <Th scope="row" className="font-medium text-slate-900">
                  {branch.name}
                </Th>
                <Td>{branch.address || t('notSet')}</Td>
                <Td>{branch.phone || t('notSet')}</Td>
                <Td>{branch.isDefault ? <Badge tone="primary">{t('defaultBadge')}</Badge> : null}</Td>
                <Td>{branch.isActive ? <Badge tone="success">{t('active')}</Badge> : <Badge tone="neutral">{t('inactive')}</Badge>}</Td>
                <Td>
                  <div className="flex flex-wrap justify-end gap-2">
                    <Button variant="outline" size="sm" aria-label={t('actions.editNamed', { name: branch.name })} onClick={() => setDialog({ mode: 'edit', branch })}>
                      {t('actions.edit')}
                    </Button>
                    {branch.isActive && !branch.isDefault ? (
                      <Button
                        variant="outline"
                        size="sm"
                        aria-label={t('actions.setDefaultNamed', { name: branch.name })}
                        disabled={update.isPending}
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
                        disabled={update.isPending}
                        onClick={() => void patch(branch, { isActive: true }, t('reactivated', { name: branch.name }))}
                      >
                        {t('actions.reactivate')}
                      </Button>
                    )}
                  </div>
                </Td>
              </Tr>
            ))}
          </TBody>
        </Table>
      </Card>
    );
  }

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
