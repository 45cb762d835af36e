import { useCallback, useEffect, useState } from 'react';
import { Link, Navigate, Outlet, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { LogOut, Menu, X } from 'lucide-react';
import { Button, buttonClasses } from '@/components/ui/button';
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

/** The screens of the signed-in area that are the person's own, not a pharmacy's: open without a pharmacy too. */
const PERSONAL_PATHS = new Set(['/app/profile']);

/** The signed-in area: sidebar (a drawer on phones), banners, the screen, and the session lock. */
export function AppLayout() {
  const { me, subject } = usePermissions();
  const { pathname } = useLocation();
  if (!me || !subject) return <InitializingScreen />;
  // Their own profile (name, PIN, the invitations waiting for their answer) needs no pharmacy: an operator, or
  // anyone whose pharmacy access ended, accepts an invitation there, not only by the emailed link.
  if (!me.pharmacy && PERSONAL_PATHS.has(pathname.replace(/\/+$/, ''))) return <WithoutPharmacyShell me={me} />;
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
 * A personal screen for someone signed in without a pharmacy: no pharmacy menus (they could only fail), a header
 * with the way to the admin area (operators), to their pharmacies (after accepting an invitation) and out.
 */
function WithoutPharmacyShell({ me }: { me: MeResponse }) {
  const { t } = useTranslation('shell');
  const logout = useLogout();
  return (
    <div className="min-h-screen bg-slate-50">
      <header className="flex flex-wrap items-center justify-between gap-2 border-b border-slate-200 bg-white px-4 py-3">
        <span className="font-semibold text-slate-900">PharmaPoint</span>
        <nav aria-label={t('titles.profile')} className="flex flex-wrap items-center gap-2">
          {me.user.isPlatformOperator ? (
            <Link to="/app/admin" className={buttonClasses('outline')}>
              {t('noPharmacy.adminArea')}
            </Link>
          ) : null}
          <Link to="/choose-pharmacy" className={buttonClasses('outline')}>
            {t('titles.choosePharmacy')}
          </Link>
          <Button variant="ghost" onClick={() => void logout()} icon={<LogOut className="size-4" aria-hidden="true" />}>
            {t('nav.logout')}
          </Button>
        </nav>
      </header>
      <main id="main" className="mx-auto max-w-3xl p-4 sm:p-6">
        <Outlet />
      </main>
    </div>
  );
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
  useEffect(() => onUnauthenticated(() => void logout({ sessionLost: true })), [logout]);

  const shell = (
    <div className="min-h-screen">
      {me.isDemo ? <DemoModeBar /> : null}
      <div className="flex" inert={locked}>
        <aside className={cn('sticky hidden w-64 shrink-0 lg:block print:hidden', me.isDemo ? 'top-11 h-[calc(100vh-2.75rem)]' : 'top-0 h-screen')}>
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
          <header className={cn('sticky z-30 flex', me.isDemo ? 'top-11' : 'top-0', 'items-center gap-3 bg-header px-4 py-3 text-white lg:hidden print:hidden')}>
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
