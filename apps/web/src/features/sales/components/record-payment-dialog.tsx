import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { parseMoneyToCents } from '@pharmapoint/domain/money';
import { paymentKind, tillPaymentMethods } from '@pharmapoint/domain/sales';
import type { CreditCustomer } from '@pharmapoint/domain/sales-history';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { formErrorText } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { formatDate, formatMoney } from '@/lib/format';
import { toast } from '@/lib/toast';
import { useDocumentSettings, useRecordCustomerPayment } from '@/features/sales/api/sales';
import { newUuid } from '@/lib/idempotency';

interface PaymentForm {
  amount: string;
  method: string;
  reference: string;
  notes: string;
}

/**
 * Recording a customer's later payment of their credit sales (issue 10 item 10, decision 0039): the amount (at most
 * what they owe), the method and a reference; the server allocates it oldest invoice first. The payment's id is made
 * once per dialog and sent as the Idempotency-Key, so a retry never records it twice.
 */
export function RecordPaymentDialog({ customer, onOpenChange }: { customer: CreditCustomer | null; onOpenChange: (open: boolean) => void }) {
  const { t } = useTranslation('sales');
  const settings = useDocumentSettings();
  const record = useRecordCustomerPayment();
  const [id, setId] = useState(newUuid);
  const [formError, setFormError] = useState<string | null>(null);
  const methods = tillPaymentMethods(settings.data?.settings.paymentMethods).filter((m) => paymentKind(m) !== 'credit');
  const { register, handleSubmit, setError, reset, formState: { errors } } = useForm<PaymentForm>({ defaultValues: { amount: '', method: methods[0] ?? 'Cash', reference: '', notes: '' } });

  const close = () => {
    reset();
    setFormError(null);
    setId(newUuid());
    onOpenChange(false);
  };

  const onSubmit = handleSubmit(async (form) => {
    if (!customer) return;
    setFormError(null);
    const cents = parseMoneyToCents(form.amount);
    if (cents === null || cents <= 0) {
      setError('amount', { message: t('payments.amountInvalid') });
      return;
    }
    if (cents > customer.balanceCents) {
      setError('amount', { message: t('payments.amountAbove', { balance: formatMoney(customer.balanceCents) }) });
      return;
    }
    try {
      const payment = await record.mutateAsync({ id, clientId: customer.clientId, amountCents: cents, method: form.method, reference: form.reference.trim() || undefined, notes: form.notes.trim() || undefined });
      toast.success(t('payments.saved', { amount: formatMoney(payment.amountCents), client: payment.clientName, count: payment.allocations.length, balance: formatMoney(payment.balanceAfterCents) }));
      close();
    } catch (error) {
      setFormError(formErrorText(error));
    }
  });

  return (
    <Dialog
      open={customer !== null}
      onOpenChange={(open) => (open ? onOpenChange(true) : close())}
      title={t('payments.title', { client: customer?.name ?? '' })}
      description={customer ? t('payments.description', { balance: formatMoney(customer.balanceCents), count: customer.invoices.length }) : undefined}
    >
      {customer ? (
        <form onSubmit={(e) => void onSubmit(e)} noValidate className="space-y-3">
          <p className="text-sm text-slate-600">{t('payments.oldestFirst', { date: formatDate(customer.oldestSaleDate) })}</p>
          <Field label={t('payments.amount')} error={errors.amount?.message} required>
            <Input inputMode="decimal" autoComplete="off" {...register('amount')} />
          </Field>
          <Field label={t('payments.method')}>
            <Select options={methods.map((m) => ({ value: m, label: m }))} {...register('method')} />
          </Field>
          <Field label={t('payments.reference')}>
            <Input maxLength={60} {...register('reference')} />
          </Field>
          <Field label={t('payments.notes')}>
            <Input maxLength={300} {...register('notes')} />
          </Field>
          {formError ? <p role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">{formError}</p> : null}
          <div className="flex justify-end gap-2">
            <Button type="button" variant="outline" onClick={close}>{t('payments.cancel')}</Button>
            <Button type="submit" loading={record.isPending}>{t('payments.save')}</Button>
          </div>
        </form>
      ) : null}
    </Dialog>
  );
}
