import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { computeCart } from '@pharmapoint/domain/sales';
import { cartInputOf, lineFromCatalogue, type TillLine } from '@pharmapoint/domain/till-cart';
import { CartTable } from '@/features/pos/components/cart-table';

const line = (overrides: Partial<TillLine> = {}): TillLine => ({
  ...lineFromCatalogue({
    id: '00000000-0000-4000-8000-000000000001', name: 'Panadol 500mg', sku: 'PAN-500', barcodes: [], category: null, packageSize: 10, packageType: 'box',
    isDda: false, isActive: true, isAvailable: true, taxApplied: false, taxRateBasisPoints: null, priceCents: 1000, costCents: 600,
    minMarginBasisPoints: 2200, minimumPriceCents: null, quantity: 25, reservedQuantity: 0, lowStockThreshold: 5, nearestExpiry: null,
  }),
  ...overrides,
});

function renderCart(lines: TillLine[], extra: Partial<Parameters<typeof CartTable>[0]> = {}) {
  const handlers = { onUnits: vi.fn(), onPrice: vi.fn(), onMode: vi.fn(), onRemove: vi.fn(), onRefill: vi.fn() };
  render(
    <CartTable
      lines={lines}
      figures={computeCart(cartInputOf(lines), null).lines}
      currencySymbol="KSh"
      disabled={false}
      mayOverridePrice={false}
      showMarginWarnings
      {...handlers}
      {...extra}
    />,
  );
  return handlers;
}

describe('the till cart', () => {
  it('edits the quantity on Enter, and switches P/W', async () => {
    const user = userEvent.setup();
    const handlers = renderCart([line({ quantity: 2 })]);
    const box = screen.getByLabelText('Quantity of Panadol 500mg');
    await user.clear(box);
    await user.type(box, '5{Enter}');
    expect(handlers.onUnits).toHaveBeenCalledWith('00000000-0000-4000-8000-000000000001', 5);
    await user.click(screen.getByRole('button', { name: 'Whole packages (W): 10 per box' }));
    expect(handlers.onMode).toHaveBeenCalledWith('00000000-0000-4000-8000-000000000001', 'W');
    await user.click(screen.getByRole('button', { name: 'One more Panadol 500mg' }));
    expect(handlers.onUnits).toHaveBeenLastCalledWith('00000000-0000-4000-8000-000000000001', 3);
  });

  it('shows the price as text without the override right, and flags Low Margin and a line over its stock', () => {
    renderCart([line({ unitPriceCents: 700, quantity: 30 })], { mayOverridePrice: false });
    expect(screen.queryByLabelText('Price of Panadol 500mg')).toBeNull();
    expect(screen.getByText('Low Margin')).toBeTruthy();
    expect(screen.getByText('Minimum allowed price: KSh 7.70')).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toContain('Only 25 available now');
  });

  it('takes a typed price from a user who may override prices', async () => {
    const user = userEvent.setup();
    const handlers = renderCart([line()], { mayOverridePrice: true });
    const price = screen.getByLabelText('Price of Panadol 500mg');
    expect((price as HTMLInputElement).value).toBe('10.00');
    await user.clear(price);
    await user.type(price, '12.50{Enter}');
    expect(handlers.onPrice).toHaveBeenCalledWith('00000000-0000-4000-8000-000000000001', 1250);
  });
});
