import { isRouteErrorResponse, useRouteError } from 'react-router';
import { useTranslation } from 'react-i18next';
import { AlertTriangle } from 'lucide-react';
import { Button } from '@/components/ui/button';

function useErrorText(): string {
  const error = useRouteError();
  const { t } = useTranslation();
  if (isRouteErrorResponse(error)) return error.statusText || t('errors.unexpected');
  if (error instanceof Error && error.message) return error.message;
  return t('errors.unexpected');
}

/** The application-level boundary: Application Error with Reload Application and Back to Home. */
export function RootErrorBoundary() {
  const { t } = useTranslation();
  const message = useErrorText();
  return (
    <main className="flex min-h-screen items-center justify-center bg-slate-50 p-6">
      <div role="alert" className="max-w-md rounded-lg border border-red-200 bg-white p-8 text-center shadow">
        <AlertTriangle className="mx-auto size-12 text-red-500" aria-hidden="true" />
        <h1 className="mt-3 text-2xl font-bold text-slate-900">{t('errors.applicationError')}</h1>
        <p className="mt-2 text-sm text-slate-600">{message}</p>
        <div className="mt-6 flex justify-center gap-2">
          <Button onClick={() => window.location.reload()}>{t('errors.reloadApplication')}</Button>
          <Button variant="outline" onClick={() => window.location.assign('/')}>
            {t('errors.backToHome')}
          </Button>
        </div>
      </div>
    </main>
  );
}

/** The per-screen boundary: Something went wrong with Refresh Page; the layout around it keeps working. */
export function ScreenErrorBoundary() {
  const { t } = useTranslation();
  const message = useErrorText();
  return (
    <div role="alert" className="mx-auto my-12 max-w-md rounded-lg border border-red-200 bg-white p-8 text-center">
      <AlertTriangle className="mx-auto size-10 text-red-500" aria-hidden="true" />
      <h1 className="mt-3 text-xl font-bold text-slate-900">{t('errors.somethingWrong')}</h1>
      <p className="mt-2 text-sm text-slate-600">{message}</p>
      <Button className="mt-6" onClick={() => window.location.reload()}>
        {t('errors.refreshPage')}
      </Button>
    </div>
  );
}
