import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import ForgotPasswordPage from '@/features/auth/routes/forgot-password-page';
import VerifyEmailPage from '@/features/auth/routes/verify-email-page';
import { setSessionHint } from '@/lib/session-hint';
import { ownerMe, renderScreen, server } from '@/test/render-screen';

/**
 * Issue 8 item 11, the sign-in screens' small things: 'Resend verification email' only for a signed-in user (seed 002,
 * Email verification), and the forgot-password screen consistent with decision 0007 (an unknown email is told
 * 'No account found', so a known one is told plainly that the link was sent, never 'If an account exists...').
 */

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  setSessionHint(false);
});
afterAll(() => server.close());

const usedLink = () =>
  http.post('/api/auth/verify-email', () =>
    HttpResponse.json({ error: { code: 'VERIFY_LINK_USED', message: 'This link has expired or already been used.' } }, { status: 400 }),
  );

describe('the verification page', () => {
  it('offers no resend to a signed-out visitor: it asks them to sign in', async () => {
    setSessionHint(true);
    server.use(usedLink(), http.get('/api/me', () => HttpResponse.json({ error: { code: 'NOT_AUTHENTICATED', message: 'User not authenticated' } }, { status: 401 })));
    renderScreen(<VerifyEmailPage />, { path: '/verify-email?mode=verifyEmail&oobCode=used', pattern: '/verify-email' });
    expect(await screen.findByText('This link has expired or already been used.')).toBeTruthy();
    expect(await screen.findByText('Please sign in first to resend verification email.', { exact: false })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Resend Verification Email' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/login');
  });

  it('offers the resend to a signed-in user and sends it', async () => {
    setSessionHint(true);
    let sent = 0;
    server.use(
      usedLink(),
      http.get('/api/me', () => HttpResponse.json(ownerMe({ user: { ...ownerMe().user, emailVerified: false } }))),
      http.post('/api/auth/resend-verification', () => {
        sent += 1;
        return HttpResponse.json({ message: 'Verification email sent! Please check your inbox.' });
      }),
    );
    const user = userEvent.setup();
    renderScreen(<VerifyEmailPage />, { path: '/verify-email?mode=verifyEmail&oobCode=used', pattern: '/verify-email' });
    await user.click(await screen.findByRole('button', { name: 'Resend Verification Email' }));
    await user.click(await screen.findByRole('button', { name: 'Resend Verification Email' }));
    await expect.poll(() => sent).toBe(1);
    expect(screen.queryByText('Please sign in first to resend verification email.')).toBeNull();
  });
});

describe('the forgot-password page', () => {
  it("tells an unknown email 'No account found' and a known one that the link was sent, never 'If an account exists'", async () => {
    server.use(
      http.post('/api/auth/forgot-password', async ({ request }) => {
        const { email } = (await request.json()) as { email: string };
        return email === 'owner@afyabora.test'
          ? HttpResponse.json({ message: 'Password reset email sent! Please check your inbox.' })
          : HttpResponse.json({ error: { code: 'RESET_NO_ACCOUNT', message: 'No account found with this email address.' } }, { status: 404 });
      }),
    );
    const user = userEvent.setup();
    renderScreen(<ForgotPasswordPage />, { path: '/forgot-password' });
    await user.type(screen.getByLabelText('Email'), 'nobody@afyabora.test');
    await user.click(screen.getByRole('button', { name: 'Send Reset Link' }));
    expect(await screen.findByText('No account found with this email address.')).toBeTruthy();

    await user.clear(screen.getByLabelText('Email'));
    await user.type(screen.getByLabelText('Email'), 'owner@afyabora.test');
    await user.click(screen.getByRole('button', { name: 'Send Reset Link' }));
    expect(await screen.findByRole('heading', { name: 'Check Your Email' })).toBeTruthy();
    expect(screen.getByText('A password reset link has been sent to owner@afyabora.test. It works once, for 60 minutes.')).toBeTruthy();
    expect(document.body.textContent).not.toMatch(/if an account exists/i);
  });
});
