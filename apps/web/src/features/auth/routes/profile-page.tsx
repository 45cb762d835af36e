import { useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { PIN_PATTERN } from '@pharmapoint/domain/auth';
import { setPin } from '@/features/auth/api/auth';
import { meQueryKey, setMe } from '@/features/auth/api/get-me';
import { updateProfile, useMyPharmacies } from '@/features/auth/api/memberships';
import { PendingInvitations } from '@/features/auth/components/pending-invitations';
import { PharmacySwitcher } from '@/app/layout/pharmacy-switcher';
import { usePermissions } from '@/features/auth/hooks/use-permissions';
import { PasswordInput } from '@/features/auth/components/password-input';
import { PageHeader } from '@/components/ui/page-header';
import { Card } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Button } from '@/components/ui/button';
import { Badge } from '@/components/ui/badge';
import { errorMessage } from '@/lib/api';
import { formatDateTime } from '@/lib/format';
import { toast } from '@/lib/toast';

export default function ProfilePage() {
  const { t } = useTranslation('auth');
  const { me } = usePermissions();
  const queryClient = useQueryClient();
  const [pin, setPinValue] = useState('');
  const [password, setPassword] = useState('');
  const [pinError, setPinError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [name, setName] = useState<string | null>(null);
  const [nameError, setNameError] = useState<string | null>(null);
  const [savingName, setSavingName] = useState(false);
  const mine = useMyPharmacies(Boolean(me) && !me?.isDemo);
  if (!me) return null;
  const currentName = name ?? me.user.name;

  async function saveName(event: FormEvent) {
    event.preventDefault();
    if (!currentName.trim()) {
      setNameError(t('profile.nameRequired'));
      return;
    }
    setSavingName(true);
    try {
      const updated = await updateProfile(currentName.trim());
      setMe(queryClient, updated);
      setName(null);
      toast.success(t('profile.nameSaved'));
    } catch (error) {
      setNameError(errorMessage(error));
    } finally {
      setSavingName(false);
    }
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!PIN_PATTERN.test(pin)) {
      setPinError(t('lock.pinFormat'));
      return;
    }
    setSaving(true);
    try {
      await setPin(pin, password);
      toast.success(t('profile.pinSaved'));
      setPinValue('');
      setPassword('');
      await queryClient.invalidateQueries({ queryKey: meQueryKey });
    } catch (error) {
      toast.error(errorMessage(error));
    } finally {
      setSaving(false);
    }
  }

  return (
    <div className="max-w-2xl space-y-6">
      <PageHeader title={t('profile.title')} description={t('profile.subtitle')} />
      <Card title={t('profile.account')}>
        <dl className="grid grid-cols-1 gap-3 text-sm sm:grid-cols-[10rem_1fr]">
          <dt className="text-slate-500">{t('invite.name')}</dt>
          <dd className="font-medium">{me.user.displayName || me.user.name}</dd>
          <dt className="text-slate-500">{t('login.email')}</dt>
          <dd className="font-medium">
            {me.user.email}{' '}
            <Badge tone={me.user.emailVerified ? 'success' : 'warning'}>{me.user.emailVerified ? t('profile.verified') : t('profile.unverified')}</Badge>
          </dd>
          <dt className="text-slate-500">{t('profile.role')}</dt>
          <dd className="font-medium">{me.membership ? t(`shell:roles.${me.membership.role}`, { defaultValue: me.membership.role }) : '—'}</dd>
          <dt className="text-slate-500">{t('profile.pharmacy')}</dt>
          <dd className="font-medium">{me.pharmacy?.name ?? '—'}</dd>
          <dt className="text-slate-500">{t('profile.branch')}</dt>
          <dd className="font-medium">{me.branch?.name ?? '—'}</dd>
          <dt className="text-slate-500">{t('profile.lastLogin')}</dt>
          <dd className="font-medium">{formatDateTime(me.user.lastLoginAt) || '—'}</dd>
        </dl>
      </Card>
      {me.isDemo ? null : (
        <Card title={t('profile.nameTitle')} description={t('profile.nameHint')}>
          <form onSubmit={(event) => void saveName(event)} noValidate className="flex flex-wrap items-end gap-3">
            <Field label={t('profile.yourName')} error={nameError ?? undefined} className="min-w-0 flex-1">
              <Input
                value={currentName}
                maxLength={120}
                autoComplete="name"
                onChange={(event) => {
                  setName(event.target.value);
                  setNameError(null);
                }}
              />
            </Field>
            <Button type="submit" loading={savingName} disabled={currentName.trim() === me.user.name}>
              {t('profile.saveName')}
            </Button>
          </form>
        </Card>
      )}
      {mine.data ? <PendingInvitations invitations={mine.data.invitations} /> : null}
      {mine.data && mine.data.pharmacies.length > 1 ? (
        <Card title={t('pharmacies.yours')} description={t('pharmacies.yoursHint')}>
          <PharmacySwitcher me={me} tone="light" />
        </Card>
      ) : null}
      <Card title={t('profile.pinTitle')} description={me.user.hasPin ? t('profile.pinChange') : t('profile.pinSet')}>
        <form onSubmit={(event) => void submit(event)} noValidate className="space-y-4">
          <Field label={t('profile.newPin')} hint={t('profile.pinHint')} error={pinError ?? undefined}>
            <Input
              type="password"
              inputMode="numeric"
              autoComplete="off"
              maxLength={6}
              value={pin}
              onChange={(event) => {
                setPinValue(event.target.value.replace(/\D/g, '').slice(0, 6));
                setPinError(null);
              }}
            />
          </Field>
          <Field label={t('profile.currentPassword')}>
            <PasswordInput autoComplete="current-password" value={password} onChange={(event) => setPassword(event.target.value)} />
          </Field>
          <Button type="submit" loading={saving} disabled={!pin || !password}>
            {t('profile.savePin')}
          </Button>
        </form>
      </Card>
    </div>
  );
}
