import { useEffect, useState } from 'react';
import { Link, Navigate, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { CheckCircle2, Clock, Cross, Loader2, XCircle } from 'lucide-react';
import { LICENCE_PLAN, PAYMENT_TIMING, type PaymentStatusResponse } from '@pharmapoint/domain/platform-payments';
import { buttonClasses } from '@/components/ui/button';
import { getPaymentStatus, loadPendingRegistration, type PendingRegistration } from '@/features/public/components/checkout-api';

type View = 'checking' | 'success' | 'failed' | 'pending';

/**
 * /payment-confirmation (seed 002 sections 2 and 4): the outcome of a purchase, checked every 3 s; after 120 s of
 * checking it says the payment is still being processed. Without a checkout request id it goes to /purchase.
 */
export default function PaymentConfirmationPage() {
  const { t } = useTranslation('checkout');
  const location = useLocation();
  const id = (location.state as { checkoutRequestId?: unknown } | null)?.checkoutRequestId;
  const [view, setView] = useState<View>('checking');
  const [payment, setPayment] = useState<PaymentStatusResponse['transaction'] | null>(null);

  useEffect(() => {
    if (typeof id !== 'string') return;
    const started = Date.now();
    const controller = new AbortController();
    let stopped = false;
    const check = () => {
      if (stopped) return;
      if (Date.now() - started >= PAYMENT_TIMING.confirmationCutoffMs) {
        stopped = true;
        setView('pending');
        return;
      }
      getPaymentStatus(id, controller.signal)
        .then(({ transaction }) => {
          if (stopped) return;
          setPayment(transaction);
          if (transaction.status === 'completed') {
            stopped = true;
            setView('success');
          } else if (transaction.status === 'failed' || transaction.status === 'reversed') {
            stopped = true;
            setView('failed');
          }
        })
        .catch(() => undefined);
    };
    check();
    const timer = setInterval(check, PAYMENT_TIMING.confirmationPollMs);
    return () => {
      stopped = true;
      controller.abort();
      clearInterval(timer);
    };
  }, [id]);

  if (typeof id !== 'string') return <Navigate to="/purchase" replace />;

  // The status names nothing personal (issue 7): the pharmacy and email shown are what this tab typed, kept in its
  // session storage since the payment started; another browser sees the state alone.
  const stored = loadPendingRegistration();
  const mine = stored && payment && stored.paymentDetails.transactionId === payment.id ? stored : null;
  const setupState: PendingRegistration | null =
    payment && payment.pharmacyId && mine ? { ...mine, pharmacyData: { ...mine.pharmacyData, id: payment.pharmacyId } } : null;

  return (
    <main className="flex min-h-screen flex-col items-center justify-center bg-gradient-to-br from-primary/10 via-white to-secondary/10 px-4 py-10">
      <Link to="/" className="mb-6 flex items-center gap-2 text-xl font-bold text-slate-900">
        <span className="flex size-9 items-center justify-center rounded-lg bg-primary text-white">
          <Cross className="size-5" aria-hidden="true" />
        </span>
        {t('common:appName')}
      </Link>
      <div className="w-full max-w-md space-y-4 rounded-xl border border-slate-200 bg-white p-6 text-center shadow-lg sm:p-8" role={view === 'failed' ? 'alert' : 'status'}>
        {view === 'checking' ? (
          <>
            <Loader2 className="mx-auto size-12 animate-spin text-primary" aria-hidden="true" />
            <h1 className="text-2xl font-bold text-slate-900">{t('confirmation.checkingTitle')}</h1>
            <p className="text-sm text-slate-600">{t('confirmation.checkingBody')}</p>
          </>
        ) : null}
        {view === 'success' && payment ? (
          <>
            <CheckCircle2 className="mx-auto size-14 text-emerald-600" aria-hidden="true" />
            <h1 className="text-2xl font-bold text-slate-900">{t('confirmation.successTitle')}</h1>
            <p className="text-sm text-slate-700">
              {mine ? t('confirmation.successBody', { pharmacy: mine.pharmacyData.pharmacyName }) : t('confirmation.successBodyOther')}
            </p>
            {mine ? <p className="break-all text-sm text-slate-600">{t('confirmation.account', { email: mine.pharmacyData.ownerEmail })}</p> : null}
            <div className="flex flex-col gap-2">
              {setupState ? (
                <Link to="/password-setup" state={{ ...setupState, plan: LICENCE_PLAN }} replace className={buttonClasses('primary')}>
                  {t('confirmation.setPassword')}
                </Link>
              ) : null}
              <Link to="/login" className={buttonClasses(setupState ? 'outline' : 'primary')}>
                {t('confirmation.login')}
              </Link>
            </div>
          </>
        ) : null}
        {view === 'failed' ? (
          <>
            <XCircle className="mx-auto size-14 text-red-600" aria-hidden="true" />
            <h1 className="text-2xl font-bold text-slate-900">{t('confirmation.failedTitle')}</h1>
            <p className="text-sm text-slate-700">{payment?.failureReason ?? t('confirmation.failedDefault')}</p>
            <div className="flex flex-col gap-2">
              <Link to="/purchase" state={{ skipRegistration: true }} className={buttonClasses('primary')}>
                {t('confirmation.tryAgain')}
              </Link>
              <Link to="/purchase" className={buttonClasses('outline')}>
                {t('confirmation.newPayment')}
              </Link>
            </div>
          </>
        ) : null}
        {view === 'pending' ? (
          <>
            <Clock className="mx-auto size-14 text-amber-600" aria-hidden="true" />
            <h1 className="text-2xl font-bold text-slate-900">{t('confirmation.pendingTitle')}</h1>
            <p className="text-sm text-slate-700">{t('confirmation.pendingBody')}</p>
          </>
        ) : null}
        <Link to="/" className="inline-block text-sm text-slate-600 hover:underline">
          {t('confirmation.home')}
        </Link>
      </div>
    </main>
  );
}
