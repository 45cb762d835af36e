import { useId, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { isExpired } from '@pharmapoint/domain/stock';
import { receiveBatchFormSchema, type ProductDetailResponse, type ReceiveBatchFormValues, type ReceiveBatchInput } from '@pharmapoint/domain/products';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { applyServerErrors } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { formatDate, pharmacyToday } from '@/lib/format';
import { toast } from '@/lib/toast';
import { usePermissions } from '@/features/auth/hooks/use-permissions';
import { useReceiveBatch } from '@/features/products/api/products';
import { showStockChange } from '@/lib/live-stock/live-stock';
import { expectedQuantity } from '@/lib/live-stock/optimistic-stock';
import { useIdempotencyKey } from '@/lib/idempotency';

/**
 * Opening stock into a batch (POST /api/products/:id/batches, inventory:update), validated by the domain's
 * receiveBatchFormSchema. A batch whose expiry date has passed is not received (decision 0033): the dialog says so
 * as soon as the date is chosen and keeps Receive Stock disabled; the server refuses it too (BATCH_EXPIRED).
 */
export function ReceiveStockDialog({
  open,
  onOpenChange,
  detail,
  defaultBranchId,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  detail: ProductDetailResponse;
  defaultBranchId: string | undefined;
}) {
  const { t } = useTranslation('products');
  const { isDemo } = usePermissions();
  const formId = useId();
  const receive = useReceiveBatch(detail.product.id);
  const keys = useIdempotencyKey();
  const branches = detail.branches;
  const firstBranch = branches.some((b) => b.branchId === defaultBranchId) ? defaultBranchId! : (branches[0]?.branchId ?? '');
  const row = branches.find((b) => b.branchId === firstBranch);
  const { register, handleSubmit, control, setError, formState } = useForm<ReceiveBatchFormValues, unknown, ReceiveBatchInput>({
    resolver: zodResolver(receiveBatchFormSchema),
    defaultValues: { branchId: firstBranch, batchNumber: '', expiryDate: '', quantity: '', unitCost: row ? (row.purchasePriceCents / 100).toFixed(2) : '', reason: '' },
  });
  const errors = formState.errors;
  const expiryDate = useWatch({ control, name: 'expiryDate' });
  const today = pharmacyToday();
  const expired = /^\d{4}-\d{2}-\d{2}$/.test(expiryDate) && isExpired(expiryDate, today);
  const [serverError, setServerError] = useState<string | null>(null);

  async function onValid(input: ReceiveBatchInput) {
    if (isDemo || expired) return;
    setServerError(null);
    const current = branches.find((b) => b.branchId === input.branchId);
    const rollback = showStockChange({
      productId: detail.product.id,
      branchId: input.branchId!,
      stockValue: expectedQuantity(current?.quantity ?? 0, input.quantity),
      reason: input.reason ?? t('receive.defaultReason'),
    });
    try {
      await receive.mutateAsync({ input, key: keys.keyFor(input) });
      keys.renew();
      toast.success(t('receive.done', { count: input.quantity }));
      onOpenChange(false);
    } catch (error) {
      rollback();
      setServerError(applyServerErrors(error, setError, (path) => (['batchNumber', 'expiryDate', 'quantity', 'reason'].includes(path) ? (path as keyof ReceiveBatchFormValues) : path === 'unitCostCents' ? 'unitCost' : null)));
    }
  }

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={t('receive.title')}
      description={t('receive.description', { name: detail.product.name })}
      footer={
        <>
          <Button variant="outline" onClick={() => onOpenChange(false)}>
            {t('form.cancel')}
          </Button>
          <Button type="submit" form={formId} loading={receive.isPending} disabled={isDemo || expired}>
            {t('receive.submit')}
          </Button>
        </>
      }
    >
      <form id={formId} noValidate onSubmit={(event) => void handleSubmit(onValid)(event)} className="grid gap-4 sm:grid-cols-2">
        <Field label={t('receive.branch')} required error={errors.branchId?.message}>
          <Select {...register('branchId')} options={branches.map((b) => ({ value: b.branchId, label: b.branchName }))} />
        </Field>
        <Field label={t('receive.batchNumber')} required error={errors.batchNumber?.message}>
          <Input {...register('batchNumber')} maxLength={64} />
        </Field>
        <Field label={t('receive.expiryDate')} required error={errors.expiryDate?.message}>
          <Input type="date" {...register('expiryDate')} min={today} />
        </Field>
        <Field label={t('receive.quantity')} required error={errors.quantity?.message}>
          <Input inputMode="numeric" {...register('quantity')} />
        </Field>
        <Field label={t('receive.unitCost')} error={errors.unitCost?.message}>
          <Input inputMode="decimal" {...register('unitCost')} />
        </Field>
        <Field label={t('receive.reason')} error={errors.reason?.message}>
          <Input {...register('reason')} maxLength={200} placeholder={t('receive.defaultReason')} />
        </Field>
        {expired ? (
          <p role="alert" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900 sm:col-span-2">
            {t('receive.expired', { date: formatDate(expiryDate) })}
          </p>
        ) : null}
        {serverError ? (
          <p role="alert" className="text-sm font-medium text-red-600 sm:col-span-2">
            {serverError}
          </p>
        ) : null}
      </form>
    </Dialog>
  );
}
