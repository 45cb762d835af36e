import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';

const COLUMNS = [
  { key: 'product', links: [['features', '/#features'], ['pricing', '/#pricing'], ['demo', '/demo'], ['signIn', '/login']] },
  { key: 'company', links: [['about', '/#features'], ['contact', '/#contact'], ['faq', '/#faq']] },
  { key: 'legal', links: [['privacy', '/#contact'], ['terms', '/#contact']] },
] as const;

/** The public footer: Product, Company and Legal lists, and the contact anchor. */
export function PublicFooter() {
  const { t } = useTranslation('public');
  return (
    <footer id="contact" className="scroll-mt-20 bg-slate-900 text-slate-300">
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-12 md:grid-cols-4">
        <div>
          <p className="text-lg font-bold text-white">{t('common:appName')}</p>
          <p className="mt-2 text-sm">{t('footer.tagline')}</p>
          <p className="mt-4 text-sm">{t('footer.contact')}</p>
        </div>
        {COLUMNS.map((column) => (
          <div key={column.key}>
            <h2 className="text-sm font-semibold uppercase tracking-wide text-white">{t(`footer.${column.key}.title`)}</h2>
            <ul className="mt-3 space-y-2 text-sm">
              {column.links.map(([key, to]) => (
                <li key={key}>
                  {to.startsWith('/#') ? (
                    <a href={to} className="hover:text-white">
                      {t(`footer.${column.key}.${key}`)}
                    </a>
                  ) : (
                    <Link to={to} className="hover:text-white">
                      {t(`footer.${column.key}.${key}`)}
                    </Link>
                  )}
                </li>
              ))}
            </ul>
          </div>
        ))}
      </div>
      <p className="border-t border-white/10 py-4 text-center text-xs">{t('footer.copyright', { year: new Date().getFullYear() })}</p>
    </footer>
  );
}
