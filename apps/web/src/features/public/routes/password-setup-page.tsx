import { useEffect, useState, type FormEvent } from 'react';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { CheckCircle2, Cross } from 'lucide-react';
import { PAYMENT_TIMING } from '@pharmapoint/domain/platform-payments';
import { login } from '@/features/auth/api/auth';
import { setMe } from '@/features/auth/api/get-me';
import { Button } from '@/components/ui/button';
import { ApiError } from '@/lib/api';
import { toast } from '@/lib/toast';
import {
  clearPendingRegistration,
  createOwner,
  isPendingRegistration,
  loadPendingRegistration,
} from '@/features/public/components/checkout-api';
import { CheckoutPasswordFields, isPasswordReady } from '@/features/public/components/checkout-password-fields';
import { CheckoutSteps } from '@/features/public/components/checkout-steps';

/**
 * /password-setup (seed 002 sections 2, 4, 5 and 8): the new owner chooses a password for the account made when
 * the payment completed, is signed in, sees Account Created with the pharmacy and its subdomain, and goes to the
 * dashboard after 2 s. Without the email or the pharmacy id it goes back to /purchase.
 */
export default function PasswordSetupPage() {
  const { t } = useTranslation('checkout');
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [pending] = useState(() => (isPendingRegistration(location.state) ? location.state : loadPendingRegistration()));
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  // The pharmacy's subdomain, from create-owner's answer (the public payment status does not name the pharmacy).
  const [subdomain, setSubdomain] = useState<string | null>(null);

  useEffect(() => {
    if (!done) return;
    const timer = setTimeout(() => void navigate('/app/dashboard', { replace: true }), PAYMENT_TIMING.accountRedirectMs);
    return () => clearTimeout(timer);
  }, [done, navigate]);

  const email = pending?.pharmacyData.ownerEmail;
  const pharmacyId = pending?.pharmacyData.id;
  if (!pending || !email || !pharmacyId) return <Navigate to="/purchase" replace />;
  const { pharmacyData, paymentDetails } = pending;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!isPasswordReady(password, confirm)) {
      setError(password === confirm ? t('setup.weak') : t('setup.mismatch'));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const created = await createOwner({
        transactionId: paymentDetails.transactionId,
        setupToken: paymentDetails.setupToken,
        email: pharmacyData.ownerEmail,
        password,
        confirmPassword: confirm,
        name: pharmacyData.ownerName,
        displayName: pharmacyData.ownerName,
        pharmacyId: pharmacyData.id,
        pharmacyName: pharmacyData.pharmacyName,
        phoneNumber: paymentDetails.phoneNumber,
      });
      const { message: _message, ...me } = await login(pharmacyData.ownerEmail, password);
      clearPendingRegistration();
      setSubdomain(created.pharmacy.subdomain ?? pharmacyData.subdomain);
      setDone(true);
      setMe(queryClient, me);
    } catch (caught) {
      const message =
        caught instanceof ApiError
          ? caught.code === 'OWNER_ALREADY_SET_UP'
            ? t('setup.exists')
            : caught.code === 'PASSWORD_REQUIREMENTS'
              ? t('setup.weak')
              : caught.code === 'OWNER_SETUP_INVALID'
                ? t('setup.missing')
                : caught.status === 0
                  ? t('setup.network')
                  : caught.message || t('setup.failed')
          : t('setup.failed');
      setError(message);
      toast.error(message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <main className="flex min-h-screen flex-col items-center justify-center bg-gradient-to-br from-primary/10 via-white to-secondary/10 px-4 py-10">
      <Link to="/" className="mb-6 flex items-center gap-2 text-xl font-bold text-slate-900">
        <span className="flex size-9 items-center justify-center rounded-lg bg-primary text-white">
          <Cross className="size-5" aria-hidden="true" />
        </span>
        {t('common:appName')}
      </Link>
      <div className="w-full max-w-md rounded-xl border border-slate-200 bg-white p-6 shadow-lg sm:p-8">
        {done ? (
          <div className="space-y-3 text-center" role="status">
            <CheckCircle2 className="mx-auto size-14 text-emerald-600" aria-hidden="true" />
            <h1 className="text-2xl font-bold text-slate-900">{t('setup.doneTitle')}</h1>
            <p className="text-slate-700">{t('setup.doneBody', { pharmacy: pharmacyData.pharmacyName })}</p>
            {subdomain ? <p className="break-all text-sm text-slate-600">{t('setup.subdomain', { subdomain })}</p> : null}
            <p className="text-sm text-slate-500">{t('setup.doneRedirect')}</p>
          </div>
        ) : (
          <>
            <h1 className="text-2xl font-bold text-slate-900">{t('setup.title')}</h1>
            <p className="mt-1 text-sm text-slate-600">{t('setup.subtitle')}</p>
            <CheckoutSteps current="setup" />
            <dl className="mt-5 space-y-1 rounded-lg bg-slate-50 p-3 text-sm">
              <div className="flex justify-between gap-3">
                <dt className="text-slate-600">{t('setup.email')}</dt>
                <dd className="min-w-0 break-all text-right font-medium text-slate-900">{pharmacyData.ownerEmail}</dd>
              </div>
              <div className="flex justify-between gap-3">
                <dt className="text-slate-600">{t('setup.pharmacy')}</dt>
                <dd className="min-w-0 break-words text-right font-medium text-slate-900">{pharmacyData.pharmacyName}</dd>
              </div>
            </dl>
            <form onSubmit={(event) => void submit(event)} noValidate className="mt-5 space-y-4">
              <CheckoutPasswordFields password={password} confirm={confirm} onPassword={setPassword} onConfirm={setConfirm} disabled={busy} />
              {error ? (
                <p role="alert" className="text-sm text-red-700">
                  {error}
                </p>
              ) : null}
              <Button type="submit" size="lg" className="w-full" loading={busy} disabled={busy || !isPasswordReady(password, confirm)}>
                {busy ? t('setup.submitting') : t('setup.submit')}
              </Button>
            </form>
          </>
        )}
      </div>
    </main>
  );
}
