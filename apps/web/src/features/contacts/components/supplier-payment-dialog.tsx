import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import {
  SUPPLIER_PAYMENT_METHODS,
  formatKes,
  supplierPaymentFormSchema,
  type SupplierInvoice,
  type SupplierPayment,
  type SupplierPaymentFormValues,
} from '@pharmapoint/domain/supplier-payments';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { applyServerErrors } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { Textarea } from '@/components/ui/textarea';
import { formatDate } from '@/lib/format';
import { toast } from '@/lib/toast';
import { useSavePayment } from '../api/contacts';
import { newUuid } from '@/lib/idempotency';

type FormOutput = ReturnType<typeof supplierPaymentFormSchema.parse>;

export interface SupplierPaymentDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  supplier: { id: string; name: string };
  /** The supplier's invoices still owing (the choice of the invoice paid first). */
  invoices: readonly SupplierInvoice[];
  /** The payment to edit; a new one otherwise. */
  payment?: SupplierPayment | null;
  today: string;
}

/** Record or edit a supplier payment (seed 002 sections 3, 5 and 8): the messages of the specification as toasts. */
export function SupplierPaymentDialog(props: SupplierPaymentDialogProps) {
  return props.open ? <OpenDialog {...props} /> : null;
}

function OpenDialog({ open, onOpenChange, supplier, invoices, payment, today }: SupplierPaymentDialogProps) {
  const { t } = useTranslation('contacts');
  const save = useSavePayment();
  const [key] = useState(newUuid);
  const [serverError, setServerError] = useState<string | null>(null);
  const { register, handleSubmit, setError, formState } = useForm<SupplierPaymentFormValues, unknown, FormOutput>({
    resolver: zodResolver(supplierPaymentFormSchema),
    defaultValues: {
      amount: payment ? (payment.amountCents / 100).toFixed(2) : '',
      date: payment?.date ?? today,
      method: payment?.method ?? 'M-Pesa',
      reference: payment?.reference ?? '',
      notes: payment?.notes ?? '',
      invoiceId: payment?.invoiceId ?? '',
    },
  });
  const errors = formState.errors;
  const open_ = invoices.filter((i) => i.outstandingCents > 0 || i.id === payment?.invoiceId);

  async function onValid(body: FormOutput) {
    setServerError(null);
    try {
      const saved = await save.mutateAsync({ id: payment?.id, body: { ...body, supplierId: supplier.id }, key });
      toast.success(saved.message);
      if (saved.allocationMessage) toast.info(saved.allocationMessage);
      onOpenChange(false);
    } catch (error) {
      const message = applyServerErrors(error, setError, (path) => (['amount', 'date', 'method', 'reference', 'notes', 'invoiceId'] as const).find((f) => f === path) ?? (path === 'amountCents' ? 'amount' : null));
      setServerError(`${payment ? t('payment.updateFailed') : t('payment.addFailed')}: ${message}`);
      toast.error(payment ? t('payment.updateFailed') : t('payment.addFailed'));
    }
  }

  const pending = save.isPending;
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => (pending ? undefined : onOpenChange(next))}
      title={payment ? t('payment.editTitle') : t('payment.title')}
      description={t('payment.description', { name: supplier.name })}
      footer={
        <>
          <Button variant="outline" onClick={() => onOpenChange(false)} disabled={pending}>
            {t('common:actions.cancel')}
          </Button>
          <Button type="submit" form="supplier-payment-form" loading={pending}>
            {t('payment.save')}
          </Button>
        </>
      }
    >
      <form id="supplier-payment-form" onSubmit={(event) => void handleSubmit(onValid)(event)} noValidate className="space-y-4">
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label={t('payment.amount')} required error={errors.amount?.message}>
            <Input inputMode="decimal" {...register('amount')} autoComplete="off" />
          </Field>
          <Field label={t('payment.date')} required error={errors.date?.message}>
            <Input type="date" max={today} {...register('date')} />
          </Field>
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label={t('payment.method')} required error={errors.method?.message}>
            <Select {...register('method')} options={SUPPLIER_PAYMENT_METHODS.map((m) => ({ value: m, label: t(`payment.methods.${m}`) }))} />
          </Field>
          <Field label={t('payment.reference')} hint={t('payment.referenceHint')} error={errors.reference?.message}>
            <Input {...register('reference')} autoComplete="off" maxLength={100} />
          </Field>
        </div>
        <Field label={t('payment.invoice')} error={errors.invoiceId?.message}>
          <Select
            {...register('invoiceId')}
            options={[
              { value: '', label: t('payment.auto') },
              ...open_.map((i) => ({ value: i.id, label: t('payment.invoiceOption', { number: i.purchaseNumber, date: formatDate(i.date), amount: formatKes(i.outstandingCents) }) })),
            ]}
          />
        </Field>
        <Field label={t('payment.notes')} error={errors.notes?.message}>
          <Textarea {...register('notes')} rows={2} maxLength={500} />
        </Field>
        {serverError ? (
          <p role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-700">
            {serverError}
          </p>
        ) : null}
      </form>
    </Dialog>
  );
}
