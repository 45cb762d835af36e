import { useEffect, useRef } from 'react';
import { useForm, useWatch, type Resolver } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ListChecks } from 'lucide-react';
import {
  ADJUSTMENT_REASON_TYPES,
  adjustmentDelta,
  adjustmentFormSchema,
  type AdjustmentFormValues,
  type CreateAdjustmentInput,
} from '@pharmapoint/domain/stock';
import { Button, buttonClasses } from '@/components/ui/button';
import { FormActions } from '@/components/ui/form-actions';
import { Card } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { applyServerErrors } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { LoadingState } from '@/components/ui/loading-state';
import { PageHeader } from '@/components/ui/page-header';
import { Select } from '@/components/ui/select';
import { Textarea } from '@/components/ui/textarea';
import { ApiError, errorMessage } from '@/lib/api';
import { formatDate, formatNumber } from '@/lib/format';
import { useIdempotencyKey } from '@/lib/idempotency';
import { toast } from '@/lib/toast';
import { usePermissions } from '@/features/auth/hooks/use-permissions';
import { useProduct } from '@/features/products/api/products';
import { useCreateAdjustment } from '@/features/stock/api/stock';
import { ProductPicker } from '@/features/stock/components/product-picker';
import { AdjustmentsTable } from '@/features/stock/components/adjustments-table';
import { showStockChange, useDisplayedQuantity, useLiveStock } from '@/lib/live-stock/live-stock';
import { expectedQuantity } from '@/lib/live-stock/optimistic-stock';

/** The pieces the form compares with: sellable stock of the branch, and what a count is compared with. */
interface ShownStock {
  current: number;
  onHand: number;
}

/** The request's paths back onto the form's fields (the server's sentence beside its field). */
function fieldOfPath(path: string): keyof AdjustmentFormValues | null {
  if (path === 'branchId' || path === 'reason') return path;
  if (/^items\.\d+\.delta$/.test(path)) return 'amount';
  if (/^items\.\d+\.productId$/.test(path)) return 'productId';
  if (/^items\.\d+\.(batchNumber|expiryDate)$/.test(path)) return 'newBatchNumber';
  if (/^items\.\d+\.note$/.test(path)) return 'note';
  return null;
}

/**
 * /app/stock-adjustments (inventory:adjust): count corrections, damage, expiry write-offs, with a reason. The form
 * is react-hook-form over the domain's adjustmentFormSchema (decision 0033), which checks against the stock shown.
 */
export default function StockAdjustmentsPage() {
  const { t } = useTranslation('stock');
  const { me, can, isDemo } = usePermissions();
  useLiveStock();
  const [params] = useSearchParams();
  const shown = useDisplayedQuantity();
  const create = useCreateAdjustment();
  const keys = useIdempotencyKey();

  // The schema checks against the stock shown when the form is submitted (the resolver reads it then).
  const stockRef = useRef<ShownStock>({ current: 0, onHand: 0 });
  const resolver: Resolver<AdjustmentFormValues, unknown, CreateAdjustmentInput> = (values, context, options) =>
    zodResolver(adjustmentFormSchema(stockRef.current))(values, context, options);
  const form = useForm<AdjustmentFormValues, unknown, CreateAdjustmentInput>({
    resolver,
    defaultValues: {
      productId: params.get('productId') ?? '',
      branchId: me?.branch?.id ?? me?.allowedBranches[0]?.id ?? '',
      batchId: '',
      reasonType: 'count_correction',
      entry: 'delta',
      amount: '',
      newBatchNumber: '',
      newBatchExpiry: '',
      reason: '',
      note: '',
    },
  });
  const { register, control, handleSubmit, setValue, setError, reset, getValues, formState } = form;
  const errors = formState.errors;
  const [productId, branchId, batchId, entry, amount] = useWatch({ control, name: ['productId', 'branchId', 'batchId', 'entry', 'amount'] });
  // The user's branch may arrive after the first render: it is the default branch.
  const defaultBranch = me?.branch?.id ?? me?.allowedBranches[0]?.id ?? '';
  useEffect(() => {
    if (defaultBranch && !getValues('branchId')) setValue('branchId', defaultBranch);
  }, [defaultBranch, getValues, setValue]);

  const detail = useProduct(productId || undefined);
  const branchRow = detail.data?.branches.find((b) => b.branchId === branchId);
  const batches = (detail.data?.batches ?? []).filter((b) => b.branchId === branchId);
  const batch = batches.find((b) => b.id === batchId);
  const current = branchRow ? shown(productId, branchId, branchRow.quantity).quantity : 0;
  const onHand = batch ? batch.quantity + batch.reservedQuantity : current + (branchRow?.reservedQuantity ?? 0);
  stockRef.current = { current, onHand };

  const delta = adjustmentDelta(entry, amount, onHand);
  const after = delta === null ? null : current + delta;
  const serverError = formState.errors.root?.server?.message ?? null;

  async function onValid(input: CreateAdjustmentInput) {
    if (isDemo) return;
    const line = input.items[0];
    if (!line) return;
    const values = getValues();
    const rollback = showStockChange({
      productId: line.productId,
      branchId: values.branchId,
      stockValue: expectedQuantity(current, line.delta),
      reason: `${t(`reasonTypes.${line.reasonType}`)}: ${input.reason}`,
    });
    try {
      await create.mutateAsync({ input, key: keys.keyFor(input) });
      keys.renew();
      toast.success(t('adjust.saved', { name: detail.data?.product.name ?? '', delta: line.delta > 0 ? `+${line.delta}` : String(line.delta) }));
      // Product, branch, type and entry stay for the next line; what was typed for this one is cleared.
      reset({ ...values, batchId: '', amount: '', newBatchNumber: '', newBatchExpiry: '', reason: '', note: '' });
    } catch (error) {
      rollback();
      setError('root.server', { type: 'server', message: applyServerErrors(error, setError, fieldOfPath) });
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
        <form noValidate onSubmit={(event) => void handleSubmit(onValid)(event)} className="space-y-4" aria-label={t('adjust.newTitle')}>
          <ProductPicker
            value={productId}
            error={errors.productId?.message}
            onChange={(id) => {
              setValue('productId', id, { shouldValidate: formState.isSubmitted });
              setValue('batchId', '');
            }}
          />
          <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
            <Field label={t('adjust.branch')} required error={errors.branchId?.message}>
              <Select options={branchOptions} {...register('branchId', { onChange: () => setValue('batchId', '') })} />
            </Field>
            <Field label={t('adjust.type')} required>
              <Select options={ADJUSTMENT_REASON_TYPES.map((r) => ({ value: r, label: t(`reasonTypes.${r}`) }))} {...register('reasonType')} />
            </Field>
            <Field label={t('adjust.batch')} hint={productId && detail.isPending ? t('adjust.loadingBatches') : undefined}>
              <Select
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
                {...register('batchId')}
              />
            </Field>
            <Field label={t('adjust.entry')}>
              <Select
                options={[
                  { value: 'delta', label: t('adjust.entryDelta') },
                  { value: 'counted', label: t('adjust.entryCounted') },
                ]}
                {...register('entry')}
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
              error={errors.amount?.message}
              hint={entry === 'delta' ? t('adjust.deltaHint') : t('adjust.countedHint', { count: onHand })}
            >
              <Input inputMode="numeric" {...register('amount')} />
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
                <Field label={t('adjust.newBatchNumber')} error={errors.newBatchNumber?.message} hint={t('adjust.newBatchHint')}>
                  <Input maxLength={64} {...register('newBatchNumber')} />
                </Field>
                <Field label={t('adjust.newBatchExpiry')}>
                  <Input type="date" {...register('newBatchExpiry')} />
                </Field>
              </>
            ) : null}
          </div>

          <div className="grid gap-4 md:grid-cols-2">
            <Field label={t('adjust.reason')} required error={errors.reason?.message}>
              <Textarea rows={2} maxLength={500} {...register('reason')} />
            </Field>
            <Field label={t('adjust.note')} error={errors.note?.message}>
              <Textarea rows={2} maxLength={500} {...register('note')} />
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
