import { useTranslation } from 'react-i18next';
import { MailPlus } from 'lucide-react';
import type { MyInvitation } from '@pharmapoint/domain/memberships';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { useAnswerInvitation } from '@/features/auth/api/memberships';
import { errorMessage } from '@/lib/api';
import { formatDateTime } from '@/lib/format';
import { toast } from '@/lib/toast';

export interface PendingInvitationsProps {
  invitations: readonly MyInvitation[];
  /** After an accepted invitation (the chooser opens the pharmacy at once). */
  onAccepted?: (pharmacy: { id: string; name: string }) => void;
}

/** The invitations waiting for the signed-in person's answer, each with Accept and Decline (decision 0015). */
export function PendingInvitations({ invitations, onAccepted }: PendingInvitationsProps) {
  const { t } = useTranslation('auth');
  const answer = useAnswerInvitation();
  if (invitations.length === 0) return null;

  async function respond(invitation: MyInvitation, accept: boolean) {
    try {
      const result = await answer.mutateAsync({ pharmacyId: invitation.pharmacyId, accept });
      toast.success(result.message);
      if (accept) onAccepted?.(result.pharmacy);
    } catch (error) {
      toast.error(errorMessage(error));
    }
  }

  return (
    <Card title={t('invitations.title')} description={t('invitations.description')}>
      <ul className="divide-y divide-slate-100" aria-label={t('invitations.title')}>
        {invitations.map((invitation) => (
          <li key={invitation.pharmacyId} className="flex flex-wrap items-center justify-between gap-3 py-3">
            <div className="flex min-w-0 items-start gap-2">
              <MailPlus className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden="true" />
              <div className="min-w-0">
                <p className="font-medium text-slate-900">{invitation.pharmacyName}</p>
                <p className="text-xs text-slate-500">
                  {t('invitations.as', { role: t(`shell:roles.${invitation.role}`, { defaultValue: invitation.role }) })} ·{' '}
                  {formatDateTime(invitation.invitedAt)}
                </p>
              </div>
            </div>
            <div className="flex gap-2">
              <Button
                size="sm"
                disabled={answer.isPending}
                aria-label={t('invitations.acceptNamed', { name: invitation.pharmacyName })}
                onClick={() => void respond(invitation, true)}
              >
                {t('invitations.accept')}
              </Button>
              <Button
                size="sm"
                variant="outline"
                disabled={answer.isPending}
                aria-label={t('invitations.declineNamed', { name: invitation.pharmacyName })}
                onClick={() => void respond(invitation, false)}
              >
                {t('invitations.decline')}
              </Button>
            </div>
          </li>
        ))}
      </ul>
    </Card>
  );
}
