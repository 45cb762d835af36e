import { useState } from 'react';
import { Link, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ArrowLeft } from 'lucide-react';
import { registrationFormSchema, type RegistrationForm } from '@pharmapoint/domain/platform-payments';
import { PublicHeader } from '@/features/public/components/public-header';
import { CheckoutMpesa } from '@/features/public/components/checkout-mpesa';
import { CheckoutPlanSummary } from '@/features/public/components/checkout-plan-summary';
import { CheckoutRegistrationForm } from '@/features/public/components/checkout-registration-form';
import { CheckoutSteps } from '@/features/public/components/checkout-steps';
import { loadRegistration } from '@/features/public/components/checkout-api';

/** Registration data given by navigation state (customerData with the fallbacks email, phone, pharmacyLicense), if any. */
function fromNavigation(state: unknown): RegistrationForm | null {
  const s = (state ?? {}) as { customerData?: Record<string, unknown>; skipRegistration?: boolean };
  const data = s.customerData;
  const candidate = data
    ? {
        ...loadRegistration(),
        ...data,
        ownerEmail: data.ownerEmail ?? data.email,
        ownerPhone: data.ownerPhone ?? data.phone,
        licenseNumber: data.licenseNumber ?? data.pharmacyLicense,
      }
    : loadRegistration();
  const parsed = registrationFormSchema.safeParse(candidate);
  return s.skipRegistration && parsed.success ? parsed.data : null;
}

/** /purchase: step 1 the pharmacy form and plan summary, step 2 the M-Pesa payment (seed 002 sections 2 and 4). */
export default function PurchasePage() {
  const { t } = useTranslation('checkout');
  const location = useLocation();
  const [registration, setRegistration] = useState<RegistrationForm | null>(() => fromNavigation(location.state));
  const step = registration ? 'payment' : 'details';

  return (
    <div className="min-h-screen bg-gradient-to-br from-primary/5 via-white to-secondary/5">
      <PublicHeader />
      <main className="mx-auto max-w-5xl px-4 pb-16 pt-6">
        <Link to="/" className="inline-flex items-center gap-1 text-sm text-slate-600 hover:text-slate-900 hover:underline">
          <ArrowLeft className="size-4" aria-hidden="true" />
          {t('back')}
        </Link>
        <h1 id="checkout-form-title" className="mt-3 text-2xl font-bold text-slate-900 sm:text-3xl">
          {t('form.title')}
        </h1>
        <p className="mt-1 text-sm text-slate-600">{t('form.subtitle')}</p>
        <CheckoutSteps current={step} />
        <div className="mt-6 grid gap-6 lg:grid-cols-[minmax(0,1fr)_320px]">
          <div className="min-w-0 rounded-xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6">
            {registration ? (
              <CheckoutMpesa registration={registration} onBack={() => setRegistration(null)} />
            ) : (
              <CheckoutRegistrationForm onDone={setRegistration} />
            )}
          </div>
          <CheckoutPlanSummary />
        </div>
      </main>
    </div>
  );
}
