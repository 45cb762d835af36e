import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { CheckCircle2, MailWarning, XCircle } from 'lucide-react';
import { resendVerification, verifyEmail } from '@/features/auth/api/auth';
import { useQueryClient } from '@tanstack/react-query';
import { meQueryKey, useMe } from '@/features/auth/api/get-me';
import { setSessionHint } from '@/lib/session-hint';
import { AuthShell } from '@/features/auth/components/auth-shell';
import { Button, buttonClasses } from '@/components/ui/button';
import { LoadingState } from '@/components/ui/loading-state';
import { ApiError, errorMessage } from '@/lib/api';
import { toast } from '@/lib/toast';

type View = 'verifying' | 'success' | 'error' | 'resend';

export default function VerifyEmailPage() {
  const { t } = useTranslation('auth');
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const { data: me } = useMe();
  const queryClient = useQueryClient();
  const mode = params.get('mode');
  const oobCode = params.get('oobCode');
  const [view, setView] = useState<View>(mode === 'verifyEmail' && oobCode ? 'verifying' : 'error');
  const [message, setMessage] = useState<string>(mode === 'verifyEmail' && oobCode ? '' : t('verify.badLink'));
  const [redirect, setRedirect] = useState<{ to: string; seconds: number } | null>(null);
  const [resending, setResending] = useState(false);
  const started = useRef(false);

  useEffect(() => {
    if (started.current || mode !== 'verifyEmail' || !oobCode) return;
    started.current = true;
    verifyEmail(mode, oobCode)
      .then((result) => {
        setView('success');
        // A demo registrant's link signed them in (decision 0046): the shell must ask who is signed in again.
        if (result?.demo) {
          setSessionHint(true);
          void queryClient.invalidateQueries({ queryKey: meQueryKey });
        }
        // A demo registrant continues to the demo after 2 s; everyone else signs in after 3 s (seed 002 section 4).
        setRedirect(result?.demo ? { to: '/demo-access', seconds: 2 } : { to: '/login', seconds: 3 });
      })
      .catch((error: unknown) => {
        setView('error');
        setMessage(errorMessage(error));
      });
  }, [mode, oobCode, queryClient]);

  useEffect(() => {
    if (!redirect) return;
    const timer = window.setTimeout(() => void navigate(redirect.to, { replace: true }), redirect.seconds * 1000);
    return () => window.clearTimeout(timer);
  }, [redirect, navigate]);

  async function resend() {
    if (!me) {
      toast.error(t('verify.signInFirst'));
      return;
    }
    setResending(true);
    try {
      await resendVerification();
      toast.success(t('verify.resent'));
    } catch (error) {
      toast.error(error instanceof ApiError && error.status === 401 ? t('verify.signInFirst') : errorMessage(error, t('verify.resendFailed')));
    } finally {
      setResending(false);
    }
  }

  const links = (
    <div className="mt-4 flex flex-col gap-2">
      <Link to="/demo-register" className={buttonClasses('outline')}>
        {t('verify.backToRegistration')}
      </Link>
      <Link to="/" className={buttonClasses('ghost')}>
        {t('verify.backHome')}
      </Link>
    </div>
  );

  if (view === 'verifying') return <LoadingState fullScreen message={t('verify.verifying')} />;
  if (view === 'success') {
    return (
      <AuthShell title={t('verify.successTitle')}>
        <div className="space-y-3 text-center" role="status">
          <CheckCircle2 className="mx-auto size-12 text-secondary" aria-hidden="true" />
          <p className="text-sm text-slate-700">{t('verify.successBody')}</p>
          <p className="text-xs text-slate-500">{t('verify.redirecting')}</p>
          <Link to={redirect?.to ?? '/login'} className={buttonClasses('primary', 'md', 'w-full')}>
            {t('verify.continue')}
          </Link>
        </div>
      </AuthShell>
    );
  }
  if (view === 'resend' && me) {
    return (
      <AuthShell title={t('verify.resendTitle')} description={t('verify.resendBody')}>
        <MailWarning className="mx-auto mb-4 size-12 text-amber-500" aria-hidden="true" />
        <Button className="w-full" onClick={() => void resend()} loading={resending}>
          {t('verify.resendButton')}
        </Button>
        {links}
      </AuthShell>
    );
  }
  return (
    <AuthShell title={t('verify.errorTitle')}>
      <div className="space-y-3 text-center" role="alert">
        <XCircle className="mx-auto size-12 text-red-500" aria-hidden="true" />
        <p className="text-sm text-slate-700">{message}</p>
        {/* Resending is for the signed-in user only (seed 002, Email verification): a visitor is asked to sign in. */}
        {me ? (
          <Button variant="primary" className="w-full" onClick={() => setView('resend')}>
            {t('verify.getNewLink')}
          </Button>
        ) : (
          <p className="text-sm text-slate-600">
            {t('verify.signInFirst')}{' '}
            <Link to="/login" className="font-medium text-primary hover:underline">
              {t('verify.signIn')}
            </Link>
          </p>
        )}
      </div>
      {links}
    </AuthShell>
  );
}
