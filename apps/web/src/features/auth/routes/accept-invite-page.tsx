import { useState } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { MeResponse } from '@pharmapoint/domain/auth';
import { acceptInvite, getInvite } from '@/features/auth/api/auth';
import { meQueryKey, useMe } from '@/features/auth/api/get-me';
import { acceptInvitation, declineInvitation, switchPharmacy } from '@/features/auth/api/memberships';
import { AuthShell } from '@/features/auth/components/auth-shell';
import { SetPasswordForm } from '@/features/auth/components/set-password-form';
import { useLogout } from '@/features/auth/hooks/use-logout';
import { Button, buttonClasses } from '@/components/ui/button';
import { ErrorState } from '@/components/ui/error-state';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { LoadingState } from '@/components/ui/loading-state';
import { errorMessage } from '@/lib/api';
import { toast } from '@/lib/toast';

function isMe(value: unknown): value is MeResponse {
  return Boolean(value && typeof value === 'object' && 'user' in value && 'permissions' in value);
}

/**
 * /accept-invite?token=: the emailed invitation (decision 0015). A new person chooses their name and password here.
 * A person who already has an account answers in their own session: signed in as the invited email they accept or
 * decline here; otherwise they are asked to sign in as that email (and come back here).
 */
export default function AcceptInvitePage() {
  const { t } = useTranslation('auth');
  const [params] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const logout = useLogout();
  const { data: me, isPending: checking } = useMe();
  const token = params.get('token') ?? '';
  const invite = useQuery({ queryKey: ['invite', token], queryFn: () => getInvite(token), enabled: Boolean(token), retry: false });
  const [name, setName] = useState<string | null>(null);
  const [answering, setAnswering] = useState(false);

  if (!token || invite.isError) {
    return (
      <AuthShell title={t('invite.title')}>
        <ErrorState title={t('invite.invalidTitle')} message={invite.isError ? errorMessage(invite.error) : t('invite.missingToken')} />
        <p className="mt-4 text-center text-sm">
          <Link to="/login" className="font-medium text-primary hover:underline">
            {t('forgot.backToLogin')}
          </Link>
        </p>
      </AuthShell>
    );
  }
  if (invite.isPending || checking) return <LoadingState fullScreen />;
  const details = invite.data;

  async function answer(accept: boolean) {
    setAnswering(true);
    try {
      if (accept) {
        await acceptInvitation(details.pharmacyId);
        await switchPharmacy(details.pharmacyId);
        queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== 'me' });
        await queryClient.invalidateQueries();
        toast.success(t('invite.accepted', { pharmacy: details.pharmacyName }));
        void navigate('/app/dashboard', { replace: true });
      } else {
        await declineInvitation(details.pharmacyId);
        await queryClient.invalidateQueries();
        toast.success(t('invite.declined'));
        void navigate(me?.pharmacy ? '/app/dashboard' : '/choose-pharmacy', { replace: true });
      }
    } catch (error) {
      toast.error(errorMessage(error));
    } finally {
      setAnswering(false);
    }
  }

  const summary = (
    <dl className="mb-5 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 rounded-md bg-slate-50 p-3 text-sm">
      <dt className="text-slate-500">{t('login.email')}</dt>
      <dd className="break-all font-medium text-slate-900">{details.email}</dd>
      <dt className="text-slate-500">{t('invite.pharmacy')}</dt>
      <dd className="font-medium text-slate-900">{details.pharmacyName}</dd>
    </dl>
  );

  if (details.hasAccount) {
    const here = `${location.pathname}${location.search}`;
    const signedInAsInvited = me && me.user.email.toLowerCase() === details.email.toLowerCase();
    return (
      <AuthShell title={t('invite.title')} description={t('invite.subtitle', { pharmacy: details.pharmacyName })}>
        {summary}
        {signedInAsInvited ? (
          <div className="space-y-3">
            <p className="text-sm text-slate-700">{t('invite.answerHere', { pharmacy: details.pharmacyName })}</p>
            <div className="flex flex-col gap-2 sm:flex-row">
              <Button className="flex-1" loading={answering} onClick={() => void answer(true)}>
                {t('invite.accept')}
              </Button>
              <Button variant="outline" className="flex-1" disabled={answering} onClick={() => void answer(false)}>
                {t('invite.decline')}
              </Button>
            </div>
          </div>
        ) : me ? (
          <div className="space-y-3">
            <p role="alert" className="text-sm text-slate-700">
              {t('invite.otherAccount', { current: me.user.email, email: details.email })}
            </p>
            <Button variant="outline" className="w-full" onClick={() => void logout()}>
              {t('invite.signOut')}
            </Button>
          </div>
        ) : (
          <div className="space-y-3">
            <p className="text-sm text-slate-700">{t('invite.hasAccount', { email: details.email })}</p>
            <Link to="/login" state={{ from: here }} className={buttonClasses('primary', 'md', 'w-full')}>
              {t('invite.signInToAnswer')}
            </Link>
          </div>
        )}
      </AuthShell>
    );
  }

  const chosenName = name ?? details.name;
  return (
    <AuthShell title={t('invite.title')} description={`${t('invite.subtitle', { pharmacy: details.pharmacyName })} ${t('invite.newPerson')}`}>
      {summary}
      <Field label={t('invite.yourName')} required className="mb-4">
        <Input value={chosenName} maxLength={120} autoComplete="name" onChange={(event) => setName(event.target.value)} />
      </Field>
      <SetPasswordForm
        submitLabel={t('invite.submit')}
        busyLabel={t('invite.submitting')}
        onSubmit={async (password, confirm) => {
          try {
            const result = await acceptInvite(token, password, confirm, chosenName.trim() || undefined);
            toast.success(t('invite.done'));
            if (isMe(result)) {
              queryClient.setQueryData(meQueryKey, result);
              void navigate('/app/dashboard', { replace: true });
            } else {
              await queryClient.invalidateQueries({ queryKey: meQueryKey });
              void navigate('/login', { replace: true });
            }
          } catch (error) {
            toast.error(errorMessage(error));
          }
        }}
      />
    </AuthShell>
  );
}
