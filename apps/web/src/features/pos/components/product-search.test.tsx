import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { PosCatalogueItem } from '@pharmapoint/domain/pos-catalogue';
import { ProductSearch, type SearchResult } from '@/features/pos/components/product-search';

function item(id: string, name: string, quantity: number): PosCatalogueItem {
  return {
    id, name, sku: `SKU-${id}`, barcodes: [`600${id}`], category: 'Analgesics', packageSize: 1, packageType: 'pieces', isDda: false, isActive: true,
    isAvailable: true, taxApplied: false, taxRateBasisPoints: null, priceCents: 1000, costCents: 500, minMarginBasisPoints: 2200, minimumPriceCents: null,
    quantity, reservedQuantity: 0, lowStockThreshold: 5, nearestExpiry: '2028-06-30',
  };
}

const catalogue = [item('1', 'Panadol 500mg', 40), item('2', 'Panadol Extra', 3), item('3', 'Panadol Night', 0)];
const search = (query: string): SearchResult[] =>
  catalogue
    .filter((i) => i.name.toLowerCase().includes(query.toLowerCase()))
    .map((i) => ({ item: i, selectable: i.quantity > 0, reason: i.quantity > 0 ? null : 'out-of-stock' }));

function renderSearch(onCode: (code: string) => boolean = () => false) {
  const onPick = vi.fn();
  const onUnknownCode = vi.fn();
  render(<ProductSearch search={search} onPick={onPick} onCode={onCode} onUnknownCode={onUnknownCode} status="ready" error={null} currencySymbol="KSh" />);
  return { onPick, onUnknownCode, box: screen.getByRole('combobox', { name: 'Search products' }) };
}

describe('the till search', () => {
  it('takes the focus, lists results with stock, and picks with the arrows and Enter', async () => {
    const user = userEvent.setup();
    const { onPick, box } = renderSearch();
    expect(document.activeElement).toBe(box);
    await user.type(box, 'panadol');
    const options = screen.getAllByRole('option');
    expect(options).toHaveLength(3);
    expect(options[1]!.textContent).toContain('3 in stock');
    expect(options[2]!.textContent).toContain('Out of stock');
    await user.keyboard('{ArrowDown}{Enter}');
    expect(onPick).toHaveBeenCalledWith(catalogue[1]);
    expect((box as HTMLInputElement).value).toBe('');
  });

  it('does not pick a product that cannot be sold', async () => {
    // A person types slower than a scanner.
    const user = userEvent.setup({ delay: 60 });
    const { onPick, box } = renderSearch();
    await user.type(box, 'night');
    await user.keyboard('{Enter}');
    expect(onPick).not.toHaveBeenCalled();
    expect(screen.getByRole('option').getAttribute('aria-disabled')).toBe('true');
  });

  it('adds an exact code on Enter, and says so when a scanned code is no product', () => {
    const onCode = vi.fn((code: string) => code === '6001');
    const { onPick, onUnknownCode, box } = renderSearch(onCode);
    // A scanner: keys a few milliseconds apart, then Enter.
    // A keydown at a given time (jsdom stamps events with the real clock; the scanner test must not depend on it).
    const keyAt = (key: string, timeStamp: number) => {
      const event = new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true });
      Object.defineProperty(event, 'timeStamp', { value: timeStamp });
      fireEvent(box, event);
    };
    const scanCode = (code: string) => {
      let t = 1000;
      for (const ch of code) {
        keyAt(ch, (t += 5));
        fireEvent.change(box, { target: { value: ((box as HTMLInputElement).value ?? '') + ch } });
      }
      keyAt('Enter', t + 5);
    };
    scanCode('6001');
    expect(onCode).toHaveBeenCalledWith('6001');
    expect((box as HTMLInputElement).value).toBe('');
    scanCode('9999');
    expect(onCode).toHaveBeenLastCalledWith('9999');
    expect(onUnknownCode).toHaveBeenCalledWith('9999');
    expect(onPick).not.toHaveBeenCalled();
  });
});
