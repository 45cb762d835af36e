import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Info, Keyboard, PauseCircle, ReceiptText, Wallet } from 'lucide-react';
import { canGiveDiscounts, canSwitchPosBranch } from '@pharmapoint/domain/permissions';
import type { Contact } from '@pharmapoint/domain/contacts';
import type { PosCatalogueItem } from '@pharmapoint/domain/pos-catalogue';
import type { SuspendedSale } from '@pharmapoint/domain/suspended-sales';
import type * as SaleChecks from '@pharmapoint/domain/sale-checks';
import {
  paymentKind,
  saleDateProblem,
  tillPaymentMethods,
  type Prescription,
  type Sale,
  type SaleProblem,
  type UnitMode,
} from '@pharmapoint/domain/sales';
import { DEFAULT_SETTINGS } from '@pharmapoint/domain/settings';
import {
  addProblem,
  addToCart,
  followStock,
  isTillProblem,
  lineFromCatalogue,
  linesOverStock,
  removeLine,
  updateLine,
  saleLinesOf,
  setLinePrice,
  tillCheckLines,
  setLineUnits,
  switchUnitMode,
  tillMessage,
  type TillLine,
  type TillProblem,
  type TillResult,
} from '@pharmapoint/domain/till-cart';
import { Button } from '@/components/ui/button';
import { ApiError, errorMessage, errorText } from '@/lib/api';
import { formatDate } from '@/lib/format';
import { showStockChange } from '@/lib/live-stock/live-stock';
import { toast } from '@/lib/toast';
import { switchBranch } from '@/features/auth/api/auth';
import { meQueryKey } from '@/features/auth/api/get-me';
import { usePermissions } from '@/features/auth/hooks/use-permissions';
import { useLogout } from '@/features/auth/hooks/use-logout';
import { LAST_BRANCH_KEY } from '@/app/layout/branch-switcher';
import { useBranchCatalogue } from '@/features/pos/catalogue/use-branch-catalogue';
import { stockValueAfter } from '@/features/pos/catalogue/catalogue-state';
import { completeSale, useTillSettings } from '@/features/pos/api/sales';
import { CartTable } from '@/features/pos/components/cart-table';
import { PaymentBar } from '@/features/pos/components/payment-bar';
import { ProductSearch, type ProductSearchHandle } from '@/features/pos/components/product-search';
import { TillHeader } from '@/features/pos/components/till-header';
import { paymentsOf, useTill, discountOf } from '@/features/pos/hooks/use-till';
import { useTillKeys } from '@/features/pos/hooks/use-till-keys';
import { businessToday } from '@/features/pos/lib/ids';
import { rememberReceipt } from '@/features/pos/lib/recent-receipts';
import { readResumeHandoff, type ResumeHandoff } from '@/features/pos/lib/resume-handoff';
import type { ReceiptBusiness } from '@/features/pos/lib/receipt-text';

const ReceiptDialog = lazy(() => import('@/features/pos/components/receipt-dialog'));
// Not in the till's first load (decision 0025): the customer box (its combobox and the Add New Client form) comes a
// moment later behind a Walk-in placeholder; confirmations and every dialog load when first opened.
const CustomerBox = lazy(() => import('@/features/pos/components/customer-box').then((m) => ({ default: m.CustomerBox })));
const ConfirmDialog = lazy(() => import('@/components/ui/confirm-dialog').then((m) => ({ default: m.ConfirmDialog })));
const CameraScanDialog = lazy(() => import('@/features/pos/components/camera-scan-dialog'));
const ReprintDialog = lazy(() => import('@/features/pos/components/reprint-dialog'));
const DdaPrescriptionDialog = lazy(() => import('@/features/pos/components/dda-dialog').then((m) => ({ default: m.DdaPrescriptionDialog })));
const RefillReminderDialog = lazy(() => import('@/features/pos/components/refill-dialog').then((m) => ({ default: m.RefillReminderDialog })));
const RecordExpenseDialog = lazy(() => import('@/features/pos/components/expense-dialog').then((m) => ({ default: m.RecordExpenseDialog })));
const MpesaRequestDialog = lazy(() => import('@/features/pos/components/mpesa-request-dialog'));
const SuspendSaleDialog = lazy(() => import('@/features/pos/components/suspend-dialog').then((m) => ({ default: m.SuspendSaleDialog })));

/**
 * The sale checks (sale-checks.ts) are needed at the first Complete, Suspend or M-Pesa request, not to draw the till:
 * they load right after it (their own chunk, outside the till's first-load budget), and a click that comes first
 * waits for them.
 */
let saleChecks: typeof SaleChecks | null = null;
const saleChecksReady: Promise<typeof SaleChecks> = import('@pharmapoint/domain/sale-checks').then((m) => (saleChecks = m));
async function loadSaleChecks(): Promise<typeof SaleChecks> {
  return saleChecks ?? saleChecksReady;
}

/**
 * The handed-over sale, read from storage once per visit to the till (reading consumes it; the cache keeps React's
 * development double render from reading twice). Forgotten once the till has restored it.
 */
let handoffOfVisit: ResumeHandoff | null = null;
function takeHandoff(): ResumeHandoff {
  handoffOfVisit ??= readResumeHandoff();
  return handoffOfVisit;
}

/** The client of a resumed sale as the customer box holds it (the sale copies id, name, phone and location). */
function clientOfResumed(sale: SuspendedSale): Contact {
  return {
    id: sale.client.id,
    type: 'customer',
    name: sale.client.name,
    phone: sale.client.phone,
    email: null,
    location: sale.client.location,
    address: null,
    notes: null,
    creditPeriodDays: null,
    creditTerms: null,
    isActive: true,
    branchId: sale.branchId,
    createdAt: sale.suspendedAt,
    updatedAt: sale.suspendedAt,
    createdBy: null,
    updatedBy: null,
  };
}

/** Server answers after which the catalogue is read again (a price or the stock moved meanwhile). */
const REFRESH_ON = new Set(['SALE_PRICE_CHANGED', 'SALE_TOTAL_CHANGED', 'SALE_STOCK_EXCEEDED', 'STOCK_INSUFFICIENT', 'SALE_PRODUCT_NO_PRICE', 'SALE_PRODUCT_INACTIVE']);

/**
 * The till (/pos, issue 9): search and scan, the cart with every rule of seed 001 sections 3-5 (domain: sales.ts and
 * till-cart.ts), the client, the payment bar, completing a sale (POST /api/sales, idempotent by the sale's UUID)
 * and the receipt. Keyboard first: focus sits in search when the till opens and after every sale.
 */
export default function PosPage() {
  const { t } = useTranslation('pos');
  const queryClient = useQueryClient();
  const { me, subject, can } = usePermissions();
  const logout = useLogout();
  const settingsQuery = useTillSettings();
  const settings = settingsQuery.data?.settings ?? DEFAULT_SETTINGS;
  const symbol = settings.currencySymbol || 'KSh';
  const today = businessToday(settings.timezone);
  const methods = useMemo(() => tillPaymentMethods(settings.paymentMethods), [settings.paymentMethods]);
  const branchId = me?.branch?.id ?? null;
  const catalogue = useBranchCatalogue(branchId);
  const mayDiscount = subject ? canGiveDiscounts(subject) : false;
  const mayExceedMaxDiscount = can('pos:admin');
  const till = useTill({
    defaultMethod: methods[0] ?? 'Cash',
    today,
    settingsTaxRate: settings.taxRate,
    currency: settings.currency,
    discountRules: { maxDiscount: settings.maxDiscount, mayDiscount, mayExceedMaxDiscount },
  });
  const { lines, setLines, client, figures } = till;
  const search = useRef<ProductSearchHandle>(null);
  const [receipt, setReceipt] = useState<Sale | null>(null);
  const [receiptOpen, setReceiptOpen] = useState(false);
  const [mpesaOpen, setMpesaOpen] = useState(false);
  const [reprintOpen, setReprintOpen] = useState(false);
  const [sheetOpen, setSheetOpen] = useState(false);
  const [confirmClear, setConfirmClear] = useState(false);
  const [pendingBranch, setPendingBranch] = useState<string | null>(null);
  const [pendingReduce, setPendingReduce] = useState<{ productId: string; max: number; product: string } | null>(null);
  const [refreshing, setRefreshing] = useState(false);
  const [focusQuantityOf, setFocusQuantityOf] = useState<string | null>(null);
  const [searchParams, setSearchParams] = useSearchParams();
  const [pendingDda, setPendingDda] = useState<PosCatalogueItem | null>(null);
  const [refillFor, setRefillFor] = useState<string | null>(null);
  const [expenseOpen, setExpenseOpen] = useState(false);
  const [cameraOpen, setCameraOpen] = useState(false);
  const hasCamera = typeof navigator !== 'undefined' && Boolean(navigator.mediaDevices?.getUserMedia);
  const [suspendOpen, setSuspendOpen] = useState(false);
  /** A suspended sale being resumed: its id, and the pieces its reservation holds per product (sellable to it). */
  const [resumed, setResumed] = useState<{ sale: SuspendedSale; reserved: ReadonlyMap<string, number> } | null>(null);
  const [handoff] = useState(takeHandoff);

  const mayOverridePrice = can('pos:price_override');
  const showMarginWarnings = settings.showMarginWarnings || settings.warnOnLowMargins;

  const focusSearch = useCallback(() => window.setTimeout(() => search.current?.focus(), 0), []);
  const problemText = useCallback((problem: TillProblem) => t(`problems.${problem.problem}`, { ...problem.values, defaultValue: tillMessage(problem) }), [t]);
  const saleProblemText = useCallback((problem: SaleProblem) => errorText(problem.code, undefined, problem.values), []);

  // Follow the catalogue: another till's sale, a new price. Lines pushed over their stock are flagged.
  const catalogueRef = useRef(catalogue);
  catalogueRef.current = catalogue;
  useEffect(() => {
    setLines((previous) => {
      const next = followStock(previous, (id) => {
        const item = catalogue.get(id);
        const reserved = resumed?.reserved.get(id) ?? 0;
        return item && reserved ? { ...item, quantity: item.quantity + reserved } : item;
      });
      if (next !== previous && linesOverStock(next).length > linesOverStock(previous).length) {
        toast.warning(t('problems.stockIssues', { defaultValue: tillMessage({ problem: 'stockIssues' }) }));
      }
      return next;
    });
  }, [catalogue.version, catalogue, setLines, t, resumed]);

  // A sale resumed from /app/suspended-sales (handed over in browser storage): restored once the catalogue is here.
  const restoredHandoff = useRef(false);
  useEffect(() => {
    if (restoredHandoff.current) return;
    if (handoff.status === 'none') {
      handoffOfVisit = null;
      return;
    }
    if (handoff.status === 'corrupt') {
      restoredHandoff.current = true;
      handoffOfVisit = null;
      toast.error(t('resume.corrupt'));
      return;
    }
    if (handoff.status !== 'ok' || catalogue.status !== 'ready') return;
    restoredHandoff.current = true;
    handoffOfVisit = null;
    const sale = handoff.sale;
    const reserved = new Map<string, number>();
    for (const r of sale.reservations) reserved.set(r.productId, (reserved.get(r.productId) ?? 0) + r.quantity);
    const restored: TillLine[] = [];
    for (const l of sale.lines) {
      const item = catalogue.get(l.productId);
      if (!item) continue;
      const base = lineFromCatalogue({ ...item, quantity: item.quantity + (reserved.get(l.productId) ?? 0) });
      restored.push({
        ...base,
        name: l.name,
        quantity: l.quantity,
        unitMode: l.unitMode,
        unitPriceCents: l.unitPriceCents,
        listPriceCents: l.listPriceCents,
        prescription: l.prescription,
        needsRefill: l.needsRefill,
        refillDays: l.refillDays ?? base.refillDays,
      });
    }
    setResumed({ sale, reserved });
    setLines(restored);
    till.setClient(clientOfResumed(sale));
    if (sale.discount) {
      till.setDiscount(
        sale.discount.type === 'percent'
          ? { type: 'percent', value: String(sale.discount.basisPoints / 100) }
          : { type: 'fixed', value: String(sale.discount.cents / 100) },
      );
    }
    const method = methods.find((m) => m.toLowerCase() === sale.paymentMethod.toLowerCase()) ?? methods[0] ?? 'Cash';
    till.setPayments([{ key: 'resumed', method, amount: sale.amountPaidCents > 0 ? String(sale.amountPaidCents / 100) : '', reference: '' }]);
    toast.success(t('resume.resumed', { reservation: sale.reservationId }));
  }, [handoff, catalogue, catalogue.status, methods, setLines, till, t]);

  /** Applies a cart change, or says why not. */
  const apply = useCallback(
    (result: TillResult, success?: string) => {
      if (isTillProblem(result)) {
        toast.error(problemText(result));
        return false;
      }
      setLines(result.lines);
      if (success) toast.success(success);
      return true;
    },
    [problemText, setLines],
  );

  const addItem = useCallback(
    (item: PosCatalogueItem | undefined, prescription?: Prescription | null) => {
      if (till.locked) return;
      const options = { hasRegisteredClient: Boolean(client?.id), prescription };
      const refused = addProblem(item, options);
      if (refused) {
        toast.error(problemText(refused));
        return;
      }
      // A DDA product not yet in the cart first asks for the prescription (seed 001 section 4).
      if (item!.isDda && prescription === undefined && !lines.some((l) => l.productId === item!.id)) {
        setPendingDda(item!);
        return;
      }
      const result = addToCart(lines, item, options);
      if (!isTillProblem(result)) {
        const line = result.lines.find((l) => l.productId === item!.id)!;
        apply(result, result.outcome === 'added' ? t('cart.added', { product: line.name }) : t('cart.updated', { product: line.name }));
      } else {
        apply(result);
      }
      focusSearch();
    },
    [till.locked, client?.id, lines, apply, problemText, t, focusSearch],
  );

  /** A scanned or typed barcode/SKU: add at once (or one more). Codes scanned while the catalogue loads wait for it. */
  const waitingCodes = useRef<string[]>([]);
  const onCode = useCallback(
    (code: string) => {
      if (catalogue.status === 'loading') {
        waitingCodes.current.push(code);
        return true;
      }
      const item = catalogue.findByCode(code);
      if (!item) return false;
      addItem(item);
      return true;
    },
    [catalogue, addItem],
  );
  useEffect(() => {
    if (catalogue.status !== 'ready' || waitingCodes.current.length === 0) return;
    const codes = waitingCodes.current;
    waitingCodes.current = [];
    let next = lines;
    for (const code of codes) {
      const item = catalogue.findByCode(code);
      if (!item) {
        toast.error(t('search.codeUnknown', { code }));
        continue;
      }
      const result = addToCart(next, item, { hasRegisteredClient: Boolean(client?.id) });
      if (isTillProblem(result)) toast.error(problemText(result));
      else next = result.lines;
    }
    setLines(next);
  }, [catalogue, catalogue.status, lines, client?.id, setLines, problemText, t]);

  const cartIds = useMemo(() => new Set(lines.map((l) => l.productId)), [lines]);
  const searchCatalogue = useCallback((query: string) => catalogue.search(query, cartIds), [catalogue, cartIds]);

  // ------------------------------------------------------------------ line edits
  const onUnits = (productId: string, units: number) => apply(setLineUnits(lines, productId, units));
  const onPrice = (productId: string, cents: number) => {
    if (!mayOverridePrice) return;
    apply(setLinePrice(lines, productId, cents));
  };
  const onMode = (productId: string, mode: UnitMode) => {
    const result = switchUnitMode(lines, productId, mode);
    if (isTillProblem(result) && result.problem === 'wholePackagesReduce') {
      setPendingReduce({ productId, max: Number(result.values?.max ?? 0), product: String(result.values?.product ?? '') });
      return;
    }
    apply(result);
  };
  const onRemove = (productId: string) => {
    const line = lines.find((l) => l.productId === productId);
    apply(removeLine(lines, productId), t('cart.removed', { product: line?.name ?? '' }));
    focusSearch();
  };

  const clearCart = useCallback(() => {
    till.reset(false);
    setResumed(null);
    toast.success(t('cart.cleared'));
    focusSearch();
  }, [till, t, focusSearch]);

  // ------------------------------------------------------------------ completing
  /** The sale as POST /api/sales takes it, with these payments (Complete, and M-Pesa at the till). */
  function saleRequest(rows: readonly { method: string; amountCents: number; reference: string | null }[]) {
    return {
      id: till.saleId.current,
      branchId: branchId ?? undefined,
      clientId: client?.id ?? null,
      saleDate: till.saleDate,
      clientTime: new Date().toISOString(),
      lines: saleLinesOf(lines, { prices: mayOverridePrice ? 'overridden' : 'all' }),
      discount: discountOf(till.discount),
      payments: rows.map((p) => ({ method: p.method, amountCents: p.amountCents, reference: paymentKind(p.method) === 'digital' ? p.reference : null })),
      expectedTotalCents: figures.totalCents,
      ...(resumed ? { suspendedSaleId: resumed.sale.id } : {}),
    };
  }

  /** A sale was recorded (by Complete, or by the customer's M-Pesa payment): the stock shown, the receipt, a new till. */
  function afterSale(sale: Sale) {
    // The value posted is the branch quantity (expired pieces included), as the live 'stock' events carry it.
    if (branchId) {
      for (const line of lines) {
        const item = catalogue.get(line.productId);
        // A resumed sale's reserved pieces leave the reservation, not the sellable quantity.
        const fromSellable = Math.max(0, line.quantity - (resumed?.reserved.get(line.productId) ?? 0));
        const stockValue = item ? stockValueAfter(item, fromSellable) : Math.max(0, line.available - line.quantity);
        showStockChange({ productId: line.productId, branchId, stockValue, reason: `Sale: ${sale.invoiceNumber}` });
      }
    }
    rememberReceipt({ id: sale.id, invoiceNumber: sale.invoiceNumber, totalCents: sale.totalCents, at: sale.createdAt });
    till.markCompleted();
    till.reset(true);
    setResumed(null);
    setSheetOpen(false);
    setReceipt(sale);
    setReceiptOpen(true);
    toast.success(t('pay.completed', { invoice: sale.invoiceNumber }));
  }

  async function complete() {
    if (till.locked) return;
    const problem = await completionProblem();
    if (problem) {
      till.setPaymentError(problem);
      return;
    }
    const rows = paymentsOf(till.payments).filter((p, _i, all) => all.length === 1 || p.amountCents > 0 || paymentKind(p.method) === 'credit');
    till.setCompleting(true);
    try {
      afterSale(await completeSale(saleRequest(rows)));
    } catch (error) {
      showRefusal(error);
    } finally {
      till.setCompleting(false);
    }
  }

  /**
   * A sale the server refused (Complete, or the M-Pesa request, which runs the same checks first): its sentence in the
   * payment bar, and the catalogue read again when the refusal says it changed.
   */
  function showRefusal(error: unknown) {
    const message = error instanceof ApiError ? error.message : errorMessage(error);
    till.setPaymentError(t('pay.failed', { message }));
    if (error instanceof ApiError && REFRESH_ON.has(error.code)) void catalogue.refresh();
  }

  /** 'Send payment request' (M-Pesa at the till, decision 0058): the screen's checks with the whole total by M-Pesa. */
  async function openMpesa() {
    if (till.locked) return;
    const method = till.payments[0]?.method ?? 'MPESA';
    const problem = await completionProblem([{ method, amountCents: figures.totalCents, reference: null }]);
    if (problem) {
      till.setPaymentError(problem);
      return;
    }
    setMpesaOpen(true);
  }

  /**
   * The sale checks of the screen (sale-checks.ts, decision 0069): the same ordered list the server answers from,
   * on what the till knows. `tender` replaces the payment rows (M-Pesa at the till: the whole total).
   */
  const keptPrice = resumed ? (productId: string, unitMode: UnitMode) => resumed.sale.lines.find((l) => l.productId === productId && l.unitMode === unitMode)?.unitPriceCents : undefined;
  const checkLines = tillCheckLines(lines, keptPrice);
  async function completionProblem(tender?: readonly { method: string; amountCents: number; reference: string | null }[]): Promise<string | null> {
    const payments = (tender ?? paymentsOf(till.payments)).filter((p, _i, all) => all.length === 1 || p.amountCents > 0 || paymentKind(p.method) === 'credit');
    const checks = await loadSaleChecks();
    const [first] = checks.completionProblems({
      lines: checkLines,
      clientId: client?.id ?? null,
      subtotalCents: figures.subtotalCents,
      // The discount as typed: one the rules refuse is refused here too, in the checks' order.
      discountCents: till.offered.discountCents,
      totalCents: figures.totalCents,
      rules: checks.saleCheckRules(settings, { mayDiscount, mayExceedMaxDiscount }),
      formatTotal: checks.settingsMoney(settings),
      payments,
      saleDate: till.saleDate,
      today,
    });
    return first ? saleProblemText(first) : null;
  }

  /** The first problem of suspending this cart (the dialog then asks for the amount paid, 0 until then). */
  async function suspensionProblem(): Promise<string | null> {
    const checks = await loadSaleChecks();
    const [first] = checks.suspensionProblems({
      lines: checkLines,
      clientId: client?.id ?? null,
      subtotalCents: figures.subtotalCents,
      // The discount as typed: one the rules refuse is refused here too, in the checks' order.
      discountCents: till.offered.discountCents,
      totalCents: figures.totalCents,
      rules: checks.saleCheckRules(settings, { mayDiscount, mayExceedMaxDiscount }),
      amountPaidCents: 0,
    });
    if (!first) return null;
    // An empty cart: the screen's toast (seed 001 section 8; Suspend is disabled then, only its shortcut gets here).
    return first.code === 'SALE_CART_EMPTY' ? t('suspend.empty') : saleProblemText(first);
  }

  // ------------------------------------------------------------------ suspending
  async function openSuspend() {
    if (till.locked) return;
    const problem = await suspensionProblem();
    if (problem) {
      till.setPaymentError(problem);
      return;
    }
    setSuspendOpen(true);
  }

  // ------------------------------------------------------------------ branch and date
  const mayChangeBranch = subject ? canSwitchPosBranch(subject) : false;
  function requestBranch(next: string) {
    if (!next || next === branchId) return;
    if (!mayChangeBranch) {
      toast.error(errorText('POS_BRANCH_SWITCH_DENIED', undefined));
      return;
    }
    if (lines.length > 0) setPendingBranch(next);
    else void changeBranch(next);
  }
  async function changeBranch(next: string) {
    till.setSwitchingBranch(true);
    try {
      await switchBranch(next);
      try {
        localStorage.setItem(LAST_BRANCH_KEY, next);
      } catch {
        // Not remembered.
      }
      await queryClient.invalidateQueries({ queryKey: meQueryKey });
      till.reset(true);
      setResumed(null);
      toast.success(t('header.branchSwitched', { name: me?.allowedBranches.find((b) => b.id === next)?.name ?? '' }));
    } catch (error) {
      toast.error(errorMessage(error));
    } finally {
      till.setSwitchingBranch(false);
      setPendingBranch(null);
      focusSearch();
    }
  }
  function changeDate(date: string) {
    if (!date) return;
    const problem = saleDateProblem(date, today);
    if (problem) {
      toast.error(saleProblemText(problem));
      return;
    }
    till.setSaleDate(date);
  }

  async function refresh() {
    setRefreshing(true);
    await Promise.all([catalogue.refresh(), queryClient.invalidateQueries({ queryKey: ['settings'] })]);
    setRefreshing(false);
    if (catalogueRef.current.error) toast.error(t('header.refreshFailed'));
  }

  // ------------------------------------------------------------------ reprint from the address (?receipt=<id>)
  const receiptParam = searchParams.get('receipt');
  useEffect(() => {
    if (receiptParam) setReprintOpen(true);
  }, [receiptParam]);

  // ------------------------------------------------------------------ keyboard
  useTillKeys({
    onSearch: () => search.current?.focus(),
    onCustomer: () => document.querySelector<HTMLElement>('#pos-customer [role="combobox"]')?.focus(),
    onPay: () => {
      setSheetOpen(true);
      window.setTimeout(() => document.querySelector<HTMLInputElement>('[id^="pos-amount-"]')?.focus(), 0);
    },
    onComplete: () => void complete(),
    onSuspend: openSuspend,
    onQuantity: () => {
      const last = lines[lines.length - 1];
      if (!last) return;
      setFocusQuantityOf(last.productId);
      window.setTimeout(() => document.getElementById('pos-focus-quantity')?.focus(), 0);
    },
    onClear: () => {
      if (lines.length > 0) setConfirmClear(true);
    },
    onCode: (code) => {
      if (onCode(code)) return true;
      toast.error(t('search.codeUnknown', { code }));
      return true;
    },
    enabled: !receiptOpen && !reprintOpen && !cameraOpen && !suspendOpen && !expenseOpen && pendingDda === null && refillFor === null,
  });

  const business: ReceiptBusiness = {
    name: settings.pharmacyName || me?.pharmacy?.name || '',
    logoUrl: (me?.pharmacy?.theme as { logoUrl?: string | null } | undefined)?.logoUrl ?? null,
    address: settings.pharmacyAddress,
    phone: settings.pharmacyPhone,
    email: settings.pharmacyEmail,
    taxNumber: settings.vatNumber,
    footer: settings.receiptFooter,
    returnPolicy: settings.returnPolicy,
    currencySymbol: symbol,
  };
  const itemCount = lines.length;
  const overStock = linesOverStock(lines).length > 0;

  return (
    <div className={sheetOpen ? 'pb-[80vh] md:pb-56' : 'pb-24 md:pb-56'}>
      <TillHeader
        pharmacyName={business.name}
        itemCount={itemCount}
        role={me?.membership?.role ?? ''}
        branchId={branchId}
        branches={me?.allowedBranches ?? []}
        onBranch={requestBranch}
        saleDate={till.saleDate}
        today={today}
        onSaleDate={changeDate}
        onClear={() => setConfirmClear(true)}
        onRefresh={() => void refresh()}
        refreshing={refreshing}
        onLogout={() => void logout()}
        disabled={till.locked}
        actions={
          <>
            <button
              type="button"
              onClick={() => setReprintOpen(true)}
              className="inline-flex h-9 items-center gap-1.5 rounded-md px-2 text-sm font-medium text-white/90 hover:bg-white/10"
            >
              <ReceiptText className="size-4" aria-hidden="true" />
              <span className="hidden lg:inline">{t('header.reprint')}</span>
              <span className="sr-only lg:hidden">{t('header.reprint')}</span>
            </button>
            {branchId ? (
              <button
                type="button"
                onClick={() => setExpenseOpen(true)}
                className="inline-flex h-9 items-center gap-1.5 rounded-md px-2 text-sm font-medium text-white/90 hover:bg-white/10"
              >
                <Wallet className="size-4" aria-hidden="true" />
                <span className="hidden lg:inline">{t('header.expense')}</span>
                <span className="sr-only lg:hidden">{t('header.expense')}</span>
              </button>
            ) : null}
            <ShortcutsHelp />
          </>
        }
      />
      <main id="main" className="mx-auto max-w-7xl space-y-3 px-3 py-3">
        {till.saleDate !== today ? (
          <p className="flex items-center gap-2 rounded-md border border-sky-200 bg-sky-50 px-3 py-2 text-sm text-sky-900" role="status">
            <Info className="size-4 shrink-0" aria-hidden="true" />
            {t('header.backdated', { date: formatDate(till.saleDate) })}
          </p>
        ) : null}
        {overStock ? (
          <p className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm font-medium text-amber-900" role="alert">
            {t('problems.stockIssues', { defaultValue: tillMessage({ problem: 'stockIssues' }) })}
          </p>
        ) : null}
        <div className="grid gap-3 md:grid-cols-[minmax(0,65fr)_minmax(0,35fr)]">
          <ProductSearch
            ref={search}
            search={searchCatalogue}
            onPick={(item) => addItem(item)}
            onCode={onCode}
            onUnknownCode={(code) => toast.error(t('search.codeUnknown', { code }))}
            onScanClick={hasCamera ? () => setCameraOpen(true) : undefined}
            disabled={till.locked}
            status={catalogue.status}
            error={catalogue.error}
            currencySymbol={symbol}
          />
          <div id="pos-customer">
            <Suspense
              fallback={
                <div>
                  <p className="mb-1 text-sm font-medium text-slate-700">{t('customer.label')}</p>
                  <p className="flex h-10 items-center rounded-md border border-slate-300 bg-white px-3 text-sm text-slate-500">{client?.name ?? t('customer.walkIn')}</p>
                </div>
              }
            >
            <CustomerBox
              value={client}
              onChange={(next) => {
                // A resumed sale belongs to its client.
                if (resumed && next?.id !== resumed.sale.client.id) {
                  toast.error(t('resume.clientFixed'));
                  return;
                }
                till.setClient(next);
                focusSearch();
              }}
              disabled={till.locked}
              ddaInCart={lines.some((l) => l.isDda)}
            />
            </Suspense>
          </div>
        </div>
        <CartTable
          lines={lines}
          figures={figures.lines}
          currencySymbol={symbol}
          disabled={till.locked}
          mayOverridePrice={mayOverridePrice}
          showMarginWarnings={showMarginWarnings}
          marginTolerance={settings.marginTolerance}
          onUnits={onUnits}
          onPrice={onPrice}
          onMode={onMode}
          onRemove={onRemove}
          onRefill={(id) => setRefillFor(id)}
          focusQuantityOf={focusQuantityOf}
        />
      </main>
      <PaymentBar
        figures={figures}
        itemCount={itemCount}
        methods={methods}
        payments={till.payments}
        onPayments={till.setPayments}
        discount={till.discount}
        onDiscount={till.setDiscount}
        discountError={till.discountRefusal ? saleProblemText(till.discountRefusal) : null}
        mayDiscount={mayDiscount}
        currencySymbol={symbol}
        disabled={till.locked}
        completing={till.completing}
        error={till.paymentError}
        onComplete={() => void complete()}
        onMpesaRequest={openMpesa}
        expanded={sheetOpen}
        onExpanded={setSheetOpen}
        actions={
          <Button variant="outline" onClick={openSuspend} disabled={till.locked || lines.length === 0} icon={<PauseCircle className="size-4" />}>
            {t('pay.suspend')}
          </Button>
        }
      />
      {resumed ? (
        <p className="sr-only" role="status">
          {t('resume.resumed', { reservation: resumed.sale.reservationId })}
        </p>
      ) : null}
      <Suspense fallback={null}>
      {confirmClear ? (
      <ConfirmDialog
        open={confirmClear}
        onOpenChange={setConfirmClear}
        title={t('cart.clearTitle')}
        description={t('cart.clearDescription')}
        confirmLabel={t('header.clear')}
        destructive
        onConfirm={() => {
          setConfirmClear(false);
          clearCart();
        }}
      />
      ) : null}
      {pendingBranch !== null ? (
      <ConfirmDialog
        open={pendingBranch !== null}
        onOpenChange={(open) => (open ? undefined : setPendingBranch(null))}
        title={t('header.switchTitle')}
        description={t('header.switchDescription')}
        confirmLabel={t('header.switchConfirm')}
        destructive
        loading={till.switchingBranch}
        onConfirm={() => (pendingBranch ? changeBranch(pendingBranch) : undefined)}
      />
      ) : null}
      {pendingReduce !== null ? (
      <ConfirmDialog
        open={pendingReduce !== null}
        onOpenChange={(open) => (open ? undefined : setPendingReduce(null))}
        title={t('cart.reduceTitle')}
        description={pendingReduce ? problemText({ problem: 'wholePackagesReduce', values: { max: pendingReduce.max, product: pendingReduce.product } }) : ''}
        confirmLabel={t('cart.reduceConfirm', { count: pendingReduce?.max ?? 0 })}
        onConfirm={() => {
          if (pendingReduce) apply(switchUnitMode(lines, pendingReduce.productId, 'W', { reduceToMax: true }));
          setPendingReduce(null);
        }}
      />
      ) : null}
        {mpesaOpen ? (
          <MpesaRequestDialog
            open
            onOpenChange={(open) => {
              if (!open) {
                setMpesaOpen(false);
                focusSearch();
              }
            }}
            sale={saleRequest([{ method: till.payments[0]?.method ?? 'MPESA', amountCents: figures.totalCents, reference: null }])}
            totalCents={figures.totalCents}
            currencySymbol={symbol}
            defaultPhone={client?.phone ?? null}
            onPaid={(sale) => {
              setMpesaOpen(false);
              afterSale(sale);
            }}
            onRefused={(error) => {
              setMpesaOpen(false);
              showRefusal(error);
            }}
          />
        ) : null}
        {receipt ? (
          <ReceiptDialog
            sale={receipt}
            open={receiptOpen}
            onOpenChange={(open) => {
              setReceiptOpen(open);
              if (!open) {
                till.endJustCompleted();
                focusSearch();
              }
            }}
            business={business}
            printOnOpen={settings.printReceiptByDefault}
            receiptFormat={settings.receiptFormat}
          />
        ) : null}
        {pendingDda && client?.id ? (
          <DdaPrescriptionDialog
            open
            productName={pendingDda.name}
            clientId={client.id}
            onConfirm={(prescription) => {
              const item = pendingDda;
              setPendingDda(null);
              addItem(item, prescription);
            }}
            onCancel={() => {
              setPendingDda(null);
              focusSearch();
            }}
          />
        ) : null}
        {refillFor ? (
          <RefillReminderDialog
            open
            productName={lines.find((l) => l.productId === refillFor)?.name ?? ''}
            clientId={client?.id ?? null}
            initialDays={lines.find((l) => l.productId === refillFor)?.refillDays}
            hasReminder={lines.find((l) => l.productId === refillFor)?.needsRefill ?? false}
            saleDate={till.saleDate}
            onConfirm={(days) => {
              setLines(updateLine(lines, refillFor, { needsRefill: true, refillDays: days }));
              setRefillFor(null);
            }}
            onRemove={() => {
              setLines(updateLine(lines, refillFor, { needsRefill: false }));
              setRefillFor(null);
            }}
            onCancel={() => setRefillFor(null)}
          />
        ) : null}
        {expenseOpen && branchId ? <RecordExpenseDialog open={expenseOpen} onOpenChange={setExpenseOpen} branchId={branchId} /> : null}
        {suspendOpen ? (
          <SuspendSaleDialog
            open={suspendOpen}
            onOpenChange={setSuspendOpen}
            request={{
              branchId: branchId ?? undefined,
              clientId: client?.id ?? null,
              lines: saleLinesOf(lines, { prices: mayOverridePrice ? 'overridden' : 'all' }),
              discount: discountOf(till.discount),
              expectedTotalCents: figures.totalCents,
              // Suspending a resumed sale again releases and closes the earlier suspension in the same transaction.
              ...(resumed ? { replacesSuspendedSaleId: resumed.sale.id } : {}),
            }}
            totalCents={figures.totalCents}
            clientName={client?.name ?? ''}
            items={lines.map((l) => ({ name: l.name, quantity: l.quantity }))}
            onSuspended={() => {
              till.reset(false);
              setResumed(null);
              focusSearch();
            }}
          />
        ) : null}
        {cameraOpen ? (
          <CameraScanDialog
            open={cameraOpen}
            onOpenChange={(open) => {
              setCameraOpen(open);
              if (!open) focusSearch();
            }}
            onCode={(code) => {
              setCameraOpen(false);
              if (!onCode(code)) toast.error(t('search.codeUnknown', { code }));
              focusSearch();
            }}
          />
        ) : null}
        {reprintOpen ? (
          <ReprintDialog
            open={reprintOpen}
            initialId={receiptParam}
            onOpenChange={(open) => {
              setReprintOpen(open);
              if (!open) {
                if (receiptParam) setSearchParams({}, { replace: true });
                focusSearch();
              }
            }}
            business={business}
            receiptFormat={settings.receiptFormat}
          />
        ) : null}
      </Suspense>
    </div>
  );
}

/** The keyboard shortcuts of the till (also in the user manual). */
export const TILL_SHORTCUTS = [
  ['F2', 'shortcuts.search'],
  ['F4', 'shortcuts.customer'],
  ['Ctrl+Q', 'shortcuts.quantity'],
  ['F8', 'shortcuts.pay'],
  ['F9', 'shortcuts.complete'],
  ['F10', 'shortcuts.suspend'],
  ['Ctrl+Delete', 'shortcuts.clear'],
  ['↑ ↓ Enter', 'shortcuts.pick'],
  ['Esc', 'shortcuts.escape'],
] as const;

function ShortcutsHelp() {
  const { t } = useTranslation('pos');
  const [open, setOpen] = useState(false);
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpen(false);
    };
    const onClick = (event: MouseEvent) => {
      if (panel.current && !panel.current.contains(event.target as Node)) setOpen(false);
    };
    window.addEventListener('keydown', onKey);
    window.addEventListener('mousedown', onClick);
    return () => {
      window.removeEventListener('keydown', onKey);
      window.removeEventListener('mousedown', onClick);
    };
  }, [open]);
  return (
    <div className="relative" ref={panel}>
      <button
        type="button"
        aria-expanded={open}
        aria-controls="pos-shortcuts"
        onClick={() => setOpen(!open)}
        className="inline-flex h-9 items-center gap-1.5 rounded-md px-2 text-sm font-medium text-white/90 hover:bg-white/10"
      >
        <Keyboard className="size-4" aria-hidden="true" />
        <span className="hidden lg:inline">{t('shortcuts.title')}</span>
        <span className="sr-only lg:hidden">{t('shortcuts.title')}</span>
      </button>
      {open ? (
        <div id="pos-shortcuts" role="region" aria-label={t('shortcuts.title')} className="absolute right-0 z-50 mt-1 w-72 max-w-[calc(100vw-1.5rem)] rounded-md border border-slate-200 bg-white p-3 text-slate-900 shadow-lg">
          <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
            {TILL_SHORTCUTS.map(([key, label]) => (
              <div key={key} className="contents">
                <dt>
                  <kbd className="rounded border border-slate-300 bg-slate-50 px-1.5 py-0.5 font-mono text-xs">{key}</kbd>
                </dt>
                <dd>{t(label)}</dd>
              </div>
            ))}
          </dl>
          <p className="mt-2 text-xs text-slate-500">{t('shortcuts.scanner')}</p>
        </div>
      ) : null}
    </div>
  );
}
