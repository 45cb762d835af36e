import { useEffect, useState } from 'react';
import { NavLink, Outlet, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { BarChart3, Database, FileText, LayoutDashboard, LogOut, Menu, Palette, Server, UserPlus, Users, UsersRound } from 'lucide-react';
import { cn } from '@/lib/cn';
import { Button } from '@/components/ui/button';
import { useMe } from '@/features/auth/api/get-me';
import { useLogout } from '@/features/auth/hooks/use-logout';
import { ADMIN_SESSION_EXPIRY_KEY, ADMIN_SESSION_HOURS, ADMIN_SESSION_KEY } from '@pharmapoint/domain/admin';
import { formatTime } from '@/lib/format';
import '@/features/admin/admin-catalogue';

/** Reads, starts or ends the browser's admin session (seed 002 section 6: admin_session, admin_session_expiry). */
function adminSession(userId: string | undefined, now = Date.now()): { expiresAt: number; expired: boolean } | null {
  if (!userId) return null;
  try {
    const owner = localStorage.getItem(ADMIN_SESSION_KEY);
    const expiry = Number(localStorage.getItem(ADMIN_SESSION_EXPIRY_KEY));
    if (owner === userId && Number.isFinite(expiry) && expiry > 0) return { expiresAt: expiry, expired: expiry <= now };
    const expiresAt = now + ADMIN_SESSION_HOURS * 3_600_000;
    localStorage.setItem(ADMIN_SESSION_KEY, userId);
    localStorage.setItem(ADMIN_SESSION_EXPIRY_KEY, String(expiresAt));
    return { expiresAt, expired: false };
  } catch {
    return null;
  }
}

function endAdminSession(): void {
  try {
    localStorage.removeItem(ADMIN_SESSION_KEY);
    localStorage.removeItem(ADMIN_SESSION_EXPIRY_KEY);
  } catch {
    // Storage unavailable: nothing was kept.
  }
}

const LINKS = [
  { key: 'saasDashboard', to: '/app/admin/saas-dashboard', icon: LayoutDashboard },
  { key: 'customers', to: '/app/admin/customers', icon: Users },
  { key: 'customerSetup', to: '/app/admin/customers/new', icon: UserPlus },
  { key: 'demos', to: '/app/admin/demos', icon: UsersRound },
  { key: 'analytics', to: '/app/admin/analytics', icon: BarChart3 },
  { key: 'reports', to: '/app/admin/reports', icon: FileText },
  { key: 'themeCustomizer', to: '/app/admin/theme-customizer', icon: Palette },
  { key: 'hosting', to: '/app/admin/hosting', icon: Server },
  { key: 'database', to: '/app/admin/database', icon: Database },
] as const;

/**
 * The operator's admin area: its own sidebar, the Admin Mode banner and Exit Admin Mode. Exit leads to the pharmacy
 * the operator also belongs to; an operator who belongs to none is not offered it (there is no pharmacy area to go
 * to) and signs out from here instead.
 */
export function AdminLayout() {
  const { t } = useTranslation('admin');
  const navigate = useNavigate();
  const logout = useLogout();
  const { data: me } = useMe();
  const [menuOpen, setMenuOpen] = useState(false);
  const userId = me?.user.id;
  const [session, setSession] = useState(() => adminSession(userId));
  // The admin session ends ADMIN_SESSION_HOURS after it began: the operator signs in again (decision 0047).
  useEffect(() => {
    const check = () => {
      const current = adminSession(userId);
      setSession(current);
      if (current?.expired) {
        endAdminSession();
        void logout();
      }
    };
    check();
    const timer = window.setInterval(check, 60_000);
    return () => window.clearInterval(timer);
  }, [userId, logout]);
  const exit = () => {
    endAdminSession();
    void navigate('/app/dashboard');
  };
  const canExit = Boolean(me?.pharmacy);
  return (
    <div className="min-h-screen">
      <div role="status" className="flex items-center justify-between gap-3 bg-purple-700 px-4 py-2 text-sm text-white">
        <span>
          <span className="font-semibold">{t('layout.banner')}</span>
          {session && !session.expired ? <span className="ml-2 text-xs text-purple-100">{t('layout.sessionEnds', { time: formatTime(session.expiresAt) })}</span> : null}
        </span>
        {canExit ? (
          <Button size="sm" variant="outline" onClick={exit} icon={<LogOut className="size-4" aria-hidden="true" />}>
            {t('layout.exit')}
          </Button>
        ) : (
          <Button
            size="sm"
            variant="outline"
            onClick={() => {
              endAdminSession();
              void logout();
            }}
            icon={<LogOut className="size-4" aria-hidden="true" />}>
            {t('layout.logout')}
          </Button>
        )}
      </div>
      <div className="flex flex-col lg:flex-row">
        <nav aria-label={t('layout.navLabel')} className="bg-slate-900 text-white lg:min-h-[calc(100vh-2.75rem)] lg:w-60">
          <button type="button" className="flex w-full items-center gap-2 px-4 py-3 lg:hidden" aria-expanded={menuOpen} onClick={() => setMenuOpen(!menuOpen)}>
            <Menu className="size-5" aria-hidden="true" />
            {t('layout.menu')}
          </button>
          <ul className={cn('space-y-1 p-3', menuOpen ? 'block' : 'hidden lg:block')}>
            {LINKS.map(({ key, to, icon: Icon }) => (
              <li key={key}>
                <NavLink
                  to={to}
                  end
                  onClick={() => setMenuOpen(false)}
                  className={({ isActive }) => cn('flex items-center gap-2 rounded-md px-3 py-2 text-sm', isActive ? 'bg-white/15 font-semibold' : 'text-slate-300 hover:bg-white/10')}
                >
                  <Icon className="size-4" aria-hidden="true" />
                  {t(`layout.links.${key}`)}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <main id="main" className="flex-1 p-4 md:p-6 lg:p-8">
          <Outlet />
        </main>
      </div>
    </div>
  );
}
