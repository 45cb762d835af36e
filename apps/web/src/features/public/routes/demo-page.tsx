import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Eye } from 'lucide-react';
import { buttonClasses } from '@/components/ui/button';
import { PublicHeader } from '@/features/public/components/public-header';

/** The static demo promo: Try Demo and Back to Home. */
export default function DemoPage() {
  const { t } = useTranslation('public');
  return (
    <div className="min-h-screen bg-gradient-to-br from-primary/10 via-white to-secondary/10">
      <PublicHeader />
      <main className="mx-auto max-w-3xl px-4 py-20 text-center">
        <Eye className="mx-auto size-12 text-primary" aria-hidden="true" />
        <h1 className="mt-4 text-4xl font-extrabold text-slate-900">{t('demoPage.title')}</h1>
        <p className="mt-4 text-lg text-slate-600">{t('demoPage.body')}</p>
        <ul className="mx-auto mt-6 max-w-md space-y-1 text-left text-slate-700">
          {['point1', 'point2', 'point3'].map((point) => (
            <li key={point}>• {t(`demoPage.${point}`)}</li>
          ))}
        </ul>
        <div className="mt-8 flex flex-wrap justify-center gap-3">
          <Link to="/demo-register" className={buttonClasses('primary', 'lg')}>
            {t('demoPage.tryDemo')}
          </Link>
          <Link to="/" className={buttonClasses('outline', 'lg')}>
            {t('demoPage.backHome')}
          </Link>
        </div>
      </main>
    </div>
  );
}
