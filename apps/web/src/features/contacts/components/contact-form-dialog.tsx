import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { CONTACT_TYPES, contactFormSchema, isRecognisedCreditTerms, parseCreditTerms, type Contact, type ContactFormValues } from '@pharmapoint/domain/contacts';
import { CONTACT_FIELD_NAMES, ContactFields, ContactFormAlert } from '@/components/contact-fields';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { applyServerErrors } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { toast } from '@/lib/toast';
import { useSaveContact } from '../api/contacts';
import { newUuid } from '@/lib/idempotency';

type FormOutput = ReturnType<typeof contactFormSchema.parse>;

export interface ContactFormDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The contact to edit; a new one otherwise. */
  contact?: Contact | null;
  defaultType?: Contact['type'];
  onSaved?: (contact: Contact) => void;
}

/** Add or edit a contact: name and phone required, the phone normalised, a supplier's credit terms read as days. */
export function ContactFormDialog(props: ContactFormDialogProps) {
  return props.open ? <OpenContactFormDialog {...props} /> : null;
}

function OpenContactFormDialog({ open, onOpenChange, contact, defaultType = 'customer', onSaved }: ContactFormDialogProps) {
  const { t } = useTranslation('contacts');
  const save = useSaveContact();
  const [key] = useState(newUuid);
  const [serverError, setServerError] = useState<string | null>(null);
  const form = useForm<ContactFormValues, unknown, FormOutput>({
    resolver: zodResolver(contactFormSchema),
    defaultValues: {
      type: contact?.type ?? defaultType,
      name: contact?.name ?? '',
      phone: contact?.phone ?? '',
      email: contact?.email ?? '',
      location: contact?.location ?? '',
      address: contact?.address ?? '',
      notes: contact?.notes ?? '',
      creditTerms: contact?.creditTerms ?? (contact?.creditPeriodDays != null ? `${contact.creditPeriodDays} days` : ''),
    },
  });
  const { register, handleSubmit, setError, control, formState } = form;
  const errors = formState.errors;
  const type = useWatch({ control, name: 'type' });
  const terms = useWatch({ control, name: 'creditTerms' });

  async function onValid(body: FormOutput) {
    setServerError(null);
    try {
      const saved = await save.mutateAsync({ id: contact?.id, body, key });
      toast.success(contact ? t('form.updated', { name: saved.name }) : t('form.created', { name: saved.name }));
      onSaved?.(saved);
      onOpenChange(false);
    } catch (error) {
      const message = applyServerErrors(error, setError, (path) =>
        ([...CONTACT_FIELD_NAMES, 'creditTerms', 'type'] as const).find((f) => f === path) ?? null,
      );
      setServerError(message);
    }
  }

  const pending = save.isPending;
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => (pending ? undefined : onOpenChange(next))}
      title={contact ? t('form.editTitle', { name: contact.name }) : t('form.addTitle')}
      description={t('form.description')}
      footer={
        <>
          <Button variant="outline" onClick={() => onOpenChange(false)} disabled={pending}>
            {t('common:actions.cancel')}
          </Button>
          <Button type="submit" form="contact-form" loading={pending}>
            {t('form.save')}
          </Button>
        </>
      }
    >
      <form id="contact-form" onSubmit={(event) => void handleSubmit(onValid)(event)} noValidate className="space-y-4">
        <Field label={t('form.type')} required error={errors.type?.message}>
          <Select {...register('type')} options={CONTACT_TYPES.map((value) => ({ value, label: t(`types.${value}`) }))} />
        </Field>
        <ContactFields
          form={form}
          labels={{
            name: t('form.name'),
            phone: t('form.phone'),
            phoneHint: t('form.phoneHint'),
            email: t('form.email'),
            location: t('form.location'),
            address: t('form.address'),
            notes: t('form.notes'),
          }}
          afterEmail={
            type === 'supplier' ? (
              <Field
                label={t('form.creditTerms')}
                error={errors.creditTerms?.message}
                hint={terms?.trim() && isRecognisedCreditTerms(terms) ? t('form.creditDays', { count: parseCreditTerms(terms) }) : t('form.creditTermsHint')}
              >
                <Input {...register('creditTerms')} autoComplete="off" maxLength={40} placeholder="30 days" />
              </Field>
            ) : null
          }
        />
        <ContactFormAlert message={serverError} />
      </form>
    </Dialog>
  );
}
