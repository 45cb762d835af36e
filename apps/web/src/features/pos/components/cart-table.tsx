import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { AlertTriangle, BellRing, Minus, Plus, Trash2 } from 'lucide-react';
import { marginPercent, marginWarning } from '@pharmapoint/domain/margins';
import { formatMoney as formatAmount, parseMoneyToCents } from '@pharmapoint/domain/money';
import type { CartLineFigures, UnitMode } from '@pharmapoint/domain/sales';
import { availableUnits, isTillLineLowMargin, lineUnits, tillLineMinimumCents, type TillLine } from '@pharmapoint/domain/till-cart';
import { Badge } from '@/components/ui/badge';
import { cn } from '@/lib/cn';
import { formatMoney } from '@/lib/format';
import { useMediaQuery } from '@/features/pos/hooks/use-media-query';

export interface CartTableProps {
  lines: readonly TillLine[];
  figures: readonly CartLineFigures[];
  currencySymbol: string;
  disabled: boolean;
  mayOverridePrice: boolean;
  /** Show the Low Margin flag and the minimum price (settings.showMarginWarnings / warnOnLowMargins). */
  showMarginWarnings: boolean;
  /** Points below the minimum margin before the margin warning shows (settings.marginTolerance, 5). */
  marginTolerance?: number;
  onUnits: (productId: string, units: number) => void;
  onPrice: (productId: string, cents: number) => void;
  onMode: (productId: string, mode: UnitMode) => void;
  onRemove: (productId: string) => void;
  onRefill?: (productId: string) => void;
  /** The id of the line whose quantity box should take focus (Ctrl+Q). */
  focusQuantityOf?: string | null;
}

/** A number box that commits on blur or Enter and goes back to the line's value when refused. */
function DraftInput({
  value,
  onCommit,
  label,
  disabled,
  inputMode,
  className,
  id,
}: {
  value: string;
  onCommit: (text: string) => void;
  label: string;
  disabled: boolean;
  inputMode: 'numeric' | 'decimal';
  className?: string;
  id?: string;
}) {
  const [draft, setDraft] = useState(value);
  useEffect(() => setDraft(value), [value]);
  const commit = () => {
    if (draft !== value) onCommit(draft);
    setDraft(value);
  };
  return (
    <input
      id={id}
      aria-label={label}
      inputMode={inputMode}
      disabled={disabled}
      value={draft}
      onChange={(event) => setDraft(event.target.value)}
      onBlur={commit}
      onKeyDown={(event) => {
        if (event.key === 'Enter') {
          event.preventDefault();
          commit();
        } else if (event.key === 'Escape') {
          setDraft(value);
        }
      }}
      onFocus={(event) => event.target.select()}
      className={cn(
        'h-9 rounded-md border border-slate-300 bg-white px-2 text-right text-sm tabular-nums focus:border-primary focus:outline-none focus:ring-2 focus:ring-primary/30 disabled:bg-slate-100',
        className,
      )}
    />
  );
}

/**
 * The cart: a table on a wide screen, a list of cards on a phone (nothing scrolls sideways at 360 px). Each line has
 * its quantity (units of its mode) with − and +, the P/W switch when the product comes in packages, its price (an
 * input for users who may override prices), the Low Margin flag, a stock warning, the refill reminder and remove.
 */
export function CartTable(props: CartTableProps) {
  const { t } = useTranslation('pos');
  const { lines, figures, currencySymbol } = props;
  // One of the two layouts at a time (the same controls twice would confuse screen readers and tests).
  const wide = useMediaQuery('(min-width: 768px)', true);
  if (lines.length === 0) {
    return (
      <div className="rounded-lg border border-dashed border-slate-300 bg-white p-8 text-center text-sm text-slate-500" role="status">
        {t('cart.empty')}
      </div>
    );
  }
  if (wide) return (
      <table className="w-full table-fixed border-collapse overflow-hidden rounded-lg bg-white text-sm shadow-sm">
        <caption className="sr-only">{t('cart.caption')}</caption>
        <thead className="bg-slate-50 text-left text-xs uppercase tracking-wide text-slate-500">
          <tr>
            <th scope="col" className="px-3 py-2">{t('cart.product')}</th>
            <th scope="col" className="w-20 px-2 py-2">{t('cart.unit')}</th>
            <th scope="col" className="w-40 px-2 py-2">{t('cart.quantity')}</th>
            <th scope="col" className="w-32 px-2 py-2 text-right">{t('cart.price')}</th>
            <th scope="col" className="w-32 px-2 py-2 text-right">{t('cart.total')}</th>
            <th scope="col" className="w-24 px-2 py-2"><span className="sr-only">{t('cart.actions')}</span></th>
          </tr>
        </thead>
        <tbody>
          {lines.map((line, i) => (
            <tr key={line.productId} className="border-t border-slate-100 align-middle">
              <th scope="row" className="px-3 py-2 text-left font-normal">
                <LineName line={line} {...props} />
              </th>
              <td className="px-2 py-2"><ModeSwitch line={line} {...props} /></td>
              <td className="px-2 py-2"><QuantityControl line={line} {...props} /></td>
              <td className="px-2 py-2 text-right"><PriceControl line={line} {...props} /></td>
              <td className="px-2 py-2 text-right font-semibold tabular-nums">{formatMoney(figures[i]?.grossCents ?? 0, currencySymbol)}</td>
              <td className="px-2 py-2"><LineActions line={line} {...props} /></td>
            </tr>
          ))}
        </tbody>
      </table>
  );
  return (
      <ul className="space-y-2" aria-label={t('cart.caption')}>
        {lines.map((line, i) => (
          <li key={line.productId} className="rounded-lg bg-white p-3 shadow-sm">
            <div className="flex items-start gap-2">
              <div className="min-w-0 flex-1"><LineName line={line} {...props} /></div>
              <p className="shrink-0 font-semibold tabular-nums">{formatMoney(figures[i]?.grossCents ?? 0, currencySymbol)}</p>
            </div>
            <div className="mt-2 flex flex-wrap items-center gap-2">
              <QuantityControl line={line} {...props} compact />
              <ModeSwitch line={line} {...props} />
              <PriceControl line={line} {...props} />
              <div className="ml-auto"><LineActions line={line} {...props} /></div>
            </div>
          </li>
        ))}
      </ul>
  );
}

type LineProps = CartTableProps & { line: TillLine; compact?: boolean };

function LineName({ line, showMarginWarnings, currencySymbol, marginTolerance }: LineProps) {
  const { t } = useTranslation('pos');
  const low = isTillLineLowMargin(line);
  const margin = marginPercent(Math.round(line.unitPriceCents / (line.unitMode === 'W' ? Math.max(1, line.packageSize) : 1)), line.costCents);
  const minMargin = line.minMarginBasisPoints / 100;
  const warnMargin = showMarginWarnings && !low && marginWarning(margin, minMargin, marginTolerance);
  const over = line.quantity > line.available;
  const flags: ReactNode[] = [];
  if (line.isDda) flags.push(<Badge key="dda" tone="info">{t('cart.dda')}</Badge>);
  if (low && showMarginWarnings) flags.push(<Badge key="low" tone="danger">{t('cart.lowMargin')}</Badge>);
  if (warnMargin) flags.push(<Badge key="margin" tone="warning">{t('cart.marginWarning', { margin: margin ?? 0, min: minMargin })}</Badge>);
  if (line.needsRefill) flags.push(<Badge key="refill" tone="primary">{t('cart.refillIn', { count: line.refillDays })}</Badge>);
  return (
    <div className="min-w-0">
      <p className="truncate font-medium text-slate-900">{line.name}</p>
      <p className="truncate text-xs text-slate-500">
        {[line.sku, t('cart.inStock', { count: availableUnits(line), unit: line.unitMode === 'W' ? t('cart.packages') : t('cart.pieces') })].filter(Boolean).join(' · ')}
      </p>
      {flags.length ? <div className="mt-1 flex flex-wrap gap-1">{flags}</div> : null}
      {low && showMarginWarnings ? (
        <p className="mt-1 text-xs text-red-700">{t('cart.minimumPrice', { price: formatMoney(tillLineMinimumCents(line), currencySymbol) })}</p>
      ) : null}
      {over ? (
        <p className="mt-1 flex items-center gap-1 text-xs font-medium text-amber-800" role="alert">
          <AlertTriangle className="size-3.5" aria-hidden="true" />
          {t('cart.overStock', { count: availableUnits(line) })}
        </p>
      ) : null}
    </div>
  );
}

function ModeSwitch({ line, disabled, onMode }: LineProps) {
  const { t } = useTranslation('pos');
  if (line.packageSize <= 1) return <span className="text-xs text-slate-500">{t('cart.pieceShort')}</span>;
  return (
    <div role="group" aria-label={t('cart.unitOf', { product: line.name })} className="inline-flex overflow-hidden rounded-md border border-slate-300">
      {(['P', 'W'] as const).map((mode) => (
        <button
          key={mode}
          type="button"
          disabled={disabled}
          aria-pressed={line.unitMode === mode}
          title={mode === 'P' ? t('cart.modeP') : t('cart.modeW', { size: line.packageSize, type: line.packageType })}
          aria-label={mode === 'P' ? t('cart.modeP') : t('cart.modeW', { size: line.packageSize, type: line.packageType })}
          onClick={() => onMode(line.productId, mode)}
          className={cn('h-8 w-8 text-xs font-semibold', line.unitMode === mode ? 'bg-primary text-primary-foreground' : 'bg-white text-slate-700 hover:bg-slate-50')}
        >
          {mode}
        </button>
      ))}
    </div>
  );
}

function QuantityControl({ line, disabled, onUnits, focusQuantityOf }: LineProps) {
  const { t } = useTranslation('pos');
  const units = lineUnits(line);
  return (
    <div className="flex items-center gap-1">
      <button
        type="button"
        disabled={disabled || units <= 1}
        onClick={() => onUnits(line.productId, units - 1)}
        aria-label={t('cart.decrease', { product: line.name })}
        className="flex size-9 items-center justify-center rounded-md border border-slate-300 bg-white hover:bg-slate-50 disabled:opacity-40"
      >
        <Minus className="size-4" aria-hidden="true" />
      </button>
      <DraftInput
        id={focusQuantityOf === line.productId ? 'pos-focus-quantity' : undefined}
        label={t('cart.quantityOf', { product: line.name })}
        value={String(units)}
        inputMode="numeric"
        disabled={disabled}
        className="w-14"
        onCommit={(text) => onUnits(line.productId, Number(text))}
      />
      <button
        type="button"
        disabled={disabled}
        onClick={() => onUnits(line.productId, units + 1)}
        aria-label={t('cart.increase', { product: line.name })}
        className="flex size-9 items-center justify-center rounded-md border border-slate-300 bg-white hover:bg-slate-50 disabled:opacity-40"
      >
        <Plus className="size-4" aria-hidden="true" />
      </button>
    </div>
  );
}

function PriceControl({ line, disabled, mayOverridePrice, onPrice, currencySymbol }: LineProps) {
  const { t } = useTranslation('pos');
  if (!mayOverridePrice) return <span className="text-sm tabular-nums">{formatMoney(line.unitPriceCents, currencySymbol)}</span>;
  return (
    <DraftInput
      label={t('cart.priceOf', { product: line.name })}
      value={formatAmount(line.unitPriceCents, { currencySymbol: '', thousandsSeparator: '' }).trim()}
      inputMode="decimal"
      disabled={disabled}
      className="w-28"
      onCommit={(text) => {
        const cents = parseMoneyToCents(text);
        onPrice(line.productId, cents === null ? Number.NaN : cents);
      }}
    />
  );
}

function LineActions({ line, disabled, onRemove, onRefill }: LineProps) {
  const { t } = useTranslation('pos');
  return (
    <div className="flex justify-end gap-1">
      {onRefill ? (
        <button
          type="button"
          disabled={disabled}
          onClick={() => onRefill(line.productId)}
          aria-label={t('cart.refill', { product: line.name })}
          title={t('cart.refill', { product: line.name })}
          className={cn('flex size-9 items-center justify-center rounded-md hover:bg-slate-100 disabled:opacity-40', line.needsRefill ? 'text-primary' : 'text-slate-500')}
        >
          <BellRing className="size-4" aria-hidden="true" />
        </button>
      ) : null}
      <button
        type="button"
        disabled={disabled}
        onClick={() => onRemove(line.productId)}
        aria-label={t('cart.remove', { product: line.name })}
        title={t('cart.remove', { product: line.name })}
        className="flex size-9 items-center justify-center rounded-md text-red-600 hover:bg-red-50 disabled:opacity-40"
      >
        <Trash2 className="size-4" aria-hidden="true" />
      </button>
    </div>
  );
}
