import type { ReactNode } from 'react';
import { useWatch, type FieldErrors, type FieldValues, type Path, type UseFormReturn } from 'react-hook-form';
import { normalizePhone } from '@pharmapoint/domain/phone';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Textarea } from '@/components/ui/textarea';

/** The fields every contact form has (the contacts screen's Add/Edit Contact, the till's Add New Client). */
export const CONTACT_FIELD_NAMES = ['name', 'phone', 'email', 'location', 'address', 'notes'] as const;
export type ContactFieldName = (typeof CONTACT_FIELD_NAMES)[number];

/** What a form holding the contact fields has (its own fields besides: type, credit terms...). */
export type ContactFieldValues = FieldValues & Record<ContactFieldName, string>;

export interface ContactFieldLabels {
  name: string;
  phone: string;
  /** Under the phone; the normalised number is shown after it when it differs from what was typed. */
  phoneHint: string;
  email: string;
  location: string;
  address: string;
  notes: string;
}

/** The form's context (C) and the values its resolver hands on (O, the request body) are the caller's own. */
export interface ContactFieldsProps<T extends ContactFieldValues, C, O extends FieldValues> {
  form: Pick<UseFormReturn<T, C, O>, 'register' | 'control' | 'formState'>;
  /** The caller's words (each screen has its own: 'Client name' at the till, 'Name' on the contacts screen). */
  labels: ContactFieldLabels;
  /** Location and address required (a client buying DDA products, seed 001 section 5). */
  locationRequired?: boolean;
  /** Fields of the caller's own between the email and the location (a supplier's credit terms). */
  afterEmail?: ReactNode;
}

/**
 * Name, phone (with the number it will be saved as: a 10-digit 0... number becomes 254...), email, location, address
 * and notes, on the caller's react-hook-form (its zod schema from the domain decides what is required and valid).
 */
export function ContactFields<T extends ContactFieldValues, C, O extends FieldValues>({ form, labels, locationRequired = false, afterEmail }: ContactFieldsProps<T, C, O>) {
  const { register, control, formState } = form;
  const errors = formState.errors as FieldErrors<ContactFieldValues>;
  const field = (name: ContactFieldName) => register(name as Path<T>);
  const phone = useWatch({ control, name: 'phone' as Path<T> }) as string | null | undefined;
  const normalized = phone ? normalizePhone(phone) : '';
  const message = (name: ContactFieldName) => errors[name]?.message as string | undefined;
  return (
    <>
      <Field label={labels.name} required error={message('name')}>
        <Input {...field('name')} autoComplete="off" maxLength={120} />
      </Field>
      <Field label={labels.phone} required error={message('phone')} hint={normalized && normalized !== phone?.trim() ? `${labels.phoneHint} → ${normalized}` : labels.phoneHint}>
        <Input type="tel" inputMode="tel" {...field('phone')} autoComplete="off" maxLength={30} />
      </Field>
      <Field label={labels.email} error={message('email')}>
        <Input type="email" {...field('email')} autoComplete="off" maxLength={254} />
      </Field>
      {afterEmail}
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label={labels.location} required={locationRequired || undefined} error={message('location')}>
          <Input {...field('location')} maxLength={120} />
        </Field>
        <Field label={labels.address} required={locationRequired || undefined} error={message('address')}>
          <Input {...field('address')} maxLength={300} />
        </Field>
      </div>
      <Field label={labels.notes} error={message('notes')}>
        <Textarea {...field('notes')} rows={2} maxLength={500} />
      </Field>
    </>
  );
}

/** The server's sentence when it refused the form for something no field shows. */
export function ContactFormAlert({ message }: { message: string | null }) {
  return message ? (
    <p role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-700">
      {message}
    </p>
  ) : null;
}
