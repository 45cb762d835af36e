import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { computeCart, tillPaymentMethods } from '@pharmapoint/domain/sales';
import { PaymentBar } from '@/features/pos/components/payment-bar';
import { newPaymentRow, type PaymentRow } from '@/features/pos/hooks/use-till';

// One line of 2 x 101.50 = 203.00.
const figures = computeCart([{ quantity: 2, unitMode: 'P', packageSize: 1, unitPriceCents: 10_150, taxApplied: false }], null, { currency: 'KES' });

function Harness({ onComplete = () => undefined, error = null }: { onComplete?: () => void; error?: string | null }) {
  const [payments, setPayments] = useState<PaymentRow[]>([newPaymentRow('Cash')]);
  return (
    <PaymentBar
      figures={figures}
      itemCount={1}
      methods={tillPaymentMethods(['M-Pesa', 'Insurance'])}
      payments={payments}
      onPayments={setPayments}
      discount={null}
      onDiscount={() => undefined}
      mayDiscount={false}
      currencySymbol="KSh"
      disabled={false}
      completing={false}
      error={error}
      onComplete={onComplete}
      expanded
      onExpanded={() => undefined}
    />
  );
}

describe('the payment bar', () => {
  it('offers quick cash, shows the change and the status', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    const bar = screen.getByRole('region', { name: 'Payment' });
    expect(within(bar).getByTestId('pos-total').textContent).toBe('KSh 203.00');
    expect(within(bar).getByText('Unpaid')).toBeTruthy();
    // 203, then the next 50, 100 and 500 (1000 is a fifth).
    for (const amount of ['KSh 203.00', 'KSh 250.00', 'KSh 300.00', 'KSh 500.00']) expect(within(bar).getByRole('button', { name: amount })).toBeTruthy();
    expect(within(bar).queryByRole('button', { name: 'KSh 1,000.00' })).toBeNull();
    await user.click(within(bar).getByRole('button', { name: 'KSh 250.00' }));
    expect(within(bar).getByTestId('pos-change').textContent).toBe('KSh 47.00');
    expect(within(bar).getByText('Paid')).toBeTruthy();
    await user.clear(within(bar).getByLabelText('Amount paid'));
    await user.type(within(bar).getByLabelText('Amount paid'), '101.50');
    expect(within(bar).getByText('Partial (50% paid)')).toBeTruthy();
  });

  it('takes the exact amount and a reference for M-Pesa, and splits the tender', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    const bar = screen.getByRole('region', { name: 'Payment' });
    await user.type(within(bar).getByLabelText('Amount paid'), '100');
    await user.click(within(bar).getByRole('button', { name: 'Split payment' }));
    const second = within(bar).getByLabelText('Payment method 2') as HTMLSelectElement;
    expect(second.value).toBe('MPESA');
    const amounts = within(bar).getAllByLabelText('Amount paid') as HTMLInputElement[];
    expect(amounts[1]!.value).toBe('103.00');
    await user.type(within(bar).getByLabelText('M-Pesa code'), 'qwe123');
    expect((within(bar).getByLabelText('M-Pesa code') as HTMLInputElement).value).toBe('QWE123');
    expect(within(bar).getByText('Paid')).toBeTruthy();
  });

  it('shows the last error and completes on the button', async () => {
    const user = userEvent.setup();
    const onComplete = vi.fn();
    render(<Harness onComplete={onComplete} error="Please enter amount paid" />);
    expect(screen.getByRole('alert').textContent).toBe('Please enter amount paid');
    await user.click(screen.getByRole('button', { name: 'Complete Sale (F9)' }));
    expect(onComplete).toHaveBeenCalled();
  });
});
