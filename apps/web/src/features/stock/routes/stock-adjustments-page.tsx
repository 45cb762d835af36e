import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ListChecks } from 'lucide-react';
import { ADJUSTMENT_REASON_TYPES, type AdjustmentReasonType, type CreateAdjustmentInput } from '@pharmapoint/domain/stock';
import { Button, buttonClasses } from '@/components/ui/button';
import { FormActions } from '@/components/ui/form-actions';
import { Card } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { LoadingState } from '@/components/ui/loading-state';
import { PageHeader } from '@/components/ui/page-header';
import { Select } from '@/components/ui/select';
import { Textarea } from '@/components/ui/textarea';
import { ApiError, errorMessage } from '@/lib/api';
import { formatDate, formatNumber } from '@/lib/format';
import { toast } from '@/lib/toast';
import { usePermissions } from '@/features/auth/hooks/use-permissions';
import { useProduct } from '@/features/products/api/products';
import { useCreateAdjustment } from '@/features/stock/api/stock';
import { ProductPicker } from '@/features/stock/components/product-picker';
import { AdjustmentsTable } from '@/features/stock/components/adjustments-table';
import { showStockChange, useDisplayedQuantity, useLiveStock } from '@/lib/live-stock/live-stock';
import { expectedQuantity } from '@/lib/live-stock/optimistic-stock';

type Entry = 'delta' | 'counted';

/** /app/stock-adjustments (inventory:adjust): count corrections, damage, expiry write-offs, with a reason. */
export default function StockAdjustmentsPage() {
  const { t } = useTranslation('stock');
  const { me, can, isDemo } = usePermissions();
  useLiveStock();
  const [params] = useSearchParams();
  const shown = useDisplayedQuantity();
  const create = useCreateAdjustment();

  const [productId, setProductId] = useState(params.get('productId') ?? '');
  const [branchId, setBranchId] = useState(me?.branch?.id ?? me?.allowedBranches[0]?.id ?? '');
  const [batchId, setBatchId] = useState('');
  const [reasonType, setReasonType] = useState<AdjustmentReasonType>('count_correction');
  const [entry, setEntry] = useState<Entry>('delta');
  const [amount, setAmount] = useState('');
  const [newBatchNumber, setNewBatchNumber] = useState('');
  const [newBatchExpiry, setNewBatchExpiry] = useState('');
  const [reason, setReason] = useState('');
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [serverError, setServerError] = useState<string | null>(null);

  const detail = useProduct(productId || undefined);
  const branchRow = detail.data?.branches.find((b) => b.branchId === branchId);
  const batches = (detail.data?.batches ?? []).filter((b) => b.branchId === branchId);
  const batch = batches.find((b) => b.id === batchId);
  const current = branchRow ? shown(productId, branchId, branchRow.quantity).quantity : 0;
  const onHand = batch ? batch.quantity + batch.reservedQuantity : current + (branchRow?.reservedQuantity ?? 0);

  const number = /^[+-]?\d+$/.test(amount.trim()) ? Number(amount.trim()) : null;
  const delta = number === null ? null : entry === 'delta' ? number : number - onHand;
  const after = delta === null ? null : current + delta;

  function reset() {
    setAmount('');
    setReason('');
    setNote('');
    setBatchId('');
    setNewBatchNumber('');
    setNewBatchExpiry('');
  }

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (isDemo) return;
    setServerError(null);
    const found: Record<string, string> = {};
    if (!productId) found.product = t('validation.product');
    if (!branchId) found.branch = t('validation.branch');
    if (number === null || (entry === 'counted' && number < 0)) found.amount = entry === 'counted' ? t('validation.counted') : t('validation.delta');
    else if (delta === 0) found.amount = t('validation.noChange');
    else if (after !== null && after < 0) found.amount = t('validation.negative', { available: current });
    if (!reason.trim()) found.reason = t('validation.reason');
    const wantsNewBatch = !batchId && delta !== null && delta > 0 && (newBatchNumber.trim() || newBatchExpiry);
    if (wantsNewBatch && (!newBatchNumber.trim() || !/^\d{4}-\d{2}-\d{2}$/.test(newBatchExpiry))) found.newBatch = t('validation.newBatch');
    setErrors(found);
    if (Object.keys(found).length > 0 || delta === null) return;

    const input: CreateAdjustmentInput = {
      branchId,
      reason: reason.trim(),
      items: [
        {
          productId,
          delta,
          reasonType,
          note: note.trim() || null,
          ...(batchId ? { batchId } : {}),
          ...(wantsNewBatch ? { batchNumber: newBatchNumber.trim(), expiryDate: newBatchExpiry } : {}),
        },
      ],
    };
    const rollback = showStockChange({
      productId,
      branchId,
      stockValue: expectedQuantity(current, delta),
      reason: `${t(`reasonTypes.${reasonType}`)}: ${reason.trim()}`,
    });
    try {
      await create.mutateAsync(input);
      toast.success(t('adjust.saved', { name: detail.data?.product.name ?? '', delta: delta > 0 ? `+${delta}` : String(delta) }));
      reset();
    } catch (error) {
      rollback();
      setServerError(errorMessage(error));
      if (error instanceof ApiError) toast.error(error.message);
    }
  }

  const branchOptions = (me?.allowedBranches ?? []).map((b) => ({ value: b.id, label: b.name }));

  return (
    <div className="space-y-6">
      <PageHeader
        title={t('adjust.title')}
        description={t('adjust.description')}
        actions={
          can('report:inventory') ? (
            <Link to="/app/reports/view-adjustments" className={buttonClasses('outline')}>
              <ListChecks className="size-4" aria-hidden="true" />
              {t('adjust.viewAll')}
            </Link>
          ) : null
        }
      />

      <Card title={t('adjust.newTitle')}>
        <form noValidate onSubmit={(event) => void onSubmit(event)} className="space-y-4" aria-label={t('adjust.newTitle')}>
          <ProductPicker
            value={productId}
            error={errors.product}
            onChange={(id) => {
              setProductId(id);
              setBatchId('');
            }}
          />
          <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
            <Field label={t('adjust.branch')} required error={errors.branch}>
              <Select
                value={branchId}
                options={branchOptions}
                onChange={(e) => {
                  setBranchId(e.target.value);
                  setBatchId('');
                }}
              />
            </Field>
            <Field label={t('adjust.type')} required>
              <Select value={reasonType} options={ADJUSTMENT_REASON_TYPES.map((r) => ({ value: r, label: t(`reasonTypes.${r}`) }))} onChange={(e) => setReasonType(e.target.value as AdjustmentReasonType)} />
            </Field>
            <Field label={t('adjust.batch')} hint={productId && detail.isPending ? t('adjust.loadingBatches') : undefined}>
              <Select
                value={batchId}
                placeholder={t('adjust.autoBatch')}
                options={batches.map((b) => ({
                  value: b.id,
                  label: [
                    b.batchNumber ?? t('adjust.unbatched'),
                    b.expiryDate ? t('adjust.expires', { date: formatDate(b.expiryDate) }) : null,
                    t('adjust.pieces', { count: b.quantity }),
                    b.isExpired ? t('adjust.expired') : null,
                  ]
                    .filter(Boolean)
                    .join(' · '),
                }))}
                onChange={(e) => setBatchId(e.target.value)}
              />
            </Field>
            <Field label={t('adjust.entry')}>
              <Select
                value={entry}
                options={[
                  { value: 'delta', label: t('adjust.entryDelta') },
                  { value: 'counted', label: t('adjust.entryCounted') },
                ]}
                onChange={(e) => setEntry(e.target.value as Entry)}
              />
            </Field>
          </div>

          {productId && detail.isPending ? <LoadingState message={t('adjust.loadingProduct')} /> : null}
          {detail.isError ? (
            <p role="alert" className="text-sm font-medium text-red-600">
              {errorMessage(detail.error)}
            </p>
          ) : null}

          <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
            <Field
              label={entry === 'delta' ? t('adjust.delta') : t('adjust.counted')}
              required
              error={errors.amount}
              hint={entry === 'delta' ? t('adjust.deltaHint') : t('adjust.countedHint', { count: onHand })}
            >
              <Input inputMode="numeric" value={amount} onChange={(e) => setAmount(e.target.value)} />
            </Field>
            <div className="rounded-md bg-slate-50 p-3 text-sm" role="status" aria-live="polite">
              <p>
                {t('adjust.currentStock')}: <strong data-testid="current-stock">{productId && branchRow ? formatNumber(current) : '—'}</strong>
              </p>
              <p>
                {t('adjust.change')}: <strong>{delta === null ? '—' : delta > 0 ? `+${delta}` : delta}</strong>
              </p>
              <p>
                {t('adjust.after')}: <strong className={after !== null && after < 0 ? 'text-red-600' : undefined}>{after === null ? '—' : formatNumber(after)}</strong>
              </p>
            </div>
            {!batchId && delta !== null && delta > 0 ? (
              <>
                <Field label={t('adjust.newBatchNumber')} error={errors.newBatch} hint={t('adjust.newBatchHint')}>
                  <Input value={newBatchNumber} maxLength={64} onChange={(e) => setNewBatchNumber(e.target.value)} />
                </Field>
                <Field label={t('adjust.newBatchExpiry')}>
                  <Input type="date" value={newBatchExpiry} onChange={(e) => setNewBatchExpiry(e.target.value)} />
                </Field>
              </>
            ) : null}
          </div>

          <div className="grid gap-4 md:grid-cols-2">
            <Field label={t('adjust.reason')} required error={errors.reason}>
              <Textarea rows={2} maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)} />
            </Field>
            <Field label={t('adjust.note')}>
              <Textarea rows={2} maxLength={500} value={note} onChange={(e) => setNote(e.target.value)} />
            </Field>
          </div>

          <FormActions error={serverError} notice={isDemo ? t('demoDisabled') : null}>
            <Button type="submit" loading={create.isPending} disabled={isDemo}>
              {t('adjust.submit')}
            </Button>
          </FormActions>
        </form>
      </Card>

      <Card title={t('adjust.recent')} flush>
        <AdjustmentsTable query={{ limit: 10, offset: 0, productId: productId || undefined }} compact />
      </Card>
    </div>
  );
}
