import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { CheckCircle2 } from 'lucide-react';
import { resetPassword } from '@/features/auth/api/auth';
import { AuthShell } from '@/features/auth/components/auth-shell';
import { SetPasswordForm } from '@/features/auth/components/set-password-form';
import { buttonClasses } from '@/components/ui/button';
import { ErrorState } from '@/components/ui/error-state';
import { errorMessage } from '@/lib/api';
import { toast } from '@/lib/toast';

export default function ResetPasswordPage() {
  const { t } = useTranslation('auth');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [done, setDone] = useState(false);

  if (!token) {
    return (
      <AuthShell title={t('reset.title')}>
        <ErrorState title={t('reset.invalidTitle')} message={t('reset.missingToken')} />
        <Link to="/forgot-password" className={buttonClasses('primary', 'md', 'mt-4 w-full')}>
          {t('reset.requestNew')}
        </Link>
      </AuthShell>
    );
  }
  if (done) {
    return (
      <AuthShell title={t('reset.doneTitle')}>
        <div className="space-y-4 text-center" role="status">
          <CheckCircle2 className="mx-auto size-12 text-secondary" aria-hidden="true" />
          <p className="text-sm text-slate-700">{t('reset.doneBody')}</p>
          <Link to="/login" className={buttonClasses('primary', 'md', 'w-full')}>
            {t('forgot.backToLogin')}
          </Link>
        </div>
      </AuthShell>
    );
  }
  return (
    <AuthShell title={t('reset.title')} description={t('reset.subtitle')} footer={<Link to="/login" className="font-medium text-primary hover:underline">{t('forgot.backToLogin')}</Link>}>
      <SetPasswordForm
        submitLabel={t('reset.submit')}
        busyLabel={t('reset.submitting')}
        onSubmit={async (password, confirm) => {
          try {
            await resetPassword(token, password, confirm);
            setDone(true);
          } catch (error) {
            toast.error(errorMessage(error));
          }
        }}
      />
    </AuthShell>
  );
}
