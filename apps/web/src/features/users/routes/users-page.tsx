import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { UserPlus } from 'lucide-react';
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
import { usePermissions } from '@/features/auth/hooks/use-permissions';
import { useBranches } from '@/features/branches/api/branches';
import { useMembers, useResendInvite, useUpdateMember, type Member } from '@/features/users/api/users';
import { MemberDialog } from '@/features/users/components/member-dialog';

type DialogState = { mode: 'invite' } | { mode: 'edit'; member: Member } | null;

function statusOf(member: Member): 'active' | 'invited' | 'deactivated' {
  if (!member.isActive) return 'deactivated';
  return member.invitePending ? 'invited' : 'active';
}

const STATUS_TONE = { active: 'success', invited: 'info', deactivated: 'neutral' } as const;

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
  const branchName = new Map((branches.data ?? []).map((branch) => [branch.id, branch.name]));

  async function setActive(member: Member, isActive: boolean) {
    try {
      await update.mutateAsync({ id: member.id, patch: { isActive } });
      toast.success(t(isActive ? 'reactivated' : 'deactivated', { name: member.name }));
    } catch (error) {
      toast.error(errorMessage(error));
    }
  }

  async function resendInvite(member: Member) {
    try {
      const result = await resend.mutateAsync(member.id);
      toast.success(result.message);
    } catch (error) {
      toast.error(errorMessage(error));
    }
  }

  let body;
  if (members.isPending) body = <LoadingState />;
  else if (members.isError) body = <ErrorState message={`${t('loadFailed')} ${errorMessage(members.error)}`} onRetry={() => void members.refetch()} />;
  else if (members.data.length === 0) body = <EmptyState title={t('empty')} />;
  else {
    body = (
      <Card flush>
        <Table caption={t('caption')}>
          <THead>
            <Tr>
              <Th>{t('columns.name')}</Th>
              <Th>{t('columns.role')}</Th>
              <Th>{t('columns.branches')}</Th>
              <Th>{t('columns.pos')}</Th>
              <Th>{t('columns.status')}</Th>
              <Th className="text-right">{t('columns.actions')}</Th>
            </Tr>
          </THead>
          <TBody>
            {members.data.map((member) => {
              const status = statusOf(member);
              const self = member.id === me?.user.id;
              return (
                <Tr key={member.id}>
                  <Th scope="row" className="font-normal">
                    <span className="block font-medium text-slate-900">
                      {member.name} {self ? <span className="text-slate-500">{t('you')}</span> : null}
                    </span>
                    <span className="block text-xs text-slate-500">{member.email}</span>
                  </Th>
                  <Td>
                    <span className="flex flex-wrap items-center gap-1">
                      {member.isOwner ? t('owner') : t(`roles.${member.role}`, { defaultValue: member.role })}
                      {member.permissions ? <Badge tone="warning">{t('customPermissions')}</Badge> : null}
                    </span>
                  </Td>
                  <Td>
                    {member.allowedBranchIds === null
                      ? t('allBranches')
                      : member.allowedBranchIds.map((id) => branchName.get(id) ?? id).join(', ')}
                  </Td>
                  <Td>{member.isOwner || member.hasPosAccess ? t('yes') : t('no')}</Td>
                  <Td>
                    <Badge tone={STATUS_TONE[status]}>{t(`status.${status}`)}</Badge>
                  </Td>
                  <Td>
                    <div className="flex flex-wrap justify-end gap-2">
                      {canEdit && (!member.isOwner || me?.membership?.isOwner) ? (
                        <Button variant="outline" size="sm" aria-label={t('actions.editNamed', { name: member.name })} onClick={() => setDialog({ mode: 'edit', member })}>
                          {t('actions.edit')}
                        </Button>
                      ) : null}
                      {canInvite && member.invitePending && member.isActive ? (
                        <Button
                          variant="outline"
                          size="sm"
                          aria-label={t('actions.resendNamed', { name: member.name })}
                          disabled={resend.isPending}
                          onClick={() => void resendInvite(member)}
                        >
                          {t('actions.resend')}
                        </Button>
                      ) : null}
                      {canDeactivate && !member.isOwner && !self ? (
                        member.isActive ? (
                          <Button variant="ghost" size="sm" aria-label={t('actions.deactivateNamed', { name: member.name })} onClick={() => setDeactivating(member)}>
                            {t('actions.deactivate')}
                          </Button>
                        ) : (
                          <Button
                            variant="ghost"
                            size="sm"
                            aria-label={t('actions.reactivateNamed', { name: member.name })}
                            disabled={update.isPending}
                            onClick={() => void setActive(member, true)}
                          >
                            {t('actions.reactivate')}
                          </Button>
                        )
                      ) : null}
                    </div>
                  </Td>
                </Tr>
              );
            })}
          </TBody>
        </Table>
      </Card>
    );
  }

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
