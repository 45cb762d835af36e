import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { Navigate, Outlet } from 'react-router';
import { usePermissions } from '@/features/auth/hooks/use-permissions';
import { useLogout } from '@/features/auth/hooks/use-logout';
import { DemoModeBar, DemoModeGuard } from '@/app/layout/demo-mode';
import { InitializingScreen } from '@/app/layout/initializing-screen';
import { onUnauthenticated } from '@/lib/api';
import { ShellSettingsContext, useShellSettings } from '@/lib/pharmacy-settings';
import type { MeResponse } from '@pharmapoint/domain/auth';

/**
 * The till's own full-screen frame (decision 0025): no sidebar — the till has its own sticky header with Dashboard
 * and logout (seed 001 section 2) — but everything of the signed-in shell that guards the session: the pharmacy
 * chooser, the session lock after inactivity, the demo's read-only guard and bar, the sign-out of an ended session,
 * and the pharmacy's display and formatting settings.
 */
const PosSessionGuard = lazy(() => import('@/features/pos/routes/pos-session-guard'));

export function PosLayout() {
  const { me } = usePermissions();
  if (!me) return <InitializingScreen />;
  if (!me.pharmacy) return <Navigate to={me.user.isPlatformOperator ? '/app/dashboard' : '/choose-pharmacy'} replace />;
  return <PosFrame me={me} />;
}

function PosFrame({ me }: { me: MeResponse }) {
  const settings = useShellSettings(me.pharmacy?.id);
  const logout = useLogout();
  const [locked, setLocked] = useState(me.session.locked);
  const onLogout = useCallback(() => void logout(), [logout]);
  useEffect(() => onUnauthenticated(() => void logout({ sessionLost: true })), [logout]);
  const frame = (
    <ShellSettingsContext value={settings}>
      <div className="min-h-screen bg-slate-100">
        {me.isDemo ? <DemoModeBar /> : null}
        <div inert={locked}>
          <Outlet />
        </div>
        <Suspense fallback={null}>
          <PosSessionGuard me={me} onLogout={onLogout} onLocked={setLocked} />
        </Suspense>
      </div>
    </ShellSettingsContext>
  );
  return me.isDemo ? <DemoModeGuard>{frame}</DemoModeGuard> : frame;
}

export default PosLayout;
