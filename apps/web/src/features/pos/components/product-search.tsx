import { forwardRef, useId, useImperativeHandle, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ScanLine, Search } from 'lucide-react';
import type { PosCatalogueItem } from '@pharmapoint/domain/pos-catalogue';
import { Badge } from '@/components/ui/badge';
import { cn } from '@/lib/cn';
import { formatDate, formatMoney } from '@/lib/format';

/** One answer of the catalogue's search (features/pos/catalogue/use-branch-catalogue.ts). */
export interface SearchResult {
  item: PosCatalogueItem;
  selectable: boolean;
  reason: null | 'no-id' | 'no-price' | 'out-of-stock' | 'in-cart';
}

export interface ProductSearchHandle {
  focus(): void;
  clear(): void;
}

export interface ProductSearchProps {
  search: (query: string) => SearchResult[];
  /** A product picked from the list. */
  onPick: (item: PosCatalogueItem) => void;
  /** Enter on an exact barcode or SKU (typed or scanned): true when it was one (the box clears). */
  onCode: (code: string) => boolean;
  /** A scanned code that is no product's. */
  onUnknownCode?: (code: string) => void;
  onScanClick?: () => void;
  disabled?: boolean;
  status: 'loading' | 'ready' | 'error';
  error: string | null;
  currencySymbol: string;
}

/** Keystrokes closer together than this are a scanner, not a person (a scanner types a code in a few ms a key). */
const SCANNER_GAP_MS = 35;

/**
 * The product search of the till (seed 001 section 5): a combobox over the branch's catalogue in the browser — type,
 * arrows, Enter picks; Enter on an exact barcode or SKU (a USB scanner types it fast and presses Enter) adds it at
 * once. Results show price, stock (orange at 5 or fewer) and the nearest expiry.
 */
export const ProductSearch = forwardRef<ProductSearchHandle, ProductSearchProps>(function ProductSearch(
  { search, onPick, onCode, onUnknownCode, onScanClick, disabled, status, error, currencySymbol },
  ref,
) {
  const { t } = useTranslation('pos');
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  const keyTimes = useRef<number[]>([]);
  const listId = useId();
  useImperativeHandle(ref, () => ({
    focus: () => input.current?.focus(),
    clear: () => setQuery(''),
  }));

  const trimmed = query.trim();
  const results = useMemo(() => (trimmed === '' || status !== 'ready' ? [] : search(trimmed)), [trimmed, status, search]);
  const open = trimmed !== '' && status === 'ready';
  const activeIndex = Math.min(active, Math.max(0, results.length - 1));

  function pick(result: SearchResult | undefined) {
    if (!result || !result.selectable) return;
    onPick(result.item);
    setQuery('');
    setActive(0);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key.length === 1) keyTimes.current.push(event.timeStamp);
    // A scanner never sends arrows: a person moving through the results is choosing one, not scanning.
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') keyTimes.current = [];
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      setActive(Math.min(results.length - 1, activeIndex + 1));
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      setActive(Math.max(0, activeIndex - 1));
    } else if (event.key === 'Enter') {
      event.preventDefault();
      const times = keyTimes.current;
      keyTimes.current = [];
      const scanned = times.length >= 3 && times.every((time, i) => i === 0 || time - times[i - 1]! < SCANNER_GAP_MS);
      // An exact code wins (scanned or typed); a scanned code that is unknown is said so rather than searched.
      if (trimmed !== '' && onCode(trimmed)) {
        setQuery('');
        setActive(0);
        return;
      }
      if (scanned) {
        onUnknownCode?.(trimmed);
        setQuery('');
        return;
      }
      pick(results[activeIndex]);
    } else if (event.key === 'Escape' && query !== '') {
      event.preventDefault();
      event.stopPropagation();
      setQuery('');
    }
  }

  const reasonText = (reason: SearchResult['reason']) =>
    reason === 'in-cart' ? t('search.inCart') : reason === 'out-of-stock' ? t('search.outOfStock') : reason === 'no-price' ? t('search.noPrice') : t('search.unavailable');

  return (
    <div className="relative" data-catalogue={status}>
      <label htmlFor="pos-search" className="mb-1 block text-sm font-medium text-slate-700">
        {t('search.label')}
      </label>
      <div className="flex gap-2">
        <div className="relative flex-1">
          <Search className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-slate-400" aria-hidden="true" />
          <input
            ref={input}
            id="pos-search"
            type="search"
            role="combobox"
            aria-expanded={open}
            aria-controls={listId}
            aria-autocomplete="list"
            aria-activedescendant={open && results[activeIndex] ? `${listId}-${activeIndex}` : undefined}
            autoComplete="off"
            autoFocus
            disabled={disabled}
            value={query}
            placeholder={t('search.placeholder')}
            onChange={(event) => {
              setQuery(event.target.value);
              setActive(0);
              if (event.target.value === '') keyTimes.current = [];
            }}
            onKeyDown={onKeyDown}
            className="h-11 w-full rounded-md border border-slate-300 bg-white pl-9 pr-3 text-base focus:border-primary focus:outline-none focus:ring-2 focus:ring-primary/30 disabled:bg-slate-100"
          />
        </div>
        {onScanClick ? (
          <button
            type="button"
            onClick={onScanClick}
            disabled={disabled}
            aria-label={t('search.scan')}
            className="flex h-11 items-center gap-1 rounded-md border border-slate-300 bg-white px-3 text-sm font-medium text-slate-700 hover:bg-slate-50 disabled:opacity-50"
          >
            <ScanLine className="size-5" aria-hidden="true" />
            <span className="hidden sm:inline">{t('search.scanShort')}</span>
          </button>
        ) : null}
      </div>
      {status === 'loading' ? <p className="mt-1 text-xs text-slate-500" role="status">{t('search.loading')}</p> : null}
      {status === 'error' ? (
        <p className="mt-1 text-xs text-red-700" role="alert">
          {t('search.loadError', { message: error ?? '' })}
        </p>
      ) : null}
      <ul
        id={listId}
        role="listbox"
        aria-label={t('search.results')}
        hidden={!open}
        className="absolute inset-x-0 top-full z-40 mt-1 max-h-[60vh] overflow-y-auto rounded-md border border-slate-200 bg-white shadow-lg"
      >
        {open && results.length === 0 ? (
          <li role="option" aria-selected={false} aria-disabled="true" className="px-3 py-2 text-sm text-slate-500">
            {t('search.none', { query: trimmed })}
          </li>
        ) : null}
        {results.map((result, index) => {
          const { item } = result;
          const low = item.quantity > 0 && item.quantity <= 5;
          return (
            <li
              key={item.id || index}
              id={`${listId}-${index}`}
              role="option"
              aria-selected={index === activeIndex}
              aria-disabled={!result.selectable}
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => pick(result)}
              onMouseEnter={() => setActive(index)}
              className={cn(
                'flex cursor-pointer items-center gap-3 px-3 py-2 text-sm',
                index === activeIndex && 'bg-primary/10',
                !result.selectable && 'cursor-not-allowed opacity-60',
              )}
            >
              <div className="min-w-0 flex-1">
                <p className="truncate font-medium text-slate-900">{item.name}</p>
                <p className="truncate text-xs text-slate-500">
                  {[item.sku, item.category, item.nearestExpiry ? t('search.expires', { date: formatDate(item.nearestExpiry) }) : null].filter(Boolean).join(' · ')}
                </p>
              </div>
              <div className="shrink-0 text-right">
                <p className="font-semibold tabular-nums">{formatMoney(item.priceCents, currencySymbol)}</p>
                {result.selectable ? (
                  <Badge tone={low ? 'warning' : 'success'}>{t('search.inStock', { count: item.quantity })}</Badge>
                ) : (
                  <Badge tone="neutral">{reasonText(result.reason)}</Badge>
                )}
              </div>
            </li>
          );
        })}
      </ul>
    </div>
  );
});
