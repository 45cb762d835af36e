import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { AlertCircle } from 'lucide-react';
import { KENYAN_COUNTIES, registrationFormSchema, type RegistrationForm } from '@pharmapoint/domain/platform-payments';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { Button, buttonClasses } from '@/components/ui/button';
import { errorMessage } from '@/lib/api';
import { toast } from '@/lib/toast';
import { checkEmailAvailable, loadRegistration, saveRegistration } from '@/features/public/components/checkout-api';

const COUNTY_OPTIONS = KENYAN_COUNTIES.map((county) => ({ value: county, label: county }));

/** Shown when the email already has an account or a pharmacy (seed 002 section 8). */
export function CheckoutEmailTaken({ onDifferentEmail }: { onDifferentEmail: () => void }) {
  const { t } = useTranslation('checkout');
  return (
    <div role="alert" className="rounded-lg border border-amber-300 bg-amber-50 p-4">
      <div className="flex items-start gap-3">
        <AlertCircle className="mt-0.5 size-5 shrink-0 text-amber-600" aria-hidden="true" />
        <div className="space-y-3">
          <div>
            <h3 className="font-semibold text-amber-900">{t('emailTaken.title')}</h3>
            <p className="text-sm text-amber-900">{t('emailTaken.message')}</p>
          </div>
          <div className="flex flex-wrap gap-2">
            <Link to="/login" className={buttonClasses('primary', 'sm')}>
              {t('emailTaken.login')}
            </Link>
            <Button variant="outline" size="sm" onClick={onDifferentEmail}>
              {t('emailTaken.different')}
            </Button>
          </div>
        </div>
      </div>
    </div>
  );
}

/**
 * Step 1: the pharmacy registration form with the messages of seed 002 section 5. Saved on this device as it is
 * typed; the email is checked against existing accounts and pharmacies before going on.
 */
export function CheckoutRegistrationForm({ onDone }: { onDone: (values: RegistrationForm) => void }) {
  const { t } = useTranslation('checkout');
  const [checking, setChecking] = useState(false);
  const [emailTaken, setEmailTaken] = useState(false);
  const saved = loadRegistration();
  const form = useForm<RegistrationForm>({
    resolver: zodResolver(registrationFormSchema),
    mode: 'onSubmit',
    reValidateMode: 'onSubmit',
    defaultValues: {
      pharmacyName: saved.pharmacyName ?? '',
      ownerName: saved.ownerName ?? '',
      ownerEmail: saved.ownerEmail ?? '',
      ownerPhone: saved.ownerPhone ?? '',
      location: saved.location ?? '',
      county: (KENYAN_COUNTIES as readonly string[]).includes(saved.county ?? '') ? (saved.county as RegistrationForm['county']) : '',
      licenseNumber: saved.licenseNumber ?? '',
    },
  });
  const { register, handleSubmit, formState, clearErrors, getValues, setFocus } = form;
  const errors = formState.errors;

  // Saved locally as typed; a field's error clears when that field is edited.
  const field = (name: keyof RegistrationForm) =>
    register(name, {
      onChange: () => {
        clearErrors(name);
        if (name === 'ownerEmail') setEmailTaken(false);
        saveRegistration(getValues() as Record<string, string>);
      },
    });

  async function submit(values: RegistrationForm) {
    setChecking(true);
    try {
      const available = await checkEmailAvailable(values.ownerEmail.trim().toLowerCase());
      if (!available) {
        setEmailTaken(true);
        return;
      }
      saveRegistration(values as Record<string, string>);
      onDone({ ...values, ownerEmail: values.ownerEmail.trim().toLowerCase() });
    } catch (error) {
      toast.error(errorMessage(error), { duration: 6000 });
    } finally {
      setChecking(false);
    }
  }

  return (
    <form onSubmit={(event) => void handleSubmit(submit)(event)} noValidate className="space-y-4" aria-labelledby="checkout-form-title">
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label={t('form.pharmacyName')} required error={errors.pharmacyName?.message}>
          <Input autoComplete="organization" {...field('pharmacyName')} />
        </Field>
        <Field label={t('form.ownerName')} required error={errors.ownerName?.message}>
          <Input autoComplete="name" {...field('ownerName')} />
        </Field>
        <Field label={t('form.ownerEmail')} required error={errors.ownerEmail?.message}>
          <Input type="email" autoComplete="email" {...field('ownerEmail')} />
        </Field>
        <Field label={t('form.ownerPhone')} required error={errors.ownerPhone?.message}>
          <Input type="tel" autoComplete="tel" inputMode="tel" {...field('ownerPhone')} />
        </Field>
        <Field label={t('form.location')} required hint={t('form.locationHint')} error={errors.location?.message}>
          <Input autoComplete="street-address" {...field('location')} />
        </Field>
        <Field label={t('form.county')} error={errors.county?.message}>
          <Select options={COUNTY_OPTIONS} placeholder={t('form.countyPlaceholder')} {...field('county')} />
        </Field>
        <Field label={t('form.licenseNumber')} hint={t('form.optional')} error={errors.licenseNumber?.message} className="sm:col-span-2">
          <Input {...field('licenseNumber')} />
        </Field>
      </div>
      {emailTaken ? (
        <CheckoutEmailTaken
          onDifferentEmail={() => {
            setEmailTaken(false);
            form.setValue('ownerEmail', '');
            saveRegistration(getValues() as Record<string, string>);
            setFocus('ownerEmail');
          }}
        />
      ) : null}
      <p className="text-xs text-slate-500">{t('form.saved')}</p>
      <Button type="submit" size="lg" className="w-full" loading={checking} disabled={checking || emailTaken}>
        {checking ? t('form.checkingEmail') : t('form.continue')}
      </Button>
    </form>
  );
}
