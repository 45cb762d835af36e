import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ChevronDown, ChevronUp, Plus, Smartphone, X } from 'lucide-react';
import { formatMoney as formatAmount } from '@pharmapoint/domain/money';
import { SALE_LIMITS, paymentKind, paymentStatus, quickCashSuggestions, type CartFigures } from '@pharmapoint/domain/sales';
import { isMpesaMethod } from '@pharmapoint/domain/sales';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/cn';
import { formatMoney } from '@/lib/format';
import { newPaymentRow, paymentsOf, takesReference, type DiscountDraft, type PaymentRow } from '@/features/pos/hooks/use-till';

export interface PaymentBarProps {
  figures: CartFigures;
  itemCount: number;
  methods: readonly string[];
  payments: PaymentRow[];
  onPayments: (rows: PaymentRow[]) => void;
  discount: DiscountDraft | null;
  onDiscount: (draft: DiscountDraft | null) => void;
  /** Why the discount typed is refused (not applied: the figures are without it), shown at the discount field. */
  discountError?: string | null;
  mayDiscount: boolean;
  currencySymbol: string;
  disabled: boolean;
  completing: boolean;
  error: string | null;
  onComplete: () => void;
  /** Further actions (Suspend). */
  actions?: ReactNode;
  /**
   * M-Pesa at the till (decision 0058): with one payment row on MPESA, 'Send payment request' asks the customer's
   * phone for the whole total (the till's dialog; the server completes the sale when the customer pays).
   */
  onMpesaRequest?: () => void;
  expanded: boolean;
  onExpanded: (expanded: boolean) => void;
}

const plain = (cents: number) => formatAmount(cents, { currencySymbol: '', thousandsSeparator: '' });

/**
 * The fixed bottom payment bar (seed 001 section 2): the totals, the global discount (for users who may give one),
 * the payments (method, amount, the M-Pesa or card reference; several for a split tender), quick-cash amounts, the
 * payment status, the change, the error of the last attempt (8 s) and Complete. On a phone it is a bottom sheet:
 * the total and Pay when folded, everything when opened.
 */
export function PaymentBar(props: PaymentBarProps) {
  const { t } = useTranslation('pos');
  const { figures, payments, onPayments, methods, currencySymbol, disabled, expanded, onExpanded } = props;
  const money = (cents: number) => formatMoney(cents, currencySymbol);
  const paid = paymentsOf(payments).reduce((a, p) => a + p.amountCents, 0);
  const status = paymentStatus(paid, figures.totalCents);
  const cash = paymentsOf(payments)
    .filter((p) => paymentKind(p.method) === 'cash')
    .reduce((a, p) => a + p.amountCents, 0);
  const change = Math.min(Math.max(0, paid - figures.totalCents), cash);
  const suggestions = quickCashSuggestions(figures.totalCents);
  const firstCash = payments.findIndex((p) => paymentKind(p.method) === 'cash');

  const update = (key: string, patch: Partial<PaymentRow>) => onPayments(payments.map((p) => (p.key === key ? { ...p, ...patch } : p)));
  const remaining = (key: string) => {
    const others = paymentsOf(payments.filter((p) => p.key !== key)).reduce((a, p) => a + p.amountCents, 0);
    return Math.max(0, figures.totalCents - others);
  };

  const statusText =
    status.status === 'paid' ? t('pay.statusPaid') : status.status === 'partial' ? t('pay.statusPartial', { percent: status.percent }) : t('pay.statusUnpaid');

  return (
    <section
      aria-label={t('pay.label')}
      className="fixed inset-x-0 bottom-0 z-30 border-t border-slate-200 bg-white shadow-[0_-4px_12px_rgba(0,0,0,0.08)]"
    >
      {/* Phone: the folded sheet. */}
      <div className="flex items-center gap-3 px-3 py-2 md:hidden">
        <div className="min-w-0 flex-1">
          <p className="text-xs text-slate-500">{t('pay.totalItems', { count: props.itemCount })}</p>
          <p className="text-lg font-bold tabular-nums" data-testid="pos-total-mobile">{money(figures.totalCents)}</p>
        </div>
        <Button variant="outline" onClick={() => onExpanded(!expanded)} aria-expanded={expanded} aria-controls="pos-payment-panel" icon={expanded ? <ChevronDown className="size-4" /> : <ChevronUp className="size-4" />}>
          {expanded ? t('pay.hide') : t('pay.pay')}
        </Button>
      </div>
      <div id="pos-payment-panel" className={cn('max-h-[75vh] overflow-y-auto px-3 pb-3 md:block md:max-h-none md:px-4 md:py-3', expanded ? 'block' : 'hidden')}>
        <div className="mx-auto grid max-w-7xl gap-3 md:grid-cols-[minmax(0,1fr)_minmax(0,1.4fr)_auto] md:items-start">
          <dl className="grid grid-cols-2 gap-x-3 gap-y-0.5 text-sm">
            <dt className="text-slate-500">{t('pay.subtotal')}</dt>
            <dd className="text-right tabular-nums">{money(figures.subtotalCents)}</dd>
            <dt className="text-slate-500">{t('pay.discount')}</dt>
            <dd className="text-right tabular-nums">{money(-figures.discountCents)}</dd>
            <dt className="text-slate-500">{t('pay.tax')}</dt>
            <dd className="text-right tabular-nums">{money(figures.taxCents)}</dd>
            {figures.roundingCents !== 0 ? (
              <>
                <dt className="text-slate-500">{t('pay.rounding')}</dt>
                <dd className="text-right tabular-nums">{money(figures.roundingCents)}</dd>
              </>
            ) : null}
            <dt className="text-base font-semibold">{t('pay.total')}</dt>
            <dd className="text-right text-lg font-bold tabular-nums" data-testid="pos-total">{money(figures.totalCents)}</dd>
            {props.mayDiscount ? (
              <div className="col-span-2 mt-1 flex flex-wrap items-center gap-1">
                <label htmlFor="pos-discount" className="text-xs text-slate-600">
                  {t('pay.discountLabel')}
                </label>
                <select
                  aria-label={t('pay.discountType')}
                  value={props.discount?.type ?? 'percent'}
                  disabled={disabled}
                  onChange={(e) => props.onDiscount({ type: e.target.value as DiscountDraft['type'], value: props.discount?.value ?? '' })}
                  className="h-8 rounded-md border border-slate-300 bg-white px-1 text-xs"
                >
                  <option value="percent">%</option>
                  <option value="fixed">{currencySymbol}</option>
                </select>
                <input
                  id="pos-discount"
                  inputMode="decimal"
                  disabled={disabled}
                  value={props.discount?.value ?? ''}
                  aria-invalid={props.discountError ? true : undefined}
                  aria-describedby={props.discountError ? 'pos-discount-error' : undefined}
                  onChange={(e) => props.onDiscount(e.target.value === '' ? null : { type: props.discount?.type ?? 'percent', value: e.target.value })}
                  className={cn(
                    'h-8 w-20 rounded-md border px-2 text-right text-sm tabular-nums',
                    props.discountError ? 'border-red-600 focus-visible:outline-red-600' : 'border-slate-300',
                  )}
                />
                {props.discountError ? (
                  <p id="pos-discount-error" role="alert" className="basis-full text-xs font-medium text-red-700">
                    {props.discountError}
                  </p>
                ) : null}
              </div>
            ) : null}
          </dl>

          <div className="space-y-2">
            {payments.map((row, index) => (
              <div key={row.key} className="flex flex-wrap items-end gap-2">
                <div className="min-w-[7rem] flex-1">
                  <label htmlFor={`pos-method-${row.key}`} className="block text-xs font-medium text-slate-600">
                    {index === 0 ? t('pay.method') : t('pay.methodN', { n: index + 1 })}
                  </label>
                  <select
                    id={`pos-method-${row.key}`}
                    value={row.method}
                    disabled={disabled}
                    onChange={(e) => {
                      const method = e.target.value;
                      // A digital method takes the exact amount: fill it in.
                      const exact = paymentKind(method) === 'digital' && row.amount === '' ? plain(remaining(row.key)) : row.amount;
                      update(row.key, { method, amount: exact });
                    }}
                    className="h-10 w-full rounded-md border border-slate-300 bg-white px-2 text-sm"
                  >
                    {methods.map((m) => (
                      <option key={m} value={m}>
                        {m}
                      </option>
                    ))}
                  </select>
                </div>
                <div className="w-32">
                  <label htmlFor={`pos-amount-${row.key}`} className="block text-xs font-medium text-slate-600">
                    {t('pay.amount')}
                  </label>
                  <input
                    id={`pos-amount-${row.key}`}
                    inputMode="decimal"
                    autoComplete="off"
                    disabled={disabled}
                    value={row.amount}
                    onChange={(e) => update(row.key, { amount: e.target.value })}
                    className="h-10 w-full rounded-md border border-slate-300 px-2 text-right text-sm tabular-nums"
                  />
                </div>
                {takesReference(row.method) ? (
                  <div className="w-36">
                    <label htmlFor={`pos-ref-${row.key}`} className="block text-xs font-medium text-slate-600">
                      {paymentKind(row.method) === 'digital' && /pesa/i.test(row.method) ? t('pay.mpesaReference') : t('pay.reference')}
                    </label>
                    <input
                      id={`pos-ref-${row.key}`}
                      autoComplete="off"
                      maxLength={SALE_LIMITS.reference}
                      disabled={disabled}
                      value={row.reference}
                      onChange={(e) => update(row.key, { reference: e.target.value.toUpperCase() })}
                      className="h-10 w-full rounded-md border border-slate-300 px-2 text-sm uppercase"
                    />
                  </div>
                ) : null}
                {payments.length > 1 ? (
                  <button
                    type="button"
                    disabled={disabled}
                    onClick={() => onPayments(payments.filter((p) => p.key !== row.key))}
                    aria-label={t('pay.removePayment', { n: index + 1 })}
                    className="flex size-10 items-center justify-center rounded-md text-slate-500 hover:bg-slate-100"
                  >
                    <X className="size-4" aria-hidden="true" />
                  </button>
                ) : null}
              </div>
            ))}
            <div className="flex flex-wrap items-center gap-1.5">
              {suggestions.map((cents) => (
                <button
                  key={cents}
                  type="button"
                  disabled={disabled}
                  onClick={() => {
                    const target = firstCash >= 0 ? payments[firstCash]! : payments[0]!;
                    update(target.key, { amount: plain(cents), method: firstCash >= 0 ? target.method : (methods.find((m) => paymentKind(m) === 'cash') ?? target.method) });
                  }}
                  className="h-8 rounded-full border border-slate-300 bg-slate-50 px-3 text-xs font-medium tabular-nums hover:bg-slate-100"
                >
                  {money(cents)}
                </button>
              ))}
              {payments.length < SALE_LIMITS.payments ? (
                <button
                  type="button"
                  disabled={disabled}
                  onClick={() => {
                    const used = new Set(payments.map((p) => p.method));
                    const next = methods.find((m) => !used.has(m) && paymentKind(m) !== 'credit') ?? methods[0]!;
                    const row = newPaymentRow(next);
                    const left = Math.max(0, figures.totalCents - paid);
                    onPayments([...payments, { ...row, amount: left > 0 ? plain(left) : '' }]);
                  }}
                  className="flex h-8 items-center gap-1 rounded-full border border-dashed border-slate-400 px-3 text-xs font-medium text-slate-700 hover:bg-slate-50"
                >
                  <Plus className="size-3.5" aria-hidden="true" />
                  {t('pay.split')}
                </button>
              ) : null}
            </div>
          </div>

          <div className="flex flex-col gap-2 md:w-60">
            <div className="flex items-center justify-between text-sm" aria-live="polite">
              <span className={cn('font-medium', status.status === 'paid' ? 'text-green-700' : status.status === 'partial' ? 'text-amber-700' : 'text-slate-500')}>{statusText}</span>
              <span className="tabular-nums">
                {t('pay.change')}: <strong data-testid="pos-change">{money(change)}</strong>
              </span>
            </div>
            {props.error ? (
              <p role="alert" className="rounded-md bg-red-50 px-2 py-1.5 text-sm font-medium text-red-800">
                {props.error}
              </p>
            ) : null}
            {props.onMpesaRequest && payments.length === 1 && isMpesaMethod(payments[0]!.method) ? (
              <Button
                size="lg"
                variant="outline"
                onClick={props.onMpesaRequest}
                disabled={disabled || props.itemCount === 0}
                icon={<Smartphone className="size-4" />}
                className="border-green-600 text-green-800 hover:bg-green-50"
              >
                {t('pay.sendMpesa')}
              </Button>
            ) : null}
            <Button size="lg" onClick={props.onComplete} disabled={disabled || props.itemCount === 0} loading={props.completing}>
              {t('pay.complete')}
            </Button>
            {props.actions}
          </div>
        </div>
      </div>
    </section>
  );
}
