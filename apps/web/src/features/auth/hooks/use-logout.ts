import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { logout } from '@/features/auth/api/auth';
import { meQueryKey } from '@/features/auth/api/get-me';
import { toast } from '@/lib/toast';

/** Sign out: 'Logged out successfully', or 'Logging out...' when the call fails, and /login either way. */
export function useLogout() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { t } = useTranslation('auth');
  return useCallback(
    async (options: { silent?: boolean } = {}) => {
      try {
        await logout();
        if (!options.silent) toast.success(t('logout.success'));
      } catch {
        toast(t('logout.pending'));
      }
      // A poll of /api/me still in flight was answered while the session lived: its answer must not put the user
      // back after the sign-out (the sign-in page would send them to the dashboard). Cancelled queries drop theirs.
      await queryClient.cancelQueries();
      queryClient.setQueryData(meQueryKey, null);
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== meQueryKey[0] });
      sessionStorage.removeItem('subscription_warning_dismissed');
      void navigate('/login', { replace: true });
    },
    [navigate, queryClient, t],
  );
}
