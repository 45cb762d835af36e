import { useEffect, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Eye, Minus, Sparkles, X } from 'lucide-react';
import { buttonClasses } from '@/components/ui/button';
import { toast } from '@/lib/toast';
import { isDemoBlockedButtonText } from '@/app/layout/demo-rules';


/** Elements marked with this attribute are never blocked (the shell's own controls). */
const ALLOW_ATTRIBUTE = 'data-demo-allow';

/**
 * The demo is view-only in the browser too (the server refuses writes anyway): a capture-phase listener blocks
 * form submits and clicks on buttons whose text names a change, before any screen handler runs.
 */
export function DemoModeGuard({ children }: { children: ReactNode }) {
  const { t } = useTranslation('shell');
  useEffect(() => {
    const onSubmit = (event: Event) => {
      if (event.target instanceof Element && event.target.closest(`[${ALLOW_ATTRIBUTE}]`)) return;
      event.preventDefault();
      event.stopPropagation();
      toast.error(t('demo.changesNotSaved'), { id: 'demo-blocked' });
    };
    const onClick = (event: MouseEvent) => {
      if (!(event.target instanceof Element)) return;
      const button = event.target.closest('button, input[type="submit"], input[type="button"], [role="button"]');
      if (!button || button.closest(`[${ALLOW_ATTRIBUTE}]`)) return;
      const text = `${button.textContent ?? ''} ${button.getAttribute('aria-label') ?? ''} ${button instanceof HTMLInputElement ? button.value : ''}`;
      if (!isDemoBlockedButtonText(text)) return;
      event.preventDefault();
      event.stopPropagation();
      toast.error(t('demo.actionDisabled'), { id: 'demo-blocked' });
    };
    document.addEventListener('submit', onSubmit, true);
    document.addEventListener('click', onClick, true);
    return () => {
      document.removeEventListener('submit', onSubmit, true);
      document.removeEventListener('click', onClick, true);
    };
  }, [t]);
  return children;
}

/** The 44 px Demo Mode bar. */
export function DemoModeBar() {
  const { t } = useTranslation('shell');
  return (
    <div className="sticky top-0 z-40 flex h-11 items-center justify-center gap-3 bg-amber-400 px-4 text-sm font-medium text-amber-950" role="status" data-demo-allow="">
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
        data-demo-allow=""
        onClick={() => setState('open')}
        className="fixed bottom-4 right-4 z-40 flex items-center gap-2 rounded-full bg-primary px-4 py-2 text-sm font-semibold text-white shadow-lg"
      >
        <Sparkles className="size-4" aria-hidden="true" />
        {t('demo.card.reopen')}
      </button>
    );
  }
  return (
    <aside aria-label={t('demo.card.title')} data-demo-allow="" className="fixed bottom-4 right-4 z-40 w-80 max-w-[calc(100%-2rem)] rounded-lg border border-slate-200 bg-white p-4 shadow-xl">
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
