import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { EMAIL_PATTERN } from '@pharmapoint/domain/auth';
import { PERMISSION_CATALOGUE, STAFF_ROLES, canAccessPOS, roleDefaultPermissions, type PermissionArea } from '@pharmapoint/domain/permissions';
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

/** The areas staff permissions are chosen from: the tenant catalogue (the platform's saas area is not a pharmacy's to give). */
const AREAS = (Object.keys(PERMISSION_CATALOGUE) as PermissionArea[]).filter((area) => area !== 'saas');

const posByDefault = (role: string) => canAccessPOS({ role, permissions: [...roleDefaultPermissions(role)] });

export interface MemberDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The member to edit; absent to invite one. */
  member?: Member | null;
  branches: readonly Branch[];
}

/** Invite a member of staff, or edit one: role, explicit permissions, allowed branches and POS access. */
export function MemberDialog({ open, onOpenChange, member, branches }: MemberDialogProps) {
  const { t } = useTranslation('users');
  const invite = useInviteMember();
  const update = useUpdateMember();
  const editing = Boolean(member);
  const initialRole = member?.role ?? 'cashier';
  const [email, setEmail] = useState(member?.email ?? '');
  const [name, setName] = useState(member?.name ?? '');
  const [role, setRole] = useState(initialRole);
  const [useDefaults, setUseDefaults] = useState(member ? member.permissions === null : true);
  const [permissions, setPermissions] = useState<Set<string>>(new Set(member?.permissions ?? roleDefaultPermissions(initialRole)));
  const [allBranches, setAllBranches] = useState(member ? member.allowedBranchIds === null : true);
  const [branchIds, setBranchIds] = useState<Set<string>>(new Set(member?.allowedBranchIds ?? []));
  const [hasPosAccess, setHasPosAccess] = useState(member?.hasPosAccess ?? posByDefault(initialRole));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const pending = invite.isPending || update.isPending;
  const isOwner = member?.isOwner ?? false;

  function changeRole(next: string) {
    setRole(next);
    // While the role's defaults apply, the checkboxes follow the role so a switch to custom starts from them.
    if (useDefaults) setPermissions(new Set(roleDefaultPermissions(next)));
    if (!editing) setHasPosAccess(posByDefault(next));
  }

  function toggle<T>(set: Set<T>, value: T, on: boolean): Set<T> {
    const next = new Set(set);
    if (on) next.add(value);
    else next.delete(value);
    return next;
  }

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setServerError(null);
    const next: Record<string, string> = {};
    if (!editing && !EMAIL_PATTERN.test(email.trim())) next.email = t('form.emailRequired');
    if (!name.trim()) next.name = t('form.nameRequired');
    if (!allBranches && branchIds.size === 0) next.branches = t('form.branchesRequired');
    setErrors(next);
    if (Object.keys(next).length > 0) return;
    const common = {
      name: name.trim(),
      permissions: useDefaults ? null : [...permissions].sort(),
      allowedBranchIds: allBranches ? null : [...branchIds],
      hasPosAccess,
    };
    try {
      if (member) {
        await update.mutateAsync({ id: member.id, patch: isOwner ? { name: common.name } : { ...common, role } });
        toast.success(t('updated', { name: common.name }));
      } else {
        const result = await invite.mutateAsync({ ...common, email: email.trim().toLowerCase(), role });
        toast.success(result.message);
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
      title={member ? t('form.editTitle', { name: member.name }) : t('form.inviteTitle')}
      description={member ? undefined : t('form.inviteDescription')}
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
      <form id="member-form" onSubmit={(event) => void onSubmit(event)} noValidate className="space-y-5">
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label={t('form.email')} required={!editing} error={errors.email}>
            <Input type="email" autoComplete="off" value={email} disabled={editing} maxLength={254} onChange={(event) => setEmail(event.target.value)} />
          </Field>
          <Field label={t('form.name')} required error={errors.name}>
            <Input value={name} maxLength={120} onChange={(event) => setName(event.target.value)} />
          </Field>
          <Field label={t('form.role')} hint={isOwner ? t('form.ownerRole') : t('form.roleHint')}>
            <Select
              value={isOwner ? 'owner' : role}
              disabled={isOwner}
              onChange={(event) => changeRole(event.target.value)}
              options={(isOwner ? ['owner'] : STAFF_ROLES).map((value) => ({ value, label: t(`roles.${value}`) }))}
            />
          </Field>
        </div>

        {isOwner ? null : (
          <>
            <fieldset className="space-y-3">
              <legend className="text-sm font-semibold text-slate-900">{t('form.permissions')}</legend>
              <Switch
                checked={useDefaults}
                onCheckedChange={(on) => {
                  setUseDefaults(on);
                  if (on) setPermissions(new Set(roleDefaultPermissions(role)));
                }}
                label={t('form.useRoleDefaults')}
                description={t('form.useRoleDefaultsHint')}
              />
              {useDefaults ? null : (
                <>
                  <p className="text-sm text-slate-600" aria-live="polite">
                    {t('form.permissionsChosen', { count: permissions.size })}
                  </p>
                  <div className="grid gap-3 sm:grid-cols-2">
                    {AREAS.map((area) => (
                      <fieldset key={area} className="rounded-md border border-slate-200 p-3">
                        <legend className="px-1 text-sm font-medium text-slate-800">{t(`areas.${area}`)}</legend>
                        <div className="flex flex-wrap gap-x-4 gap-y-1.5">
                          {PERMISSION_CATALOGUE[area].map((action) => {
                            const permission = `${area}:${action}`;
                            return (
                              <Checkbox
                                key={permission}
                                label={permission}
                                checked={permissions.has(permission)}
                                onCheckedChange={(on) => setPermissions((current) => toggle(current, permission, on))}
                              />
                            );
                          })}
                        </div>
                      </fieldset>
                    ))}
                  </div>
                </>
              )}
            </fieldset>

            <fieldset className="space-y-2">
              <legend className="text-sm font-semibold text-slate-900">{t('form.branches')}</legend>
              <div className="flex flex-wrap gap-4 text-sm">
                <label className="flex items-center gap-2">
                  <input type="radio" name="branch-scope" className="accent-primary" checked={allBranches} onChange={() => setAllBranches(true)} />
                  {t('form.allBranches')}
                </label>
                <label className="flex items-center gap-2">
                  <input type="radio" name="branch-scope" className="accent-primary" checked={!allBranches} onChange={() => setAllBranches(false)} />
                  {t('form.chosenBranches')}
                </label>
              </div>
              {allBranches ? null : (
                <div className="grid gap-1.5 sm:grid-cols-2">
                  {branches.map((branch) => (
                    <Checkbox
                      key={branch.id}
                      label={branch.isActive ? branch.name : t('form.inactiveBranch', { name: branch.name })}
                      checked={branchIds.has(branch.id)}
                      onCheckedChange={(on) => setBranchIds((current) => toggle(current, branch.id, on))}
                    />
                  ))}
                </div>
              )}
              {errors.branches ? (
                <p role="alert" className="text-xs font-medium text-red-600">
                  {errors.branches}
                </p>
              ) : null}
            </fieldset>

            <Switch checked={hasPosAccess} onCheckedChange={setHasPosAccess} label={t('form.posAccess')} description={t('form.posAccessHint')} />
          </>
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
