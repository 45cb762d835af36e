import { useTranslation } from 'react-i18next';
import { MessageSquare } from 'lucide-react';
import { smsStateLabel, type RefillReminder } from '@pharmapoint/domain/refills';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { useSendRefillSms } from '@/features/refills/api/refills';
import { errorMessage } from '@/lib/api';
import { formatDateTime } from '@/lib/format';
import { toast } from '@/lib/toast';
import '@/i18n/refills';

const TONES: Record<ReturnType<typeof smsStateLabel>, BadgeTone> = {
  Queued: 'neutral',
  Sending: 'neutral',
  Sent: 'info',
  'Pending delivery': 'info',
  Delivered: 'success',
  Failed: 'danger',
  Rejected: 'danger',
};

/** The alert's SMS reminder: the latest message's state (delivery report, message id) and Send SMS. */
export function RefillSmsCell({ reminder, disabled }: { reminder: RefillReminder; disabled?: boolean }) {
  const { t } = useTranslation('refills');
  const send = useSendRefillSms();
  const sms = reminder.sms ?? null;
  const blocked = reminder.client.smsOptedOut ? t('sms.optedOut') : reminder.client.reminderConsent === false ? t('sms.noConsent') : null;
  const label = sms ? smsStateLabel(sms) : null;
  return (
    <div className="min-w-36 space-y-1">
      {sms && label ? (
        <div className="text-xs text-slate-600">
          <Badge tone={TONES[label]} aria-label={t('sms.stateLabel', { state: t(`sms.state.${label}`) })}>
            {t(`sms.state.${label}`)}
          </Badge>
          <div className="mt-1">
            {formatDateTime(sms.deliveredAt ?? sms.sentAt ?? sms.createdAt)}
            {sms.failureReason ? ` · ${sms.failureReason}` : ''}
          </div>
          {sms.messageId ? <div className="break-all">{t('sms.messageId', { id: sms.messageId })}</div> : null}
        </div>
      ) : null}
      {blocked ? <div className="text-xs text-amber-800">{blocked}</div> : null}
      <Button
        size="sm"
        variant="outline"
        icon={<MessageSquare aria-hidden className="size-4" />}
        disabled={disabled || Boolean(blocked)}
        loading={send.isPending}
        onClick={() =>
          // Awaited rather than per-call callbacks: the list's refresh may re-render the row before they would run.
          send.mutateAsync({ saleId: reminder.saleId, line: reminder.line, key: crypto.randomUUID() }).then(
            () => toast.success(t('sms.queued', { client: reminder.client.name })),
            (error: unknown) => toast.error(errorMessage(error)),
          )
        }
      >
        {t('actions.sms')}
      </Button>
    </div>
  );
}
