import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Store } from 'lucide-react';
import { useMyPharmacies, useSwitchPharmacy } from '@/features/auth/api/memberships';
import { useMe } from '@/features/auth/api/get-me';
import { AuthShell } from '@/features/auth/components/auth-shell';
import { PendingInvitations } from '@/features/auth/components/pending-invitations';
import { useLogout } from '@/features/auth/hooks/use-logout';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorState } from '@/components/ui/error-state';
import { LoadingState } from '@/components/ui/loading-state';
import { errorMessage } from '@/lib/api';
import { toast } from '@/lib/toast';

/**
 * /choose-pharmacy: after sign-in, someone who works in several pharmacies and has no obvious last one (or only has
 * invitations) chooses where to work, and answers the invitations waiting for them (decision 0015).
 */
export default function ChoosePharmacyPage() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const logout = useLogout();
  const { data: me } = useMe();
  const mine = useMyPharmacies();
  const switching = useSwitchPharmacy();

  async function open(pharmacy: { id: string; name: string }) {
    try {
      await switching.mutateAsync(pharmacy.id);
      toast.success(t('pharmacies.switched', { name: pharmacy.name }));
      void navigate('/app/dashboard', { replace: true });
    } catch (error) {
      toast.error(errorMessage(error));
    }
  }

  const signOut = (
    <p className="text-center">
      <button type="button" className="font-medium text-primary hover:underline" onClick={() => void logout()}>
        {t('pharmacies.signOut')}
      </button>
    </p>
  );

  if (mine.isPending) return <LoadingState fullScreen />;
  if (mine.isError) {
    return (
      <AuthShell title={t('pharmacies.chooseTitle')} footer={signOut}>
        <ErrorState message={errorMessage(mine.error)} onRetry={() => void mine.refetch()} />
      </AuthShell>
    );
  }
  const { pharmacies, invitations } = mine.data;

  return (
    <AuthShell
      title={t('pharmacies.chooseTitle')}
      description={me ? t('pharmacies.chooseSubtitle', { name: me.user.name }) : undefined}
      footer={signOut}
    >
      <div className="space-y-5">
        {pharmacies.length > 0 ? (
          <ul className="space-y-2" aria-label={t('pharmacies.yours')}>
            {pharmacies.map((pharmacy) => (
              <li key={pharmacy.id}>
                <Button
                  variant="outline"
                  className="w-full justify-start"
                  icon={<Store className="size-4" aria-hidden="true" />}
                  disabled={switching.isPending}
                  aria-label={t('pharmacies.openNamed', { name: pharmacy.name })}
                  onClick={() => void open(pharmacy)}
                >
                  <span className="truncate">{pharmacy.name}</span>
                  <span className="ml-auto text-xs font-normal text-slate-500">{t(`shell:roles.${pharmacy.role}`, { defaultValue: pharmacy.role })}</span>
                </Button>
              </li>
            ))}
          </ul>
        ) : invitations.length === 0 ? (
          <EmptyState title={t('pharmacies.noneTitle')} description={t('pharmacies.noneBody')} />
        ) : null}
        <PendingInvitations invitations={invitations} onAccepted={(pharmacy) => void open(pharmacy)} />
      </div>
    </AuthShell>
  );
}
