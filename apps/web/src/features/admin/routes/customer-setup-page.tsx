import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ArrowLeft } from 'lucide-react';
import { customerSetupRequestSchema, type CustomerSetupRequest, type PharmacyActionResponse } from '@pharmapoint/domain/admin';
import { PageHeader } from '@/components/ui/page-header';
import { Card } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { Button, buttonClasses } from '@/components/ui/button';
import { applyServerErrors } from '@/components/ui/form';
import { api } from '@/lib/api';
import { toast } from '@/lib/toast';
import { adminKeys } from '@/features/admin/api/admin';
import '@/features/admin/admin-catalogue';

type FormValues = { pharmacyName: string; ownerName: string; ownerEmail: string; plan: 'trial' | 'standard' };
const FIELDS = new Set(['pharmacyName', 'ownerName', 'ownerEmail', 'plan']);

/**
 * customers/new (issue 11 item 8): a pharmacy and its owner set up by hand for a customer who paid outside M-Pesa.
 * The owner is emailed an invitation to choose their password; the pharmacy starts with its Main Branch.
 */
export default function CustomerSetupPage() {
  const { t } = useTranslation('admin');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [formError, setFormError] = useState<string | null>(null);
  const { register, handleSubmit, setError, formState } = useForm<FormValues, unknown, CustomerSetupRequest>({
    resolver: zodResolver(customerSetupRequestSchema),
    defaultValues: { pharmacyName: '', ownerName: '', ownerEmail: '', plan: 'standard' },
  });
  const create = useMutation({
    mutationFn: (body: CustomerSetupRequest) => api.post<PharmacyActionResponse>('/api/admin/pharmacies', body),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: adminKeys.pharmacies });
      void queryClient.invalidateQueries({ queryKey: adminKeys.overview });
    },
  });

  async function onValid(values: CustomerSetupRequest) {
    setFormError(null);
    try {
      const answer = await create.mutateAsync(values);
      toast.success(answer.message);
      void navigate('/app/admin/customers');
    } catch (error) {
      setFormError(applyServerErrors(error, setError, (path) => (FIELDS.has(path) ? (path as keyof FormValues) : null)));
    }
  }

  const errors = formState.errors;
  return (
    <div className="min-w-0 space-y-4">
      <PageHeader
        title={t('setup.title')}
        description={t('setup.description')}
        actions={
          <Link to="/app/admin/customers" className={buttonClasses('outline')}>
            <ArrowLeft className="size-4" aria-hidden="true" />
            {t('setup.back')}
          </Link>
        }
      />
      <Card className="max-w-xl p-6">
        <form onSubmit={(event) => void handleSubmit(onValid)(event)} noValidate className="space-y-4">
          {formError ? (
            <p role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
              {formError}
            </p>
          ) : null}
          <Field label={t('setup.pharmacyName')} required error={errors.pharmacyName?.message}>
            <Input {...register('pharmacyName')} maxLength={120} />
          </Field>
          <Field label={t('setup.ownerName')} required error={errors.ownerName?.message}>
            <Input autoComplete="off" {...register('ownerName')} maxLength={120} />
          </Field>
          <Field label={t('setup.ownerEmail')} required error={errors.ownerEmail?.message} hint={t('setup.ownerEmailHint')}>
            <Input type="email" autoComplete="off" {...register('ownerEmail')} maxLength={254} />
          </Field>
          <Field label={t('setup.plan')} required error={errors.plan?.message}>
            <Select
              {...register('plan')}
              options={[
                { value: 'standard', label: t('setup.plans.standard') },
                { value: 'trial', label: t('setup.plans.trial') },
              ]}
            />
          </Field>
          <Button type="submit" loading={create.isPending}>
            {t('setup.submit')}
          </Button>
        </form>
      </Card>
    </div>
  );
}
