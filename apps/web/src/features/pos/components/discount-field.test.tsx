import { useEffect } from 'react';
import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { tillPaymentMethods } from '@pharmapoint/domain/sales';
import { lineFromCatalogue } from '@pharmapoint/domain/till-cart';
import { PaymentBar } from '@/features/pos/components/payment-bar';
import { useTill } from '@/features/pos/hooks/use-till';
import { errorText } from '@/lib/api';

// One line of 2 x 100.00 = 200.00, untaxed.
const line = lineFromCatalogue({
  id: '00000000-0000-4000-8000-000000000001', name: 'Panadol 500mg', sku: 'PAN-500', barcodes: [], category: null, packageSize: 1, packageType: 'box',
  isDda: false, isActive: true, isAvailable: true, taxApplied: false, taxRateBasisPoints: null, priceCents: 10_000, costCents: 2_000,
  minMarginBasisPoints: 2200, minimumPriceCents: null, quantity: 25, reservedQuantity: 0, lowStockThreshold: 5, nearestExpiry: null,
});

/** The till's state (useTill) and its payment bar, wired as the till page wires them, with settings.maxDiscount 10 %. */
function Till({ mayExceedMaxDiscount = false }: { mayExceedMaxDiscount?: boolean }) {
  const till = useTill({
    defaultMethod: 'Cash',
    today: '2026-01-15',
    settingsTaxRate: 16,
    currency: 'KES',
    discountRules: { maxDiscount: 10, mayDiscount: true, mayExceedMaxDiscount },
  });
  const { setLines } = till;
  useEffect(() => setLines([{ ...line, quantity: 2 }]), [setLines]);
  return (
    <PaymentBar
      figures={till.figures}
      itemCount={till.lines.length}
      methods={tillPaymentMethods(['M-Pesa'])}
      payments={till.payments}
      onPayments={till.setPayments}
      discount={till.discount}
      onDiscount={till.setDiscount}
      discountError={till.discountRefusal ? errorText(till.discountRefusal.code, undefined, till.discountRefusal.values) : null}
      mayDiscount
      currencySymbol="KSh"
      disabled={false}
      completing={false}
      error={null}
      onComplete={() => undefined}
      expanded
      onExpanded={() => undefined}
    />
  );
}

describe('the global discount at the till', () => {
  it.each(['15', '50'])('refuses a discount of %s percent where it is typed and keeps the total undiscounted', async (percent) => {
    const user = userEvent.setup();
    render(<Till />);
    const bar = screen.getByRole('region', { name: 'Payment' });
    const field = within(bar).getByLabelText('Discount');
    await user.type(field, percent);
    const message = 'The discount cannot be more than 10 % of the subtotal.';
    expect(within(bar).getByRole('alert').textContent).toBe(message);
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(field.getAttribute('aria-describedby') ?? '')?.textContent).toBe(message);
    // Never a total the server would refuse: the discount is not applied.
    expect(within(bar).getByTestId('pos-total').textContent).toBe('KSh 200.00');
  });

  it('applies a discount within the maximum at once, and drops the refusal when it is corrected', async () => {
    const user = userEvent.setup();
    render(<Till />);
    const bar = screen.getByRole('region', { name: 'Payment' });
    const field = within(bar).getByLabelText('Discount');
    await user.type(field, '15');
    expect(within(bar).getByRole('alert')).toBeTruthy();
    await user.clear(field);
    await user.type(field, '10');
    expect(within(bar).queryByRole('alert')).toBeNull();
    expect(field.getAttribute('aria-invalid')).toBeNull();
    expect(within(bar).getByTestId('pos-total').textContent).toBe('KSh 180.00');
  });

  it('lets a user who may exceed the maximum give 15 %', async () => {
    const user = userEvent.setup();
    render(<Till mayExceedMaxDiscount />);
    const bar = screen.getByRole('region', { name: 'Payment' });
    await user.type(within(bar).getByLabelText('Discount'), '15');
    expect(within(bar).queryByRole('alert')).toBeNull();
    expect(within(bar).getByTestId('pos-total').textContent).toBe('KSh 170.00');
  });
});
