import { useEffect, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Eye, Minus, Sparkles, X } from 'lucide-react';
import { buttonClasses } from '@/components/ui/button';
import { toast } from '@/lib/toast';
import { ApiError, setWriteGuard } from '@/lib/api';
import { isDemoBlockedRequest } from '@/app/layout/demo-rules';

/**
 * The demo is view-only in the browser too (the server refuses writes anyway): while a demo visitor is signed in,
 * every state-changing request is refused before it leaves (app/layout/demo-rules.ts) with
 * 'Demo mode: Changes are not saved' as a toast and as the request's error, whatever the button says.
 */
export function DemoModeGuard({ children }: { children: ReactNode }) {
  const { t } = useTranslation('shell');
  useEffect(
    () =>
      setWriteGuard((method, path) => {
        if (!isDemoBlockedRequest(method, path)) return undefined;
        const message = t('demo.changesNotSaved');
        toast.error(message);
        return new ApiError(403, 'DEMO_READ_ONLY', message);
      }),
    [t],
  );
  return children;
}

/** The 44 px Demo Mode bar. */
export function DemoModeBar() {
  const { t } = useTranslation('shell');
  return (
    <div className="sticky top-0 z-40 flex h-11 items-center justify-center gap-3 bg-amber-400 px-4 text-sm font-medium text-amber-950" role="status">
      <Eye className="size-4" aria-hidden="true" />
      <span>{t('demo.bar')}</span>
      <Link to="/purchase" className="rounded-md bg-amber-950 px-3 py-1 text-xs font-semibold text-white">
        {t('demo.upgradeNow')}
      </Link>
    </div>
  );
}

/** The floating upgrade card for demo users: minimizable and closable (for this page visit). */
export function DemoUpgradeCard() {
  const { t } = useTranslation('shell');
  const [state, setState] = useState<'open' | 'minimized' | 'closed'>('open');
  if (state === 'closed') return null;
  if (state === 'minimized') {
    return (
      <button
        type="button"
       
        onClick={() => setState('open')}
        className="fixed bottom-4 right-4 z-40 flex items-center gap-2 rounded-full bg-primary px-4 py-2 text-sm font-semibold text-white shadow-lg"
      >
        <Sparkles className="size-4" aria-hidden="true" />
        {t('demo.card.reopen')}
      </button>
    );
  }
  return (
    <aside aria-label={t('demo.card.title')} className="fixed bottom-4 right-4 z-40 w-80 max-w-[calc(100%-2rem)] rounded-lg border border-slate-200 bg-white p-4 shadow-xl">
      <div className="flex items-start gap-2">
        <Sparkles className="mt-0.5 size-5 text-primary" aria-hidden="true" />
        <div className="flex-1">
          <p className="font-semibold text-slate-900">{t('demo.card.title')}</p>
          <p className="mt-1 text-sm text-slate-600">{t('demo.card.body')}</p>
        </div>
        <button type="button" onClick={() => setState('minimized')} aria-label={t('demo.card.minimize')} className="rounded p-1 text-slate-500 hover:bg-slate-100">
          <Minus className="size-4" aria-hidden="true" />
        </button>
        <button type="button" onClick={() => setState('closed')} aria-label={t('demo.card.close')} className="rounded p-1 text-slate-500 hover:bg-slate-100">
          <X className="size-4" aria-hidden="true" />
        </button>
      </div>
      <div className="mt-3 flex gap-2">
        <Link to="/purchase" className={buttonClasses('primary', 'sm', 'flex-1')}>
          {t('demo.card.buy')}
        </Link>
        <Link to="/#pricing" className={buttonClasses('outline', 'sm', 'flex-1')}>
          {t('demo.card.plans')}
        </Link>
      </div>
    </aside>
  );
}
