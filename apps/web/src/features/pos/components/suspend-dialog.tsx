import { useEffect, useId, useMemo, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import {
  DEFAULT_SUSPEND_REASON,
  SUSPEND_PAYMENT_METHODS,
  SUSPEND_REASON_MAX,
  SUSPEND_SUMMARY_ITEMS,
  suspendFormSchema,
  type SuspendFormOutput,
  type SuspendFormValues,
  type SuspendSaleInput,
  type SuspendedSale,
} from '@pharmapoint/domain/suspended-sales';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { applyServerErrors, LengthHint } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { Textarea } from '@/components/ui/textarea';
import { formatMoney } from '@/lib/format';
import { toast } from '@/lib/toast';
import { usePermissions } from '@/features/auth/hooks/use-permissions';
import { useSuspendSale } from '@/features/sales/api/suspended-sales';
import { newUuid } from '@/lib/idempotency';

export interface SuspendSaleDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The till's cart as a suspend request, without what the dialog asks for. */
  request: Omit<SuspendSaleInput, 'id' | 'reason' | 'paymentMethod' | 'amountPaidCents'>;
  totalCents: number;
  clientName: string;
  onSuspended: (sale: SuspendedSale) => void;
  /** Optional: the cart's names for the reservation summary (else the summary counts the lines). */
  items?: readonly { name: string; quantity: number }[];
}

/**
 * The Suspend and reserve stock modal of the till (seed 001 sections 2, 5 and 9; decision 0028): a reservation
 * summary (at most 3 items), the payment method (Cash, MPESA, Card, Bank Transfer, Credit), the amount paid (not above
 * the total) and the optional reason (at most 200 characters, default 'Customer requested suspension'). It POSTs
 * /api/suspended-sales with a UUID made when it opens, as the body's id and the Idempotency-Key: a double click or a
 * retry after a lost answer suspends once.
 */
export function SuspendSaleDialog({ open, onOpenChange, request, totalCents, clientName, onSuspended, items }: SuspendSaleDialogProps) {
  const { t } = useTranslation('suspended');
  const { isDemo } = usePermissions();
  const formId = useId();
  const suspend = useSuspendSale();
  const [suspensionId, setSuspensionId] = useState(newUuid);
  const [serverError, setServerError] = useState<string | null>(null);
  const schema = useMemo(() => suspendFormSchema(totalCents), [totalCents]);
  const { register, handleSubmit, control, setError, reset, formState } = useForm<SuspendFormValues, unknown, SuspendFormOutput>({
    resolver: zodResolver(schema),
    defaultValues: { paymentMethod: 'Cash', amountPaid: '', reason: '' },
  });
  const reason = useWatch({ control, name: 'reason' }) ?? '';
  const errors = formState.errors;

  // A new id and a fresh form every time the dialog opens (one suspension per opening, however often it is sent).
  useEffect(() => {
    if (!open) return;
    setSuspensionId(newUuid());
    setServerError(null);
    reset({ paymentMethod: 'Cash', amountPaid: '', reason: '' });
  }, [open, reset]);

  async function onValid(values: SuspendFormOutput) {
    if (isDemo) return;
    setServerError(null);
    try {
      const sale = await suspend.mutateAsync({ ...request, id: suspensionId, paymentMethod: values.paymentMethod, amountPaidCents: values.amountPaidCents, reason: values.reason });
      toast.success(t('dialog.success'));
      onOpenChange(false);
      onSuspended(sale);
    } catch (error) {
      const text = applyServerErrors(error, setError, (path) => (path === 'amountPaidCents' ? 'amountPaid' : path === 'reason' ? 'reason' : path === 'paymentMethod' ? 'paymentMethod' : null));
      setServerError(text);
      toast.error(t('dialog.failed', { message: text }));
    }
  }

  const lines = items ?? [];
  const shown = lines.slice(0, SUSPEND_SUMMARY_ITEMS);
  const more = (items ? lines.length : request.lines.length) - shown.length;

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!suspend.isPending) onOpenChange(next);
      }}
      title={t('dialog.title')}
      description={t('dialog.description', { client: clientName })}
      hideClose={suspend.isPending}
      footer={
        <>
          <Button variant="outline" onClick={() => onOpenChange(false)} disabled={suspend.isPending}>
            {t('dialog.cancel')}
          </Button>
          <Button type="submit" form={formId} loading={suspend.isPending} disabled={isDemo || request.lines.length === 0}>
            {t('dialog.submit')}
          </Button>
        </>
      }
    >
      <section aria-label={t('dialog.summary')} className="mb-4 rounded-md border border-slate-200 bg-slate-50 p-3 text-sm">
        <h3 className="mb-1 font-medium text-slate-900">{t('dialog.summary')}</h3>
        <ul className="space-y-0.5 text-slate-700">
          {shown.map((item, index) => (
            <li key={`${item.name}-${index}`} className="break-words">
              {t('dialog.quantity', { quantity: item.quantity, name: item.name })}
            </li>
          ))}
          {more > 0 ? <li className="text-slate-500">{t('dialog.more', { count: more })}</li> : null}
        </ul>
        <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5">
          <dt className="text-slate-500">{t('dialog.client')}</dt>
          <dd className="break-words font-medium text-slate-900">{clientName}</dd>
          <dt className="text-slate-500">{t('dialog.total')}</dt>
          <dd className="font-medium tabular-nums text-slate-900">{formatMoney(totalCents)}</dd>
        </dl>
      </section>
      <form id={formId} noValidate onSubmit={(event) => void handleSubmit(onValid)(event)} className="grid gap-4 sm:grid-cols-2">
        <Field label={t('dialog.paymentMethod')} required error={errors.paymentMethod?.message}>
          <Select {...register('paymentMethod')} options={SUSPEND_PAYMENT_METHODS.map((m) => ({ value: m, label: m }))} />
        </Field>
        <Field label={t('dialog.amountPaid')} hint={t('dialog.amountPaidHint', { total: formatMoney(totalCents) })} error={errors.amountPaid?.message}>
          <Input inputMode="decimal" autoComplete="off" placeholder="0.00" {...register('amountPaid')} />
        </Field>
        <Field
          label={t('dialog.reason')}
          className="sm:col-span-2"
          hint={<LengthHint length={reason.length} max={SUSPEND_REASON_MAX} />}
          error={errors.reason?.message}
        >
          <Textarea rows={2} maxLength={SUSPEND_REASON_MAX} placeholder={DEFAULT_SUSPEND_REASON} {...register('reason')} />
        </Field>
        {serverError ? (
          <p role="alert" className="text-sm font-medium text-red-600 sm:col-span-2">
            {serverError}
          </p>
        ) : null}
      </form>
    </Dialog>
  );
}
