import { Outlet, ScrollRestoration } from 'react-router';
import { useMe } from '@/features/auth/api/get-me';
import { OfflineBanner } from '@/app/layout/offline-banner';
import { useApplyTheme } from '@/app/layout/theme';

/** Around every route: the pharmacy theme, the offline banner and scroll restoration. */
export function RootLayout() {
  const { data: me } = useMe();
  useApplyTheme(me?.pharmacy?.theme, me?.pharmacy?.name);
  return (
    <>
      <OfflineBanner />
      <Outlet />
      <ScrollRestoration />
    </>
  );
}
