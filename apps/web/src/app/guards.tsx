import type { ReactNode } from 'react';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Lock, ShieldAlert } from 'lucide-react';
import { isAdminSubject, type Permission } from '@pharmapoint/domain/permissions';
import { Button, buttonClasses } from '@/components/ui/button';
import { usePermissions } from '@/features/auth/hooks/use-permissions';
import { useSessionUser } from '@/app/use-session-user';
import { InitializingScreen } from '@/app/layout/initializing-screen';

/** Access Denied (seed 000 section 6, Route guard), with Go Back and Dashboard. */
export function AccessDenied() {
  const { t } = useTranslation('shell');
  const navigate = useNavigate();
  return (
    <div className="mx-auto flex max-w-lg flex-col items-center gap-3 px-4 py-16 text-center" role="alert">
      <ShieldAlert className="size-12 text-red-500" aria-hidden="true" />
      <h1 className="text-2xl font-bold text-slate-900">{t('accessDenied.title')}</h1>
      <p className="text-slate-600">{t('accessDenied.message')}</p>
      <div className="mt-4 flex gap-2">
        <Button variant="outline" onClick={() => navigate(-1)}>
          {t('common:actions.goBack')}
        </Button>
        <Link to="/app/dashboard" className={buttonClasses('primary')}>
          {t('accessDenied.dashboard')}
        </Link>
      </div>
    </div>
  );
}

/** The Permission Required notice, for a part of a screen the user may not use. */
export function PermissionRequired({ children }: { children?: ReactNode }) {
  const { t } = useTranslation('shell');
  return (
    <div className="flex items-start gap-3 rounded-lg border border-amber-200 bg-amber-50 p-4 text-sm text-amber-900" role="note">
      <Lock className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      <div>
        <p className="font-semibold">{t('permissionRequired.title')}</p>
        <p>{children ?? t('permissionRequired.message')}</p>
      </div>
    </div>
  );
}

/** A loaded user is required; otherwise /login, remembering where the visitor was going. */
export function RequireUser({ children }: { children: ReactNode }) {
  const { me, loading } = useSessionUser();
  const location = useLocation();
  if (loading) return <InitializingScreen />;
  if (!me) return <Navigate to="/login" replace state={{ from: `${location.pathname}${location.search}${location.hash}` }} />;
  return children;
}

/** The operator's admin area: only platform operators; everyone else goes to /login. */
export function RequireOperator({ children }: { children: ReactNode }) {
  const { me, loading } = useSessionUser();
  const location = useLocation();
  if (loading) return <InitializingScreen />;
  // A signed-in non-operator must not be sent back here after sign-in (the login page would loop).
  if (me && !me.user.isPlatformOperator) return <Navigate to="/login" replace />;
  if (!me) return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  return children;
}

export interface RequirePermissionProps {
  /** Pass when the user holds any of these. */
  any?: readonly Permission[];
  /** Pass when the user holds all of these. */
  all?: readonly Permission[];
  children: ReactNode;
  /** Shown instead of Access Denied. */
  fallback?: ReactNode;
}

/**
 * The route guard of the pharmacy area: admin and owner pass; otherwise any/all of the permissions. A platform
 * operator is judged by their membership like anyone else, as the server does (issue 7).
 */
export function RequirePermission({ any, all, children, fallback }: RequirePermissionProps) {
  const { subject, canAny, canAll } = usePermissions();
  if (!subject) return fallback ?? <AccessDenied />;
  const allowed = isAdminSubject(subject) || ((!any || any.length === 0 || canAny(any)) && (!all || all.length === 0 || canAll(all)));
  if (!allowed) return fallback ?? <AccessDenied />;
  return children;
}
