import { useTranslation } from 'react-i18next';
import type { AdminPharmacy } from '@pharmapoint/domain/subscription';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import '@/features/admin/admin-catalogue';

const TONES: Record<AdminPharmacy['subscription']['status'], BadgeTone> = {
  active: 'success',
  trial: 'info',
  expired: 'danger',
  inactive: 'neutral',
  none: 'neutral',
};

/** The operator's one-word state of a pharmacy. */
export function PharmacyStatusBadge({ status }: { status: AdminPharmacy['subscription']['status'] }) {
  const { t } = useTranslation('admin');
  return <Badge tone={TONES[status]}>{t(`status.${status}`)}</Badge>;
}
