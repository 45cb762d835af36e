import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Smartphone } from 'lucide-react';
import { TILL_MPESA_RECONCILE_PERMISSIONS } from '@pharmapoint/domain/till-mpesa';
import { usePermissions } from '@/features/auth/hooks/use-permissions';
import { useUnmatchedTillMpesaCount } from '@/features/sales/api/till-mpesa';

/** Where the owner reconciles the till's M-Pesa money (the unmatched payments first). */
export const MPESA_PAYMENTS_PATH = '/app/sales/mpesa-payments';

/**
 * '{n} M-Pesa payment(s) need reconciling' with a link to the screen, when unmatched till money waits (decision 0068).
 * Only for those who may reconcile it (report:financial or settings:admin); nothing otherwise, nor while loading or
 * when the count cannot be read (the screen itself shows errors).
 */
export function MpesaUnmatchedNotice() {
  const { t } = useTranslation('sales');
  const { canAny } = usePermissions();
  const allowed = canAny(TILL_MPESA_RECONCILE_PERMISSIONS);
  const count = useUnmatchedTillMpesaCount(allowed);
  if (!allowed || !count.data) return null;
  return (
    <div role="status" className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900">
      <Smartphone className="size-4 shrink-0" aria-hidden="true" />
      <span className="font-medium">{t('mpesa.notice', { count: count.data })}</span>
      <Link to={`${MPESA_PAYMENTS_PATH}?status=unmatched`} className="font-medium text-amber-900 underline underline-offset-2 hover:text-amber-700">
        {t('mpesa.noticeLink')}
      </Link>
    </div>
  );
}
