import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { CheckCircle2, Circle } from 'lucide-react';
import { GETTING_STARTED_STEPS, type GettingStartedStep } from '@pharmapoint/domain/getting-started';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { errorMessage } from '@/lib/api';
import { toast } from '@/lib/toast';
import { useDismissGettingStarted, useGettingStarted } from '@/features/dashboard/api/getting-started';

/** Where each step is done. */
const STEP_LINKS: Record<GettingStartedStep, string> = {
  branches: '/app/branches',
  suppliers: '/app/contacts',
  products: '/app/products/add',
  openingStock: '/app/products',
  users: '/app/users',
  receiptSettings: '/app/settings',
  firstSale: '/pos',
};

/**
 * The getting-started checklist of a new pharmacy (decision 0097), for owners and admins (settings:system): each
 * step ticked from the pharmacy's data and linked to the screen that does it; shown until the first sale unless
 * dismissed. Nothing is shown while it loads or when the read fails: the dashboard does not depend on it.
 */
export function GettingStarted() {
  const { t } = useTranslation('dashboard');
  const checklist = useGettingStarted(true);
  const dismiss = useDismissGettingStarted();
  const data = checklist.data;
  if (!data?.show) return null;
  const done = GETTING_STARTED_STEPS.filter((step) => data.steps[step]).length;
  return (
    <Card
      title={t('gettingStarted.title')}
      description={t('gettingStarted.progress', { done, total: GETTING_STARTED_STEPS.length })}
      aria-label={t('gettingStarted.title')}
      actions={
        <Button
          variant="outline"
          size="sm"
          loading={dismiss.isPending}
          onClick={() => dismiss.mutate(undefined, { onError: (error) => toast.error(errorMessage(error)) })}
        >
          {t('gettingStarted.dismiss')}
        </Button>
      }
    >
      <ol className="space-y-2">
        {GETTING_STARTED_STEPS.map((step) => {
          const ticked = data.steps[step];
          const Icon = ticked ? CheckCircle2 : Circle;
          return (
            <li key={step} className="flex items-start gap-3">
              <Icon className={ticked ? 'mt-0.5 size-5 shrink-0 text-emerald-600' : 'mt-0.5 size-5 shrink-0 text-slate-400'} aria-hidden="true" />
              <div className="min-w-0">
                <Link to={STEP_LINKS[step]} className={ticked ? 'font-medium text-slate-500 line-through' : 'font-medium text-primary hover:underline'}>
                  {t(`gettingStarted.steps.${step}.title`)}
                </Link>
                <span className="sr-only">{ticked ? t('gettingStarted.done') : t('gettingStarted.toDo')}</span>
                <p className="text-sm text-slate-600">
                  {t(`gettingStarted.steps.${step}.body`)}
                  {step === 'products' ? (
                    <>
                      {' '}
                      <Link to="/app/products/bulk-import" className="text-primary hover:underline">
                        {t('gettingStarted.importCsv')}
                      </Link>
                    </>
                  ) : null}
                </p>
              </div>
            </li>
          );
        })}
      </ol>
    </Card>
  );
}
