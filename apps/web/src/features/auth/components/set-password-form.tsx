import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Field } from '@/components/ui/field';
import { Button } from '@/components/ui/button';
import { PasswordInput } from '@/features/auth/components/password-input';
import { PasswordChecklist, isPasswordReady } from '@/features/auth/components/password-checklist';

interface SetPasswordFormProps {
  submitLabel: ReactNode;
  busyLabel: ReactNode;
  onSubmit: (password: string, confirmPassword: string) => Promise<void>;
}

/** Password + confirmation with show/hide toggles and the live checklist; submit waits for every rule. */
export function SetPasswordForm({ submitLabel, busyLabel, onSubmit }: SetPasswordFormProps) {
  const { t } = useTranslation('auth');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [busy, setBusy] = useState(false);
  const ready = isPasswordReady(password, confirm);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!ready) return;
    setBusy(true);
    try {
      await onSubmit(password, confirm);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={(event) => void submit(event)} noValidate className="space-y-4">
      <Field label={t('password.new')}>
        <PasswordInput autoComplete="new-password" value={password} onChange={(event) => setPassword(event.target.value)} autoFocus />
      </Field>
      <Field label={t('password.confirm')} error={confirm && password !== confirm ? t('password.mismatch') : undefined}>
        <PasswordInput autoComplete="new-password" value={confirm} onChange={(event) => setConfirm(event.target.value)} />
      </Field>
      <PasswordChecklist password={password} confirm={confirm} />
      <Button type="submit" className="w-full" size="lg" disabled={!ready || busy} loading={busy}>
        {busy ? busyLabel : submitLabel}
      </Button>
    </form>
  );
}
