import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { AlertTriangle, ArrowLeft, CheckCircle2, Clock, ExternalLink, Loader2, Smartphone, XCircle } from 'lucide-react';
import { formatMpesaPhone, isMpesaPhone, normalizeMpesaPhone } from '@pharmapoint/domain/phone';
import { LICENCE_PLAN, PAYMENT_TIMING, PLATFORM_PRICES, startFailureMessage, type RegistrationForm } from '@pharmapoint/domain/platform-payments';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Button, buttonClasses } from '@/components/ui/button';
import { ApiError } from '@/lib/api';
import { cn } from '@/lib/cn';
import { toast } from '@/lib/toast';
import {
  checkEmailAvailable,
  formatCountdown,
  formatShillings,
  getPaymentStatus,
  paymentServiceStatus,
  requestConfirmationEmail,
  savePendingRegistration,
  startStkPush,
  type PendingRegistration,
  type ServiceStatus,
} from '@/features/public/components/checkout-api';
import { CheckoutEmailTaken } from '@/features/public/components/checkout-registration-form';
import { newUuid } from '@/lib/idempotency';

/** The mobile money component's states (seed 002 section 4), plus the timeout screen. */
export type MpesaPhase = 'idle' | 'initiating' | 'checking' | 'completed' | 'failed' | 'timeout';

/** A failure the phone reports as a time-out shows as 'Payment Timeout' (decision 0045). */
const TIMEOUT_REASON = /time ?out|timed out|cannot be reached/i;
const ERROR_TOAST_MS = 6000;

interface Props {
  registration: RegistrationForm;
  /** Cancel / Go Back: to step 1. */
  onBack: () => void;
}

/** The order summary of step 2. */
function OrderSummary({ registration, amount }: { registration: RegistrationForm; amount: number }) {
  const { t } = useTranslation('checkout');
  const rows = [
    [t('summary.pharmacy'), registration.pharmacyName],
    [t('summary.owner'), registration.ownerName],
    [t('summary.email'), registration.ownerEmail],
    [t('summary.plan'), PLATFORM_PRICES.complete.name],
  ];
  return (
    <section aria-labelledby="checkout-summary-title" className="rounded-lg border border-slate-200 bg-slate-50 p-4">
      <h2 id="checkout-summary-title" className="font-semibold text-slate-900">
        {t('summary.title')}
      </h2>
      <dl className="mt-3 space-y-1.5 text-sm">
        {rows.map(([label, value]) => (
          <div key={label} className="flex justify-between gap-4">
            <dt className="text-slate-600">{label}</dt>
            <dd className="min-w-0 break-words text-right font-medium text-slate-900">{value}</dd>
          </div>
        ))}
        <div className="flex justify-between gap-4 border-t border-slate-200 pt-2 text-base">
          <dt className="font-semibold text-slate-900">{t('summary.amount')}</dt>
          <dd className="font-bold text-slate-900">KSh {formatShillings(amount)}</dd>
        </div>
      </dl>
    </section>
  );
}

/**
 * Step 2: the M-Pesa STK push with every state of seed 002 sections 4, 5, 8 and 9: the service status from
 * GET /health, the phone rules, polling every 5 s up to 60 times under a 300 s countdown, success with a 3-2-1
 * countdown to /password-setup, failure, time-out, and the red toast of 6 s for payment errors.
 */
export function CheckoutMpesa({ registration, onBack }: Props) {
  const { t } = useTranslation('checkout');
  const navigate = useNavigate();
  const amount = PLATFORM_PRICES.complete.amountCents / 100;
  const [service, setService] = useState<ServiceStatus>('checking');
  const [simulator, setSimulator] = useState(false);
  const [emailState, setEmailState] = useState<'checking' | 'available' | 'taken'>('checking');
  const [phone, setPhone] = useState(() => normalizeMpesaPhone(registration.ownerPhone));
  const [phoneError, setPhoneError] = useState<string | null>(null);
  const [phase, setPhase] = useState<MpesaPhase>('idle');
  const [failure, setFailure] = useState<string | null>(null);
  const [transaction, setTransaction] = useState<{ id: string; setupToken: string; phone: string } | null>(null);
  const [receipt, setReceipt] = useState<string | null>(null);
  const [secondsLeft, setSecondsLeft] = useState<number>(PAYMENT_TIMING.countdownSeconds);
  const [redirectIn, setRedirectIn] = useState<number>(PAYMENT_TIMING.successRedirectSeconds);
  const pending = useRef<PendingRegistration | null>(null);
  const run = useRef(0);
  // The purchase attempt's Idempotency-Key (decision 0076): made once per attempt and sent with every retry of it
  // (the same body after an error, when the first request may have started the payment and only its answer was
  // lost). A changed body is another attempt; an answered attempt is over, so the next Pay is a new one.
  const attempt = useRef<{ body: string; key: string } | null>(null);

  useEffect(() => {
    let live = true;
    void paymentServiceStatus().then((answer) => {
      if (!live) return;
      setService(answer.status);
      setSimulator(answer.simulator);
    });
    // Email uniqueness again when the component loads (seed 002 section 5).
    checkEmailAvailable(registration.ownerEmail)
      .then((available) => live && setEmailState(available ? 'available' : 'taken'))
      .catch(() => live && setEmailState('available'));
    return () => {
      live = false;
    };
  }, [registration.ownerEmail]);

  const fail = useCallback((reason: string, kind: 'failed' | 'timeout' = 'failed') => {
    run.current += 1;
    setPhase(kind);
    setFailure(reason);
    toast.error(kind === 'timeout' ? t('mpesa.timeoutTitle') : reason, { duration: ERROR_TOAST_MS });
  }, [t]);

  // While checking: the countdown and the status polls.
  useEffect(() => {
    if (phase !== 'checking' || !transaction) return;
    const mine = run.current;
    const started = Date.now();
    let polls = 0;
    let stopped = false;
    const tick = setInterval(() => {
      const left = PAYMENT_TIMING.countdownSeconds - Math.floor((Date.now() - started) / 1000);
      setSecondsLeft(Math.max(0, left));
      if (left <= 0 && run.current === mine) fail(t('mpesa.timeoutBody'), 'timeout');
    }, 1000);
    const controller = new AbortController();
    const poll = setInterval(() => {
      if (stopped) return;
      polls += 1;
      if (polls > PAYMENT_TIMING.statusPollMax) {
        if (run.current === mine) fail(t('mpesa.timeoutBody'), 'timeout');
        return;
      }
      getPaymentStatus(transaction.id, controller.signal)
        .then(({ transaction: status }) => {
          if (run.current !== mine || stopped) return;
          if (status.status === 'completed') {
            run.current += 1;
            setReceipt(status.mpesaReceiptNumber);
            const details: PendingRegistration = {
              pharmacyData: {
                id: status.pharmacyId ?? '',
                name: registration.pharmacyName,
                pharmacyName: registration.pharmacyName,
                ownerName: registration.ownerName,
                ownerEmail: registration.ownerEmail,
                ownerPhone: registration.ownerPhone,
                // Shown once the account is made: create-owner answers it (the public status names nothing).
                subdomain: null,
              },
              paymentDetails: {
                transactionId: status.id,
                amount: status.amount,
                phoneNumber: transaction.phone,
                status: status.status,
                mpesaReceiptNumber: status.mpesaReceiptNumber,
                setupToken: transaction.setupToken,
              },
              plan: LICENCE_PLAN,
              timestamp: Date.now(),
            };
            pending.current = details;
            savePendingRegistration(details);
            requestConfirmationEmail(status.id, {
              to: registration.ownerEmail,
              pharmacyName: registration.pharmacyName,
              ownerName: registration.ownerName,
              planName: PLATFORM_PRICES.complete.name,
              amount: status.amount,
              paymentDate: status.completedAt ?? new Date().toISOString(),
            });
            toast.success(t('mpesa.successToast'));
            setPhase('completed');
          } else if (status.status === 'failed' || status.status === 'reversed') {
            const reason = status.failureReason ?? t('mpesa.failedDefault');
            if (TIMEOUT_REASON.test(reason)) fail(t('mpesa.timeoutBody'), 'timeout');
            else fail(reason);
          }
        })
        .catch(() => undefined); // a missed poll is tried again at the next one
    }, PAYMENT_TIMING.statusPollMs);
    return () => {
      stopped = true;
      controller.abort();
      clearInterval(tick);
      clearInterval(poll);
    };
  }, [phase, transaction, registration, fail, t]);

  // Completed: 3-2-1, then password setup (replacing history).
  useEffect(() => {
    if (phase !== 'completed') return;
    const started = Date.now();
    const timer = setInterval(() => {
      const left = PAYMENT_TIMING.successRedirectSeconds - Math.floor((Date.now() - started) / 1000);
      setRedirectIn(Math.max(0, left));
      if (left <= 0) {
        clearInterval(timer);
        void navigate('/password-setup', { state: pending.current, replace: true });
      }
    }, 250);
    return () => clearInterval(timer);
  }, [phase, navigate]);

  const processing = phase === 'initiating' || phase === 'checking';
  const phoneValid = phone.length === 12 && isMpesaPhone(phone);
  const canPay = phoneValid && !processing && service === 'online' && emailState === 'available';

  async function pay(event: FormEvent) {
    event.preventDefault();
    if (phone.replace(/\D/g, '').length !== 12 || !isMpesaPhone(phone)) {
      setPhoneError(t('mpesa.phoneInvalid'));
      return;
    }
    if (!canPay) return;
    run.current += 1;
    setPhase('initiating');
    setFailure(null);
    const request = {
      phoneNumber: phone,
      amount,
      plan: LICENCE_PLAN,
      pharmacyName: registration.pharmacyName,
      ownerEmail: registration.ownerEmail,
      ownerName: registration.ownerName,
      ownerPhone: registration.ownerPhone,
      location: registration.location,
      county: registration.county,
      licenseNumber: registration.licenseNumber,
    };
    const body = JSON.stringify(request);
    if (attempt.current?.body !== body) attempt.current = { body, key: newUuid() };
    const { key } = attempt.current;
    try {
      const answer = await startStkPush(request, key);
      // The payment exists: Try Again or Cancel from here starts a new attempt with a new key.
      if (attempt.current?.key === key) attempt.current = null;
      setTransaction({ id: answer.transactionId, setupToken: answer.setupToken, phone });
      savePendingRegistration(
        {
          pharmacyData: {
            id: '',
            name: registration.pharmacyName,
            pharmacyName: registration.pharmacyName,
            ownerName: registration.ownerName,
            ownerEmail: registration.ownerEmail,
            ownerPhone: registration.ownerPhone,
            subdomain: null,
          },
          paymentDetails: { transactionId: answer.transactionId, amount: answer.amount, phoneNumber: phone, status: 'pending', mpesaReceiptNumber: null, setupToken: answer.setupToken },
          plan: LICENCE_PLAN,
          timestamp: Date.now(),
        },
        false,
      );
      setSecondsLeft(PAYMENT_TIMING.countdownSeconds);
      setPhase('checking');
    } catch (error) {
      if (error instanceof ApiError && error.code === 'PAYMENT_EMAIL_TAKEN') {
        setEmailState('taken');
        setPhase('idle');
        return;
      }
      const message =
        error instanceof ApiError
          ? startFailureMessage({ status: error.status, message: error.status === 0 ? 'Network' : error.message, network: error.status === 0 })
          : startFailureMessage({ network: true });
      fail(message);
    }
  }

  function tryAgain() {
    run.current += 1;
    setPhase('idle');
    setFailure(null);
    setTransaction(null);
  }

  if (phase === 'completed') {
    return (
      <div className="space-y-4 text-center" role="status">
        <CheckCircle2 className="mx-auto size-14 text-emerald-600" aria-hidden="true" />
        <h2 className="text-xl font-bold text-slate-900">{t('mpesa.completedTitle')}</h2>
        <p className="text-sm text-slate-700">{t('mpesa.completedBody', { amount: formatShillings(amount), receipt: receipt ?? '-' })}</p>
        <p className="text-sm text-slate-600" aria-live="polite">
          {t('mpesa.redirecting', { seconds: redirectIn })}
        </p>
        <Button size="lg" className="w-full" onClick={() => void navigate('/password-setup', { state: pending.current, replace: true })}>
          {t('mpesa.continueNow')}
        </Button>
      </div>
    );
  }

  if (phase === 'failed' || phase === 'timeout') {
    const timeout = phase === 'timeout';
    return (
      <div className="space-y-4 text-center" role="alert">
        {timeout ? <Clock className="mx-auto size-14 text-amber-600" aria-hidden="true" /> : <XCircle className="mx-auto size-14 text-red-600" aria-hidden="true" />}
        <h2 className="text-xl font-bold text-slate-900">{timeout ? t('mpesa.timeoutTitle') : t('mpesa.failedTitle')}</h2>
        <p className="text-sm text-slate-700">{failure}</p>
        {transaction ? <p className="break-all text-xs text-slate-500">{t('mpesa.transactionId', { id: transaction.id })}</p> : null}
        {emailState === 'taken' ? <CheckoutEmailTaken onDifferentEmail={onBack} /> : null}
        <div className="flex flex-col gap-2 sm:flex-row sm:justify-center">
          {emailState !== 'taken' ? <Button onClick={tryAgain}>{t('mpesa.tryAgain')}</Button> : null}
          {timeout && transaction ? (
            <Link to="/payment-confirmation" state={{ checkoutRequestId: transaction.id }} className={buttonClasses('outline')}>
              {t('mpesa.checkStatus')}
            </Link>
          ) : null}
          <Button variant="outline" onClick={onBack}>
            {t('mpesa.goBack')}
          </Button>
        </div>
      </div>
    );
  }

  return (
    <div className="space-y-5">
      <div className="flex items-center gap-2">
        <Button variant="ghost" size="icon" onClick={onBack} disabled={processing} aria-label={t('mpesa.goBack')}>
          <ArrowLeft className="size-5" aria-hidden="true" />
        </Button>
        <h2 className="text-lg font-semibold text-slate-900">{t('mpesa.title')}</h2>
      </div>
      <OrderSummary registration={registration} amount={amount} />
      <div>
        <p className="text-sm font-medium text-slate-700">{t('mpesa.method')}</p>
        <div className="mt-1.5 flex items-center gap-2 rounded-lg border-2 border-emerald-600 bg-emerald-50 px-3 py-2 text-sm font-semibold text-emerald-800">
          <Smartphone className="size-4" aria-hidden="true" />
          {t('mpesa.methodName')}
        </div>
      </div>
      <ServiceBadge status={service} />
      {emailState === 'taken' ? <CheckoutEmailTaken onDifferentEmail={onBack} /> : null}
      {phase === 'checking' ? (
        <div className="space-y-3 rounded-lg border border-emerald-200 bg-emerald-50 p-4 text-center" role="status" aria-live="polite">
          <Loader2 className="mx-auto size-8 animate-spin text-emerald-700" aria-hidden="true" />
          <p className="font-semibold text-emerald-900">{t('mpesa.checkingTitle')}</p>
          <p className="text-sm text-emerald-900">{t('mpesa.checkingBody', { phone: formatMpesaPhone(phone), amount: formatShillings(amount) })}</p>
          <p className="font-mono text-lg font-semibold text-emerald-900" aria-label={t('mpesa.countdown', { time: formatCountdown(secondsLeft) })}>
            {formatCountdown(secondsLeft)}
          </p>
          {simulator ? (
            <p className="text-xs text-slate-600">
              {t('mpesa.simulator')}{' '}
              <a href="/dev/k2" target="_blank" rel="noreferrer" className="inline-flex items-center gap-1 font-medium text-primary underline">
                {t('mpesa.openSimulator')}
                <ExternalLink className="size-3" aria-hidden="true" />
              </a>
            </p>
          ) : null}
          <Button variant="outline" onClick={tryAgain}>
            {t('mpesa.cancel')}
          </Button>
        </div>
      ) : (
        <form onSubmit={(event) => void pay(event)} noValidate className="space-y-4">
          <Field label={t('mpesa.phone')} hint={t('mpesa.phoneHint')} error={phoneError ?? undefined} required>
            <Input
              type="tel"
              inputMode="numeric"
              autoComplete="tel"
              value={formatMpesaPhone(phone)}
              disabled={processing}
              onChange={(event) => {
                setPhone(normalizeMpesaPhone(event.target.value));
                setPhoneError(null);
              }}
            />
          </Field>
          <Button type="submit" size="lg" className="w-full" disabled={!canPay} loading={phase === 'initiating'}>
            {phase === 'initiating' ? t('mpesa.initiating') : t('mpesa.pay', { amount: formatShillings(amount) })}
          </Button>
        </form>
      )}
    </div>
  );
}

function ServiceBadge({ status }: { status: ServiceStatus }) {
  const { t } = useTranslation('checkout');
  const tone =
    status === 'online' ? 'border-emerald-200 bg-emerald-50 text-emerald-800' : status === 'checking' ? 'border-slate-200 bg-slate-50 text-slate-700' : 'border-red-200 bg-red-50 text-red-800';
  return (
    <p className={cn('flex items-center gap-2 rounded-md border px-3 py-2 text-sm', tone)} role={status === 'offline' || status === 'misconfigured' ? 'alert' : 'status'}>
      {status === 'checking' ? <Loader2 className="size-4 animate-spin" aria-hidden="true" /> : null}
      {status === 'online' ? <CheckCircle2 className="size-4" aria-hidden="true" /> : null}
      {status === 'offline' || status === 'misconfigured' ? <AlertTriangle className="size-4" aria-hidden="true" /> : null}
      {t(`mpesa.service.${status}`)}
    </p>
  );
}
