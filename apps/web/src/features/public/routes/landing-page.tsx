import { useEffect } from 'react';
import { Link, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ArrowRight, Bell, Building2, Calculator, Check, CloudOff, Receipt, ShieldCheck, Smartphone, Truck, Wallet, Clock, Headphones, type LucideIcon } from 'lucide-react';
import { buttonClasses } from '@/components/ui/button';
import { PublicHeader } from '@/features/public/components/public-header';
import { PublicFooter } from '@/features/public/components/public-footer';

const FEATURES: ReadonlyArray<{ key: string; icon: LucideIcon }> = [
  { key: 'refills', icon: Bell },
  { key: 'suppliers', icon: Wallet },
  { key: 'expiry', icon: Clock },
  { key: 'transfers', icon: Truck },
  { key: 'pricing', icon: Calculator },
  { key: 'payments', icon: Smartphone },
];

const WHY: ReadonlyArray<{ key: string; icon: LucideIcon }> = [
  { key: 'roles', icon: ShieldCheck },
  { key: 'offline', icon: CloudOff },
  { key: 'branches', icon: Building2 },
  { key: 'support', icon: Headphones },
];

/** Real screens of the app with its demo data (apps/web/public/screenshots, made by scripts/screenshots.ts). */
const SCREENSHOTS = ['dashboard', 'products', 'expiry'] as const;
/** The pictures' size in pixels (1280 × 800, and 640 × 400 for phones): width and height keep their room before they load. */
const SHOT = { width: 1280, height: 800 };

/**
 * A screenshot of the app, as WebP at two widths; below the fold it is loaded lazily, and its width and height keep
 * its room so that nothing shifts when it arrives.
 */
function Screenshot({ name, alt, sizes, eager = false }: { name: string; alt: string; sizes: string; eager?: boolean }) {
  return (
    <img
      src={`/screenshots/${name}-1280.webp`}
      srcSet={`/screenshots/${name}-640.webp 640w, /screenshots/${name}-1280.webp 1280w`}
      sizes={sizes}
      width={SHOT.width}
      height={SHOT.height}
      alt={alt}
      loading={eager ? 'eager' : 'lazy'}
      decoding="async"
      className="h-auto w-full rounded-xl border border-slate-200 bg-slate-100 shadow-xl"
    />
  );
}

const PLAN_ITEMS = ['item1', 'item2', 'item3', 'item4', 'item5', 'item6'];
const FAQ_COUNT = 12;

export default function LandingPage() {
  const { t } = useTranslation('public');
  const { hash } = useLocation();

  // Links such as /#pricing scroll to their section once the page is drawn.
  useEffect(() => {
    if (hash) document.getElementById(hash.slice(1))?.scrollIntoView({ behavior: 'smooth' });
  }, [hash]);

  return (
    <div className="min-h-screen bg-white">
      <PublicHeader />
      <main>
        <section className="bg-gradient-to-br from-primary/10 via-white to-secondary/10">
          <div className="mx-auto grid max-w-6xl items-center gap-10 px-4 py-16 md:grid-cols-2 md:py-24">
            <div>
              <p className="mb-3 inline-block rounded-full bg-primary/10 px-3 py-1 text-sm font-medium text-primary">{t('hero.eyebrow')}</p>
              <h1 className="text-4xl font-extrabold tracking-tight text-slate-900 md:text-5xl">{t('hero.title')}</h1>
              <p className="mt-4 text-lg text-slate-600">{t('hero.subtitle')}</p>
              <div className="mt-8 flex flex-wrap gap-3">
                <Link to="/demo-register" className={buttonClasses('primary', 'lg')}>
                  {t('hero.tryDemo')}
                  <ArrowRight className="size-4" aria-hidden="true" />
                </Link>
                <a href="#pricing" className={buttonClasses('outline', 'lg')}>
                  {t('hero.seePricing')}
                </a>
              </div>
              <p className="mt-4 text-sm text-slate-500">{t('hero.note')}</p>
            </div>
            {/* Above the fold on a laptop: loaded at once, never lazily (it is the page's largest picture). */}
            <Screenshot name="till" alt={t('hero.screenshotAlt')} sizes="(min-width: 1152px) 560px, (min-width: 768px) 50vw, 100vw" eager />
          </div>
        </section>

        <section id="features" className="mx-auto max-w-6xl scroll-mt-20 px-4 py-16">
          <h2 className="text-center text-3xl font-bold text-slate-900">{t('features.title')}</h2>
          <p className="mx-auto mt-2 max-w-2xl text-center text-slate-600">{t('features.subtitle')}</p>
          <ul className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {FEATURES.map(({ key, icon: Icon }) => (
              <li key={key} className="rounded-xl border border-slate-200 p-6 shadow-sm">
                <Icon className="size-8 text-primary" aria-hidden="true" />
                <h3 className="mt-3 text-lg font-semibold text-slate-900">{t(`features.items.${key}.title`)}</h3>
                <p className="mt-1 text-sm text-slate-600">{t(`features.items.${key}.body`)}</p>
              </li>
            ))}
          </ul>
          <ul aria-label={t('features.screenshots.label')} className="mt-12 grid gap-6 md:grid-cols-3">
            {SCREENSHOTS.map((name) => (
              <li key={name}>
                <figure>
                  <Screenshot name={name} alt={t(`features.screenshots.${name}.alt`)} sizes="(min-width: 1152px) 360px, (min-width: 768px) 33vw, 100vw" />
                  <figcaption className="mt-2 text-center text-sm text-slate-600">{t(`features.screenshots.${name}.caption`)}</figcaption>
                </figure>
              </li>
            ))}
          </ul>
        </section>

        <section id="pricing" className="scroll-mt-20 bg-slate-50 py-16">
          <div className="mx-auto max-w-6xl px-4">
            <h2 className="text-center text-3xl font-bold text-slate-900">{t('pricing.title')}</h2>
            <p className="mx-auto mt-2 max-w-2xl text-center text-slate-600">{t('pricing.subtitle')}</p>
            <div className="mx-auto mt-10 max-w-lg rounded-2xl border-2 border-primary bg-white p-8 shadow-lg">
              <h3 className="text-xl font-bold text-slate-900">{t('pricing.planName')}</h3>
              <p className="mt-4">
                <span className="text-4xl font-extrabold text-slate-900">{t('pricing.oneTime')}</span>{' '}
                <span className="text-slate-600">{t('pricing.oneTimeLabel')}</span>
              </p>
              <p className="mt-1 text-slate-700">{t('pricing.hosting')}</p>
              <p className="mt-3 inline-block rounded-full bg-secondary/15 px-3 py-1 text-sm font-medium text-emerald-800">{t('pricing.trial')}</p>
              <ul className="mt-6 space-y-2 text-sm text-slate-700">
                {PLAN_ITEMS.map((item) => (
                  <li key={item} className="flex gap-2">
                    <Check className="mt-0.5 size-4 shrink-0 text-secondary" aria-hidden="true" />
                    {t(`pricing.items.${item}`)}
                  </li>
                ))}
              </ul>
              <Link to="/purchase" className={buttonClasses('secondary', 'lg', 'mt-8 w-full')}>
                <Smartphone className="size-4" aria-hidden="true" />
                {t('pricing.pay')}
              </Link>
              <p className="mt-3 text-center text-xs text-slate-500">{t('pricing.vat')}</p>
            </div>
          </div>
        </section>

        <section className="mx-auto max-w-6xl px-4 py-16">
          <h2 className="text-center text-3xl font-bold text-slate-900">{t('why.title')}</h2>
          <ul className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
            {WHY.map(({ key, icon: Icon }) => (
              <li key={key} className="rounded-xl bg-primary/5 p-6 text-center">
                <Icon className="mx-auto size-8 text-primary" aria-hidden="true" />
                <h3 className="mt-3 font-semibold text-slate-900">{t(`why.items.${key}.title`)}</h3>
                <p className="mt-1 text-sm text-slate-600">{t(`why.items.${key}.body`)}</p>
              </li>
            ))}
          </ul>
        </section>

        <section id="faq" className="scroll-mt-20 bg-slate-50 py-16">
          <div className="mx-auto max-w-3xl px-4">
            <h2 className="text-center text-3xl font-bold text-slate-900">{t('faq.title')}</h2>
            <div className="mt-8 space-y-3">
              {Array.from({ length: FAQ_COUNT }, (_, index) => index + 1).map((n) => (
                <details key={n} className="group rounded-lg border border-slate-200 bg-white p-4">
                  <summary className="cursor-pointer list-none font-medium text-slate-900 marker:hidden">
                    <span className="flex items-center justify-between gap-2">
                      {t(`faq.q${n}.question`)}
                      <span className="text-primary transition-transform group-open:rotate-45" aria-hidden="true">
                        +
                      </span>
                    </span>
                  </summary>
                  <p className="mt-2 text-sm text-slate-600">{t(`faq.q${n}.answer`)}</p>
                </details>
              ))}
            </div>
          </div>
        </section>

        <section className="bg-primary py-16 text-center text-white">
          <div className="mx-auto max-w-3xl px-4">
            <Receipt className="mx-auto size-10" aria-hidden="true" />
            <h2 className="mt-3 text-3xl font-bold">{t('cta.title')}</h2>
            <p className="mt-2 text-white">{t('cta.subtitle')}</p>
            <div className="mt-6 flex flex-wrap justify-center gap-3">
              <Link to="/demo-register" className={buttonClasses('outline', 'lg', 'border-white')}>
                {t('cta.demo')}
              </Link>
              <Link to="/purchase" className={buttonClasses('secondary', 'lg')}>
                {t('cta.buy')}
              </Link>
            </div>
          </div>
        </section>
      </main>
      <PublicFooter />
    </div>
  );
}
