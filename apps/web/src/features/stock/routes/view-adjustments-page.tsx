import { useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { SlidersHorizontal } from 'lucide-react';
import { ADJUSTMENT_REASON_TYPES, type AdjustmentReasonType } from '@pharmapoint/domain/stock';
import { buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { PageHeader } from '@/components/ui/page-header';
import { Select } from '@/components/ui/select';
import { usePermissions } from '@/features/auth/hooks/use-permissions';
import { AdjustmentsTable } from '@/features/stock/components/adjustments-table';
import { useLiveStock } from '@/lib/live-stock/live-stock';

const PAGE_SIZE = 25;

/** /app/reports/view-adjustments: every stock adjustment, filtered by branch, type and date. */
export default function ViewAdjustmentsPage() {
  const { t } = useTranslation('stock');
  const { me, can, isDemo } = usePermissions();
  useLiveStock();
  const [branchId, setBranchId] = useState('');
  const [reasonType, setReasonType] = useState<AdjustmentReasonType | ''>('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [page, setPage] = useState(1);
  const filter = (apply: () => void) => {
    apply();
    setPage(1);
  };

  return (
    <div className="space-y-6">
      <PageHeader
        title={t('view.title')}
        description={t('view.description')}
        actions={
          can('inventory:adjust') && !isDemo ? (
            <Link to="/app/stock-adjustments" className={buttonClasses('primary')}>
              <SlidersHorizontal className="size-4" aria-hidden="true" />
              {t('view.newAdjustment')}
            </Link>
          ) : null
        }
      />
      <Card flush>
        <div className="grid gap-3 border-b border-slate-100 p-4 sm:grid-cols-2 lg:grid-cols-4" role="group" aria-label={t('view.filters')}>
          <Field label={t('list.branch')}>
            <Select
              value={branchId}
              placeholder={t('view.allBranches')}
              options={(me?.allowedBranches ?? []).map((b) => ({ value: b.id, label: b.name }))}
              onChange={(e) => filter(() => setBranchId(e.target.value))}
            />
          </Field>
          <Field label={t('list.type')}>
            <Select
              value={reasonType}
              placeholder={t('view.allTypes')}
              options={ADJUSTMENT_REASON_TYPES.map((r) => ({ value: r, label: t(`reasonTypes.${r}`) }))}
              onChange={(e) => filter(() => setReasonType(e.target.value as AdjustmentReasonType | ''))}
            />
          </Field>
          <Field label={t('view.from')}>
            <Input type="date" value={from} max={to || undefined} onChange={(e) => filter(() => setFrom(e.target.value))} />
          </Field>
          <Field label={t('view.to')}>
            <Input type="date" value={to} min={from || undefined} onChange={(e) => filter(() => setTo(e.target.value))} />
          </Field>
        </div>
        <AdjustmentsTable
          query={{ branchId: branchId || undefined, reasonType: reasonType || undefined, from: from || undefined, to: to || undefined, limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE }}
          page={page}
          onPageChange={setPage}
        />
      </Card>
    </div>
  );
}
