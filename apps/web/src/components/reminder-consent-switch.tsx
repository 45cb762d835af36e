import { useTranslation } from 'react-i18next';
import type { ReminderConsentInput } from '@pharmapoint/domain/refills';
import { Switch } from '@/components/ui/switch';
import { useReminderConsent, useSetReminderConsent } from '@/features/refills/api/refills';
import { errorMessage } from '@/lib/api';
import { toast } from '@/lib/toast';
import '@/i18n/refills';

/**
 * A client's consent to refill reminders (apart from any marketing consent): given or withdrawn where the client
 * asks (the till, the contact page). A number that replied STOP to the SMS provider is said.
 */
export function ReminderConsentSwitch({ contactId, source, disabled }: { contactId: string; source: ReminderConsentInput['source']; disabled?: boolean }) {
  const { t } = useTranslation('refills');
  const consent = useReminderConsent(contactId);
  const save = useSetReminderConsent();
  if (consent.isPending || consent.isError) return null;
  return (
    <div className="space-y-1">
      <Switch
        label={t('consent.label')}
        description={t('consent.description')}
        checked={consent.data.consent === true}
        disabled={disabled || save.isPending}
        onCheckedChange={(checked) =>
          save.mutate(
            { contactId, consent: checked, source },
            { onSuccess: () => toast.success(checked ? t('consent.given') : t('consent.withdrawn')), onError: (error) => toast.error(errorMessage(error)) },
          )
        }
      />
      {consent.data.smsOptedOut ? <p className="text-xs text-amber-800">{t('consent.optedOut')}</p> : null}
    </div>
  );
}
