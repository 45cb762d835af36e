import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Cross, Menu, X } from 'lucide-react';
import { buttonClasses } from '@/components/ui/button';
import { useMe } from '@/features/auth/api/get-me';

const LINKS = [
  { key: 'features', to: '/#features' },
  { key: 'pricing', to: '/#pricing' },
  { key: 'faq', to: '/#faq' },
  { key: 'contact', to: '/#contact' },
  { key: 'demo', to: '/demo' },
] as const;

/**
 * The shared public header: sticky, changes look after 30 px of scrolling, with a mobile menu. Its state lives in the
 * markup (data-scrolled on the header, aria-expanded on the menu button, the hidden attribute on the menu, both icons
 * drawn and one shown by CSS) so that the landing page, prerendered to HTML at build time, runs the same header with
 * a small script instead of React (features/public/landing/entry.ts; docs/decisions/0057). The data-* labels are
 * what that script switches to.
 */
export function PublicHeader() {
  const { t } = useTranslation('public');
  const [scrolled, setScrolled] = useState(false);
  const [menuOpen, setMenuOpen] = useState(false);
  // A signed-in visitor goes back to their dashboard instead of signing in again.
  const { data: me } = useMe();
  const account = me ? { to: '/app/dashboard', label: t('header.dashboard') } : { to: '/login', label: t('header.signIn') };
  useEffect(() => {
    const onScroll = () => setScrolled(window.scrollY > 30);
    onScroll();
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);
  return (
    <header
      data-public-header=""
      data-scrolled={String(scrolled)}
      className="sticky top-0 z-40 bg-transparent transition-colors data-[scrolled=true]:bg-white/95 data-[scrolled=true]:shadow-sm data-[scrolled=true]:backdrop-blur"
    >
      <div className="mx-auto flex max-w-6xl items-center justify-between gap-4 px-4 py-3">
        <Link to="/" className="flex items-center gap-2 text-lg font-bold text-slate-900">
          <span className="flex size-8 items-center justify-center rounded-lg bg-primary text-white">
            <Cross className="size-4" aria-hidden="true" />
          </span>
          {t('common:appName')}
        </Link>
        <nav aria-label={t('header.label')} className="hidden items-center gap-6 text-sm font-medium text-slate-700 md:flex">
          {LINKS.map((link) => (
            <a key={link.key} href={link.to} className="hover:text-primary">
              {t(`header.links.${link.key}`)}
            </a>
          ))}
        </nav>
        <div className="hidden items-center gap-2 md:flex">
          <Link to="/demo-register" className={buttonClasses('ghost', 'sm')}>
            {t('header.viewDemo')}
          </Link>
          <Link to={account.to} className={buttonClasses('outline', 'sm')} data-account-link="" data-signed-in-label={t('header.dashboard')}>
            {account.label}
          </Link>
          <Link to="/purchase" className={buttonClasses('primary', 'sm')}>
            {t('header.getStarted')}
          </Link>
        </div>
        <button
          type="button"
          className="group rounded p-2 md:hidden"
          aria-expanded={menuOpen}
          aria-controls="public-menu"
          aria-label={menuOpen ? t('header.closeMenu') : t('header.openMenu')}
          data-open-label={t('header.openMenu')}
          data-close-label={t('header.closeMenu')}
          onClick={() => setMenuOpen(!menuOpen)}
        >
          <Menu className="size-6 group-aria-expanded:hidden" aria-hidden="true" />
          <X className="hidden size-6 group-aria-expanded:block" aria-hidden="true" />
        </button>
      </div>
      <div id="public-menu" hidden={!menuOpen} className="border-t border-slate-200 bg-white px-4 pb-4 md:hidden">
        <nav aria-label={t('header.label')} className="flex flex-col py-2">
          {LINKS.map((link) => (
            <a key={link.key} href={link.to} className="py-2 text-slate-700" onClick={() => setMenuOpen(false)}>
              {t(`header.links.${link.key}`)}
            </a>
          ))}
        </nav>
        <div className="flex flex-col gap-2">
          <Link to="/demo-register" className={buttonClasses('outline')}>
            {t('header.viewDemo')}
          </Link>
          <Link to={account.to} className={buttonClasses('outline')} data-account-link="" data-signed-in-label={t('header.dashboard')}>
            {account.label}
          </Link>
          <Link to="/purchase" className={buttonClasses('primary')}>
            {t('header.getStarted')}
          </Link>
        </div>
      </div>
    </header>
  );
}
