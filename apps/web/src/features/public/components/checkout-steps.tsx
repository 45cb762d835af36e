import { useTranslation } from 'react-i18next';
import { cn } from '@/lib/cn';

const STEPS = ['details', 'payment', 'setup'] as const;
export type CheckoutStep = (typeof STEPS)[number];

/** Where the buyer is: pharmacy details, payment, password. */
export function CheckoutSteps({ current }: { current: CheckoutStep }) {
  const { t } = useTranslation('checkout');
  const index = STEPS.indexOf(current);
  return (
    <ol aria-label={t('steps.label')} className="mt-5 flex flex-wrap items-center gap-x-3 gap-y-2 text-sm">
      {STEPS.map((step, i) => (
        <li key={step} className="flex items-center gap-2" aria-current={i === index ? 'step' : undefined}>
          <span
            className={cn(
              'flex size-6 items-center justify-center rounded-full text-xs font-semibold',
              i < index ? 'bg-emerald-600 text-white' : i === index ? 'bg-primary text-white' : 'bg-slate-200 text-slate-600',
            )}
            aria-hidden="true"
          >
            {i + 1}
          </span>
          <span className={i === index ? 'font-semibold text-slate-900' : 'text-slate-600'}>{t(`steps.${step}`)}</span>
        </li>
      ))}
    </ol>
  );
}
