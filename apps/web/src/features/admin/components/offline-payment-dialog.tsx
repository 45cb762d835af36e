import { useId, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import type { AdminPharmacy } from '@pharmapoint/domain/subscription';
import {
  kenyaToday,
  OFFLINE_PAYMENT_KINDS,
  OFFLINE_PAYMENT_METHODS,
  offlinePaymentDefaultCents,
  offlinePaymentFormSchema,
  type OfflinePaymentForm,
  type OfflinePaymentKind,
  type OfflinePaymentRequest,
} from '@pharmapoint/domain/admin';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { applyServerErrors } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { Textarea } from '@/components/ui/textarea';
import { formatDate } from '@/lib/format';
import { toast } from '@/lib/toast';
import { useRecordOfflinePayment } from '@/features/admin/api/admin';
import { useIdempotencyKey } from '@/lib/idempotency';
import '@/features/admin/admin-catalogue';

const FIELDS = new Set(['kind', 'method', 'reference', 'paidOn', 'note']);

/** KSh as the amount field shows it: '30000.00'. */
const kshText = (cents: number) => (cents / 100).toFixed(2);

/**
 * Record Payment (customers; issue 11 item 8; decision 0060): a payment the customer made outside the M-Pesa prompt
 * (bank transfer, cash, cheque, M-Pesa to the paybill). The amount starts at the price list's; the server applies
 * it to the subscription exactly as an M-Pesa payment. The Idempotency-Key stays the same while the same payment is
 * sent again (a double click, a retry), so it is recorded once; a changed form is another request with a new key.
 */
export function OfflinePaymentDialog({ pharmacy, onClose }: { pharmacy: AdminPharmacy; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const formId = useId();
  const record = useRecordOfflinePayment();
  const today = kenyaToday();
  const initialKind: OfflinePaymentKind = pharmacy.plan === 'trial' ? 'licence' : 'hosting';
  const { register, handleSubmit, control, setError, setValue, formState } = useForm<OfflinePaymentForm, unknown, OfflinePaymentRequest>({
    resolver: zodResolver(offlinePaymentFormSchema),
    defaultValues: { kind: initialKind, amount: kshText(offlinePaymentDefaultCents(initialKind)), method: 'bank_transfer', reference: '', paidOn: today, note: '' },
  });
  const kind = useWatch({ control, name: 'kind' });
  const [serverError, setServerError] = useState<string | null>(null);
  const keys = useIdempotencyKey();
  const errors = formState.errors;

  async function onValid(payment: OfflinePaymentRequest) {
    setServerError(null);
    try {
      const answer = await record.mutateAsync({ pharmacyId: pharmacy.id, payment, idempotencyKey: keys.keyFor(payment) });
      toast.success(answer.message);
      onClose();
    } catch (error) {
      setServerError(applyServerErrors(error, setError, (path) => (FIELDS.has(path) ? (path as keyof OfflinePaymentForm) : path === 'amountCents' ? 'amount' : null)));
    }
  }

  const kindField = register('kind');
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={t('customers.payment.title', { name: pharmacy.name })}
      description={t('customers.payment.description')}
      size="lg"
      footer={
        <>
          <Button variant="outline" onClick={onClose}>
            {t('customers.payment.cancel')}
          </Button>
          <Button type="submit" form={formId} loading={record.isPending}>
            {t('customers.payment.submit')}
          </Button>
        </>
      }
    >
      <form id={formId} noValidate onSubmit={(event) => void handleSubmit(onValid)(event)} className="grid gap-4 sm:grid-cols-2">
        <Field label={t('customers.payment.kind')} required error={errors.kind?.message}>
          <Select
            {...kindField}
            onChange={(event) => {
              void kindField.onChange(event);
              const next = event.target.value as OfflinePaymentKind;
              if ((OFFLINE_PAYMENT_KINDS as readonly string[]).includes(next)) setValue('amount', kshText(offlinePaymentDefaultCents(next)));
            }}
            options={OFFLINE_PAYMENT_KINDS.map((value) => ({ value, label: t(`customers.payment.kinds.${value}`) }))}
          />
        </Field>
        <Field
          label={t('customers.payment.amount')}
          required
          error={errors.amount?.message}
          hint={t('customers.payment.amountHint', { amount: kshText(offlinePaymentDefaultCents(kind ?? initialKind)) })}
        >
          <Input inputMode="decimal" {...register('amount')} />
        </Field>
        <Field label={t('customers.payment.method')} required error={errors.method?.message}>
          <Select {...register('method')} options={OFFLINE_PAYMENT_METHODS.map((value) => ({ value, label: t(`customers.payment.methods.${value}`) }))} />
        </Field>
        <Field label={t('customers.payment.reference')} error={errors.reference?.message} hint={t('customers.payment.referenceHint')}>
          <Input autoComplete="off" maxLength={100} {...register('reference')} />
        </Field>
        <Field label={t('customers.payment.paidOn')} required error={errors.paidOn?.message}>
          <Input type="date" max={today} {...register('paidOn')} />
        </Field>
        <Field label={t('customers.payment.note')} error={errors.note?.message} className="sm:col-span-2">
          <Textarea rows={2} maxLength={500} {...register('note')} />
        </Field>
        <p className="text-sm text-slate-600 sm:col-span-2">
          {kind === 'licence' ? t('customers.payment.licenceRule') : t('customers.payment.hostingRule', { date: formatDate(pharmacy.subscription.hostingPaidUntil) })}
        </p>
        {serverError ? (
          <p role="alert" className="text-sm font-medium text-red-600 sm:col-span-2">
            {serverError}
          </p>
        ) : null}
      </form>
    </Dialog>
  );
}
