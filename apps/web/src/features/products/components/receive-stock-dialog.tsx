import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { parseMoneyToCents } from '@pharmapoint/domain/money';
import { businessDate } from '@pharmapoint/domain/stock';
import type { ProductDetailResponse } from '@pharmapoint/domain/products';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { errorMessage } from '@/lib/api';
import { toast } from '@/lib/toast';
import { usePermissions } from '@/features/auth/hooks/use-permissions';
import { useReceiveBatch } from '@/features/products/api/products';
import { showStockChange } from '@/lib/live-stock/live-stock';
import { expectedQuantity } from '@/lib/live-stock/optimistic-stock';

/** Opening stock into a batch (POST /api/products/:id/batches, inventory:update). */
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
  const branches = detail.branches;
  const [branchId, setBranchId] = useState(branches.some((b) => b.branchId === defaultBranchId) ? defaultBranchId! : (branches[0]?.branchId ?? ''));
  const [batchNumber, setBatchNumber] = useState('');
  const [expiryDate, setExpiryDate] = useState('');
  const [quantity, setQuantity] = useState('');
  const [unitCost, setUnitCost] = useState(() => {
    const row = branches.find((b) => b.branchId === branchId);
    return row ? (row.purchasePriceCents / 100).toFixed(2) : '';
  });
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [serverError, setServerError] = useState<string | null>(null);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (isDemo) return;
    const found: Record<string, string> = {};
    const qty = /^\d+$/.test(quantity.trim()) ? Number(quantity.trim()) : NaN;
    if (!branchId) found.branch = t('validation.required');
    if (!batchNumber.trim()) found.batchNumber = t('validation.required');
    if (!/^\d{4}-\d{2}-\d{2}$/.test(expiryDate)) found.expiryDate = t('validation.date');
    if (!(qty >= 1)) found.quantity = t('validation.quantityPositive');
    const cost = parseMoneyToCents(unitCost.trim() || '0');
    if (cost === null) found.unitCost = t('validation.money');
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setServerError(null);
    const current = branches.find((b) => b.branchId === branchId);
    const rollback = showStockChange({
      productId: detail.product.id,
      branchId,
      stockValue: expectedQuantity(current?.quantity ?? 0, qty),
      reason: reason.trim() || t('receive.defaultReason'),
    });
    try {
      await receive.mutateAsync({ branchId, batchNumber: batchNumber.trim(), expiryDate, quantity: qty, unitCostCents: cost!, reason: reason.trim() || null });
      toast.success(t('receive.done', { count: qty }));
      onOpenChange(false);
    } catch (error) {
      rollback();
      setServerError(errorMessage(error));
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
          <Button type="submit" form={formId} loading={receive.isPending} disabled={isDemo}>
            {t('receive.submit')}
          </Button>
        </>
      }
    >
      <form id={formId} noValidate onSubmit={(event) => void onSubmit(event)} className="grid gap-4 sm:grid-cols-2">
        <Field label={t('receive.branch')} required error={errors.branch}>
          <Select value={branchId} options={branches.map((b) => ({ value: b.branchId, label: b.branchName }))} onChange={(e) => setBranchId(e.target.value)} />
        </Field>
        <Field label={t('receive.batchNumber')} required error={errors.batchNumber}>
          <Input value={batchNumber} maxLength={64} onChange={(e) => setBatchNumber(e.target.value)} />
        </Field>
        <Field label={t('receive.expiryDate')} required error={errors.expiryDate}>
          <Input type="date" value={expiryDate} min={businessDate()} onChange={(e) => setExpiryDate(e.target.value)} />
        </Field>
        <Field label={t('receive.quantity')} required error={errors.quantity}>
          <Input inputMode="numeric" value={quantity} onChange={(e) => setQuantity(e.target.value)} />
        </Field>
        <Field label={t('receive.unitCost')} error={errors.unitCost}>
          <Input inputMode="decimal" value={unitCost} onChange={(e) => setUnitCost(e.target.value)} />
        </Field>
        <Field label={t('receive.reason')}>
          <Input value={reason} maxLength={200} placeholder={t('receive.defaultReason')} onChange={(e) => setReason(e.target.value)} />
        </Field>
        {serverError ? (
          <p role="alert" className="text-sm font-medium text-red-600 sm:col-span-2">
            {serverError}
          </p>
        ) : null}
      </form>
    </Dialog>
  );
}
