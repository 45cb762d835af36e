import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import PurchasePage from '@/features/public/routes/purchase-page';
import { renderScreen, server } from '@/test/render-screen';

/** The purchase screen's rules in the browser: the form's messages, the email check and the M-Pesa phone rules. */

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  localStorage.clear();
});
afterAll(() => server.close());

const health = (kopokopo: { configured: boolean; status: 'online' | 'offline' }) =>
  http.get('/health', () => HttpResponse.json({ status: 'ok', version: '0.1.0', database: { reachable: true }, kopokopo: { ...kopokopo, simulator: false } }));
const emailCheck = (available: boolean) => http.post('/api/payments/email-check', () => HttpResponse.json({ available }));

async function fillForm(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByLabelText(/Pharmacy name/), 'Uzima Chemists');
  await user.type(screen.getByLabelText(/Owner name/), 'Amina');
  await user.type(screen.getByLabelText(/^Email/), 'amina@example.com');
  await user.type(screen.getByLabelText(/^Phone number/), '0712345678');
  await user.type(screen.getByLabelText(/^Location/), 'Nairobi');
}

describe('purchase', () => {
  it('shows each required field’s message and keeps what was typed on this device', async () => {
    const user = userEvent.setup();
    renderScreen(<PurchasePage />, { path: '/purchase', pattern: '/purchase' });
    await user.click(await screen.findByRole('button', { name: 'Continue to Payment' }));
    for (const message of ['Pharmacy name is required', 'Owner name is required', 'Email is required', 'Phone number is required', 'Location is required']) {
      expect(await screen.findByText(message)).toBeTruthy();
    }
    await user.type(screen.getByLabelText(/^Email/), 'amina@example');
    await user.click(screen.getByRole('button', { name: 'Continue to Payment' }));
    expect(await screen.findByText('Invalid email format')).toBeTruthy();
    expect(JSON.parse(localStorage.getItem('pharmapoint_registration') ?? '{}').ownerEmail).toBe('amina@example');
  });

  it('blocks a registered email with Go to Login and Use Different Email', async () => {
    server.use(emailCheck(false));
    const user = userEvent.setup();
    renderScreen(<PurchasePage />, { path: '/purchase', pattern: '/purchase' });
    await fillForm(user);
    await user.click(screen.getByRole('button', { name: 'Continue to Payment' }));
    expect(await screen.findByText('Email Already Registered')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to Login' }).getAttribute('href')).toBe('/login');
    await user.click(screen.getByRole('button', { name: 'Use Different Email' }));
    expect((screen.getByLabelText(/^Email/) as HTMLInputElement).value).toBe('');
  });

  it('formats the M-Pesa number, enables Pay only for a valid number while the service is online, and says when it is misconfigured', async () => {
    server.use(emailCheck(true), health({ configured: true, status: 'online' }));
    const user = userEvent.setup();
    renderScreen(<PurchasePage />, { path: '/purchase', pattern: '/purchase' });
    await fillForm(user);
    await user.click(screen.getByRole('button', { name: 'Continue to Payment' }));
    const phone = (await screen.findByLabelText(/M-Pesa phone number/)) as HTMLInputElement;
    expect(phone.value).toBe('254 712 345 678');
    expect(await screen.findByText('Payment service online')).toBeTruthy();
    const pay = screen.getByRole('button', { name: 'Pay KSh 30,000.00' });
    expect(pay.hasAttribute('disabled')).toBe(false);
    await user.clear(phone);
    await user.type(phone, '712 345 67');
    expect(phone.value).toBe('254 712 345 67');
    expect(pay.hasAttribute('disabled')).toBe(true);
    await user.clear(phone);
    await user.type(phone, '0812345678');
    expect(pay.hasAttribute('disabled')).toBe(true);
    await user.clear(phone);
    await user.type(phone, '1123456789999');
    expect(phone.value).toBe('254 112 345 678');
  });

  it('says the service is not properly configured', async () => {
    server.use(emailCheck(true), health({ configured: false, status: 'offline' }));
    const user = userEvent.setup();
    renderScreen(<PurchasePage />, { path: '/purchase', pattern: '/purchase' });
    await fillForm(user);
    await user.click(screen.getByRole('button', { name: 'Continue to Payment' }));
    expect(await screen.findByText('Payment service is not properly configured. Please contact support.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Pay KSh 30,000.00' }).hasAttribute('disabled')).toBe(true);
  });

  it('sends one Idempotency-Key per purchase attempt: the same on Try Again after a lost answer, a new one once a payment started', async () => {
    const keys: string[] = [];
    const transactionId = '8a0f3c52-2b1e-4c1d-9f7a-1d2e3f405162';
    server.use(
      emailCheck(true),
      health({ configured: true, status: 'online' }),
      http.post('/api/payments/kopokopo/stk-push', ({ request }) => {
        keys.push(request.headers.get('idempotency-key') ?? '');
        // The first request's answer is lost (the connection dropped); the server may have started the payment.
        if (keys.length === 1) return HttpResponse.error();
        return HttpResponse.json({ success: true, transactionId, setupToken: 'secret', amount: 30000, message: 'Payment request sent.' });
      }),
      http.get('/api/payments/kopokopo/status/:id', () =>
        HttpResponse.json({
          success: true,
          transaction: { id: transactionId, status: 'pending', amount: 30000, phoneNumber: '*********678', mpesaReceiptNumber: null, failureReason: null, plan: 'complete', pharmacyId: null, completedAt: null },
        }),
      ),
    );
    const user = userEvent.setup();
    renderScreen(<PurchasePage />, { path: '/purchase', pattern: '/purchase' });
    await fillForm(user);
    await user.click(screen.getByRole('button', { name: 'Continue to Payment' }));
    expect(await screen.findByText('Payment service online')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Pay KSh 30,000.00' }));
    expect(await screen.findByText('Payment Failed')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Try Again' }));
    await user.click(await screen.findByRole('button', { name: 'Pay KSh 30,000.00' }));
    expect(await screen.findByText('Check your phone')).toBeTruthy();
    // Cancel, then Pay: a new attempt (the first one's payment exists), so a new key.
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await user.click(await screen.findByRole('button', { name: 'Pay KSh 30,000.00' }));
    expect(await screen.findByText('Check your phone')).toBeTruthy();
    expect(keys).toHaveLength(3);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[0]);
    expect(keys[2]).toMatch(/^[0-9a-f-]{36}$/);
  });
});
