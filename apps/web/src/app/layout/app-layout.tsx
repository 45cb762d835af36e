import { useCallback, useEffect, useState } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Menu, X } from 'lucide-react';
import * as Drawer from '@radix-ui/react-dialog';
import { usePermissions } from '@/features/auth/hooks/use-permissions';
import { useLogout } from '@/features/auth/hooks/use-logout';
import { onUnauthenticated } from '@/lib/api';
import { cn } from '@/lib/cn';
import { Sidebar } from '@/app/layout/sidebar';
import { SubscriptionBanner } from '@/app/layout/subscription-banner';
import { DemoModeBar, DemoModeGuard, DemoUpgradeCard } from '@/app/layout/demo-mode';
import { SessionLockOverlay, useSessionLock } from '@/app/layout/session-lock';
import { themeTitle } from '@/app/layout/theme';
import { InitializingScreen } from '@/app/layout/initializing-screen';
import { NoPharmacyScreen } from '@/app/layout/no-pharmacy-screen';
import { PharmacySwitcher } from '@/app/layout/pharmacy-switcher';
import i18n, { supportedLanguages } from '@/i18n';
import { ShellSettingsContext, useShellSettings, type ShellSettings } from '@/lib/pharmacy-settings';
import type { MeResponse } from '@pharmapoint/domain/auth';
import type { PermissionSubject } from '@pharmapoint/domain/permissions';

/** The signed-in area: sidebar (a drawer on phones), banners, the screen, and the session lock. */
export function AppLayout() {
  const { me, subject } = usePermissions();
  if (!me || !subject) return <InitializingScreen />;
  // Someone who works in pharmacies but has not chosen one in this session picks it first (decision 0015).
  if (!me.pharmacy && !me.user.isPlatformOperator) return <Navigate to="/choose-pharmacy" replace />;
  if (!me.pharmacy) return <WithoutPharmacy me={me} />;
  return <SignedInLayout me={me} subject={subject} />;
}

function WithoutPharmacy({ me }: { me: MeResponse }) {
  const logout = useLogout();
  return <NoPharmacyScreen me={me} onLogout={() => void logout()} />;
}

/**
 * The display settings that act on the whole page: compact mode (a smaller root font: every rem-sized text, space
 * and control shrinks), and the pharmacy's default language for a user who has not chosen one
 * (docs/decisions/0031).
 */
function useApplyDisplaySettings({ displaySettings }: ShellSettings) {
  const { compactMode, defaultLanguage } = displaySettings;
  useEffect(() => {
    const root = document.documentElement;
    root.dataset.density = compactMode ? 'compact' : 'comfortable';
    root.style.fontSize = compactMode ? '14px' : '';
    return () => {
      delete root.dataset.density;
      root.style.fontSize = '';
    };
  }, [compactMode]);
  useEffect(() => {
    let chosen: string | null = null;
    try {
      chosen = localStorage.getItem('pp_language');
    } catch {
      chosen = null;
    }
    const supported = (supportedLanguages as readonly string[]).includes(defaultLanguage);
    if (!chosen && supported && i18n.language !== defaultLanguage) {
      void i18n.changeLanguage(defaultLanguage);
      document.documentElement.lang = defaultLanguage;
    }
  }, [defaultLanguage]);
}

function SignedInLayout({ me, subject }: { me: MeResponse; subject: PermissionSubject }) {
  const { t } = useTranslation('shell');
  const settings = useShellSettings(me.pharmacy?.id);
  useApplyDisplaySettings(settings);
  const logout = useLogout();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const { pathname } = useLocation();
  const { locked, unlock } = useSessionLock(me);
  const onLogout = useCallback(() => void logout(), [logout]);

  useEffect(() => setDrawerOpen(false), [pathname]);
  // A session that ended elsewhere (expired, signed out in another tab) sends the user to sign in again.
  useEffect(() => onUnauthenticated(() => void logout({ silent: true })), [logout]);

  const shell = (
    <div className="min-h-screen">
      {me.isDemo ? <DemoModeBar /> : null}
      <div className="flex" inert={locked}>
        <aside className={cn('sticky hidden w-64 shrink-0 lg:block', me.isDemo ? 'top-11 h-[calc(100vh-2.75rem)]' : 'top-0 h-screen')}>
          <Sidebar me={me} subject={subject} onLogout={onLogout} />
        </aside>
        <Drawer.Root open={drawerOpen} onOpenChange={setDrawerOpen}>
          <Drawer.Portal>
            <Drawer.Overlay className="fixed inset-0 z-50 bg-slate-900/50 lg:hidden" />
            <Drawer.Content aria-describedby={undefined} className="fixed inset-y-0 left-0 z-50 w-72 max-w-[85%] shadow-xl focus:outline-none lg:hidden">
              <Drawer.Title className="sr-only">{t('nav.label')}</Drawer.Title>
              <Sidebar me={me} subject={subject} onLogout={onLogout} onNavigate={() => setDrawerOpen(false)} />
              <Drawer.Close aria-label={t('nav.closeMenu')} className="absolute right-2 top-2 rounded p-1 text-white hover:bg-white/10">
                <X className="size-5" aria-hidden="true" />
              </Drawer.Close>
            </Drawer.Content>
          </Drawer.Portal>
        </Drawer.Root>
        <div className="flex min-w-0 flex-1 flex-col">
          <header className={cn('sticky z-30 flex', me.isDemo ? 'top-11' : 'top-0', 'items-center gap-3 bg-header px-4 py-3 text-white lg:hidden')}>
            <button type="button" aria-label={t('nav.openMenu')} aria-expanded={drawerOpen} onClick={() => setDrawerOpen(true)} className="rounded p-1 hover:bg-white/10">
              <Menu className="size-6" aria-hidden="true" />
            </button>
            {settings.displaySettings.showPharmacyName ? <span className="truncate font-semibold">{themeTitle(me.pharmacy?.theme, me.pharmacy?.name)}</span> : null}
            <PharmacySwitcher me={me} className="ml-auto max-w-[50%]" />
          </header>
          <SubscriptionBanner />
          <main id="main" className="flex-1 p-4 md:p-6 lg:p-8">
            <Outlet />
          </main>
        </div>
      </div>
      {me.isDemo && !locked ? <DemoUpgradeCard /> : null}
      {locked ? <SessionLockOverlay me={me} onUnlocked={unlock} onLogout={onLogout} /> : null}
    </div>
  );
  const provided = <ShellSettingsContext value={settings}>{shell}</ShellSettingsContext>;
  return me.isDemo ? <DemoModeGuard>{provided}</DemoModeGuard> : provided;
}
