import { Navigate } from 'react-router';
import { useSessionUser } from '@/app/use-session-user';
import { InitializingScreen } from '@/app/layout/initializing-screen';

/** Any unknown path: /app/dashboard when a user is loaded, otherwise / (seed 000 section 2). */
export function UnknownPathRedirect() {
  const { me, loading } = useSessionUser();
  if (loading) return <InitializingScreen />;
  return <Navigate to={me ? '/app/dashboard' : '/'} replace />;
}
