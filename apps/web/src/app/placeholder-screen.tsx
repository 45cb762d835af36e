import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ArrowLeft, Construction } from 'lucide-react';
import { PageHeader } from '@/components/ui/page-header';
import { EmptyState } from '@/components/ui/empty-state';
import { buttonClasses } from '@/components/ui/button';

export interface PlaceholderScreenProps {
  /** Its key in the placeholders catalogue (title and what is coming). */
  screen: string;
  /** The operator's admin area leads back to its dashboard; everything else to the pharmacy's. */
  area?: 'app' | 'admin';
  /** Where the way back leads, when neither. */
  backTo?: string;
  backLabel?: string;
}

/**
 * A screen not built yet, inside the layout it will have: its title, what is coming there, and a way back, so every
 * link in the app leads somewhere and nowhere is a dead end.
 */
export function PlaceholderScreen({ screen, area = 'app', backTo, backLabel }: PlaceholderScreenProps) {
  const { t } = useTranslation('placeholders');
  const back = backTo ?? (area === 'admin' ? '/app/admin/saas-dashboard' : '/app/dashboard');
  const label = backLabel ?? (area === 'admin' ? t('shell:placeholder.backToAdmin') : t('shell:placeholder.backToDashboard'));
  return (
    <div>
      <PageHeader title={t(`${screen}.title`)} />
      <EmptyState
        icon={<Construction className="size-10" />}
        title={t('common:comingSoon')}
        description={t(`${screen}.description`)}
        action={
          <Link to={back} className={buttonClasses('outline')}>
            <ArrowLeft className="size-4" aria-hidden="true" />
            {label}
          </Link>
        }
      />
    </div>
  );
}
