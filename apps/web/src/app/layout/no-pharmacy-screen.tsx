import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Building2, LogOut } from 'lucide-react';
import type { MeResponse } from '@pharmapoint/domain/auth';
import { Button, buttonClasses } from '@/components/ui/button';
import { useDocumentTitle } from '@/app/document-title';

/**
 * The pharmacy area for someone who belongs to no pharmacy (a platform operator, a member whose pharmacy access
 * ended): one clear page instead of menus and screens that can only fail ('No pharmacy context available').
 */
export function NoPharmacyScreen({ me, onLogout }: { me: MeResponse; onLogout: () => void }) {
  const { t } = useTranslation('shell');
  useDocumentTitle(t('titles.noPharmacy'));
  const operator = me.user.isPlatformOperator;
  return (
    <main id="main" className="flex min-h-screen items-center justify-center bg-slate-50 p-6">
      <div className="max-w-md rounded-lg border border-slate-200 bg-white p-8 text-center shadow-sm">
        <Building2 className="mx-auto size-12 text-slate-400" aria-hidden="true" />
        <h1 className="mt-3 text-2xl font-bold text-slate-900">{t('noPharmacy.title')}</h1>
        <p className="mt-2 text-sm text-slate-600">{operator ? t('noPharmacy.operatorMessage') : t('noPharmacy.message')}</p>
        <div className="mt-6 flex flex-wrap justify-center gap-2">
          {operator ? (
            <Link to="/app/admin" className={buttonClasses('primary')}>
              {t('noPharmacy.adminArea')}
            </Link>
          ) : null}
          {/* Their profile needs no pharmacy: the invitations waiting for their answer are there (decision 0060). */}
          <Link to="/app/profile" className={buttonClasses('outline')}>
            {t('titles.profile')}
          </Link>
          <Button variant="outline" onClick={onLogout} icon={<LogOut className="size-4" aria-hidden="true" />}>
            {t('nav.logout')}
          </Button>
        </div>
      </div>
    </main>
  );
}
