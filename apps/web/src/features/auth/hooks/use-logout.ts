import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { logout } from '@/features/auth/api/auth';
import { meQueryKey } from '@/features/auth/api/get-me';
import { toast } from '@/lib/toast';

/**
 * Sign out: 'Logged out successfully', or 'Logging out...' when the call fails, and /login either way.
 * `sessionLost`: the server has already answered that this session is gone (401), so nothing is sent: a sign-out
 * request now would carry whatever session the browser holds by then — one signed in meanwhile in another tab —
 * and end that one instead (an e2e run signed in again while the old page's request was answered 401, and the old
 * page's sign-out ended the new session).
 */
export function useLogout() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { t } = useTranslation('auth');
  return useCallback(
    async (options: { sessionLost?: boolean } = {}) => {
      if (!options.sessionLost) {
        try {
          await logout();
          toast.success(t('logout.success'));
        } catch {
          toast(t('logout.pending'));
        }
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
