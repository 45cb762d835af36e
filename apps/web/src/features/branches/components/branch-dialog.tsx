import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Dialog } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { errorMessage } from '@/lib/api';
import { toast } from '@/lib/toast';
import { useCreateBranch, useUpdateBranch, type Branch } from '@/features/branches/api/branches';

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
  const update = useUpdateBranch();
  const [name, setName] = useState(branch?.name ?? '');
  const [address, setAddress] = useState(branch?.address ?? '');
  const [phone, setPhone] = useState(branch?.phone ?? '');
  const [isDefault, setIsDefault] = useState(false);
  const [nameError, setNameError] = useState<string | null>(null);
  const [serverError, setServerError] = useState<string | null>(null);
  const pending = create.isPending || update.isPending;

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setServerError(null);
    const trimmed = name.trim();
    if (!trimmed) {
      setNameError(t('form.nameRequired'));
      return;
    }
    const input = { name: trimmed, address: address.trim() || null, phone: phone.trim() || null };
    try {
      if (branch) {
        await update.mutateAsync({ id: branch.id, patch: input });
        toast.success(t('updated', { name: trimmed }));
      } else {
        await create.mutateAsync({ ...input, isDefault });
        toast.success(t('created', { name: trimmed }));
      }
      onOpenChange(false);
    } catch (error) {
      setServerError(errorMessage(error));
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
      <form id="branch-form" onSubmit={(event) => void onSubmit(event)} noValidate className="space-y-4">
        <Field label={t('form.name')} required error={nameError}>
          <Input
            value={name}
            maxLength={80}
            onChange={(event) => {
              setName(event.target.value);
              setNameError(null);
            }}
          />
        </Field>
        <Field label={t('form.address')}>
          <Input value={address} maxLength={200} onChange={(event) => setAddress(event.target.value)} />
        </Field>
        <Field label={t('form.phone')}>
          <Input type="tel" value={phone} maxLength={20} onChange={(event) => setPhone(event.target.value)} />
        </Field>
        {branch ? null : <Checkbox label={t('form.isDefault')} checked={isDefault} onCheckedChange={setIsDefault} />}
        {serverError ? (
          <p role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-700">
            {serverError}
          </p>
        ) : null}
      </form>
    </Dialog>
  );
}
