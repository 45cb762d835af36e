import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { UserPlus } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { DataTable, dataTableColumns } from '@/components/ui/data-table';
import { EmptyState } from '@/components/ui/empty-state';
import { PageHeader } from '@/components/ui/page-header';
import { errorMessage } from '@/lib/api';
import { toast } from '@/lib/toast';
import { usePermissions } from '@/features/auth/hooks/use-permissions';
import { useBranches } from '@/features/branches/api/branches';
import { useMembers, useResendInvite, useUpdateMember, type Member } from '@/features/users/api/users';
import { MemberDialog } from '@/features/users/components/member-dialog';
import '@/features/users/users-catalogue';

type DialogState = { mode: 'invite' } | { mode: 'edit'; member: Member } | null;

const STATUS_TONE = { active: 'success', invited: 'info', declined: 'warning', deactivated: 'neutral' } as const;

export default function UsersPage() {
  const { t } = useTranslation('users');
  const { me, can } = usePermissions();
  const members = useMembers();
  const branches = useBranches();
  const update = useUpdateMember();
  const resend = useResendInvite();
  const [dialog, setDialog] = useState<DialogState>(null);
  const [deactivating, setDeactivating] = useState<Member | null>(null);
  const canInvite = can('user:create');
  const canEdit = can('user:update');
  const canDeactivate = canEdit && can('user:delete');
  const branchName = useMemo(() => new Map((branches.data ?? []).map((branch) => [branch.id, branch.name])), [branches.data]);

  const { mutateAsync: updateMember } = update;
  const { mutateAsync: resendMember } = resend;
  const setActive = useCallback(
    async (member: Member, isActive: boolean) => {
      try {
        await updateMember({ id: member.id, patch: { isActive } });
        toast.success(t(isActive ? 'reactivated' : 'deactivated', { name: member.name }));
      } catch (error) {
        toast.error(errorMessage(error));
      }
    },
    [updateMember, t],
  );

  const resendInvite = useCallback(
    async (member: Member) => {
      try {
        const result = await resendMember(member.id);
        toast.success(result.message);
      } catch (error) {
        toast.error(errorMessage(error));
      }
    },
    [resendMember],
  );

  const selfId = me?.user.id;
  const updatePending = update.isPending;
  const resendPending = resend.isPending;
  const columns = useMemo(() => {
    const column = dataTableColumns<Member>();
    return [
      column.accessor('name', {
        header: t('columns.name'),
        meta: { rowHeader: true, cellClassName: 'font-normal' },
        cell: ({ row: { original: member } }) => (
          <>
            <span className="block font-medium text-slate-900">
              {member.name} {member.id === selfId ? <span className="text-slate-500">{t('you')}</span> : null}
            </span>
            <span className="block text-xs text-slate-500">{member.email}</span>
          </>
        ),
      }),
      column.display({
        id: 'role',
        header: t('columns.role'),
        cell: ({ row: { original: member } }) => (
          <span className="flex flex-wrap items-center gap-1">
            {member.isOwner ? t('owner') : t(`roles.${member.role}`, { defaultValue: member.role })}
            {member.permissions ? <Badge tone="warning">{t('customPermissions')}</Badge> : null}
          </span>
        ),
      }),
      column.display({
        id: 'branches',
        header: t('columns.branches'),
        cell: ({ row: { original: member } }) =>
          member.allowedBranchIds === null ? t('allBranches') : member.allowedBranchIds.map((id) => branchName.get(id) ?? id).join(', '),
      }),
      column.display({ id: 'pos', header: t('columns.pos'), cell: ({ row: { original: member } }) => (member.isOwner || member.hasPosAccess ? t('yes') : t('no')) }),
      column.display({
        id: 'status',
        header: t('columns.status'),
        cell: ({ row }) => {
          const status = row.original.status;
          return <Badge tone={STATUS_TONE[status]}>{t(`status.${status}`)}</Badge>;
        },
      }),
      column.display({
        id: 'actions',
        header: t('columns.actions'),
        meta: { headerClassName: 'text-right' },
        cell: ({ row: { original: member } }) => {
          const self = member.id === selfId;
          return (
            <div className="flex flex-wrap justify-end gap-2">
              {canEdit && !member.isOwner && member.status !== 'declined' ? (
                <Button variant="outline" size="sm" aria-label={t('actions.editNamed', { name: member.name })} onClick={() => setDialog({ mode: 'edit', member })}>
                  {t('actions.edit')}
                </Button>
              ) : null}
              {canInvite && member.invitePending && (member.isActive || member.status === 'declined') ? (
                <Button variant="outline" size="sm" aria-label={t('actions.resendNamed', { name: member.name })} disabled={resendPending} onClick={() => void resendInvite(member)}>
                  {t('actions.resend')}
                </Button>
              ) : null}
              {canDeactivate && !member.isOwner && !self && member.status !== 'declined' ? (
                member.isActive ? (
                  <Button variant="ghost" size="sm" aria-label={t('actions.deactivateNamed', { name: member.name })} onClick={() => setDeactivating(member)}>
                    {t('actions.deactivate')}
                  </Button>
                ) : (
                  <Button variant="ghost" size="sm" aria-label={t('actions.reactivateNamed', { name: member.name })} disabled={updatePending} onClick={() => void setActive(member, true)}>
                    {t('actions.reactivate')}
                  </Button>
                )
              ) : null}
            </div>
          );
        },
      }),
    ];
  }, [t, selfId, branchName, canEdit, canInvite, canDeactivate, resendPending, updatePending, resendInvite, setActive]);

  const body = (
    <DataTable
      framed
      caption={t('caption')}
      columns={columns}
      data={members.data}
      getRowId={(member) => member.id}
      isLoading={members.isPending}
      error={members.isError ? `${t('loadFailed')} ${errorMessage(members.error)}` : undefined}
      onRetry={() => void members.refetch()}
      empty={<EmptyState title={t('empty')} />}
    />
  );

  return (
    <div>
      <PageHeader
        title={t('title')}
        description={t('description')}
        actions={
          canInvite ? (
            <Button icon={<UserPlus className="size-4" aria-hidden="true" />} onClick={() => setDialog({ mode: 'invite' })}>
              {t('invite')}
            </Button>
          ) : null
        }
      />
      {body}
      {dialog ? (
        <MemberDialog
          key={dialog.mode === 'edit' ? dialog.member.id : 'invite'}
          open
          onOpenChange={(open) => (open ? undefined : setDialog(null))}
          member={dialog.mode === 'edit' ? dialog.member : null}
          branches={branches.data ?? []}
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
          await setActive(deactivating, false);
          setDeactivating(null);
        }}
      />
    </div>
  );
}
