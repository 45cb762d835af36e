import { useTranslation } from 'react-i18next';
import { Check } from 'lucide-react';
import { PLATFORM_PRICES } from '@pharmapoint/domain/platform-payments';
import { formatShillings } from '@/features/public/components/checkout-api';

const FEATURES = ['unlimited', 'till', 'stock', 'refills'] as const;

/** The plan summary beside the form: the one complete plan at the landing page's prices. */
export function CheckoutPlanSummary() {
  const { t } = useTranslation('checkout');
  const licence = PLATFORM_PRICES.complete.amountCents / 100;
  return (
    <aside className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm" aria-labelledby="checkout-plan-title">
      <h2 id="checkout-plan-title" className="text-lg font-semibold text-slate-900">
        {t('plan.title')}
      </h2>
      <dl className="mt-4 space-y-2 text-sm">
        <div className="flex justify-between gap-4">
          <dt className="text-slate-600">{t('plan.licence')}</dt>
          <dd className="font-medium text-slate-900">KSh {formatShillings(licence)}</dd>
        </div>
        <div className="flex justify-between gap-4">
          <dt className="text-slate-600">{t('plan.hosting')}</dt>
          <dd className="font-medium text-emerald-700">{t('plan.included')}</dd>
        </div>
        <div className="flex justify-between gap-4 border-t border-slate-200 pt-2 text-base">
          <dt className="font-semibold text-slate-900">{t('plan.total')}</dt>
          <dd className="font-bold text-slate-900">KSh {formatShillings(licence)}</dd>
        </div>
      </dl>
      <p className="mt-2 text-xs text-slate-500">
        {t('plan.vat')} {t('plan.renewal')}
      </p>
      <ul className="mt-4 space-y-1.5 text-sm text-slate-700">
        {FEATURES.map((key) => (
          <li key={key} className="flex items-start gap-2">
            <Check className="mt-0.5 size-4 shrink-0 text-emerald-600" aria-hidden="true" />
            {t(`plan.features.${key}`)}
          </li>
        ))}
      </ul>
    </aside>
  );
}
