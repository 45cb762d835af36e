import { useTranslation } from 'react-i18next';
import type { StockStatus } from '@pharmapoint/domain/stock-status';
import { Badge, type BadgeTone } from '@/components/ui/badge';

const TONES: Record<StockStatus, BadgeTone> = { out: 'danger', low: 'warning', good: 'success' };

/** Out of stock / Low stock / In stock, for a product in a branch. */
export function StockStatusBadge({ status }: { status: StockStatus }) {
  const { t } = useTranslation('products');
  return (
    <Badge tone={TONES[status]} className="whitespace-nowrap">
      {t(`status.${status}`)}
    </Badge>
  );
}

/** Expired / Near expiry / (nothing) for a batch or an expiry date. */
export function ExpiryBadge({ expired, nearExpiry }: { expired: boolean; nearExpiry?: boolean }) {
  const { t } = useTranslation('products');
  if (expired) return <Badge tone="danger">{t('expiry.expired')}</Badge>;
  if (nearExpiry) return <Badge tone="warning">{t('expiry.near')}</Badge>;
  return null;
}
