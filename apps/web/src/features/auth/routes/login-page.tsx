import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { LogIn } from 'lucide-react';
import type { MeResponse } from '@pharmapoint/domain/auth';
import { getProviders, login } from '@/features/auth/api/auth';
import { setMe, useMe } from '@/features/auth/api/get-me';
import { AuthShell } from '@/features/auth/components/auth-shell';
import { PasswordInput } from '@/features/auth/components/password-input';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Button, buttonClasses } from '@/components/ui/button';
import { LoadingState } from '@/components/ui/loading-state';
import { errorMessage } from '@/lib/api';
import { toast } from '@/lib/toast';

/** ?error= values the Google callback sends back, and their messages (seed 000 section 8). */
const GOOGLE_ERRORS: Record<string, string> = {
  account_not_found: 'login.google.accountNotFound',
  access_denied: 'login.google.cancelled',
  other_method: 'login.google.otherMethod',
  google_failed: 'login.google.failed',
};

function destinationFrom(state: unknown): string | null {
  if (state && typeof state === 'object' && 'from' in state && typeof state.from === 'string' && state.from.startsWith('/')) return state.from;
  return null;
}

/**
 * Where a person goes after signing in: where they were going; but someone who works in no pharmacy yet (several
 * and no obvious last one, or only invitations) chooses first (decision 0015), unless they were on their way to a
 * page outside the signed-in area (an invitation link). The operator goes to the admin area.
 */
export function landingAfterSignIn(me: Pick<MeResponse, 'pharmacy' | 'user'>, from: string | null): string {
  if (!me.pharmacy && !me.user.isPlatformOperator) return from && !from.startsWith('/app') && !from.startsWith('/pos') ? from : '/choose-pharmacy';
  return from ?? (me.pharmacy ? '/app/dashboard' : '/app/admin');
}

export default function LoginPage() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const location = useLocation();
  const [params] = useSearchParams();
  const queryClient = useQueryClient();
  const { data: me, isPending: checking } = useMe();
  const providers = useQuery({ queryKey: ['auth', 'providers'], queryFn: getProviders, staleTime: Infinity, retry: false });
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const justSignedIn = useRef(false);
  const from = destinationFrom(location.state);
  const googleError = params.get('error');
  const googleMessage = googleError ? t(GOOGLE_ERRORS[googleError] ?? 'login.google.failed') : null;

  useEffect(() => {
    if (googleMessage) toast.error(googleMessage, { id: 'google-error' });
  }, [googleMessage]);

  if (checking) return <LoadingState fullScreen message={t('login.checking')} />;
  if (me && !justSignedIn.current) return <Navigate to={landingAfterSignIn(me, from)} replace />;

  async function submit(event: FormEvent) {
    event.preventDefault();
    const trimmed = email.trim();
    if (!trimmed || !password) {
      setError(t('login.bothRequired'));
      toast.error(t('login.bothRequired'));
      return;
    }
    setSubmitting(true);
    setError(null);
    try {
      const response = await login(trimmed.toLowerCase(), password);
      justSignedIn.current = true;
      const { message: _message, ...signedIn } = response;
      setMe(queryClient, signedIn);
      toast.success(t('login.welcome'));
      void navigate(landingAfterSignIn(signedIn, from), { replace: true });
    } catch (caught) {
      const message = errorMessage(caught, t('login.failed'));
      setError(message);
      toast.error(message);
      setPassword('');
    } finally {
      setSubmitting(false);
    }
  }

  const canSubmit = email.trim().length > 0 && password.length > 0 && !submitting;

  return (
    <AuthShell
      title={t('login.title')}
      description={t('login.subtitle')}
      footer={
        <div className="space-y-2">
          <p>
            {t('login.noAccount')}{' '}
            <Link to="/trial" className="font-medium text-primary hover:underline">
              {t('login.tryDemo')}
            </Link>
          </p>
          <p>
            <Link to="/" className="text-slate-600 hover:underline">
              {t('login.backHome')}
            </Link>
          </p>
        </div>
      }
    >
      {googleMessage || error ? (
        <p role="alert" className="mb-4 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          {error ?? googleMessage}
        </p>
      ) : null}
      <form onSubmit={(event) => void submit(event)} noValidate className="space-y-4">
        <Field label={t('login.email')}>
          <Input type="email" autoComplete="email" value={email} onChange={(event) => setEmail(event.target.value)} autoFocus />
        </Field>
        <Field label={t('login.password')}>
          <PasswordInput autoComplete="current-password" value={password} onChange={(event) => setPassword(event.target.value)} />
        </Field>
        <div className="flex justify-end">
          <Link to="/forgot-password" className="text-sm font-medium text-primary hover:underline">
            {t('login.forgot')}
          </Link>
        </div>
        <Button type="submit" className="w-full" size="lg" disabled={!canSubmit} loading={submitting} icon={<LogIn className="size-4" aria-hidden="true" />}>
          {submitting ? t('login.signingIn') : t('login.signIn')}
        </Button>
      </form>
      {providers.data?.devMailbox ? (
        <p className="mt-4 rounded-md border border-slate-200 bg-slate-50 px-3 py-2 text-sm text-slate-700">
          {t('login.devMailbox')}{' '}
          <a href="/dev/mailbox" className="font-medium text-primary hover:underline">
            /dev/mailbox
          </a>
        </p>
      ) : null}
      {providers.data?.google ? (
        <>
          <div className="my-5 flex items-center gap-3 text-xs uppercase text-slate-400">
            <span className="h-px flex-1 bg-slate-200" />
            {t('login.or')}
            <span className="h-px flex-1 bg-slate-200" />
          </div>
          <a href="/api/auth/google/start" className={buttonClasses('outline', 'lg', 'w-full')}>
            <svg viewBox="0 0 24 24" className="size-4" aria-hidden="true">
              <path fill="#EA4335" d="M12 10.2v3.9h5.5c-.2 1.3-1.6 3.9-5.5 3.9-3.3 0-6-2.7-6-6.1s2.7-6.1 6-6.1c1.9 0 3.1.8 3.8 1.5l2.6-2.5C16.8 3.3 14.6 2.3 12 2.3 6.7 2.3 2.4 6.6 2.4 12s4.3 9.7 9.6 9.7c5.5 0 9.2-3.9 9.2-9.4 0-.6-.1-1.1-.2-1.6H12z" />
            </svg>
            {t('login.google.button')}
          </a>
        </>
      ) : null}
    </AuthShell>
  );
}
