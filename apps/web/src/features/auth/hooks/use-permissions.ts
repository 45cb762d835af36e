import { useMemo } from 'react';
import type { MeResponse } from '@pharmapoint/domain/auth';
import {
  hasAllPermissions,
  hasAnyPermission,
  hasPermission,
  isAdminSubject,
  type Permission,
  type PermissionSubject,
} from '@pharmapoint/domain/permissions';
import { useMe } from '@/features/auth/api/get-me';

/**
 * The permission subject of the signed-in user in the pharmacy area, from GET /api/me (effective permissions
 * already applied). Like the server, it is the membership alone: a platform operator who is a cashier of this
 * pharmacy is a cashier here (issue 7); the operator's own area is guarded by RequireOperator, not by permissions.
 */
export function subjectFromMe(me: MeResponse | null | undefined): PermissionSubject | null {
  if (!me) return null;
  return {
    role: me.membership?.role ?? (me.isDemo ? 'demo' : 'user'),
    isOwner: me.membership?.isOwner ?? false,
    hasPOSAccess: me.membership?.hasPosAccess ?? false,
    permissions: me.permissions,
    isDemoUser: me.isDemo,
  };
}

/** Permission checks for the signed-in user, with the same rules as the server. */
export function usePermissions() {
  const { data: me } = useMe();
  return useMemo(() => {
    const subject = subjectFromMe(me);
    return {
      me: me ?? null,
      subject,
      isDemo: Boolean(me?.isDemo),
      isAdmin: subject ? isAdminSubject(subject) : false,
      can: (permission: Permission) => (subject ? hasPermission(subject, permission) : false),
      canAny: (permissions: readonly Permission[]) => (subject ? hasAnyPermission(subject, permissions) : false),
      canAll: (permissions: readonly Permission[]) => (subject ? hasAllPermissions(subject, permissions) : false),
    };
  }, [me]);
}
