import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { createBranchSchema } from '@pharmapoint/domain/tenancy';
import { kenyanPhoneText } from '@pharmapoint/domain/phone';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Dialog } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { applyServerErrors } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { toast } from '@/lib/toast';
import { useCreateBranch, useUpdateBranch, type Branch } from '@/features/branches/api/branches';
import { useIdempotencyKey } from '@/lib/idempotency';
import '@/features/branches/branches-catalogue';

/**
 * The branch form: the domain's createBranchSchema, with the phone a Kenyan number or none (decision 0033).
 * Empty address and phone are sent as null.
 */
const branchFormSchema = createBranchSchema.extend({ phone: kenyanPhoneText('Phone') }).transform((input) => ({
  ...input,
  address: input.address?.trim() || null,
  phone: input.phone || null,
}));

type BranchFormValues = z.input<typeof branchFormSchema>;
type BranchFormOutput = z.output<typeof branchFormSchema>;

export interface BranchDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The branch to edit; absent to add one. */
  branch?: Branch | null;
}

/** Add or edit a branch. Server refusals (plan limit, duplicate name) are shown in the dialog. */
export function BranchDialog({ open, onOpenChange, branch }: BranchDialogProps) {
  const { t } = useTranslation('branches');
  const create = useCreateBranch();
  const keys = useIdempotencyKey();
  const update = useUpdateBranch();
  const { register, control, handleSubmit, setError, formState } = useForm<BranchFormValues, unknown, BranchFormOutput>({
    resolver: zodResolver(branchFormSchema),
    defaultValues: { name: branch?.name ?? '', address: branch?.address ?? '', phone: branch?.phone ?? '', isDefault: false },
  });
  const errors = formState.errors;
  const [serverError, setServerError] = useState<string | null>(null);
  const pending = create.isPending || update.isPending;

  async function onValid(input: BranchFormOutput) {
    setServerError(null);
    try {
      if (branch) {
        await update.mutateAsync({ id: branch.id, patch: { name: input.name, address: input.address, phone: input.phone } });
        toast.success(t('updated', { name: input.name }));
      } else {
        const body = { name: input.name, address: input.address, phone: input.phone, isDefault: input.isDefault ?? false };
        await create.mutateAsync({ input: body, key: keys.keyFor(body) });
        keys.renew();
        toast.success(t('created', { name: input.name }));
      }
      onOpenChange(false);
    } catch (error) {
      setServerError(applyServerErrors(error, setError, (path) => (path === 'name' || path === 'address' || path === 'phone' ? path : null)));
    }
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => (pending ? undefined : onOpenChange(next))}
      title={branch ? t('form.editTitle') : t('form.addTitle')}
      footer={
        <>
          <Button variant="outline" onClick={() => onOpenChange(false)} disabled={pending}>
            {t('common:actions.cancel')}
          </Button>
          <Button type="submit" form="branch-form" loading={pending}>
            {t('form.saveBranch')}
          </Button>
        </>
      }
    >
      <form id="branch-form" onSubmit={(event) => void handleSubmit(onValid)(event)} noValidate className="space-y-4">
        <Field label={t('form.name')} required error={errors.name?.message}>
          <Input {...register('name')} maxLength={80} />
        </Field>
        <Field label={t('form.address')} error={errors.address?.message}>
          <Input {...register('address')} maxLength={200} />
        </Field>
        <Field label={t('form.phone')} error={errors.phone?.message} hint={t('form.phoneHint')}>
          <Input type="tel" {...register('phone')} maxLength={20} />
        </Field>
        {branch ? null : (
          <Controller control={control} name="isDefault" render={({ field }) => <Checkbox label={t('form.isDefault')} checked={field.value ?? false} onCheckedChange={field.onChange} />} />
        )}
        {serverError ? (
          <p role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-700">
            {serverError}
          </p>
        ) : null}
      </form>
    </Dialog>
  );
}
