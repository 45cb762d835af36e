import { lazy, useCallback, useEffect, useState, type ComponentType, type LazyExoticComponent } from 'react';
import { useTranslation } from 'react-i18next';
import { WifiOff } from 'lucide-react';
import { Button } from '@/components/ui/button';

type Module = { default: ComponentType };
type Loader = () => Promise<Module>;

/** Is this the browser failing to fetch a screen's code (offline, or the server unreachable)? */
export function isChunkLoadError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return /Failed to fetch dynamically imported module|Importing a module script failed|error loading dynamically imported module|Unable to preload CSS/i.test(
    error.message,
  );
}

/** The URL of the module a failed dynamic import names ('Failed to fetch dynamically imported module: <url>'). */
function failedModuleUrl(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  return /(https?:\/\/\S+\.js)/.exec(error.message)?.[1];
}

/**
 * Loads a screen's code again. Chromium remembers a failed dynamic import of a URL for the page's life, so when the
 * plain retry fails the same way, the named module is imported under a fresh query string (the module graph below
 * it, already fetched or not, is fetched normally).
 */
async function retryLoad(load: Loader, previous: unknown): Promise<Module> {
  try {
    return await load();
  } catch (error) {
    const url = failedModuleUrl(error) ?? failedModuleUrl(previous);
    if (!url || !isChunkLoadError(error)) throw error;
    return (await import(/* @vite-ignore */ `${url.split('?')[0]}?retry=${Date.now()}`)) as Module;
  }
}

/**
 * 'You are offline — this screen will open when the connection is back': shown where a screen whose code could not
 * be fetched would be. It tries again by itself when the browser comes back online, and on Try Again.
 */
export function OfflineScreen({ onRetry, busy }: { onRetry: () => void; busy: boolean }) {
  const { t } = useTranslation('shell');
  useEffect(() => {
    window.addEventListener('online', onRetry);
    return () => window.removeEventListener('online', onRetry);
  }, [onRetry]);
  return (
    <div role="alert" className="mx-auto my-12 max-w-md rounded-lg border border-amber-200 bg-white p-8 text-center">
      <WifiOff className="mx-auto size-10 text-amber-500" aria-hidden="true" />
      <h1 className="mt-3 text-xl font-bold text-slate-900">{t('offlineScreen.title')}</h1>
      <p className="mt-2 text-sm text-slate-600">{t('offlineScreen.message')}</p>
      <Button className="mt-6" onClick={onRetry} loading={busy}>
        {t('common:actions.tryAgain')}
      </Button>
    </div>
  );
}

/**
 * A lazily loaded screen (its own chunk). A failed fetch of its code does not reach the error boundary: the offline
 * screen takes its place and swaps in the real screen once a retry succeeds; other errors are thrown as before.
 */
export function lazyScreen(load: Loader): LazyExoticComponent<ComponentType> {
  return lazy(async () => {
    try {
      return await load();
    } catch (firstError) {
      if (!isChunkLoadError(firstError)) throw firstError;
      let loaded: ComponentType | undefined;
      function Retrying() {
        const [Screen, setScreen] = useState<ComponentType | undefined>(() => loaded);
        const [busy, setBusy] = useState(false);
        const retry = useCallback(() => {
          setBusy(true);
          retryLoad(load, firstError)
            .then((module) => {
              loaded = module.default;
              setScreen(() => module.default);
            })
            .catch(() => undefined)
            .finally(() => setBusy(false));
        }, []);
        if (Screen) return <Screen />;
        return <OfflineScreen onRetry={retry} busy={busy} />;
      }
      return { default: Retrying };
    }
  });
}
