import { useState } from 'react';
import { Controller, useForm, useWatch, type Resolver } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { useTranslation } from 'react-i18next';
import { PERMISSION_CATALOGUE, STAFF_ROLES, canAccessPOS, roleDefaultPermissions, type Permission, type PermissionArea } from '@pharmapoint/domain/permissions';
import { inviteMemberSchema, patchMemberSchema } from '@pharmapoint/domain/users';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Dialog } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { Switch } from '@/components/ui/switch';
import { errorMessage } from '@/lib/api';
import { toast } from '@/lib/toast';
import type { Branch } from '@/features/branches/api/branches';
import { useInviteMember, useUpdateMember, type Member } from '@/features/users/api/users';
import { useIdempotencyKey } from '@/lib/idempotency';
import '@/features/users/users-catalogue';

/** The areas staff permissions are chosen from: the tenant catalogue (the platform's saas area is not a pharmacy's to give). */
const AREAS = (Object.keys(PERMISSION_CATALOGUE) as PermissionArea[]).filter((area) => area !== 'saas');

const posByDefault = (role: string) => canAccessPOS({ role, permissions: [...roleDefaultPermissions(role)] });
const defaultsOf = (role: string): Permission[] => [...roleDefaultPermissions(role)];

/** The form's values are the invitation request itself (packages/domain/src/users.ts): null lists mean role defaults / every branch. */
type MemberFormValues = z.input<typeof inviteMemberSchema>;

/**
 * The schemas the form is checked with: the domain's own. Editing checks the membership fields only (a pharmacy
 * never edits the person's name or email, decision 0015); the form holds no other fields then.
 */
const editSchema = z.object(patchMemberSchema.shape);
const inviteResolver = zodResolver(inviteMemberSchema) as unknown as Resolver<MemberFormValues>;
const editResolver = zodResolver(editSchema) as unknown as Resolver<MemberFormValues>;

export interface MemberDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The member to edit; absent to invite one. */
  member?: Member | null;
  branches: readonly Branch[];
}

/** Invite a member of staff, or edit a membership: role, explicit permissions, allowed branches and POS access. */
export function MemberDialog({ open, onOpenChange, member, branches }: MemberDialogProps) {
  const { t } = useTranslation('users');
  const invite = useInviteMember();
  const keys = useIdempotencyKey();
  const update = useUpdateMember();
  const editing = Boolean(member);
  const initialRole = member?.role ?? 'cashier';
  const [serverError, setServerError] = useState<string | null>(null);
  const form = useForm<MemberFormValues>({
    resolver: editing ? editResolver : inviteResolver,
    defaultValues: member
      ? {
          role: member.role as MemberFormValues['role'],
          permissions: (member.permissions as Permission[] | null) ?? null,
          allowedBranchIds: member.allowedBranchIds,
          hasPosAccess: member.hasPosAccess,
        }
      : { email: '', name: '', role: 'cashier', permissions: null, allowedBranchIds: null, hasPosAccess: posByDefault(initialRole) },
  });
  const { register, control, handleSubmit, setValue, formState } = form;
  const errors = formState.errors;
  const role = useWatch({ control, name: 'role' });
  const permissions = useWatch({ control, name: 'permissions' });
  const allowedBranchIds = useWatch({ control, name: 'allowedBranchIds' });
  const pending = invite.isPending || update.isPending;
  const useDefaults = permissions === null || permissions === undefined;
  const allBranches = allowedBranchIds === null || allowedBranchIds === undefined;

  function changeRole(next: string) {
    setValue('role', next as MemberFormValues['role'], { shouldDirty: true });
    if (!editing) setValue('hasPosAccess', posByDefault(next));
  }

  function toggle<T>(list: readonly T[], value: T, on: boolean): T[] {
    return on ? [...new Set([...list, value])] : list.filter((item) => item !== value);
  }

  const submit = handleSubmit(async (values) => {
    setServerError(null);
    const membership = {
      role: values.role,
      permissions: values.permissions ? [...values.permissions].sort() : null,
      allowedBranchIds: values.allowedBranchIds ?? null,
      hasPosAccess: values.hasPosAccess,
    };
    try {
      if (member) {
        await update.mutateAsync({ id: member.id, patch: membership });
        toast.success(t('updated', { name: member.name }));
      } else {
        const body = { ...membership, email: (values.email ?? '').trim().toLowerCase(), name: (values.name ?? '').trim() };
        const result = await invite.mutateAsync({ input: body, key: keys.keyFor(body) });
        keys.renew();
        toast.success(result.message);
      }
      onOpenChange(false);
    } catch (error) {
      setServerError(errorMessage(error));
    }
  });

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => (pending ? undefined : onOpenChange(next))}
      title={member ? t('form.editTitle', { name: member.name }) : t('form.inviteTitle')}
      description={member ? t('form.editDescription', { email: member.email }) : t('form.inviteDescription')}
      size="lg"
      footer={
        <>
          <Button variant="outline" onClick={() => onOpenChange(false)} disabled={pending}>
            {t('common:actions.cancel')}
          </Button>
          <Button type="submit" form="member-form" loading={pending}>
            {member ? t('form.saveChanges') : t('form.sendInvite')}
          </Button>
        </>
      }
    >
      <form id="member-form" onSubmit={(event) => void submit(event)} noValidate className="space-y-5">
        <div className="grid gap-4 sm:grid-cols-2">
          {editing ? null : (
            <>
              <Field label={t('form.email')} required error={errors.email?.message}>
                <Input type="email" autoComplete="off" maxLength={254} {...register('email')} />
              </Field>
              <Field label={t('form.name')} required hint={t('form.nameHint')} error={errors.name?.message}>
                <Input maxLength={120} {...register('name')} />
              </Field>
            </>
          )}
          <Field label={t('form.role')} hint={t('form.roleHint')} error={errors.role?.message}>
            <Select
              value={role}
              onChange={(event) => changeRole(event.target.value)}
              options={STAFF_ROLES.map((value) => ({ value, label: t(`roles.${value}`) }))}
            />
          </Field>
        </div>

        <fieldset className="space-y-3">
          <legend className="text-sm font-semibold text-slate-900">{t('form.permissions')}</legend>
          <Switch
            checked={useDefaults}
            onCheckedChange={(on) => setValue('permissions', on ? null : defaultsOf(role), { shouldDirty: true })}
            label={t('form.useRoleDefaults')}
            description={t('form.useRoleDefaultsHint')}
          />
          {useDefaults ? null : (
            <>
              <p className="text-sm text-slate-600" aria-live="polite">
                {t('form.permissionsChosen', { count: permissions?.length ?? 0 })}
              </p>
              <div className="grid gap-3 sm:grid-cols-2">
                {AREAS.map((area) => (
                  <fieldset key={area} className="rounded-md border border-slate-200 p-3">
                    <legend className="px-1 text-sm font-medium text-slate-800">{t(`areas.${area}`)}</legend>
                    <div className="flex flex-wrap gap-x-4 gap-y-1.5">
                      {PERMISSION_CATALOGUE[area].map((action) => {
                        const permission = `${area}:${action}` as Permission;
                        return (
                          <Checkbox
                            key={permission}
                            label={permission}
                            checked={permissions?.includes(permission) ?? false}
                            onCheckedChange={(on) => setValue('permissions', toggle(permissions ?? [], permission, on), { shouldDirty: true })}
                          />
                        );
                      })}
                    </div>
                  </fieldset>
                ))}
              </div>
            </>
          )}
          {errors.permissions?.message ? (
            <p role="alert" className="text-xs font-medium text-red-600">
              {errors.permissions.message}
            </p>
          ) : null}
        </fieldset>

        <fieldset className="space-y-2">
          <legend className="text-sm font-semibold text-slate-900">{t('form.branches')}</legend>
          <div className="flex flex-wrap gap-4 text-sm">
            <label className="flex items-center gap-2">
              <input type="radio" name="branch-scope" className="accent-primary" checked={allBranches} onChange={() => setValue('allowedBranchIds', null, { shouldDirty: true })} />
              {t('form.allBranches')}
            </label>
            <label className="flex items-center gap-2">
              <input type="radio" name="branch-scope" className="accent-primary" checked={!allBranches} onChange={() => setValue('allowedBranchIds', [], { shouldDirty: true })} />
              {t('form.chosenBranches')}
            </label>
          </div>
          {allBranches ? null : (
            <div className="grid gap-1.5 sm:grid-cols-2">
              {branches.map((branch) => (
                <Checkbox
                  key={branch.id}
                  label={branch.isActive ? branch.name : t('form.inactiveBranch', { name: branch.name })}
                  checked={allowedBranchIds?.includes(branch.id) ?? false}
                  onCheckedChange={(on) => setValue('allowedBranchIds', toggle(allowedBranchIds ?? [], branch.id, on), { shouldDirty: true, shouldValidate: formState.isSubmitted })}
                />
              ))}
            </div>
          )}
          {errors.allowedBranchIds?.message ? (
            <p role="alert" className="text-xs font-medium text-red-600">
              {errors.allowedBranchIds.message}
            </p>
          ) : null}
        </fieldset>

        <Controller
          control={control}
          name="hasPosAccess"
          render={({ field }) => (
            <Switch checked={Boolean(field.value)} onCheckedChange={field.onChange} label={t('form.posAccess')} description={t('form.posAccessHint')} />
          )}
        />

        {serverError ? (
          <p role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-700">
            {serverError}
          </p>
        ) : null}
      </form>
    </Dialog>
  );
}
