import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { SearchX } from 'lucide-react';
import { buttonClasses } from '@/components/ui/button';
import { useDocumentTitle } from '@/app/document-title';

/** What a link to something that is not there shows (a malformed id, a removed record): no Try Again, a way back. */
export function NotFoundScreen({ backTo = '/app/dashboard', backLabel }: { backTo?: string; backLabel?: string }) {
  const { t } = useTranslation('shell');
  useDocumentTitle(t('notFound.title'));
  return (
    <div role="alert" className="mx-auto my-12 max-w-md rounded-lg border border-slate-200 bg-white p-8 text-center">
      <SearchX className="mx-auto size-10 text-slate-400" aria-hidden="true" />
      <h1 className="mt-3 text-xl font-bold text-slate-900">{t('notFound.title')}</h1>
      <p className="mt-2 text-sm text-slate-600">{t('notFound.message')}</p>
      <Link to={backTo} className={buttonClasses('primary', 'md', 'mt-6')}>
        {backLabel ?? t('notFound.back')}
      </Link>
    </div>
  );
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Is this route parameter a well-formed id (a UUID)? Anything else cannot name a record. */
export function isWellFormedId(value: string | undefined): boolean {
  return typeof value === 'string' && UUID.test(value);
}
