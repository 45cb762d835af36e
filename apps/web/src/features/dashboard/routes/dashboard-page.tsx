import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import {
  BarChart3,
  Bell,
  CheckCircle2,
  Lightbulb,
  Monitor,
  Package,
  PackagePlus,
  Settings,
  TrendingDown,
  UserCog,
  Users,
  Wallet,
  type LucideIcon,
} from 'lucide-react';
import type { MeResponse } from '@pharmapoint/domain/auth';
import { canAccessPOS, canSeeSettings, isBasicUser, type Permission, type PermissionSubject } from '@pharmapoint/domain/permissions';
import { usePermissions } from '@/features/auth/hooks/use-permissions';
import { Badge } from '@/components/ui/badge';
import { Card } from '@/components/ui/card';
import { formatDateTime, formatLocale } from '@/lib/format';
import { greetingKey } from '@/features/dashboard/greeting';
import { PaymentDueAlert } from '@/features/dashboard/components/payment-due';
import { GettingStarted } from '@/features/dashboard/components/getting-started';
import { StockHealth } from '@/features/dashboard/components/stock-health';
import { SalesOverview, useDashboardFilters } from '@/features/dashboard/components/sales-overview';
import { FinancialControls, PlanUsage, RecentExpenses, RefillReminders } from '@/features/dashboard/components/dashboard-cards';
import { useDashboardSales } from '@/features/dashboard/api/dashboard';
import { useShellSettingsContext, type ShellSettings } from '@/lib/pharmacy-settings';

interface QuickAction {
  key: string;
  to: string;
  icon: LucideIcon;
  visible: (subject: PermissionSubject, can: (p: Permission) => boolean) => boolean;
}

const QUICK_ACTIONS: readonly QuickAction[] = [
  { key: 'pos', to: '/pos', icon: Monitor, visible: (s) => canAccessPOS(s) },
  { key: 'products', to: '/app/products', icon: Package, visible: (_s, can) => can('product:read') },
  { key: 'addProduct', to: '/app/products/add', icon: PackagePlus, visible: (s, can) => !s.isDemoUser && can('product:create') },
  { key: 'contacts', to: '/app/contacts', icon: Users, visible: (_s, can) => can('contact:read') },
  { key: 'salesReport', to: '/app/reports/sales', icon: BarChart3, visible: (_s, can) => can('report:sales') },
  { key: 'expenses', to: '/app/reports/expenses', icon: Wallet, visible: (_s, can) => can('report:financial') },
  { key: 'lowStock', to: '/app/reports/low-stock', icon: TrendingDown, visible: (_s, can) => can('report:inventory') },
  { key: 'refillAlerts', to: '/app/reports/refill-alerts', icon: Bell, visible: (_s, can) => can('report:inventory') },
  { key: 'users', to: '/app/users', icon: UserCog, visible: (_s, can) => can('user:read') },
  { key: 'settings', to: '/app/settings', icon: Settings, visible: (s) => canSeeSettings(s) },
];

/** The hour of the day in the pharmacy's time zone (the greeting is the pharmacy's morning, not the browser's). */
function pharmacyHour(now: Date): number {
  const hour = new Intl.DateTimeFormat('en-GB', { hour: 'numeric', hourCycle: 'h23', timeZone: formatLocale().timezone }).format(now);
  const parsed = Number.parseInt(hour, 10);
  return Number.isNaN(parsed) ? now.getHours() : parsed;
}

function useNow(intervalMs: number): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(new Date()), intervalMs);
    return () => window.clearInterval(timer);
  }, [intervalMs]);
  return now;
}

/**
 * The welcome banner. Display settings: without the greeting it is titled Dashboard (the screen keeps its h1);
 * without the user's name the greeting is said without it; the pharmacy's tagline shows under it when on.
 */
function Greeting({ me, now, shell }: { me: MeResponse; now: Date; shell: ShellSettings }) {
  const { t } = useTranslation('dashboard');
  const { showGreeting, showUserName, showTagline } = shell.displaySettings;
  const name = me.user.displayName || me.user.name || me.user.email.split('@')[0] || 'User';
  const role = me.membership?.role ?? (me.isDemo ? 'demo' : null);
  const period = greetingKey(pharmacyHour(now));
  const heading = showGreeting ? (showUserName ? t(`greeting.${period}`, { name }) : t(`greetingNoName.${period}`)) : t('title');
  const tagline = showTagline ? shell.pharmacyTagline.trim() : '';
  return (
    <div className="rounded-xl bg-gradient-to-r from-primary to-header p-6 text-white shadow">
      <h1 className="text-2xl font-bold md:text-3xl">{heading}</h1>
      {tagline ? <p className="mt-1 text-sm text-white/90">{tagline}</p> : null}
      <div className="mt-3 flex flex-wrap items-center gap-2 text-sm text-white/90">
        {role ? <Badge className="bg-white/20 text-white">{t(`shell:roles.${role}`, { defaultValue: role })}</Badge> : null}
        {me.branch ? <span>{t('branch', { name: me.branch.name })}</span> : null}
        <span aria-hidden="true">·</span>
        <time dateTime={now.toISOString()}>{formatDateTime(now)}</time>
      </div>
    </div>
  );
}

function QuickActions({ subject, can }: { subject: PermissionSubject; can: (p: Permission) => boolean }) {
  const { t } = useTranslation('dashboard');
  const actions = QUICK_ACTIONS.filter((action) => action.visible(subject, can));
  if (actions.length === 0) return null;
  return (
    <Card title={t('quickActions.title')}>
      <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
        {actions.map(({ key, to, icon: Icon }) => (
          <li key={key}>
            <Link to={to} className="flex h-full flex-col items-center gap-2 rounded-lg border border-slate-200 p-4 text-center text-sm font-medium text-slate-700 hover:border-primary hover:text-primary">
              <Icon className="size-6" aria-hidden="true" />
              {t(`quickActions.${key}`)}
            </Link>
          </li>
        ))}
      </ul>
    </Card>
  );
}

/** The basic-user welcome page of seed 002: three cards, four daily tips and the system status. */
function BasicWelcome({ subject, can }: { subject: PermissionSubject; can: (p: Permission) => boolean }) {
  const { t } = useTranslation('dashboard');
  const cards = [
    { key: 'pos', to: '/pos', icon: Monitor, show: canAccessPOS(subject) },
    { key: 'products', to: '/app/products', icon: Package, show: can('product:read') },
    { key: 'customers', to: '/app/contacts', icon: Users, show: can('contact:read') },
  ];
  const tips = ['tip1', 'tip2', 'tip3', 'tip4'];
  const systems = ['pos', 'products', 'payments'];
  return (
    <>
      <ul className="grid gap-4 md:grid-cols-3">
        {cards.map(({ key, to, icon: Icon, show }) => (
          <li key={key}>
            {show ? (
              <Link to={to} className="flex h-full flex-col gap-2 rounded-lg border border-slate-200 bg-white p-5 shadow-sm hover:border-primary">
                <Icon className="size-8 text-primary" aria-hidden="true" />
                <span className="font-semibold text-slate-900">{t(`welcome.cards.${key}.title`)}</span>
                <span className="text-sm text-slate-600">{t(`welcome.cards.${key}.body`)}</span>
              </Link>
            ) : (
              <div className="flex h-full flex-col gap-2 rounded-lg border border-slate-200 bg-slate-50 p-5 text-slate-500">
                <Icon className="size-8" aria-hidden="true" />
                <span className="font-semibold">{t(`welcome.cards.${key}.title`)}</span>
                <span className="text-sm">{t('welcome.noAccess')}</span>
              </div>
            )}
          </li>
        ))}
      </ul>
      <div className="grid gap-4 md:grid-cols-2">
        <Card title={t('welcome.tipsTitle')}>
          <ul className="space-y-2 text-sm text-slate-700">
            {tips.map((tip) => (
              <li key={tip} className="flex gap-2">
                <Lightbulb className="mt-0.5 size-4 shrink-0 text-accent" aria-hidden="true" />
                {t(`welcome.tips.${tip}`)}
              </li>
            ))}
          </ul>
        </Card>
        <Card title={t('welcome.statusTitle')}>
          <ul className="space-y-2 text-sm">
            {systems.map((system) => (
              <li key={system} className="flex items-center justify-between">
                <span className="text-slate-700">{t(`welcome.systems.${system}`)}</span>
                <span className="flex items-center gap-1 font-medium text-emerald-700">
                  <CheckCircle2 className="size-4" aria-hidden="true" />
                  {t('welcome.online')}
                </span>
              </li>
            ))}
          </ul>
        </Card>
      </div>
    </>
  );
}

/**
 * The cards under the sales overview, each shown by its permission: recent expenses, the financial controls
 * (supplier payments due, customer credit, M-Pesa to reconcile) and plan usage with report:financial; inventory
 * alerts with inventory:read; refill reminders with product:read (their list is the refill report's, report:inventory).
 */
function FullDashboardCards({ can }: { can: (p: Permission) => boolean }) {
  const { query } = useDashboardFilters();
  // The same query as the overview's: answered from the cache.
  const today = useDashboardSales(query, false).data?.today;
  const financial = can('report:financial');
  return (
    <>
      {financial ? <PaymentDueAlert /> : null}
      <div className="grid gap-4 lg:grid-cols-2">
        {financial && today ? <RecentExpenses today={today} branchId={query.branchId} /> : null}
        {financial ? <FinancialControls /> : null}
        <PlanUsage />
        {can('product:read') && can('report:inventory') ? <RefillReminders /> : null}
      </div>
      {can('product:read') ? <StockHealth canReport={can('report:inventory')} /> : null}
    </>
  );
}

export default function DashboardPage() {
  const { me, subject, can } = usePermissions();
  const now = useNow(60_000);
  const shell = useShellSettingsContext();
  if (!me || !subject) return null;
  const basic = isBasicUser(subject) || !can('report:sales');
  return (
    <div className="space-y-6">
      <Greeting me={me} now={now} shell={shell} />
      {/* Owners and admins set the pharmacy up: the checklist is theirs (settings:system), never the demo's. */}
      {can('settings:system') && !subject.isDemoUser ? <GettingStarted /> : null}
      {basic ? (
        <>
          <BasicWelcome subject={subject} can={can} />
          {can('product:read') ? <StockHealth canReport={can('report:inventory')} /> : null}
        </>
      ) : (
        <>
          {shell.displaySettings.showQuickActions ? <QuickActions subject={subject} can={can} /> : null}
          <SalesOverview branches={me.allowedBranches} />
          <FullDashboardCards can={can} />
        </>
      )}
    </div>
  );
}
