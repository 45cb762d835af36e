import { useEffect } from 'react';
import { Outlet, ScrollRestoration } from 'react-router';
import { useMe } from '@/features/auth/api/get-me';
import { OfflineBanner } from '@/app/layout/offline-banner';
import { themeTitle, useApplyTheme } from '@/app/layout/theme';
import { RouteTitle, setSiteTitle } from '@/app/document-title';

/** Around every route: the pharmacy theme, the page title, the offline banner and scroll restoration. */
export function RootLayout() {
  const { data: me } = useMe();
  const theme = me?.pharmacy?.theme;
  useApplyTheme(theme);
  const format = typeof theme?.titleFormat === 'string' ? theme.titleFormat : undefined;
  const site = themeTitle(theme, me?.pharmacy?.name);
  useEffect(() => setSiteTitle(site, format), [site, format]);
  return (
    <>
      <RouteTitle />
      <OfflineBanner />
      <Outlet />
      <ScrollRestoration />
    </>
  );
}
