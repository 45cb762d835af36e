import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import * as RadixDialog from '@radix-ui/react-dialog';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Lock } from 'lucide-react';
import type { MeResponse } from '@pharmapoint/domain/auth';
import { PIN_PATTERN } from '@pharmapoint/domain/auth';
import { lockSession, unlockSession } from '@/features/auth/api/auth';
import { meQueryKey } from '@/features/auth/api/get-me';
import { onSessionLocked } from '@/lib/api';
import { formatCountdown } from '@/lib/format';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Field } from '@/components/ui/field';

const ACTIVITY_EVENTS = ['mousemove', 'mousedown', 'keydown', 'touchstart', 'wheel', 'scroll'] as const;

/**
 * The session lock state: locked when the server says so (GET /api/me or any 423), or after
 * me.session.lockAfterMinutes without mouse, key or touch activity (then POST /api/auth/lock).
 */
export function useSessionLock(me: MeResponse) {
  const [locked, setLocked] = useState(me.session.locked);
  const lockAfterMs = me.session.lockAfterMinutes * 60_000;

  useEffect(() => {
    if (me.session.locked) setLocked(true);
  }, [me.session.locked]);

  useEffect(() => onSessionLocked(() => setLocked(true)), []);

  useEffect(() => {
    if (locked || !(lockAfterMs > 0)) return;
    let timer = window.setTimeout(fire, lockAfterMs);
    let last = Date.now();
    function fire() {
      setLocked(true);
      void lockSession().catch(() => undefined);
    }
    function onActivity() {
      const now = Date.now();
      // Resetting a timer on every mousemove is wasteful; once a second is plenty for minutes of timeout.
      if (now - last < 1000) return;
      last = now;
      window.clearTimeout(timer);
      timer = window.setTimeout(fire, lockAfterMs);
    }
    for (const name of ACTIVITY_EVENTS) window.addEventListener(name, onActivity, { passive: true, capture: true });
    return () => {
      window.clearTimeout(timer);
      for (const name of ACTIVITY_EVENTS) window.removeEventListener(name, onActivity, { capture: true });
    };
  }, [locked, lockAfterMs]);

  return { locked, unlock: useCallback(() => setLocked(false), []) };
}

interface SessionLockOverlayProps {
  me: MeResponse;
  onUnlocked: () => void;
  onLogout: () => void;
}

/** The Session Locked overlay: unlock by PIN or password, and the auto-logout countdown (m:ss). */
export function SessionLockOverlay({ me, onUnlocked, onLogout }: SessionLockOverlayProps) {
  const { t } = useTranslation('auth');
  const queryClient = useQueryClient();
  const [method, setMethod] = useState<'pin' | 'password'>(me.user.hasPin ? 'pin' : 'password');
  const [secret, setSecret] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [remaining, setRemaining] = useState(Math.max(0, me.session.autoLogoutMinutes * 60));
  const inputRef = useRef<HTMLInputElement>(null);
  const deadline = useRef(Date.now() + me.session.autoLogoutMinutes * 60_000);
  const loggedOut = useRef(false);

  useEffect(() => {
    if (!(me.session.autoLogoutMinutes > 0)) return;
    const timer = window.setInterval(() => {
      const seconds = Math.max(0, Math.round((deadline.current - Date.now()) / 1000));
      setRemaining(seconds);
      if (seconds === 0 && !loggedOut.current) {
        loggedOut.current = true;
        onLogout();
      }
    }, 1000);
    return () => window.clearInterval(timer);
  }, [me.session.autoLogoutMinutes, onLogout]);

  // A PIN saved (or the user re-read) after the overlay opened: offer the PIN first.
  useEffect(() => {
    if (me.user.hasPin) setMethod('pin');
  }, [me.user.hasPin]);

  useEffect(() => {
    inputRef.current?.focus();
  }, [method]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!secret) {
      setError(method === 'pin' ? t('lock.enterPin') : t('lock.enterPassword'));
      return;
    }
    if (method === 'pin' && !PIN_PATTERN.test(secret)) {
      setError(t('lock.pinFormat'));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await unlockSession(method, secret);
      await queryClient.invalidateQueries({ queryKey: meQueryKey });
      onUnlocked();
    } catch (caught) {
      setError(caught instanceof Error && caught.message ? caught.message : t('lock.failed'));
      setSecret('');
    } finally {
      setBusy(false);
    }
  }

  // A Radix dialog for its focus trap and inert background; it cannot be dismissed (no Escape, no outside click).
  return (
    <RadixDialog.Root open>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="fixed inset-0 z-[100] bg-slate-900/80 backdrop-blur-sm" />
        <RadixDialog.Content
         
          onEscapeKeyDown={(event) => event.preventDefault()}
          onInteractOutside={(event) => event.preventDefault()}
          onOpenAutoFocus={(event) => {
            event.preventDefault();
            inputRef.current?.focus();
          }}
          className="fixed left-1/2 top-1/2 z-[100] max-h-[95vh] w-[calc(100%-2rem)] max-w-sm -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-xl bg-white p-6 shadow-2xl focus:outline-none"
        >
          <div className="mb-4 flex flex-col items-center text-center">
            <span className="flex size-12 items-center justify-center rounded-full bg-primary/10 text-primary">
              <Lock className="size-6" aria-hidden="true" />
            </span>
            <RadixDialog.Title className="mt-3 text-xl font-bold text-slate-900">{t('lock.title')}</RadixDialog.Title>
            <RadixDialog.Description className="text-sm text-slate-600">
              {t('lock.description', { name: me.user.displayName || me.user.name || me.user.email })}
            </RadixDialog.Description>
          </div>
          {me.user.hasPin ? (
            <div className="mb-4 grid grid-cols-2 gap-1 rounded-md bg-slate-100 p-1" role="group" aria-label={t('lock.method')}>
              {(['pin', 'password'] as const).map((option) => (
                <button
                  key={option}
                  type="button"
                  aria-pressed={method === option}
                  onClick={() => {
                    setMethod(option);
                    setSecret('');
                    setError(null);
                  }}
                  className={`rounded px-3 py-1.5 text-sm font-medium ${method === option ? 'bg-white shadow text-slate-900' : 'text-slate-600'}`}
                >
                  {option === 'pin' ? t('lock.usePin') : t('lock.usePassword')}
                </button>
              ))}
            </div>
          ) : null}
          <form onSubmit={(event) => void submit(event)} noValidate className="space-y-4">
            <Field label={method === 'pin' ? t('lock.pin') : t('lock.password')} error={error ?? undefined}>
              {method === 'pin' ? (
                <Input
                  ref={inputRef}
                  type="password"
                  inputMode="numeric"
                  autoComplete="off"
                  maxLength={6}
                  value={secret}
                  onChange={(event) => {
                    setSecret(event.target.value.replace(/\D/g, '').slice(0, 6));
                    setError(null);
                  }}
                />
              ) : (
                <Input
                  ref={inputRef}
                  type="password"
                  autoComplete="current-password"
                  value={secret}
                  onChange={(event) => {
                    setSecret(event.target.value);
                    setError(null);
                  }}
                />
              )}
            </Field>
            <Button type="submit" className="w-full" loading={busy}>
              {t('lock.unlock')}
            </Button>
          </form>
          {me.session.autoLogoutMinutes > 0 ? (
            <p className="mt-4 text-center text-sm text-slate-600" aria-live="off">
              {t('lock.autoLogout')} <span className="font-mono font-semibold tabular-nums">{formatCountdown(remaining)}</span>
            </p>
          ) : null}
          <Button variant="ghost" className="mt-2 w-full" onClick={onLogout}>
            {t('lock.logout')}
          </Button>
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
