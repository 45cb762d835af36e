import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { MailCheck } from 'lucide-react';
import { forgotPassword } from '@/features/auth/api/auth';
import { AuthShell } from '@/features/auth/components/auth-shell';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Button, buttonClasses } from '@/components/ui/button';
import { errorMessage } from '@/lib/api';

export default function ForgotPasswordPage() {
  const { t } = useTranslation('auth');
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!email) return;
    setSending(true);
    setError(null);
    try {
      await forgotPassword(email);
      setSent(true);
    } catch (caught) {
      setError(errorMessage(caught));
    } finally {
      setSending(false);
    }
  }

  if (sent) {
    return (
      <AuthShell title={t('forgot.sentTitle')}>
        <div className="space-y-4 text-center" role="status">
          <MailCheck className="mx-auto size-12 text-secondary" aria-hidden="true" />
          <p className="text-sm text-slate-700">{t('forgot.sentBody', { email })}</p>
          <p className="text-xs text-slate-500">{t('forgot.spamHint')}</p>
          <div className="flex flex-col gap-2">
            <Link to="/login" className={buttonClasses('primary')}>
              {t('forgot.backToLogin')}
            </Link>
            <Button variant="outline" onClick={() => setSent(false)}>
              {t('forgot.sendAnother')}
            </Button>
          </div>
        </div>
      </AuthShell>
    );
  }

  return (
    <AuthShell
      title={t('forgot.title')}
      description={t('forgot.subtitle')}
      footer={
        <div className="flex justify-center gap-4">
          <Link to="/login" className="font-medium text-primary hover:underline">
            {t('forgot.backToLogin')}
          </Link>
          <Link to="/" className="hover:underline">
            {t('login.backHome')}
          </Link>
        </div>
      }
    >
      <form onSubmit={(event) => void submit(event)} noValidate className="space-y-4">
        <Field label={t('login.email')} error={error ?? undefined}>
          <Input
            type="email"
            autoComplete="email"
            autoFocus
            value={email}
            onChange={(event) => {
              setEmail(event.target.value.trim().toLowerCase());
              setError(null);
            }}
          />
        </Field>
        <Button type="submit" className="w-full" size="lg" disabled={!email || sending} loading={sending}>
          {sending ? t('forgot.sending') : t('forgot.send')}
        </Button>
      </form>
    </AuthShell>
  );
}
