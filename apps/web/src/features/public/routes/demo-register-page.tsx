import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { MailCheck, Sparkles } from 'lucide-react';
import { demoRegistrationProblem, EMAIL_FOR_SIGN_IN_KEY, type DemoRegistrationForm } from '@pharmapoint/domain/demo';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Button, buttonClasses } from '@/components/ui/button';
import { ApiError, errorMessage } from '@/lib/api';
import { DemoShell } from '@/features/public/components/demo-shell';
import { registerDemo } from '@/features/public/components/demo-api';
import '@/features/public/demo-catalogue';

const EMPTY: DemoRegistrationForm = { name: '', email: '', phone: '', pharmacyName: '' };

/**
 * /demo-register (seed 002 sections 2, 4, 5 and 8): full name, email and phone (required) and pharmacy name
 * (optional); one message for the form, cleared by editing any field; then Check Your Email with the steps and a
 * spam hint. An address already registered is pointed to /demo-access.
 */
export default function DemoRegisterPage() {
  const { t } = useTranslation('demo');
  const [form, setForm] = useState<DemoRegistrationForm>(EMPTY);
  const [error, setError] = useState<{ text: string; registered: boolean } | null>(null);
  const [sending, setSending] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);

  const edit = (key: keyof DemoRegistrationForm) => (value: string) => {
    setForm((current) => ({ ...current, [key]: value }));
    setError(null);
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    const problem = demoRegistrationProblem(form);
    if (problem) {
      setError({ text: t(`register.errors.${problem}`), registered: false });
      return;
    }
    setSending(true);
    setError(null);
    try {
      const answer = await registerDemo({ name: form.name.trim(), email: form.email.trim(), phone: form.phone.trim(), pharmacyName: form.pharmacyName?.trim() || undefined });
      try {
        localStorage.setItem(EMAIL_FOR_SIGN_IN_KEY, answer.email);
      } catch {
        // Storage unavailable: the sign-in link page asks for the email instead.
      }
      setSentTo(answer.email);
    } catch (caught) {
      const registered = caught instanceof ApiError && caught.code === 'DEMO_EMAIL_REGISTERED';
      const known = caught instanceof ApiError && caught.status < 500 && caught.code !== 'INTERNAL';
      setError({ text: known ? errorMessage(caught) : t('register.errors.failed', { message: errorMessage(caught) }), registered });
    } finally {
      setSending(false);
    }
  }

  if (sentTo) {
    return (
      <DemoShell title={t('register.sent.title')} icon={<MailCheck className="size-12 text-secondary" aria-hidden="true" />}>
        <div className="space-y-4" role="status">
          <p className="text-center text-sm text-slate-700">{t('register.sent.body', { email: sentTo })}</p>
          <ol className="list-decimal space-y-1 rounded-lg bg-slate-50 p-4 pl-8 text-sm text-slate-700">
            <li>{t('register.sent.step1')}</li>
            <li>{t('register.sent.step2')}</li>
            <li>{t('register.sent.step3')}</li>
          </ol>
          <p className="text-center text-xs text-slate-500">{t('register.sent.spam')}</p>
          <div className="flex flex-col gap-2">
            <Link to="/demo-access" className={buttonClasses('outline')}>
              {t('register.sent.alreadyVerified')}
            </Link>
            <Link to="/" className={buttonClasses('ghost')}>
              {t('common.backHome')}
            </Link>
          </div>
        </div>
      </DemoShell>
    );
  }

  return (
    <DemoShell
      title={t('register.title')}
      description={t('register.subtitle')}
      icon={<Sparkles className="size-10 text-primary" aria-hidden="true" />}
      footer={
        <div className="flex flex-col items-center gap-2">
          <span>
            {t('register.alreadyRegistered')}{' '}
            <Link to="/demo-access" className="font-medium text-primary hover:underline">
              {t('register.accessDemo')}
            </Link>
          </span>
          <span>
            {t('register.readyToBuy')}{' '}
            <Link to="/purchase" className="font-medium text-primary hover:underline">
              {t('register.purchase')}
            </Link>
          </span>
          <Link to="/" className="hover:underline">
            {t('common.backHome')}
          </Link>
        </div>
      }
    >
      <form onSubmit={(event) => void submit(event)} noValidate className="space-y-4">
        {error ? (
          <div role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
            {error.text}
            {error.registered ? (
              <>
                {' '}
                <Link to="/demo-access" className="font-semibold underline">
                  {t('register.alreadyRegisteredLink')}
                </Link>
              </>
            ) : null}
          </div>
        ) : null}
        <Field label={t('register.name')} required>
          <Input autoComplete="name" value={form.name} onChange={(e) => edit('name')(e.target.value)} maxLength={120} />
        </Field>
        <Field label={t('register.email')} required>
          <Input type="email" autoComplete="email" value={form.email} onChange={(e) => edit('email')(e.target.value)} maxLength={254} />
        </Field>
        <Field label={t('register.phone')} required hint={t('register.phoneHint')}>
          <Input type="tel" autoComplete="tel" value={form.phone} onChange={(e) => edit('phone')(e.target.value)} maxLength={30} />
        </Field>
        <Field label={t('register.pharmacyName')} hint={t('register.optional')}>
          <Input autoComplete="organization" value={form.pharmacyName} onChange={(e) => edit('pharmacyName')(e.target.value)} maxLength={120} />
        </Field>
        <Button type="submit" className="w-full" size="lg" loading={sending} disabled={sending}>
          {sending ? t('register.submitting') : t('register.submit')}
        </Button>
        <p className="text-center text-xs text-slate-500">{t('register.noCard')}</p>
      </form>
    </DemoShell>
  );
}
