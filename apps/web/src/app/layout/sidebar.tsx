import { useEffect, useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import {
  BarChart3,
  BookOpen,
  ChevronDown,
  LayoutDashboard,
  LogOut,
  Monitor,
  Package,
  Receipt,
  Settings,
  ShoppingCart,
  Truck,
  User,
  Warehouse,
  type LucideIcon,
} from 'lucide-react';
import type { MeResponse } from '@pharmapoint/domain/auth';
import { canAccessPOS, type PermissionSubject } from '@pharmapoint/domain/permissions';
import { cn } from '@/lib/cn';
import { Badge } from '@/components/ui/badge';
import { buttonClasses } from '@/components/ui/button';
import { NAV_BOTTOM_LINKS, NAV_GROUPS, NAV_TOP_LINKS, groupForPath, type NavGroup } from '@/app/layout/navigation';
import { BranchSwitcher } from '@/app/layout/branch-switcher';
import { PharmacySwitcher } from '@/app/layout/pharmacy-switcher';
import { themeTitle } from '@/app/layout/theme';
import { useShellSettingsContext } from '@/lib/pharmacy-settings';

const GROUP_ICONS: Record<NavGroup['key'], LucideIcon> = {
  products: Package,
  sales: Receipt,
  purchases: ShoppingCart,
  stock: Truck,
  reports: BarChart3,
  settings: Settings,
};

const LINK_ICONS: Record<string, LucideIcon> = { dashboard: LayoutDashboard, profile: User, manual: BookOpen };

/** Display name: displayName, then name, then the part of the email before @, then User (seed 002 section 3). */
export function displayName(me: MeResponse): string {
  return me.user.displayName?.trim() || me.user.name?.trim() || me.user.email.split('@')[0] || 'User';
}

interface SidebarProps {
  me: MeResponse;
  subject: PermissionSubject;
  onNavigate?: () => void;
  onLogout: () => void;
}

const linkClasses = ({ isActive }: { isActive: boolean }) =>
  cn('flex items-center gap-2 rounded-md px-3 py-2 text-sm transition-colors', isActive ? 'bg-white/15 font-semibold text-white' : 'text-slate-300 hover:bg-white/10 hover:text-white');

/** The signed-in sidebar: pharmacy, branch, user, Open POS, the collapsible groups (one open at a time) and Logout. */
export function Sidebar({ me, subject, onNavigate, onLogout }: SidebarProps) {
  const { t } = useTranslation('shell');
  const { pathname, hash } = useLocation();
  // NavLink ignores the #fragment: of two links to one page (Subscription, Hosting Payment) only the one whose
  // fragment matches is current.
  const fragmentMatches = (to: string, siblings: readonly { to: string }[]) => {
    const [path, fragment] = to.split('#');
    if (fragment !== undefined) return hash === `#${fragment}`;
    return !siblings.some((other) => other.to.startsWith(`${path}#`) && other.to.endsWith(hash) && hash !== '');
  };
  const current = groupForPath(pathname);
  const [open, setOpen] = useState<NavGroup['key'] | null>(current);
  useEffect(() => {
    if (current) setOpen(current);
  }, [current]);

  const groups = NAV_GROUPS.filter((group) => group.visible(subject))
    .map((group) => ({ ...group, links: group.links.filter((link) => link.visible(subject)) }))
    .filter((group) => group.links.length > 0);
  const role = me.membership?.role ?? (me.isDemo ? 'demo' : '');
  // The header toggles of the display settings: pharmacy name, its tagline, the user's name.
  const { displaySettings: display, pharmacyTagline } = useShellSettingsContext();

  return (
    <div className="flex h-full flex-col bg-header text-white">
      <div className="space-y-2 border-b border-white/10 p-4">
        {display.showPharmacyName ? (
          <p className="truncate text-lg font-bold" title={me.pharmacy?.name}>
            {themeTitle(me.pharmacy?.theme, me.pharmacy?.name)}
          </p>
        ) : null}
        {display.showTagline && pharmacyTagline.trim() ? <p className="text-xs text-slate-300">{pharmacyTagline}</p> : null}
        <PharmacySwitcher me={me} />
        <BranchSwitcher me={me} />
        <div className="flex items-center justify-between gap-2">
          {display.showUserName ? <p className="truncate text-sm text-slate-200">{displayName(me)}</p> : <span />}
          {role ? (
            <Badge tone="primary" className="bg-white/15 text-white">
              {t(`roles.${role}`, { defaultValue: role })}
            </Badge>
          ) : null}
        </div>
        {canAccessPOS(subject) ? (
          <Link to="/pos" onClick={onNavigate} className={buttonClasses('secondary', 'md', 'w-full')}>
            <Monitor className="size-4" aria-hidden="true" />
            {me.isDemo ? t('nav.viewPosDemo') : t('nav.openPos')}
          </Link>
        ) : null}
      </div>

      <nav aria-label={t('nav.label')} className="flex-1 space-y-1 overflow-y-auto p-3">
        {NAV_TOP_LINKS.filter((link) => link.visible(subject)).map((link) => {
          const Icon = LINK_ICONS[link.key] ?? LayoutDashboard;
          return (
            <NavLink key={link.key} to={link.to} className={linkClasses} onClick={onNavigate}>
              <Icon className="size-4" aria-hidden="true" />
              {t(`nav.links.${link.key}`)}
            </NavLink>
          );
        })}
        {groups.map((group) => {
          const Icon = GROUP_ICONS[group.key] ?? Warehouse;
          const expanded = open === group.key;
          const panelId = `nav-group-${group.key}`;
          return (
            <div key={group.key}>
              <button
                type="button"
                aria-expanded={expanded}
                aria-controls={panelId}
                onClick={() => setOpen(expanded ? null : group.key)}
                className="flex w-full items-center gap-2 rounded-md px-3 py-2 text-left text-sm text-slate-200 hover:bg-white/10"
              >
                <Icon className="size-4" aria-hidden="true" />
                <span className="flex-1">{t(`nav.groups.${group.key}`)}</span>
                <ChevronDown className={cn('size-4 transition-transform', expanded && 'rotate-180')} aria-hidden="true" />
              </button>
              {expanded ? (
                <ul id={panelId} className="mt-1 space-y-0.5 pl-6">
                  {group.links.map((link) => (
                    <li key={link.key}>
                      {(() => {
                        const current = pathname === link.to.split('#')[0] && fragmentMatches(link.to, group.links);
                        return (
                          <Link to={link.to} className={linkClasses({ isActive: current })} aria-current={current ? 'page' : undefined} onClick={onNavigate}>
                            {t(`nav.links.${link.key}`)}
                          </Link>
                        );
                      })()}
                    </li>
                  ))}
                </ul>
              ) : null}
            </div>
          );
        })}
        <div className="my-2 border-t border-white/10" />
        {NAV_BOTTOM_LINKS.filter((link) => link.visible(subject)).map((link) => {
          const Icon = LINK_ICONS[link.key] ?? BookOpen;
          return (
            <NavLink key={link.key} to={link.to} className={linkClasses} onClick={onNavigate}>
              <Icon className="size-4" aria-hidden="true" />
              {t(`nav.links.${link.key}`)}
            </NavLink>
          );
        })}
        {me.user.isPlatformOperator ? (
          <NavLink to="/app/admin" className={linkClasses} onClick={onNavigate}>
            <Settings className="size-4" aria-hidden="true" />
            {t('nav.links.adminArea')}
          </NavLink>
        ) : null}
      </nav>

      <div className="border-t border-white/10 p-3">
        <button type="button" onClick={onLogout} className="flex w-full items-center gap-2 rounded-md px-3 py-2 text-sm text-slate-200 hover:bg-white/10 hover:text-white">
          <LogOut className="size-4" aria-hidden="true" />
          {t('nav.logout')}
        </button>
      </div>
    </div>
  );
}
