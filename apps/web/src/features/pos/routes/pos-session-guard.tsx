import { useEffect } from 'react';
import type { MeResponse } from '@pharmapoint/domain/auth';
import { SessionLockOverlay, useSessionLock } from '@/app/layout/session-lock';

/**
 * The session lock of the till (inactivity, or the server's 423): a chunk of its own, loaded just after the till has
 * rendered, so its dialog library is not part of the till's first load (decision 0025). It reports the lock so the
 * frame can make the till inert, and shows the Session Locked overlay.
 */
export default function PosSessionGuard({ me, onLogout, onLocked }: { me: MeResponse; onLogout: () => void; onLocked: (locked: boolean) => void }) {
  const { locked, unlock } = useSessionLock(me);
  useEffect(() => onLocked(locked), [locked, onLocked]);
  return locked ? <SessionLockOverlay me={me} onUnlocked={unlock} onLogout={onLogout} /> : null;
}
