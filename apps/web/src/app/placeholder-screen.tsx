import { useTranslation } from 'react-i18next';
import { Construction } from 'lucide-react';
import { PageHeader } from '@/components/ui/page-header';
import { EmptyState } from '@/components/ui/empty-state';

/** A screen not built yet: its title and what will appear there, so every link in the app leads somewhere. */
export function PlaceholderScreen({ screen }: { screen: string }) {
  const { t } = useTranslation('placeholders');
  return (
    <div>
      <PageHeader title={t(`${screen}.title`)} />
      <EmptyState icon={<Construction className="size-10" />} title={t('common:comingSoon')} description={t(`${screen}.description`)} />
    </div>
  );
}
