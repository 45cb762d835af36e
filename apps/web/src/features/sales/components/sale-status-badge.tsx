import { useTranslation } from 'react-i18next';
import type { Sale } from '@pharmapoint/domain/sales';
import { Badge, type BadgeTone } from '@/components/ui/badge';

const TONES: Record<Sale['status'], BadgeTone> = { completed: 'success', partially_returned: 'warning', returned: 'info', voided: 'danger' };

export function SaleStatusBadge({ status }: { status: Sale['status'] }) {
  const { t } = useTranslation('sales');
  return <Badge tone={TONES[status]}>{t(`status.${status}`)}</Badge>;
}
