import { Link, useNavigate, useSearchParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { MeResponse } from '@pharmapoint/domain/auth';
import { acceptInvite, getInvite } from '@/features/auth/api/auth';
import { meQueryKey } from '@/features/auth/api/get-me';
import { AuthShell } from '@/features/auth/components/auth-shell';
import { SetPasswordForm } from '@/features/auth/components/set-password-form';
import { ErrorState } from '@/components/ui/error-state';
import { LoadingState } from '@/components/ui/loading-state';
import { errorMessage } from '@/lib/api';
import { toast } from '@/lib/toast';

function isMe(value: unknown): value is MeResponse {
  return Boolean(value && typeof value === 'object' && 'user' in value && 'permissions' in value);
}

export default function AcceptInvitePage() {
  const { t } = useTranslation('auth');
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const token = params.get('token') ?? '';
  const invite = useQuery({ queryKey: ['invite', token], queryFn: () => getInvite(token), enabled: Boolean(token), retry: false });

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
  if (invite.isPending) return <LoadingState fullScreen />;

  return (
    <AuthShell title={t('invite.title')} description={t('invite.subtitle', { pharmacy: invite.data.pharmacyName })}>
      <dl className="mb-5 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 rounded-md bg-slate-50 p-3 text-sm">
        <dt className="text-slate-500">{t('invite.name')}</dt>
        <dd className="font-medium text-slate-900">{invite.data.name}</dd>
        <dt className="text-slate-500">{t('login.email')}</dt>
        <dd className="font-medium text-slate-900">{invite.data.email}</dd>
        <dt className="text-slate-500">{t('invite.pharmacy')}</dt>
        <dd className="font-medium text-slate-900">{invite.data.pharmacyName}</dd>
      </dl>
      <SetPasswordForm
        submitLabel={t('invite.submit')}
        busyLabel={t('invite.submitting')}
        onSubmit={async (password, confirm) => {
          try {
            const result = await acceptInvite(token, password, confirm);
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
