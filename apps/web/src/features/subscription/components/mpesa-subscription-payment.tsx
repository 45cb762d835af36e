import { useEffect, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Loader2 } from 'lucide-react';
import { formatMpesaPhone, isMpesaPhone, normalizeMpesaPhone } from '@pharmapoint/domain/phone';
import {
  PAYMENT_TIMING,
  subscriptionPaymentCents,
  type SubscriptionPayment,
  type SubscriptionPaymentPurpose,
} from '@pharmapoint/domain/platform-payments';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { api, errorMessage } from '@/lib/api';
import { formatDate } from '@/lib/format';
import { toast } from '@/lib/toast';
import { usePermissions } from '@/features/auth/hooks/use-permissions';
import { subscriptionQueryKey } from '@/app/layout/subscription-banner';
import { useSubscription } from '@/features/subscription/api/subscription';
import { newUuid } from '@/lib/idempotency';

const TIMEOUT_REASON = /time ?out|timed out|cannot be reached/i;

/**
 * Paying from /app/subscription by M-Pesa STK push (issue 11 item 6): the licence during a trial, or a year of
 * hosting once licensed. The screen polls the payment every 5 s (60 times at most); once it is paid the
 * subscription, its banners and prompts are read again at once.
 */
export function MpesaSubscriptionPayment() {
  const { t } = useTranslation('subscription');
  const queryClient = useQueryClient();
  const { can } = usePermissions();
  const subscription = useSubscription();
  const [phone, setPhone] = useState('');
  const [phoneError, setPhoneError] = useState<string | null>(null);
  const [payment, setPayment] = useState<SubscriptionPayment | null>(null);
  const [starting, setStarting] = useState(false);
  const [outcome, setOutcome] = useState<{ kind: 'failed' | 'timeout'; text: string } | null>(null);

  const summary = subscription.data?.summary;
  const purpose: SubscriptionPaymentPurpose | null = !summary ? null : summary.isTrial ? 'upgrade' : subscription.data?.subscription?.planId === 'standard' ? 'hosting' : null;

  useEffect(() => {
    if (!payment || payment.status !== 'pending') return;
    let polls = 0;
    const controller = new AbortController();
    const timer = setInterval(() => {
      polls += 1;
      if (polls > PAYMENT_TIMING.statusPollMax) {
        clearInterval(timer);
        setPayment(null);
        setOutcome({ kind: 'timeout', text: t('mpesa.timeoutBody') });
        return;
      }
      api
        .get<{ payment: SubscriptionPayment }>(`/api/subscription/payments/${payment.id}`, { signal: controller.signal })
        .then(({ payment: next }) => {
          if (next.status === 'pending') return;
          setPayment(null);
          if (next.status === 'completed') {
            void queryClient.invalidateQueries({ queryKey: subscriptionQueryKey }).then(() => {
              const until = queryClient.getQueryData<{ subscription: { hostingPaidUntil: string | null } | null }>(subscriptionQueryKey)?.subscription?.hostingPaidUntil;
              toast.success(next.purpose === 'upgrade' ? t('mpesa.upgraded') : t('mpesa.hostingPaid', { date: until ? formatDate(until) : '' }));
            });
          } else {
            const reason = next.failureReason ?? t('mpesa.failedDefault');
            const timeout = TIMEOUT_REASON.test(reason);
            setOutcome({ kind: timeout ? 'timeout' : 'failed', text: timeout ? t('mpesa.timeoutBody') : reason });
            toast.error(timeout ? t('mpesa.timeoutTitle') : reason, { duration: 6000 });
          }
        })
        .catch(() => undefined);
    }, PAYMENT_TIMING.statusPollMs);
    return () => {
      controller.abort();
      clearInterval(timer);
    };
  }, [payment, queryClient, t]);

  if (!purpose) return null;
  if (!can('subscription:manage')) return <p className="mt-3 text-sm text-slate-600">{t('mpesa.notAllowed')}</p>;
  const amount = (subscriptionPaymentCents(purpose) / 100).toLocaleString('en-KE', { minimumFractionDigits: 2 });

  async function pay(event: FormEvent) {
    event.preventDefault();
    if (!purpose) return;
    if (phone.length !== 12 || !isMpesaPhone(phone)) {
      setPhoneError(t('mpesa.phoneInvalid'));
      return;
    }
    setStarting(true);
    setOutcome(null);
    try {
      const answer = await api.post<{ payment: SubscriptionPayment }>(
        '/api/subscription/payments',
        { purpose, phoneNumber: phone },
        { headers: { 'Idempotency-Key': newUuid() } },
      );
      setPayment(answer.payment);
    } catch (error) {
      const text = errorMessage(error);
      setOutcome({ kind: 'failed', text });
      toast.error(text, { duration: 6000 });
    } finally {
      setStarting(false);
    }
  }

  if (payment) {
    return (
      <div className="mt-3 space-y-2 rounded-md border border-emerald-200 bg-emerald-50 p-3 text-sm text-emerald-900" role="status" aria-live="polite">
        <p className="flex items-center gap-2 font-medium">
          <Loader2 className="size-4 animate-spin" aria-hidden="true" />
          {t('mpesa.checking', { amount })}
        </p>
        <Button variant="outline" size="sm" onClick={() => setPayment(null)}>
          {t('mpesa.cancel')}
        </Button>
      </div>
    );
  }

  return (
    <form onSubmit={(event) => void pay(event)} noValidate className="mt-3 space-y-3">
      {purpose === 'upgrade' ? <p className="text-sm text-slate-600">{t('mpesa.upgradeHelp')}</p> : null}
      {outcome ? (
        <div role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-900">
          <p className="font-semibold">{outcome.kind === 'timeout' ? t('mpesa.timeoutTitle') : t('mpesa.failedTitle')}</p>
          <p>{outcome.text}</p>
        </div>
      ) : null}
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <Field label={t('mpesa.phone')} hint={t('mpesa.phoneHint')} error={phoneError ?? undefined} className="sm:w-72">
          <Input
            type="tel"
            inputMode="numeric"
            value={formatMpesaPhone(phone)}
            onChange={(event) => {
              setPhone(normalizeMpesaPhone(event.target.value));
              setPhoneError(null);
            }}
          />
        </Field>
        <Button type="submit" loading={starting} disabled={starting || !isMpesaPhone(phone) || phone.length !== 12}>
          {starting ? t('mpesa.initiating') : purpose === 'upgrade' ? t('mpesa.upgrade', { amount }) : t('mpesa.hosting', { amount })}
        </Button>
      </div>
    </form>
  );
}
