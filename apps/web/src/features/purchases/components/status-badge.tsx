import { useTranslation } from 'react-i18next';
import { normalizePurchaseStatus, PURCHASE_STATUS_DISPLAY } from '@pharmapoint/domain/purchases';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import '@/features/purchases/purchases-catalogue';

const TONE: Record<'yellow' | 'blue' | 'green' | 'red', BadgeTone> = { yellow: 'warning', blue: 'info', green: 'success', red: 'danger' };

/** Pending yellow, Ordered blue, Received green, Cancelled red; an unknown status shows as Pending (seed 002 section 4). */
export function PurchaseStatusBadge({ status }: { status: string }) {
  const { t } = useTranslation('purchases');
  const known = normalizePurchaseStatus(status);
  return <Badge tone={TONE[PURCHASE_STATUS_DISPLAY[known].colour]}>{t(`status.${known}`)}</Badge>;
}
