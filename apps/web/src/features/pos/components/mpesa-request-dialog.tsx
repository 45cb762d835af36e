import { useCallback, useEffect, useRef, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { Smartphone } from 'lucide-react';
import type { CompleteSaleInput, Sale } from '@pharmapoint/domain/sales';
import {
  formatMpesaPhone,
  TILL_MPESA_POLL_MS,
  TILL_MPESA_WAIT_SECONDS,
  tillMpesaPhoneFormSchema,
  type TillMpesaRequest,
} from '@pharmapoint/domain/till-mpesa';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { ProgressBar } from '@/components/ui/progress-bar';
import { Spinner } from '@/components/ui/spinner';
import { ApiError, errorMessage } from '@/lib/api';
import { formatMoney } from '@/lib/format';
import { toast } from '@/lib/toast';
import { cancelTillMpesa, getTillMpesa, startTillMpesa } from '@/features/pos/api/mpesa';
import { getSale } from '@/features/pos/api/sales';
import { newUuid } from '@/lib/idempotency';

export interface MpesaRequestDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The sale as POST /api/sales would take it (the server prices it again and asks for its own total). */
  sale: CompleteSaleInput;
  totalCents: number;
  currencySymbol: string;
  /** The client's phone, offered first. */
  defaultPhone?: string | null;
  /** The customer paid: the sale was completed by the server with the M-Pesa receipt. */
  onPaid: (sale: Sale) => void;
  /**
   * The server refused the request before asking the phone (4xx: the sale's own checks, or M-Pesa's rules): shown
   * where a refused sale is. Without it, the refusal is shown in the dialog.
   */
  onRefused?: (error: ApiError) => void;
}

type Stage = { kind: 'form' } | { kind: 'waiting'; request: TillMpesaRequest } | { kind: 'failed'; message: string };

interface PhoneForm {
  phoneNumber: string;
}

/**
 * 'Send payment request' at the till (issue 11 item 7, decision 0058): the customer's M-Pesa number (0 -> 254, shown
 * in groups of three), then the wait for their PIN with its progress and Cancel, polling the request every 2 s for
 * up to 120 s. Paid: the receipt of the sale the server completed. Declined, failed or no answer: the reason, and
 * the cart stays as it was. Cancel (or the wait running out) tells the server to stop waiting; if the customer had
 * paid meanwhile the answer says so and the receipt shows.
 */
export default function MpesaRequestDialog({ open, onOpenChange, sale, totalCents, currencySymbol, defaultPhone, onPaid, onRefused }: MpesaRequestDialogProps) {
  const { t } = useTranslation('pos');
  const [stage, setStage] = useState<Stage>({ kind: 'form' });
  const [serverError, setServerError] = useState<string | null>(null);
  const [elapsed, setElapsed] = useState(0);
  const finished = useRef(false);
  const { control, handleSubmit, formState } = useForm<PhoneForm>({
    resolver: zodResolver(tillMpesaPhoneFormSchema) as never,
    defaultValues: { phoneNumber: defaultPhone ? formatMpesaPhone(defaultPhone) : '' },
  });

  const settle = useCallback(
    async (request: TillMpesaRequest): Promise<boolean> => {
      if (finished.current) return true;
      if (request.status === 'completed' && request.completedSaleId) {
        finished.current = true;
        const receipt = await getSale(request.completedSaleId);
        onPaid(receipt);
        return true;
      }
      if (request.status === 'pending') return false;
      finished.current = true;
      setStage({
        kind: 'failed',
        message:
          request.status === 'failed'
            ? t('mpesa.failedReason', { reason: request.failureReason ?? t('mpesa.failedDefault') })
            : request.status === 'cancelled'
              ? t('mpesa.noAnswer')
              : t('mpesa.unmatched'),
      });
      return true;
    },
    [onPaid, t],
  );

  // While waiting: the elapsed seconds, a poll every 2 s, and giving up after 120 s.
  const waitingId = stage.kind === 'waiting' ? stage.request.id : null;
  useEffect(() => {
    if (!waitingId) return;
    const started = Date.now();
    const controller = new AbortController();
    const tick = window.setInterval(() => setElapsed(Math.min(TILL_MPESA_WAIT_SECONDS, Math.floor((Date.now() - started) / 1000))), 500);
    const poll = window.setInterval(() => {
      if (finished.current) return;
      if (Date.now() - started >= TILL_MPESA_WAIT_SECONDS * 1000) {
        void cancelTillMpesa(waitingId, 'timeout')
          .then(({ request }) => settle(request))
          .catch(() => undefined);
        return;
      }
      void getTillMpesa(waitingId, controller.signal)
        .then(({ request }) => settle(request))
        .catch(() => undefined); // a lost answer: the next poll asks again
    }, TILL_MPESA_POLL_MS);
    return () => {
      window.clearInterval(tick);
      window.clearInterval(poll);
      controller.abort();
    };
  }, [waitingId, settle]);

  async function send(values: PhoneForm) {
    setServerError(null);
    finished.current = false;
    try {
      const { request } = await startTillMpesa({ phoneNumber: values.phoneNumber, sale }, newUuid());
      setElapsed(0);
      setStage({ kind: 'waiting', request });
    } catch (error) {
      // A refusal (4xx) reads as a refused sale does; a lost answer or an unavailable service stays here to try again.
      if (onRefused && error instanceof ApiError && error.status >= 400 && error.status < 500) onRefused(error);
      else setServerError(errorMessage(error));
    }
  }

  async function cancel() {
    if (stage.kind !== 'waiting') {
      onOpenChange(false);
      return;
    }
    try {
      const { request } = await cancelTillMpesa(stage.request.id);
      // Paid just before the cancel: the receipt shows.
      if (request.status === 'completed' && (await settle(request))) return;
    } catch {
      // the server will keep any late payment for reconciliation
    }
    finished.current = true;
    toast(t('mpesa.cancelled'));
    onOpenChange(false);
  }

  const total = formatMoney(totalCents, currencySymbol);
  const waiting = stage.kind === 'waiting';
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next && waiting) void cancel();
        else onOpenChange(next);
      }}
      title={t('mpesa.title')}
      description={t('mpesa.description', { total })}
      size="sm"
      footer={
        stage.kind === 'form' ? (
          <>
            <Button variant="outline" onClick={() => onOpenChange(false)}>
              {t('mpesa.close')}
            </Button>
            <Button onClick={() => void handleSubmit(send)()} loading={formState.isSubmitting} icon={<Smartphone className="size-4" />}>
              {t('mpesa.send')}
            </Button>
          </>
        ) : waiting ? (
          <Button variant="outline" onClick={() => void cancel()}>
            {t('mpesa.cancel')}
          </Button>
        ) : (
          <>
            <Button variant="outline" onClick={() => onOpenChange(false)}>
              {t('mpesa.close')}
            </Button>
            <Button onClick={() => setStage({ kind: 'form' })}>{t('mpesa.tryAgain')}</Button>
          </>
        )
      }
    >
      {stage.kind === 'form' ? (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void handleSubmit(send)();
          }}
          noValidate
        >
          <Controller
            control={control}
            name="phoneNumber"
            render={({ field, fieldState }) => (
              <Field label={t('mpesa.phone')} hint={t('mpesa.phoneHint')} error={fieldState.error?.message}>
                <Input
                  type="tel"
                  inputMode="numeric"
                  autoComplete="off"
                  autoFocus
                  value={field.value}
                  onChange={(event) => field.onChange(event.target.value.trim() === '' ? '' : formatMpesaPhone(event.target.value))}
                  onBlur={field.onBlur}
                />
              </Field>
            )}
          />
          {serverError ? (
            <p role="alert" className="mt-3 rounded-md bg-red-50 px-2 py-1.5 text-sm font-medium text-red-800">
              {serverError}
            </p>
          ) : null}
        </form>
      ) : waiting ? (
        <div className="space-y-3" aria-live="polite">
          <p className="flex items-center gap-2 text-sm text-slate-700" role="status">
            <Spinner className="size-4" />
            {t('mpesa.waiting', { phone: stage.request.phoneNumber, total })}
          </p>
          <ProgressBar
            value={elapsed}
            max={TILL_MPESA_WAIT_SECONDS}
            label={t('mpesa.progress')}
            valueText={t('mpesa.secondsLeft', { count: TILL_MPESA_WAIT_SECONDS - elapsed })}
          />
          <p className="text-xs text-slate-500">{t('mpesa.secondsLeft', { count: TILL_MPESA_WAIT_SECONDS - elapsed })}</p>
        </div>
      ) : (
        <p role="alert" className="rounded-md bg-red-50 px-2 py-1.5 text-sm font-medium text-red-800">
          {stage.message}
        </p>
      )}
    </Dialog>
  );
}
