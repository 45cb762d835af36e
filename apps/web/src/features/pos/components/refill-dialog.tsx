import { lazy, Suspense, useEffect } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { refillDueDate } from '@pharmapoint/domain/sales';
import { REFILL_CLIENT_MESSAGE, refillFormSchema, DEFAULT_REFILL_FORM, type RefillFormValues } from '@pharmapoint/domain/till-dialogs';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { formatDate } from '@/lib/format';

/** Loaded when the dialog opens for a client: the till's first load stays within its budget. */
const ReminderConsentSwitch = lazy(() => import('@/components/reminder-consent-switch').then((m) => ({ default: m.ReminderConsentSwitch })));

export interface RefillReminderDialogProps {
  open: boolean;
  productName: string;
  /** The registered client; null is the Walk-in Customer (no reminder possible). */
  clientId: string | null;
  /** The days to start with (the line's; 30 when absent). */
  initialDays?: number;
  /** The line already has a reminder: Remove Reminder shows (when `onRemove` is given). Defaults to `initialDays` being set. */
  hasReminder?: boolean;
  onConfirm: (days: number) => void;
  onRemove?: () => void;
  onCancel: () => void;
  /** The sale date the due date counts from (YYYY-MM-DD); today when absent. */
  saleDate?: string;
}

function localToday(): string {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
}

/**
 * Set Refill Reminder (seed 001 section 5): whole days 1-365, 30 by default, for a registered client; the due date
 * (the sale date plus the days) is shown as the days are typed. The server stores it on the sale line.
 */
export function RefillReminderDialog({ open, productName, clientId, initialDays, hasReminder, onConfirm, onRemove, onCancel, saleDate }: RefillReminderDialogProps) {
  const { t } = useTranslation('posClients');
  const { register, handleSubmit, reset, control, formState } = useForm<RefillFormValues, unknown, { days: number }>({
    resolver: zodResolver(refillFormSchema),
    defaultValues: DEFAULT_REFILL_FORM,
  });
  useEffect(() => {
    if (open) reset(initialDays ? { days: String(initialDays) } : DEFAULT_REFILL_FORM);
  }, [open, initialDays, reset]);
  const typed = useWatch({ control, name: 'days' });
  const parsed = refillFormSchema.safeParse({ days: typed ?? '' });
  const due = parsed.success ? refillDueDate(saleDate ?? localToday(), parsed.data.days) : null;
  const noClient = !clientId;

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => (next ? undefined : onCancel())}
      title={t('refill.title')}
      description={t('refill.description', { product: productName })}
      size="sm"
      footer={
        <>
          {onRemove && (hasReminder ?? Boolean(initialDays)) ? (
            <Button variant="danger" onClick={onRemove} className="mr-auto">
              {t('refill.remove')}
            </Button>
          ) : null}
          <Button variant="outline" onClick={onCancel}>
            {t('common:actions.cancel')}
          </Button>
          <Button type="submit" form="pos-refill-form" disabled={noClient}>
            {t('refill.confirm')}
          </Button>
        </>
      }
    >
      <form id="pos-refill-form" onSubmit={(event) => void handleSubmit(({ days }) => onConfirm(days))(event)} noValidate className="space-y-3">
        {noClient ? (
          <p role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-700">
            {t('refill.clientRequired', { defaultValue: REFILL_CLIENT_MESSAGE })}
          </p>
        ) : null}
        <Field label={t('refill.days')} hint={t('refill.daysHint')} error={formState.errors.days?.message}>
          <Input type="number" inputMode="numeric" min={1} max={365} step={1} {...register('days')} disabled={noClient} />
        </Field>
        {due && !noClient ? (
          <p className="text-sm font-medium text-slate-700" aria-live="polite">
            {t('refill.due', { date: formatDate(due) })}
          </p>
        ) : null}
        {clientId ? (
          <Suspense fallback={null}>
            <ReminderConsentSwitch contactId={clientId} source="till" />
          </Suspense>
        ) : null}
      </form>
    </Dialog>
  );
}
