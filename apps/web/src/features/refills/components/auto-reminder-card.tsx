import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { autoReminderSettingsSchema, type AutoReminderSettings } from '@pharmapoint/domain/refills';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Switch } from '@/components/ui/switch';
import { useAutoReminderSettings, useSaveAutoReminderSettings } from '@/features/refills/api/refills';
import { errorMessage } from '@/lib/api';
import { toast } from '@/lib/toast';
import '@/i18n/refills';

/** The opt-in automatic SMS reminder: on or off, days before the refill, quiet hours (the pharmacy's time zone). */
export function AutoReminderCard({ canEdit }: { canEdit: boolean }) {
  const { t } = useTranslation('refills');
  const current = useAutoReminderSettings();
  const save = useSaveAutoReminderSettings();
  const [form, setForm] = useState<AutoReminderSettings | null>(null);
  useEffect(() => {
    if (current.data) setForm(current.data);
  }, [current.data]);
  if (!form) return null;
  const parsed = autoReminderSettingsSchema.safeParse(form);
  const error = parsed.success ? undefined : parsed.error.issues[0]?.message;
  return (
    <Card title={t('auto.title')} headingLevel={2} description={t('auto.description')}>
      <form
        className="space-y-3"
        onSubmit={(event) => {
          event.preventDefault();
          if (!parsed.success) return;
          save.mutateAsync(parsed.data).then(
            () => toast.success(t('auto.saved')),
            (failure: unknown) => toast.error(errorMessage(failure)),
          );
        }}
      >
        <Switch label={t('auto.enabled')} checked={form.enabled} disabled={!canEdit} onCheckedChange={(enabled) => setForm({ ...form, enabled })} />
        <div className="grid gap-3 sm:grid-cols-3">
          <Field label={t('auto.daysBefore')}>
            <Input type="number" min={0} max={30} value={String(form.daysBefore)} disabled={!canEdit} onChange={(e) => setForm({ ...form, daysBefore: Number.parseInt(e.target.value, 10) || 0 })} />
          </Field>
          <Field label={t('auto.quietStart')}>
            <Input type="time" value={form.quietStart} disabled={!canEdit} onChange={(e) => setForm({ ...form, quietStart: e.target.value })} />
          </Field>
          <Field label={t('auto.quietEnd')}>
            <Input type="time" value={form.quietEnd} disabled={!canEdit} onChange={(e) => setForm({ ...form, quietEnd: e.target.value })} />
          </Field>
        </div>
        {error ? <p role="alert" className="text-sm text-red-700">{error}</p> : null}
        {canEdit ? (
          <Button type="submit" size="sm" loading={save.isPending} disabled={!parsed.success}>
            {t('auto.save')}
          </Button>
        ) : null}
      </form>
    </Card>
  );
}
