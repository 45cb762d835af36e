import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import {
  TILL_MPESA_ATTENTION_TEXT,
  TILL_MPESA_RESOLUTION_LIMITS,
  tillMpesaResolveBody,
  tillMpesaResolveFormSchema,
  type TillMpesaRequest,
  type TillMpesaResolveForm,
} from '@pharmapoint/domain/till-mpesa';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { applyServerErrors } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { Textarea } from '@/components/ui/textarea';
import { formatDateTime, formatMoney } from '@/lib/format';
import { toast } from '@/lib/toast';
import { useResolveTillMpesa } from '@/features/sales/api/till-mpesa';
import { newUuid } from '@/lib/idempotency';

const EMPTY: TillMpesaResolveForm = { resolution: 'refunded', reference: '', invoiceNumber: '', note: '' };

/**
 * Reconciling one unmatched M-Pesa payment (decision 0068): refunded to the customer (the reversal's or refund's
 * reference and a note) or applied to a sale chosen by its invoice number (prefilled with the till's sale when it
 * exists; the sale is not changed). react-hook-form on the domain's schema; one Idempotency-Key per dialog, so a
 * retry after a lost answer records it once.
 */
export function ResolveMpesaDialog({ payment, onOpenChange }: { payment: TillMpesaRequest | null; onOpenChange: (open: boolean) => void }) {
  const { t } = useTranslation('sales');
  const resolve = useResolveTillMpesa();
  const [key, setKey] = useState(newUuid);
  const [formError, setFormError] = useState<string | null>(null);
  const { register, handleSubmit, watch, reset, setError, formState: { errors } } = useForm<TillMpesaResolveForm>({
    resolver: zodResolver(tillMpesaResolveFormSchema) as never,
    defaultValues: EMPTY,
  });
  const resolution = watch('resolution');

  // A new payment: a fresh form (the till's sale, if recorded, as the invoice to apply to) and a fresh key.
  useEffect(() => {
    if (!payment) return;
    reset({ ...EMPTY, invoiceNumber: payment.sale?.invoiceNumber ?? '' });
    setFormError(null);
    setKey(newUuid());
  }, [payment, reset]);

  const close = () => {
    if (resolve.isPending) return;
    onOpenChange(false);
  };

  const onSubmit = handleSubmit(async (form) => {
    if (!payment) return;
    setFormError(null);
    try {
      const { request } = await resolve.mutateAsync({ id: payment.id, key, body: tillMpesaResolveBody(form) });
      toast.success(
        request.resolution?.kind === 'applied'
          ? t('mpesa.resolve.appliedDone', { receipt: request.mpesaReceipt ?? '', invoice: request.resolution.sale?.invoiceNumber ?? '' })
          : t('mpesa.resolve.refundedDone', { receipt: request.mpesaReceipt ?? '' }),
      );
      onOpenChange(false);
    } catch (error) {
      setFormError(applyServerErrors(error, setError, (path) => (['reference', 'invoiceNumber', 'note'].includes(path) ? (path as keyof TillMpesaResolveForm) : null)));
    }
  });

  const paid = payment ? (payment.paidCents ?? payment.amountCents) : 0;
  return (
    <Dialog
      open={payment !== null}
      onOpenChange={(open) => (open ? onOpenChange(true) : close())}
      title={t('mpesa.resolve.title')}
      description={payment ? t('mpesa.resolve.description', { amount: formatMoney(paid), receipt: payment.mpesaReceipt ?? '—', phone: payment.phoneNumber, date: formatDateTime(payment.createdAt) }) : undefined}
      hideClose={resolve.isPending}
    >
      {payment ? (
        <form onSubmit={(e) => void onSubmit(e)} noValidate className="space-y-4">
          {payment.attention ? <p className="rounded-md bg-amber-50 p-3 text-sm text-amber-900">{TILL_MPESA_ATTENTION_TEXT[payment.attention]}</p> : null}
          <fieldset className="space-y-2">
            <legend className="mb-1 text-sm font-medium text-slate-800">{t('mpesa.resolve.how')}</legend>
            <label className="flex items-start gap-2 rounded-md border border-slate-200 p-3 text-sm has-[:checked]:border-primary">
              <input type="radio" value="refunded" className="mt-0.5" {...register('resolution')} />
              <span>
                <span className="block font-medium text-slate-900">{t('mpesa.resolve.refunded')}</span>
                <span className="block text-slate-500">{t('mpesa.resolve.refundedHint')}</span>
              </span>
            </label>
            <label className="flex items-start gap-2 rounded-md border border-slate-200 p-3 text-sm has-[:checked]:border-primary">
              <input type="radio" value="applied" className="mt-0.5" {...register('resolution')} />
              <span>
                <span className="block font-medium text-slate-900">{t('mpesa.resolve.applied')}</span>
                <span className="block text-slate-500">{t('mpesa.resolve.appliedHint')}</span>
              </span>
            </label>
          </fieldset>
          {resolution === 'refunded' ? (
            <Field label={t('mpesa.resolve.reference')} error={errors.reference?.message} hint={t('mpesa.resolve.referenceHint')} required>
              <Input autoComplete="off" maxLength={TILL_MPESA_RESOLUTION_LIMITS.reference} {...register('reference')} />
            </Field>
          ) : (
            <Field label={t('mpesa.resolve.invoiceNumber')} error={errors.invoiceNumber?.message} hint={t('mpesa.resolve.invoiceHint')} required>
              <Input autoComplete="off" placeholder="INV-000123" maxLength={TILL_MPESA_RESOLUTION_LIMITS.invoiceNumber} {...register('invoiceNumber')} />
            </Field>
          )}
          <Field label={resolution === 'refunded' ? t('mpesa.resolve.note') : t('mpesa.resolve.noteOptional')} error={errors.note?.message} required={resolution === 'refunded'}>
            <Textarea rows={3} maxLength={TILL_MPESA_RESOLUTION_LIMITS.note} {...register('note')} />
          </Field>
          {formError ? (
            <p role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
              {formError}
            </p>
          ) : null}
          <div className="flex flex-wrap justify-end gap-2">
            <Button type="button" variant="outline" onClick={close} disabled={resolve.isPending}>
              {t('mpesa.resolve.cancel')}
            </Button>
            <Button type="submit" loading={resolve.isPending}>
              {t('mpesa.resolve.save')}
            </Button>
          </div>
        </form>
      ) : null}
    </Dialog>
  );
}
