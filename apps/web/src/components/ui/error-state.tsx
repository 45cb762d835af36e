import type { ReactNode } from 'react';
import { AlertTriangle } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { cn } from '@/lib/cn';
import { Button } from '@/components/ui/button';

export interface ErrorStateProps {
  /** Heading; defaults to 'Something went wrong'. */
  title?: ReactNode;
  /** The error text to show (e.g. ApiError.message). */
  message?: ReactNode;
  /** Shows a Try Again button. */
  onRetry?: () => void;
  retryLabel?: ReactNode;
  className?: string;
}

export function ErrorState({ title, message, onRetry, retryLabel, className }: ErrorStateProps) {
  const { t } = useTranslation();
  return (
    <div role="alert" className={cn('flex flex-col items-center justify-center gap-2 rounded-lg border border-red-200 bg-red-50 px-6 py-10 text-center', className)}>
      <AlertTriangle className="size-8 text-red-500" aria-hidden="true" />
      <p className="text-base font-semibold text-red-900">{title ?? t('errors.somethingWrong')}</p>
      <p className="max-w-md text-sm text-red-800">{message ?? t('errors.unexpected')}</p>
      {onRetry ? (
        <Button variant="outline" className="mt-2" onClick={onRetry}>
          {retryLabel ?? t('actions.tryAgain')}
        </Button>
      ) : null}
    </div>
  );
}
