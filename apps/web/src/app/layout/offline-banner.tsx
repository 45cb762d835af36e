import { useSyncExternalStore } from 'react';
import { WifiOff } from 'lucide-react';
import { useTranslation } from 'react-i18next';

function subscribe(callback: () => void) {
  window.addEventListener('online', callback);
  window.addEventListener('offline', callback);
  return () => {
    window.removeEventListener('online', callback);
    window.removeEventListener('offline', callback);
  };
}

/** Whether the browser says it is online (navigator.onLine and the online/offline events). */
export function useOnline(): boolean {
  return useSyncExternalStore(subscribe, () => navigator.onLine, () => true);
}

/** 'You are currently offline' across the top whenever the browser is offline. */
export function OfflineBanner() {
  const online = useOnline();
  const { t } = useTranslation('shell');
  if (online) return null;
  return (
    <div role="status" className="sticky top-0 z-[60] flex items-center justify-center gap-2 bg-amber-500 px-4 py-2 text-sm font-medium text-amber-950">
      <WifiOff className="size-4" aria-hidden="true" />
      {t('offline')}
    </div>
  );
}
