import { useState } from 'react';
import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { AlertTriangle, X } from 'lucide-react';
import type { SubscriptionOverview } from '@pharmapoint/domain/subscription';
import { api } from '@/lib/api';
import { cn } from '@/lib/cn';

/** The part of GET /api/subscription the banner reads (the subscription screen reads the rest). */
export type SubscriptionSummaryResponse = Pick<SubscriptionOverview, 'summary'>;

/** Shared with the subscription screen, so both read one cached answer. */
export const subscriptionQueryKey = ['subscription'] as const;

export const BANNER_DISMISSED_KEY = 'subscription_warning_dismissed';

function readDismissed(): boolean {
  try {
    return sessionStorage.getItem(BANNER_DISMISSED_KEY) === 'true';
  } catch {
    return false;
  }
}

/** The trial and hosting banner at the top of /app (seed 000 section 4, Subscription). */
export function SubscriptionBanner() {
  const { t } = useTranslation('shell');
  const [dismissed, setDismissed] = useState(readDismissed);
  const { data } = useQuery({
    queryKey: subscriptionQueryKey,
    queryFn: () => api.get<SubscriptionSummaryResponse>('/api/subscription'),
    retry: false,
    staleTime: 60_000,
  });
  const banner = data?.summary?.banner;
  if (!banner || dismissed) return null;
  const hosting = banner === 'pay_hosting' || banner === 'renew_hosting';
  const urgent = banner === 'upgrade' || banner === 'pay_hosting' || data.summary.nextActionUrgent;

  function dismiss() {
    setDismissed(true);
    try {
      sessionStorage.setItem(BANNER_DISMISSED_KEY, 'true');
    } catch {
      // Dismissed for this page only.
    }
  }

  return (
    <div role="status" className={cn('flex flex-wrap items-center gap-3 px-4 py-2 text-sm', urgent ? 'bg-red-600 text-white' : 'bg-amber-100 text-amber-950')}>
      <AlertTriangle className="size-4 shrink-0" aria-hidden="true" />
      <p className="flex-1">
        <span className="font-semibold">{data.summary.statusMessage}</span>
        {data.summary.nextAction ? <span> — {data.summary.nextAction}</span> : null}
      </p>
      <Link
        to={hosting ? '/app/subscription#hosting-payment' : '/app/upgrade'}
        className={cn('rounded-md px-3 py-1 font-medium', urgent ? 'bg-white text-red-700' : 'bg-amber-900 text-white')}
      >
        {hosting ? t('subscriptionBanner.payHosting') : t('subscriptionBanner.upgrade')}
      </Link>
      <button type="button" onClick={dismiss} aria-label={t('subscriptionBanner.dismiss')} className="rounded p-1 hover:bg-black/10">
        <X className="size-4" aria-hidden="true" />
      </button>
    </div>
  );
}
