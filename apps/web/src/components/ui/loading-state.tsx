import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { cn } from '@/lib/cn';
import { Spinner } from '@/components/ui/spinner';

export interface LoadingStateProps {
  /** Defaults to 'Loading... Please wait...'. */
  message?: ReactNode;
  className?: string;
  /** Fill the viewport (route-level fallback). */
  fullScreen?: boolean;
}

export function LoadingState({ message, className, fullScreen }: LoadingStateProps) {
  const { t } = useTranslation();
  return (
    <div role="status" aria-live="polite" className={cn('flex flex-col items-center justify-center gap-3 py-12 text-slate-600', fullScreen && 'min-h-screen', className)}>
      <Spinner className="size-8 text-primary" />
      <p className="text-sm">{message ?? t('loading.default')}</p>
    </div>
  );
}
