import { useId } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Store } from 'lucide-react';
import type { MeResponse } from '@pharmapoint/domain/auth';
import { useMyPharmacies, useSwitchPharmacy } from '@/features/auth/api/memberships';
import { errorMessage } from '@/lib/api';
import { cn } from '@/lib/cn';
import { toast } from '@/lib/toast';

export interface PharmacySwitcherProps {
  me: MeResponse;
  /** 'dark' on the header and sidebar colours; 'light' on a page. */
  tone?: 'dark' | 'light';
  className?: string;
}

/**
 * The pharmacy the session works in, and a switcher over the person's other pharmacies (decision 0015). Shown only
 * to someone who works in more than one; the server checks the membership on every switch. After a switch every
 * screen's data belonged to the old pharmacy, so the person lands on the dashboard of the new one.
 */
export function PharmacySwitcher({ me, tone = 'dark', className }: PharmacySwitcherProps) {
  const { t } = useTranslation('auth');
  const id = useId();
  const navigate = useNavigate();
  const mine = useMyPharmacies(!me.isDemo);
  const switching = useSwitchPharmacy();
  const pharmacies = mine.data?.pharmacies ?? [];
  if (me.isDemo || pharmacies.length <= 1) return null;

  async function choose(pharmacyId: string) {
    if (!pharmacyId || pharmacyId === me.pharmacy?.id) return;
    try {
      const result = await switching.mutateAsync(pharmacyId);
      toast.success(t('pharmacies.switched', { name: result.pharmacy.name }));
      void navigate('/app/dashboard');
    } catch (error) {
      toast.error(errorMessage(error));
    }
  }

  return (
    <div className={cn('flex items-center gap-1.5', className)}>
      <Store className={cn('size-4 shrink-0', tone === 'dark' ? 'text-white/70' : 'text-slate-500')} aria-hidden="true" />
      <label htmlFor={id} className="sr-only">
        {t('pharmacies.switcherLabel')}
      </label>
      <select
        id={id}
        value={me.pharmacy?.id ?? ''}
        disabled={switching.isPending}
        onChange={(event) => void choose(event.target.value)}
        className={cn(
          'h-8 min-w-0 max-w-full flex-1 truncate rounded-md px-2 text-sm focus:outline-none focus:ring-2',
          tone === 'dark'
            ? 'border border-white/20 bg-white/10 text-white focus:ring-white/40'
            : 'border border-slate-300 bg-white text-slate-900 focus:ring-primary/40',
        )}
      >
        {me.pharmacy ? null : <option value="">{t('pharmacies.choose')}</option>}
        {pharmacies.map((pharmacy) => (
          <option key={pharmacy.id} value={pharmacy.id} className="text-slate-900">
            {pharmacy.name}
          </option>
        ))}
      </select>
    </div>
  );
}
