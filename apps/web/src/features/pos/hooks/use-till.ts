import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Contact } from '@pharmapoint/domain/contacts';
import { parseMoneyToCents } from '@pharmapoint/domain/money';
import {
  JUST_COMPLETED_MS,
  PAYMENT_ERROR_MS,
  computeCart,
  discountProblem,
  paymentKind,
  type CartFigures,
  type Discount,
  type DiscountRules,
  type PaymentInput,
  type SaleProblem,
} from '@pharmapoint/domain/sales';
import { cartInputOf, type TillLine } from '@pharmapoint/domain/till-cart';
import { newUuid } from '@/lib/idempotency';

/** One payment row of the payment bar (a split tender has several). Amounts as typed, in currency units. */
export interface PaymentRow {
  key: string;
  method: string;
  amount: string;
  reference: string;
}

export interface DiscountDraft {
  type: 'percent' | 'fixed';
  /** As typed: a percentage or an amount in currency units. */
  value: string;
}

let rowCounter = 0;
export const newPaymentRow = (method: string): PaymentRow => ({ key: `p${(rowCounter += 1)}`, method, amount: '', reference: '' });

/** The discount as the domain takes it, or null when none or not a number. */
export function discountOf(draft: DiscountDraft | null): Discount | null {
  if (!draft || draft.value.trim() === '') return null;
  if (draft.type === 'percent') {
    const value = Number(draft.value.replace(',', '.'));
    if (!Number.isFinite(value) || value <= 0) return null;
    return { type: 'percent', basisPoints: Math.min(10_000, Math.round(value * 100)) };
  }
  const cents = parseMoneyToCents(draft.value);
  return cents === null || cents <= 0 ? null : { type: 'fixed', cents };
}

/** The payments as the domain takes them (an amount not yet typed is 0). */
export function paymentsOf(rows: readonly PaymentRow[]): (PaymentInput & { reference: string | null })[] {
  return rows.map((r) => ({
    method: r.method,
    amountCents: parseMoneyToCents(r.amount) ?? 0,
    reference: r.reference.trim() === '' ? null : r.reference.trim(),
  }));
}

/** Does this method take a reference (the M-Pesa confirmation code, a card slip)? */
export function takesReference(method: string): boolean {
  return paymentKind(method) === 'digital';
}

/**
 * The till's working state: the cart, the client, the discount, the payments, the sale date and the flags
 * (completing, branch switching, just completed: each disables editing, seed 001 section 4), with the payment
 * bar's error that stays 8 seconds and the sale's id (one per sale, kept across retries so a retry is the same sale).
 */
export function useTill(options: {
  defaultMethod: string;
  today: string;
  settingsTaxRate: number | undefined;
  currency: string | undefined;
  /** settings.maxDiscount and the user's rights: a discount they forbid is refused as it is typed, never applied. */
  discountRules: DiscountRules;
}) {
  const [lines, setLines] = useState<readonly TillLine[]>([]);
  const [client, setClient] = useState<Contact | null>(null);
  const [discount, setDiscount] = useState<DiscountDraft | null>(null);
  const [payments, setPayments] = useState<PaymentRow[]>(() => [newPaymentRow(options.defaultMethod)]);
  const [saleDate, setSaleDate] = useState(options.today);
  const [completing, setCompleting] = useState(false);
  const [switchingBranch, setSwitchingBranch] = useState(false);
  const [justCompleted, setJustCompleted] = useState(false);
  const [paymentError, setPaymentErrorState] = useState<string | null>(null);
  const saleId = useRef<string>(newUuid());
  const errorTimer = useRef<number | undefined>(undefined);
  const completedTimer = useRef<number | undefined>(undefined);

  const setPaymentError = useCallback((message: string | null) => {
    window.clearTimeout(errorTimer.current);
    setPaymentErrorState(message);
    if (message) errorTimer.current = window.setTimeout(() => setPaymentErrorState(null), PAYMENT_ERROR_MS);
  }, []);

  useEffect(
    () => () => {
      window.clearTimeout(errorTimer.current);
      window.clearTimeout(completedTimer.current);
    },
    [],
  );

  const { maxDiscount, mayDiscount, mayExceedMaxDiscount } = options.discountRules;
  /**
   * The cart with the discount typed (`offered`), what is wrong with that discount (the server's rule,
   * discountProblem), and the figures shown and sent: a refused discount is not applied, so the total shown is never
   * one the server would refuse (decision 0091).
   */
  const { figures, offered, discountRefusal } = useMemo(() => {
    const cart = cartInputOf(lines);
    const rules = { settingsTaxRatePercent: options.settingsTaxRate, currency: options.currency };
    const withDiscount = computeCart(cart, discountOf(discount), rules);
    const refusal = discountProblem(withDiscount.subtotalCents, withDiscount.discountCents, { maxDiscount, mayDiscount, mayExceedMaxDiscount });
    const shown: CartFigures = refusal ? computeCart(cart, null, rules) : withDiscount;
    return { figures: shown, offered: withDiscount, discountRefusal: refusal as SaleProblem | null };
  }, [lines, discount, options.settingsTaxRate, options.currency, maxDiscount, mayDiscount, mayExceedMaxDiscount]);

  /** Back to an empty till (after a sale, a clear, a branch switch). */
  const reset = useCallback(
    (resetDate: boolean) => {
      setLines([]);
      setClient(null);
      setDiscount(null);
      setPayments([newPaymentRow(options.defaultMethod)]);
      if (resetDate) setSaleDate(options.today);
      setPaymentError(null);
      saleId.current = newUuid();
    },
    [options.defaultMethod, options.today, setPaymentError],
  );

  /** The sale was recorded: a new id for the next one, and the 5-second just-completed lock. */
  const markCompleted = useCallback(() => {
    saleId.current = newUuid();
    setJustCompleted(true);
    window.clearTimeout(completedTimer.current);
    completedTimer.current = window.setTimeout(() => setJustCompleted(false), JUST_COMPLETED_MS);
  }, []);

  /** The receipt was closed: the lock has done its work (no double completion while it showed). */
  const endJustCompleted = useCallback(() => {
    window.clearTimeout(completedTimer.current);
    setJustCompleted(false);
  }, []);

  return {
    endJustCompleted,
    lines,
    setLines,
    client,
    setClient,
    discount,
    setDiscount,
    payments,
    setPayments,
    saleDate,
    setSaleDate,
    figures,
    offered,
    discountRefusal,
    completing,
    setCompleting,
    switchingBranch,
    setSwitchingBranch,
    justCompleted,
    locked: completing || switchingBranch || justCompleted,
    paymentError,
    setPaymentError,
    saleId,
    reset,
    markCompleted,
  };
}

export type Till = ReturnType<typeof useTill>;
