import { useTranslation } from 'react-i18next';
import { PlaceholderScreen } from '@/app/placeholder-screen';
import { PublicHeader } from '@/features/public/components/public-header';
import { PublicFooter } from '@/features/public/components/public-footer';

/** A public page not built yet: the public header and footer around what is coming, and Back to Home. */
export function PublicPlaceholder({ screen }: { screen: string }) {
  const { t } = useTranslation('shell');
  return (
    <div className="flex min-h-screen flex-col bg-slate-50">
      <PublicHeader />
      <main id="main" className="mx-auto w-full max-w-3xl flex-1 px-4 py-10">
        <PlaceholderScreen screen={screen} backTo="/" backLabel={t('placeholder.backToHome')} />
      </main>
      <PublicFooter />
    </div>
  );
}
