import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Cross } from 'lucide-react';

/** The centred card of the sign-in screens, with the product mark linking home. */
export function AuthShell({ title, description, children, footer }: { title: ReactNode; description?: ReactNode; children: ReactNode; footer?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <main className="flex min-h-screen flex-col items-center justify-center bg-gradient-to-br from-primary/10 via-white to-secondary/10 px-4 py-10">
      <Link to="/" className="mb-6 flex items-center gap-2 text-xl font-bold text-slate-900">
        <span className="flex size-9 items-center justify-center rounded-lg bg-primary text-white">
          <Cross className="size-5" aria-hidden="true" />
        </span>
        {t('appName')}
      </Link>
      <div className="w-full max-w-md rounded-xl border border-slate-200 bg-white p-6 shadow-lg sm:p-8">
        <h1 className="text-2xl font-bold text-slate-900">{title}</h1>
        {description ? <p className="mt-1 text-sm text-slate-600">{description}</p> : null}
        <div className="mt-6">{children}</div>
      </div>
      {footer ? <div className="mt-6 text-center text-sm text-slate-600">{footer}</div> : null}
    </main>
  );
}
