import { useEffect, useRef } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { LastPrescriptionResponse, Prescription } from '@pharmapoint/domain/sales';
import { DDA_PRESCRIBER_MESSAGE, prescriptionFormSchema, prescriptionFormValues, type PrescriptionFormValues } from '@pharmapoint/domain/till-dialogs';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Textarea } from '@/components/ui/textarea';
import { api } from '@/lib/api';
import { formatDate } from '@/lib/format';

export interface DdaPrescriptionDialogProps {
  open: boolean;
  productName: string;
  /** The registered client (a DDA product needs one). */
  clientId: string;
  /** The line's prescription when it is edited; otherwise the client's last prescription prefills the form. */
  initial?: Prescription | null;
  onConfirm: (prescription: Prescription) => void;
  onCancel: () => void;
}

/** GET /api/sales/last-prescription?clientId=: the client's latest DDA prescription. */
export function lastPrescriptionQuery(clientId: string) {
  return {
    queryKey: ['pos', 'last-prescription', clientId],
    queryFn: ({ signal }: { signal: AbortSignal }) => api.get<LastPrescriptionResponse>('/api/sales/last-prescription', { query: { clientId }, signal }),
    staleTime: 0,
  };
}

/**
 * DDA prescription details (seed 001 sections 3 and 5): doctor and hospital/clinic required, the other fields
 * optional; prefilled from the client's last prescription unless the line already has one. Confirm hands the
 * prescription to the till, which adds the product (or updates the line).
 */
export function DdaPrescriptionDialog({ open, productName, clientId, initial, onConfirm, onCancel }: DdaPrescriptionDialogProps) {
  const { t } = useTranslation('posClients');
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => (next ? undefined : onCancel())}
      title={t('dda.title')}
      description={t('dda.description', { product: productName })}
      size="lg"
      footer={
        <>
          <Button variant="outline" onClick={onCancel}>
            {t('common:actions.cancel')}
          </Button>
          <Button type="submit" form="pos-dda-form">
            {t('dda.confirm')}
          </Button>
        </>
      }
    >
      {/* Mounted on every opening (and for each client): the form starts from the line's prescription, or blank
          until the client's last one arrives, with no reset effect to keep in step. */}
      {open ? <DdaPrescriptionForm key={clientId} clientId={clientId} initial={initial} onConfirm={onConfirm} /> : null}
    </Dialog>
  );
}

function DdaPrescriptionForm({ clientId, initial, onConfirm }: Pick<DdaPrescriptionDialogProps, 'clientId' | 'initial' | 'onConfirm'>) {
  const { t } = useTranslation('posClients');
  const last = useQuery({ ...lastPrescriptionQuery(clientId), enabled: !initial && Boolean(clientId) });
  const { register, handleSubmit, reset, formState, getValues } = useForm<PrescriptionFormValues, unknown, Prescription>({
    resolver: zodResolver(prescriptionFormSchema),
    defaultValues: prescriptionFormValues(initial),
  });
  const errors = formState.errors;
  const prefilled = useRef(false);

  // The last prescription fills the form once, unless the cashier has already typed something.
  const lastPrescription = last.data?.prescription ?? null;
  useEffect(() => {
    if (initial || !lastPrescription || prefilled.current) return;
    const typed = Object.values(getValues()).some((v) => v.trim() !== '');
    if (typed) return;
    prefilled.current = true;
    reset(prescriptionFormValues(lastPrescription));
  }, [initial, lastPrescription, reset, getValues]);

  const prescriberMissing = Boolean(errors.doctorName || errors.hospitalName);
  const showPrefilled = !initial && lastPrescription && last.data;

  return (
    <form id="pos-dda-form" onSubmit={(event) => void handleSubmit(onConfirm)(event)} noValidate className="space-y-4">
      {last.isFetching && !initial ? (
        <p role="status" className="text-sm text-slate-500">
          {t('dda.prefillLoading')}
        </p>
      ) : null}
      {showPrefilled ? (
        <p role="status" className="rounded-md border border-sky-200 bg-sky-50 p-3 text-sm text-sky-800">
          {t('dda.prefilled', { invoice: last.data?.invoiceNumber ?? '', date: last.data?.saleDate ? formatDate(last.data.saleDate) : '' })}
        </p>
      ) : null}
      {prescriberMissing ? (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-700">
          {t('dda.required', { defaultValue: DDA_PRESCRIBER_MESSAGE })}
        </p>
      ) : null}
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label={t('dda.doctorName')} required error={errors.doctorName && !prescriberMissing ? errors.doctorName.message : undefined}>
          <Input {...register('doctorName')} aria-invalid={errors.doctorName ? true : undefined} maxLength={200} autoComplete="off" />
        </Field>
        <Field label={t('dda.hospitalName')} required error={errors.hospitalName && !prescriberMissing ? errors.hospitalName.message : undefined}>
          <Input {...register('hospitalName')} aria-invalid={errors.hospitalName ? true : undefined} maxLength={200} autoComplete="off" />
        </Field>
        <Field label={t('dda.prescriptionNumber')} error={errors.prescriptionNumber?.message}>
          <Input {...register('prescriptionNumber')} maxLength={100} autoComplete="off" />
        </Field>
        <Field label={t('dda.prescriptionDate')} error={errors.prescriptionDate?.message}>
          <Input type="date" {...register('prescriptionDate')} />
        </Field>
        <Field label={t('dda.patientId')} error={errors.patientId?.message}>
          <Input {...register('patientId')} maxLength={100} autoComplete="off" />
        </Field>
        <Field label={t('dda.doctorLicense')} error={errors.doctorLicense?.message}>
          <Input {...register('doctorLicense')} maxLength={100} autoComplete="off" />
        </Field>
      </div>
      <Field label={t('dda.notes')} error={errors.notes?.message}>
        <Textarea {...register('notes')} rows={2} maxLength={500} />
      </Field>
    </form>
  );
}
