import { useEffect, useMemo, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useFieldArray, useForm, useWatch, type Path } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { ArrowLeft, PackagePlus, Plus, Trash2 } from 'lucide-react';
import {
  DEFAULT_PURCHASE_MIN_MARGIN_PERCENT,
  DEFAULT_PURCHASE_TAX_RATE_PERCENT,
  displayPurchaseNumber,
  formTotals,
  PURCHASE_STATUSES,
  purchaseFormSchema,
  type Purchase,
  type PurchaseFormValues,
  type PurchaseItemFormValues,
  type SavePurchase,
} from '@pharmapoint/domain/purchases';
import { Button, buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { Combobox } from '@/components/ui/combobox';
import { ErrorState } from '@/components/ui/error-state';
import { Field } from '@/components/ui/field';
import { applyServerErrors } from '@/components/ui/form';
import { FormActions } from '@/components/ui/form-actions';
import { Input } from '@/components/ui/input';
import { LoadingState } from '@/components/ui/loading-state';
import { PageHeader } from '@/components/ui/page-header';
import { Select } from '@/components/ui/select';
import { Textarea } from '@/components/ui/textarea';
import { errorMessage } from '@/lib/api';
import { formatMoney } from '@/lib/format';
import { toast } from '@/lib/toast';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { usePermissions } from '@/features/auth/hooks/use-permissions';
import { usePurchase, usePurchaseDefaults, useSavePurchase, useSuppliers } from '@/features/purchases/api/purchases';
import { LineProductPicker, type PickedProduct } from '@/features/purchases/components/line-product-picker';
import { NewProductDialog } from '@/features/purchases/components/new-product-dialog';
import { PurchaseStatusBadge } from '@/features/purchases/components/status-badge';
import { useIdempotencyKey } from '@/lib/idempotency';
import '@/features/purchases/purchases-catalogue';

const money = (cents: number) => (cents / 100).toFixed(2);
const percent = (basisPoints: number) => String(basisPoints / 100);

function emptyLine(defaults: { margin: string; tax: string }): PurchaseItemFormValues {
  return { id: '', productId: '', name: '', quantity: '1', purchasePrice: '', sellingPrice: '', maxDiscount: '', minMargin: defaults.margin, expiryDate: '', batchNumber: '', applyTax: false, taxRate: defaults.tax };
}

function valuesOf(purchase: Purchase): PurchaseFormValues {
  return {
    supplierId: purchase.supplierId,
    branchId: purchase.branchId,
    date: purchase.date,
    reference: purchase.reference ?? '',
    notes: purchase.notes ?? '',
    status: purchase.status,
    items: purchase.items.map((item) => ({
      id: item.id,
      productId: item.productId ?? '',
      name: item.name,
      quantity: String(item.quantity),
      purchasePrice: money(item.purchasePriceCents),
      sellingPrice: money(item.sellingPriceCents),
      maxDiscount: item.maxDiscountBasisPoints === null ? '' : percent(item.maxDiscountBasisPoints),
      minMargin: percent(item.minMarginBasisPoints),
      expiryDate: item.expiryDate ?? '',
      batchNumber: item.batchNumber ?? '',
      applyTax: item.applyTax,
      taxRate: percent(item.taxRateBasisPoints),
    })),
  };
}

/** The supplier picker: suppliers of the contacts, searched on the server. */
function SupplierPicker({ value, name, onChange, ...aria }: { value: string; name: string; onChange: (id: string, name: string) => void; id?: string; 'aria-invalid'?: boolean | 'true' | 'false'; 'aria-describedby'?: string }) {
  const { t } = useTranslation('purchases');
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search.trim(), 250);
  const suppliers = useSuppliers(q);
  const items = suppliers.data?.items ?? [];
  const options = items.map((s) => ({ value: s.id, label: s.name }));
  if (value && !options.some((o) => o.value === value)) options.unshift({ value, label: name || t('form.supplier') });
  return (
    <Combobox
      {...aria}
      value={value}
      onValueChange={(id) => onChange(id, items.find((s) => s.id === id)?.name ?? '')}
      options={options}
      placeholder={t('form.chooseSupplier')}
      searchLabel={t('form.searchSupplier')}
      emptyText={t('form.noSuppliers')}
      onSearchChange={setSearch}
      loading={suppliers.isFetching}
      loadingText={t('form.searching')}
    />
  );
}

/**
 * /app/purchases/new and /app/purchases/edit/:id: supplier, date, reference, branch, status and the lines, with the
 * subtotal, tax and total computed as they are typed (and again by the server). A line's product can be created
 * here without leaving the form.
 */
export default function PurchaseFormPage() {
  const { id } = useParams();
  const existing = usePurchase(id);
  if (id && existing.isPending) return <LoadingState />;
  if (id && existing.isError) return <ErrorState message={errorMessage(existing.error)} onRetry={() => void existing.refetch()} />;
  return <PurchaseForm key={existing.data?.id ?? 'new'} purchase={id ? existing.data : undefined} />;
}

function PurchaseForm({ purchase }: { purchase: Purchase | undefined }) {
  const { t } = useTranslation('purchases');
  const navigate = useNavigate();
  const { me, can, isDemo } = usePermissions();
  const defaults = usePurchaseDefaults();
  const save = useSavePurchase();
  const keys = useIdempotencyKey();
  const [serverError, setServerError] = useState<string | null>(null);
  const [supplierName, setSupplierName] = useState(purchase?.supplierName ?? '');
  const [newProductFor, setNewProductFor] = useState<number | null>(null);
  const lineDefaults = useMemo(
    () => ({
      margin: percent(defaults.data?.minMarginBasisPoints ?? DEFAULT_PURCHASE_MIN_MARGIN_PERCENT * 100),
      tax: percent(defaults.data?.taxRateBasisPoints ?? DEFAULT_PURCHASE_TAX_RATE_PERCENT * 100),
    }),
    [defaults.data],
  );
  const form = useForm<PurchaseFormValues, unknown, SavePurchase>({
    resolver: zodResolver(purchaseFormSchema),
    defaultValues: purchase
      ? valuesOf(purchase)
      : { supplierId: '', branchId: me?.branch?.id ?? '', date: '', reference: '', notes: '', status: 'pending', items: [emptyLine(lineDefaults)] },
  });
  const { register, control, handleSubmit, setValue, getValues, setError, formState } = form;
  const errors = formState.errors;
  const lines = useFieldArray({ control, name: 'items' });
  const watched = useWatch({ control, name: 'items' });
  const status = useWatch({ control, name: 'status' });
  const supplierId = useWatch({ control, name: 'supplierId' });
  const totals = formTotals(watched ?? []);
  const today = defaults.data?.today ?? '';

  // The settings' defaults and today's date arrive after the first render of a new purchase.
  useEffect(() => {
    if (purchase || !defaults.data) return;
    if (!getValues('date')) setValue('date', defaults.data.today);
    if (!getValues('branchId') && defaults.data.branchId) setValue('branchId', defaults.data.branchId);
    getValues('items').forEach((line, index) => {
      if (!line.productId) {
        setValue(`items.${index}.minMargin`, lineDefaults.margin);
        setValue(`items.${index}.taxRate`, lineDefaults.tax);
      }
    });
  }, [purchase, defaults.data, getValues, setValue, lineDefaults]);

  function pick(index: number, product: PickedProduct) {
    setValue(`items.${index}.productId`, product.id, { shouldValidate: formState.isSubmitted });
    setValue(`items.${index}.name`, product.name);
    if (!getValues(`items.${index}.purchasePrice`) && product.purchasePriceCents > 0) setValue(`items.${index}.purchasePrice`, money(product.purchasePriceCents));
    if (!getValues(`items.${index}.sellingPrice`) && product.sellingPriceCents > 0) setValue(`items.${index}.sellingPrice`, money(product.sellingPriceCents));
  }

  async function onValid(input: SavePurchase) {
    if (isDemo) return;
    setServerError(null);
    try {
      const result = await save.mutateAsync({ id: purchase?.id, input, key: keys.keyFor(input) });
      toast.success(result.message);
      keys.renew();
      await navigate('/app/purchases/view');
    } catch (error) {
      const fieldOf = (path: string): Path<PurchaseFormValues> | null => {
        const line = /^items\.(\d+)\.(\w+)$/.exec(path);
        if (line) {
          const map: Record<string, string> = { productId: 'productId', quantity: 'quantity', purchasePriceCents: 'purchasePrice', sellingPriceCents: 'sellingPrice', expiryDate: 'expiryDate', batchNumber: 'batchNumber' };
          const field = map[line[2]!];
          return field ? (`items.${line[1]}.${field}` as Path<PurchaseFormValues>) : null;
        }
        return ['supplierId', 'branchId', 'date', 'reference', 'notes', 'status'].includes(path) ? (path as Path<PurchaseFormValues>) : null;
      };
      setServerError(applyServerErrors(error, setError, fieldOf));
      toast.error(purchase ? t('messages.updateFailed') : t('messages.createFailed'));
    }
  }

  const title = purchase ? t('form.editTitle', { number: displayPurchaseNumber(purchase) }) : t('form.newTitle');
  const branches = me?.allowedBranches ?? [];

  return (
    <div className="space-y-6">
      <PageHeader
        title={title}
        description={purchase ? t('form.editDescription') : t('form.newDescription')}
        actions={
          <Link to="/app/purchases/view" className={buttonClasses('outline')}>
            <ArrowLeft className="size-4" aria-hidden="true" />
            {t('form.backToList')}
          </Link>
        }
      />
      <form noValidate aria-label={title} className="space-y-6" onSubmit={(event) => void handleSubmit(onValid)(event)}>
        <Card title={t('form.details')}>
          <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            <Field label={t('form.supplier')} required error={errors.supplierId?.message}>
              <SupplierPicker
                value={supplierId}
                name={supplierName}
                onChange={(supplierId, name) => {
                  setSupplierName(name);
                  setValue('supplierId', supplierId, { shouldValidate: formState.isSubmitted });
                }}
              />
            </Field>
            <Field label={t('form.date')} required error={errors.date?.message}>
              <Input type="date" {...register('date')} />
            </Field>
            <Field label={t('form.reference')} error={errors.reference?.message}>
              <Input maxLength={100} {...register('reference')} />
            </Field>
            <Field label={t('form.branch')} error={errors.branchId?.message}>
              <Select {...register('branchId')} options={branches.map((b) => ({ value: b.id, label: b.name }))} />
            </Field>
            <Field label={t('form.status')} error={errors.status?.message} hint={status === 'received' ? t('form.receivedHint') : undefined}>
              <Select {...register('status')} options={PURCHASE_STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) }))} />
            </Field>
            {purchase ? (
              <div className="flex items-end gap-2 text-sm text-slate-600">
                <span>{t('form.currentStatus')}</span>
                <PurchaseStatusBadge status={purchase.status} />
              </div>
            ) : null}
          </div>
        </Card>

        <Card
          title={t('form.items')}
          actions={
            <Button variant="outline" size="sm" icon={<Plus className="size-4" aria-hidden="true" />} onClick={() => lines.append(emptyLine(lineDefaults))}>
              {t('form.addItem')}
            </Button>
          }
        >
          <ol className="space-y-4">
            {lines.fields.map((line, index) => {
              const e = errors.items?.[index];
              const current = watched?.[index];
              const lineTotal = formTotals(current ? [current] : []);
              const expired = Boolean(current?.expiryDate && today && current.expiryDate < today);
              const received = purchase?.items.find((i) => i.id === current?.id)?.receivedQuantity ?? 0;
              return (
                <li key={line.id} className="min-w-0 rounded-md border border-slate-200 p-3" aria-label={t('form.line', { number: index + 1 })}>
                  <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
                    <h3 className="text-sm font-semibold text-slate-800">
                      {t('form.line', { number: index + 1 })}
                      {received > 0 ? <span className="ml-2 font-normal text-slate-500">{t('form.receivedSoFar', { count: received })}</span> : null}
                    </h3>
                    <div className="flex flex-wrap gap-2">
                      {can('product:create') && !isDemo ? (
                        <Button variant="ghost" size="sm" icon={<PackagePlus className="size-4" aria-hidden="true" />} onClick={() => setNewProductFor(index)}>
                          {t('form.newProduct')}
                        </Button>
                      ) : null}
                      <Button
                        variant="ghost"
                        size="sm"
                        disabled={lines.fields.length === 1}
                        aria-label={t('form.removeLine', { number: index + 1 })}
                        icon={<Trash2 className="size-4" aria-hidden="true" />}
                        onClick={() => lines.remove(index)}
                      >
                        {t('form.remove')}
                      </Button>
                    </div>
                  </div>
                  <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
                    <Field label={t('form.product')} required error={e?.productId?.message} className="sm:col-span-2">
                      <LineProductPicker value={current?.productId ?? ''} name={current?.name ?? ''} onChange={(product) => pick(index, product)} />
                    </Field>
                    <Field label={t('form.quantity')} required error={e?.quantity?.message}>
                      <Input inputMode="numeric" {...register(`items.${index}.quantity`)} />
                    </Field>
                    <Field label={t('form.purchasePrice')} required error={e?.purchasePrice?.message}>
                      <Input inputMode="decimal" {...register(`items.${index}.purchasePrice`)} />
                    </Field>
                    <Field label={t('form.sellingPrice')} required error={e?.sellingPrice?.message}>
                      <Input inputMode="decimal" {...register(`items.${index}.sellingPrice`)} />
                    </Field>
                    <Field label={t('form.maxDiscount')} error={e?.maxDiscount?.message}>
                      <Input inputMode="decimal" {...register(`items.${index}.maxDiscount`)} />
                    </Field>
                    <Field label={t('form.minMargin')} error={e?.minMargin?.message}>
                      <Input inputMode="decimal" {...register(`items.${index}.minMargin`)} />
                    </Field>
                    <Field label={t('form.expiryDate')} error={e?.expiryDate?.message} hint={expired ? t('form.expiredWarning') : undefined}>
                      <Input type="date" {...register(`items.${index}.expiryDate`)} />
                    </Field>
                    <Field label={t('form.batchNumber')} error={e?.batchNumber?.message}>
                      <Input maxLength={64} {...register(`items.${index}.batchNumber`)} />
                    </Field>
                    <Field label={t('form.taxRate')} error={e?.taxRate?.message}>
                      <Input inputMode="decimal" {...register(`items.${index}.taxRate`)} />
                    </Field>
                    <div className="flex items-end pb-2">
                      <Checkbox
                        label={t('form.applyTax')}
                        checked={current?.applyTax ?? false}
                        onCheckedChange={(checked) => setValue(`items.${index}.applyTax`, checked === true)}
                      />
                    </div>
                    <p className="flex items-end pb-2 text-sm text-slate-700" aria-live="polite">
                      {t('form.lineTotal', { total: formatMoney(lineTotal.totalCents) })}
                    </p>
                  </div>
                </li>
              );
            })}
          </ol>
          {errors.items?.message || errors.items?.root?.message ? (
            <p role="alert" className="mt-3 text-sm font-medium text-red-600">
              {errors.items?.message ?? errors.items?.root?.message}
            </p>
          ) : null}
          <dl className="mt-4 ml-auto grid max-w-xs grid-cols-2 gap-x-4 gap-y-1 text-sm" aria-label={t('form.totals')}>
            <dt className="text-slate-600">{t('form.subtotal')}</dt>
            <dd className="text-right tabular-nums" data-testid="purchase-subtotal">{formatMoney(totals.subtotalCents)}</dd>
            <dt className="text-slate-600">{t('form.tax')}</dt>
            <dd className="text-right tabular-nums" data-testid="purchase-tax">{formatMoney(totals.taxCents)}</dd>
            <dt className="font-semibold text-slate-900">{t('form.total')}</dt>
            <dd className="text-right font-semibold tabular-nums" data-testid="purchase-total">{formatMoney(totals.totalCents)}</dd>
          </dl>
        </Card>

        <Card>
          <Field label={t('form.notes')} error={errors.notes?.message}>
            <Textarea rows={3} maxLength={1000} {...register('notes')} />
          </Field>
          <div className="mt-4">
            <FormActions error={serverError} notice={isDemo ? t('demoDisabled') : null}>
              <Link to="/app/purchases/view" className={buttonClasses('outline')}>
                {t('common:actions.cancel')}
              </Link>
              <Button type="submit" loading={save.isPending} disabled={isDemo}>
                {purchase ? t('form.update') : t('form.create')}
              </Button>
            </FormActions>
          </div>
        </Card>
      </form>
      <NewProductDialog
        open={newProductFor !== null}
        onOpenChange={(open) => {
          if (!open) setNewProductFor(null);
        }}
        purchasePrice={newProductFor !== null ? (watched?.[newProductFor]?.purchasePrice ?? '') : ''}
        sellingPrice={newProductFor !== null ? (watched?.[newProductFor]?.sellingPrice ?? '') : ''}
        onCreated={(product) => {
          if (newProductFor !== null) pick(newProductFor, product);
          toast.success(t('newProduct.created', { name: product.name }));
        }}
      />
    </div>
  );
}
