import { useEffect, useEffectEvent, useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { CheckCircle2, LogIn, Mail, MailWarning, PartyPopper } from 'lucide-react';
import { DEMO_PHARMACY_ID, EMAIL_FOR_SIGN_IN_KEY, ENTER_DEMO_DELAY_MS, normaliseDemoEmail } from '@pharmapoint/domain/demo';
import { EMAIL_PATTERN } from '@pharmapoint/domain/auth';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Button, buttonClasses } from '@/components/ui/button';
import { LoadingState } from '@/components/ui/loading-state';
import { ErrorState } from '@/components/ui/error-state';
import { errorMessage } from '@/lib/api';
import { formatDate } from '@/lib/format';
import { meQueryKey, setMe } from '@/features/auth/api/get-me';
import { DemoShell } from '@/features/public/components/demo-shell';
import { completeDemoSignIn, enterDemo, getDemoAccess, sendDemoSignInLink } from '@/features/public/components/demo-api';
import '@/features/public/demo-catalogue';

function storedEmail(): string | null {
  try {
    return localStorage.getItem(EMAIL_FOR_SIGN_IN_KEY);
  } catch {
    return null;
  }
}

function storeEmail(email: string | null): void {
  try {
    if (email) localStorage.setItem(EMAIL_FOR_SIGN_IN_KEY, email);
    else localStorage.removeItem(EMAIL_FOR_SIGN_IN_KEY);
  } catch {
    // Storage unavailable: the link page asks for the email.
  }
}

/**
 * /demo-access (seed 002 sections 2, 4, 5 and 8): checking, not signed in (the email-link form), link sent (Use
 * Different Email), verification required (I've Verified My Email reloads; Back to Home) and welcome (Enter Demo,
 * View Plans & Upgrade). A visited sign-in link is completed with the stored email, or the visitor is asked for it.
 */
export default function DemoAccessPage() {
  const { t } = useTranslation('demo');
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const oobCode = params.get('mode') === 'signIn' ? params.get('oobCode') : null;
  const [linkState, setLinkState] = useState<'idle' | 'completing' | 'askEmail'>(oobCode ? 'completing' : 'idle');
  const access = useQuery({ queryKey: ['demo', 'access'], queryFn: getDemoAccess, enabled: linkState === 'idle', retry: false });
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [entering, setEntering] = useState(false);
  const started = useRef(false);

  async function completeLink(withEmail: string) {
    if (!oobCode) return;
    setBusy(true);
    setError(null);
    try {
      const me = await completeDemoSignIn(withEmail, oobCode);
      setMe(queryClient, me);
      storeEmail(null);
      setParams({}, { replace: true });
      setLinkState('idle');
      await queryClient.invalidateQueries({ queryKey: ['demo', 'access'] });
    } catch (caught) {
      setError(errorMessage(caught, t('errors.signInFailed')));
      setLinkState('askEmail');
    } finally {
      setBusy(false);
    }
  }

  // The link is read once, when the page opens on it: an effect event sees the current state without re-running.
  const openedOnLink = useEffectEvent(() => {
    const known = storedEmail();
    if (known) void completeLink(known);
    else setLinkState('askEmail');
  });
  useEffect(() => {
    if (!oobCode || started.current) return;
    started.current = true;
    openedOnLink();
  }, [oobCode]);

  function checkEmail(): string | null {
    const value = normaliseDemoEmail(email);
    if (!value) {
      setError(t('errors.emailRequired'));
      return null;
    }
    if (!EMAIL_PATTERN.test(value)) {
      setError(t('errors.invalidEmail'));
      return null;
    }
    return value;
  }

  async function sendLink(event: FormEvent) {
    event.preventDefault();
    const value = checkEmail();
    if (!value) return;
    setBusy(true);
    setError(null);
    try {
      await sendDemoSignInLink(value);
      storeEmail(value);
      setSentTo(value);
    } catch (caught) {
      setError(errorMessage(caught, t('errors.linkFailed')));
    } finally {
      setBusy(false);
    }
  }

  async function confirmEmail(event: FormEvent) {
    event.preventDefault();
    const value = checkEmail();
    if (value) await completeLink(value);
  }

  async function enter() {
    setEntering(true);
    setError(null);
    try {
      await enterDemo();
      // The local demo session's marks (seed 002 section 3); the session itself is the server's cookie.
      try {
        localStorage.setItem('isDemoUser', 'true');
        localStorage.setItem('demoPharmacyId', DEMO_PHARMACY_ID);
      } catch {
        // Storage unavailable: nothing depends on these marks.
      }
      await queryClient.invalidateQueries({ queryKey: meQueryKey });
      window.setTimeout(() => void navigate('/app/dashboard'), ENTER_DEMO_DELAY_MS);
    } catch (caught) {
      setError(t('errors.enterFailed', { message: errorMessage(caught) }));
      setEntering(false);
    }
  }

  const emailField = (
    <Field label={t('access.email')} error={error ?? undefined}>
      <Input
        type="email"
        autoComplete="email"
        value={email}
        onChange={(event) => {
          setEmail(event.target.value);
          setError(null);
        }}
      />
    </Field>
  );
  const homeLink = (
    <Link to="/" className="hover:underline">
      {t('common.backHome')}
    </Link>
  );

  if (linkState === 'completing' || busy && linkState !== 'idle') return <LoadingState fullScreen message={t('access.signingIn')} />;
  if (linkState === 'askEmail') {
    return (
      <DemoShell title={t('access.confirmTitle')} description={t('access.confirmBody')} icon={<Mail className="size-10 text-primary" aria-hidden="true" />} footer={homeLink}>
        <form onSubmit={(event) => void confirmEmail(event)} noValidate className="space-y-4">
          {emailField}
          <Button type="submit" className="w-full" size="lg" loading={busy}>
            {t('access.confirmButton')}
          </Button>
          <Link to="/demo-access" onClick={() => setLinkState('idle')} className={buttonClasses('ghost', 'md', 'w-full')}>
            {t('access.requestNewLink')}
          </Link>
        </form>
      </DemoShell>
    );
  }
  if (access.isPending) return <LoadingState fullScreen message={t('access.checking')} />;
  if (access.isError) {
    return (
      <DemoShell title={t('access.title')} footer={homeLink}>
        <ErrorState message={t('errors.verifyFailed')} onRetry={() => void access.refetch()} />
      </DemoShell>
    );
  }
  const state = access.data;

  if (state.state === 'welcome') {
    return (
      <DemoShell title={t('access.welcomeTitle', { name: state.name })} description={t('access.welcomeBody')} icon={<PartyPopper className="size-12 text-secondary" aria-hidden="true" />} footer={homeLink}>
        <div className="space-y-4">
          <ul className="space-y-1 text-sm text-slate-700">
            {(['feature1', 'feature2', 'feature3'] as const).map((key) => (
              <li key={key} className="flex items-start gap-2">
                <CheckCircle2 className="mt-0.5 size-4 shrink-0 text-secondary" aria-hidden="true" />
                {t(`access.${key}`)}
              </li>
            ))}
          </ul>
          <p className="rounded-md bg-amber-50 p-3 text-xs text-amber-900">{t('access.readOnly')}</p>
          {state.accessCount > 0 ? (
            <p className="text-xs text-slate-500">{t('access.visits', { count: state.accessCount, date: formatDate(state.lastAccessAt) })}</p>
          ) : null}
          {error ? (
            <p role="alert" className="text-sm text-red-700">
              {error}
            </p>
          ) : null}
          <Button className="w-full" size="lg" onClick={() => void enter()} loading={entering} icon={<LogIn className="size-4" aria-hidden="true" />}>
            {entering ? t('access.entering') : t('access.enter')}
          </Button>
          <Link to="/#pricing" className={buttonClasses('outline', 'md', 'w-full')}>
            {t('access.upgrade')}
          </Link>
        </div>
      </DemoShell>
    );
  }

  if (state.state === 'verification_required') {
    return (
      <DemoShell title={t('access.verifyTitle')} icon={<MailWarning className="size-12 text-amber-500" aria-hidden="true" />}>
        <div className="space-y-4 text-center">
          <p className="text-sm text-slate-700" role="alert">
            {t('errors.verifyFirst')}
          </p>
          <p className="text-xs text-slate-500">{t('access.verifyBody', { email: state.email })}</p>
          <Button className="w-full" onClick={() => window.location.reload()}>
            {t('access.verified')}
          </Button>
          <Link to="/" className={buttonClasses('outline', 'md', 'w-full')}>
            {t('common.backHome')}
          </Link>
        </div>
      </DemoShell>
    );
  }

  if (sentTo) {
    return (
      <DemoShell title={t('access.sentTitle')} icon={<Mail className="size-12 text-secondary" aria-hidden="true" />} footer={homeLink}>
        <div className="space-y-4 text-center" role="status">
          <p className="text-sm text-slate-700">{t('access.sentBody', { email: sentTo })}</p>
          <p className="text-xs text-slate-500">{t('access.sentHint')}</p>
          <Button
            variant="outline"
            className="w-full"
            onClick={() => {
              setSentTo(null);
              setEmail('');
              storeEmail(null);
            }}
          >
            {t('access.differentEmail')}
          </Button>
        </div>
      </DemoShell>
    );
  }

  return (
    <DemoShell
      title={t('access.title')}
      description={t('access.signInBody')}
      icon={<Mail className="size-10 text-primary" aria-hidden="true" />}
      footer={
        <div className="flex flex-col items-center gap-2">
          <span>
            {t('access.notRegistered')}{' '}
            <Link to="/demo-register" className="font-medium text-primary hover:underline">
              {t('access.register')}
            </Link>
          </span>
          {homeLink}
        </div>
      }
    >
      <form onSubmit={(event) => void sendLink(event)} noValidate className="space-y-4">
        {emailField}
        <Button type="submit" className="w-full" size="lg" loading={busy}>
          {busy ? t('access.sending') : t('access.sendLink')}
        </Button>
      </form>
    </DemoShell>
  );
}
