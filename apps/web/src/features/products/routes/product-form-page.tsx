import { useMemo, useState } from 'react';
import { Controller, useForm, useWatch, type Path } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link, useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ArrowLeft } from 'lucide-react';
import {
  PRODUCT_LIMITS,
  productFormSchema,
  sameProductName,
  type ProductDetailResponse,
  type ProductFormOutput,
  type ProductFormValues,
} from '@pharmapoint/domain/products';
import { isLowMargin } from '@pharmapoint/domain/margins';
import { isExpired } from '@pharmapoint/domain/stock';
import { DEFAULT_MIN_MARGIN_PERCENT } from '@pharmapoint/domain/margins';
import { Button, buttonClasses } from '@/components/ui/button';
import { FormActions } from '@/components/ui/form-actions';
import { Card } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { ErrorState } from '@/components/ui/error-state';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { LoadingState } from '@/components/ui/loading-state';
import { PageHeader } from '@/components/ui/page-header';
import { Select } from '@/components/ui/select';
import { Textarea } from '@/components/ui/textarea';
import { applyServerErrors, LengthHint } from '@/components/ui/form';
import { errorMessage } from '@/lib/api';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { formatDate, formatDateTime, formatMoney, formatPercent, pharmacyToday } from '@/lib/format';
import { toast } from '@/lib/toast';
import { usePermissions } from '@/features/auth/hooks/use-permissions';
import { useBranches } from '@/features/branches/api/branches';
import { useSettings } from '@/features/settings/api/settings';
import { useCreateProduct, useProduct, useProducts, useUpdateProduct } from '@/features/products/api/products';
import { createInput, editInput, emptyFormValues, fieldOfIssue, formValuesOf, readForm, rowFigures } from '@/features/products/components/product-form-values';
import { useIdempotencyKey } from '@/lib/idempotency';

const PACKAGE_TYPES = ['pieces', 'tablets', 'capsules', 'bottle', 'box', 'strip', 'sachet', 'tube', 'vial', 'ampoule', 'pack'];

/** /app/products/add and /app/products/edit/:id. */
export default function ProductFormPage() {
  const { t } = useTranslation('products');
  const { id } = useParams();
  const product = useProduct(id);
  const branches = useBranches();
  const settings = useSettings();

  const title = id ? t('form.editTitle') : t('form.addTitle');
  const pending = branches.isPending || settings.isPending || (id !== undefined && product.isPending);
  const failed = branches.error ?? settings.error ?? (id ? product.error : null);
  if (pending) return <LoadingState message={t('form.loading')} />;
  if (failed) {
    return (
      <div>
        <PageHeader title={title} />
        <ErrorState
          message={`${t('form.loadFailed')} ${errorMessage(failed)}`}
          onRetry={() => {
            void branches.refetch();
            void settings.refetch();
            if (id) void product.refetch();
          }}
        />
      </div>
    );
  }
  const activeBranches = (branches.data ?? []).filter((b) => b.isActive).map((b) => ({ id: b.id, name: b.name }));
  return (
    <ProductForm
      key={id ? `${id}:${product.dataUpdatedAt}` : 'new'}
      detail={id ? (product.data ?? null) : null}
      branches={activeBranches}
      categories={settings.data?.settings.categories ?? []}
      defaultMarginPercent={settings.data?.settings.defaultMinMargin || DEFAULT_MIN_MARGIN_PERCENT}
    />
  );
}

function ProductForm({
  detail,
  branches,
  categories,
  defaultMarginPercent,
}: {
  detail: ProductDetailResponse | null;
  branches: { id: string; name: string }[];
  categories: string[];
  defaultMarginPercent: number;
}) {
  const { t } = useTranslation('products');
  const navigate = useNavigate();
  const { can, isDemo } = usePermissions();
  const create = useCreateProduct();
  const keys = useIdempotencyKey();
  const update = useUpdateProduct();
  const initial = useMemo(() => (detail ? formValuesOf(detail, branches) : emptyFormValues(branches)), [detail, branches]);
  const form = useForm<ProductFormValues, unknown, ProductFormOutput>({ resolver: zodResolver(productFormSchema), defaultValues: initial });
  const { register, control, handleSubmit, setError, getValues, setValue, formState } = form;
  const errors = formState.errors;
  const values = useWatch({ control }) as ProductFormValues;
  const [serverError, setServerError] = useState<string | null>(null);
  const canManagePrices = can('product:manage_price');
  const saving = create.isPending || update.isPending;
  const editing = detail !== null;
  const duplicate = useDuplicateName(values.name, detail?.product.id);

  function copyFirstRowPrices() {
    const rows = getValues('branches');
    const first = rows.find((b) => b.offered);
    if (!first) return;
    rows.forEach((_, i) => {
      setValue(`branches.${i}.sellingPrice`, first.sellingPrice);
      setValue(`branches.${i}.purchasePrice`, first.purchasePrice);
      setValue(`branches.${i}.minMargin`, first.minMargin);
    });
  }

  async function onValid(output: ProductFormOutput) {
    if (isDemo) return;
    if (openingExpired) {
      setError('openingStock.expiryDate', { message: t('opening.expired', { date: formatDate(opening!.expiryDate) }) });
      return;
    }
    setServerError(null);
    const parsed = readForm(output);
    const reason = output.priceChangeReason;
    try {
      if (!detail) {
        const input = createInput(parsed, reason, canManagePrices);
        const created = await create.mutateAsync({ input, key: keys.keyFor(input) });
        toast.success(t('form.created', { name: created.product.name }));
        void navigate(`/app/products/history/${created.product.id}`);
      } else {
        const edit = editInput(parsed, detail, reason, canManagePrices);
        if (Object.keys(edit.product).length === 0 && edit.branches.length === 0) {
          toast.info(t('form.noChanges'));
          return;
        }
        const saved = await update.mutateAsync({ id: detail.product.id, ...edit });
        toast.success(t('form.updated', { name: saved.product.name }));
        void navigate(`/app/products/history/${saved.product.id}`);
      }
    } catch (error) {
      const offeredRows = getValues('branches').flatMap((b, i) => (b.offered ? [i] : []));
      setServerError(applyServerErrors(error, setError, (path) => fieldOfIssue(path, offeredRows) as Path<ProductFormValues> | null) || errorMessage(error));
    }
  }

  const onSubmit = handleSubmit(onValid, () => setServerError(t('form.invalid')));
  const categoryOptions = [...new Set([...categories, ...(values.category ? [values.category] : [])])].map((c) => ({ value: c, label: c }));
  const packageOptions = [...new Set([...PACKAGE_TYPES, values.packageType])].map((p) => ({ value: p, label: p }));
  const priceHint = canManagePrices ? undefined : t('form.pricesLocked');
  const offeredError = (errors as { offered?: { message?: string } }).offered?.message;
  // Opening stock is receiving stock: Add Product offers it to users who may receive stock (inventory:update).
  const canReceiveStock = !editing && can('inventory:update');
  const opening = values.openingStock;
  const today = pharmacyToday();
  const openingExpired = opening !== undefined && /^\d{4}-\d{2}-\d{2}$/.test(opening.expiryDate) && isExpired(opening.expiryDate, today);
  const openingErrors = errors.openingStock;

  return (
    <div>
      <PageHeader
        title={editing ? t('form.editTitle') : t('form.addTitle')}
        description={editing ? detail.product.name : t('form.addDescription')}
        eyebrow={
          <Link to="/app/products" className="inline-flex items-center gap-1 hover:text-primary">
            <ArrowLeft className="size-4" aria-hidden="true" />
            {t('form.backToProducts')}
          </Link>
        }
      />
      <form noValidate onSubmit={(event) => void onSubmit(event)} className="min-w-0 space-y-6" aria-label={editing ? t('form.editTitle') : t('form.addTitle')}>
        <Card title={t('form.details')}>
          <div className="grid gap-4 md:grid-cols-2 lg:grid-cols-3">
            <div className="space-y-1.5 lg:col-span-2">
              <Field
                label={t('fields.name')}
                required
                error={errors.name?.message}
                hint={<LengthHint length={values.name.length} max={PRODUCT_LIMITS.name}>{t('fields.nameHint', { max: PRODUCT_LIMITS.name })}</LengthHint>}
              >
                <Input {...register('name')} maxLength={PRODUCT_LIMITS.name} autoComplete="off" />
              </Field>
              {duplicate ? (
                <p role="status" className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-xs text-amber-900">
                  {t('form.duplicateName', { name: duplicate })}
                </p>
              ) : null}
            </div>
            <Field label={t('fields.sku')} error={errors.sku?.message}>
              <Input {...register('sku')} maxLength={PRODUCT_LIMITS.sku} autoComplete="off" />
            </Field>
            <Field label={t('fields.barcodes')} hint={t('fields.barcodesHint')} error={errors.barcodes?.message}>
              <Textarea rows={2} {...register('barcodes')} />
            </Field>
            <Field label={t('fields.category')} error={errors.category?.message} hint={categories.length === 0 ? t('fields.noCategories') : undefined}>
              <Select {...register('category')} placeholder={t('fields.noCategory')} options={categoryOptions} />
            </Field>
            <Field label={t('fields.packageSize')} required error={errors.packageSize?.message} hint={t('fields.packageSizeHint')}>
              <Input inputMode="numeric" {...register('packageSize')} />
            </Field>
            <Field label={t('fields.packageType')} required error={errors.packageType?.message}>
              <Select {...register('packageType')} options={packageOptions} />
            </Field>
            <Field label={t('fields.unit')} required error={errors.unit?.message}>
              <Input {...register('unit')} maxLength={PRODUCT_LIMITS.unit} />
            </Field>
            <div className="space-y-3 pt-1">
              <Controller
                control={control}
                name="isDda"
                render={({ field }) => <Checkbox label={t('fields.isDda')} description={t('fields.isDdaHint')} checked={field.value} onCheckedChange={field.onChange} />}
              />
              <Controller
                control={control}
                name="isActive"
                render={({ field }) => <Checkbox label={t('fields.isActive')} description={t('fields.isActiveHint')} checked={field.value} onCheckedChange={field.onChange} />}
              />
            </div>
          </div>
        </Card>

        <Card title={t('form.taxAndStock')}>
          <div className="grid gap-4 md:grid-cols-2 lg:grid-cols-4">
            <div className="pt-7">
              <Controller
                control={control}
                name="taxApplied"
                render={({ field }) => <Checkbox label={t('fields.taxApplied')} checked={field.value} onCheckedChange={field.onChange} />}
              />
            </div>
            <Field label={t('fields.taxRate')} error={errors.taxRate?.message}>
              <Input inputMode="decimal" {...register('taxRate')} disabled={!values.taxApplied} />
            </Field>
            <Field label={t('fields.lowStockThreshold')} error={errors.lowStockThreshold?.message} hint={t('fields.lowStockThresholdHint')}>
              <Input inputMode="numeric" {...register('lowStockThreshold')} />
            </Field>
            <Field label={t('fields.reorderLevel')} error={errors.reorderLevel?.message}>
              <Input inputMode="numeric" {...register('reorderLevel')} />
            </Field>
          </div>
        </Card>

        <Card
          title={t('form.pricing')}
          description={t('form.pricingDescription', { margin: defaultMarginPercent })}
          flush
          actions={
            values.branches.length > 1 ? (
              <Button variant="outline" size="sm" disabled={!canManagePrices} onClick={copyFirstRowPrices}>
                {t('form.copyPrices')}
              </Button>
            ) : null
          }
        >
          <div className="grid gap-4 p-4 md:grid-cols-3">
            <Field label={t('fields.minMargin')} error={errors.minMargin?.message} hint={priceHint ?? t('fields.minMarginHint', { margin: defaultMarginPercent })}>
              <Input inputMode="decimal" {...register('minMargin')} disabled={!canManagePrices} placeholder={String(defaultMarginPercent)} />
            </Field>
            <Field label={t('fields.priceChangeReason')} error={errors.priceChangeReason?.message} hint={t('fields.priceChangeReasonHint')} className="md:col-span-2">
              <Input {...register('priceChangeReason')} maxLength={PRODUCT_LIMITS.reason} disabled={!canManagePrices} />
            </Field>
          </div>
          {offeredError ? (
            <p role="alert" className="px-4 pb-2 text-sm font-medium text-red-600">
              {offeredError}
            </p>
          ) : null}
          {/* One block per branch that wraps on a phone (no sideways scrolling at 360 px) and lines up as a row on a wide screen. */}
          <ul aria-label={t('form.branchTable')} className="divide-y divide-slate-200 border-t border-slate-200">
            {values.branches.map((row, i) => {
              const figures = rowFigures(row, values.minMargin, defaultMarginPercent);
              const low = figures ? figures.sellingPriceCents > 0 && isLowMargin(figures.sellingPriceCents, figures.minimumSellingPriceCents) : false;
              const rowErrors = errors.branches?.[i];
              const rowError = [rowErrors?.sellingPrice, rowErrors?.purchasePrice, rowErrors?.minMargin, rowErrors?.lowStockThreshold].flatMap((e) => (e?.message ? [e.message] : []));
              const id = (field: string) => `branch-${row.branchId}-${field}`;
              // A short visible label; the control's name says the branch too ('Selling price (KSh), Main Branch').
              const label = (key: string, field: string) => (
                <label htmlFor={id(field)} className="block text-xs font-medium text-slate-600">
                  {t(`branchColumns.${key}`)}
                </label>
              );
              const named = (key: string) => t(`branchFields.${key}`, { branch: row.branchName });
              return (
                <li key={row.branchId} data-branch-id={row.branchId} className="space-y-3 p-4">
                  <div className="flex flex-wrap items-center gap-x-6 gap-y-2">
                    <h3 className="mr-auto text-sm font-semibold text-slate-900">{row.branchName}</h3>
                    <label className="flex items-center gap-2 text-sm text-slate-700">
                      <input type="checkbox" className="size-4 accent-primary" aria-label={t('branchFields.offered', { branch: row.branchName })} {...register(`branches.${i}.offered`)} />
                      <span aria-hidden="true">{t('branchColumns.offered')}</span>
                    </label>
                    <label className="flex items-center gap-2 text-sm text-slate-700">
                      <input
                        type="checkbox"
                        className="size-4 accent-primary"
                        aria-label={t('branchFields.available', { branch: row.branchName })}
                        disabled={!row.offered}
                        {...register(`branches.${i}.isAvailable`)}
                      />
                      <span aria-hidden="true">{t('branchColumns.available')}</span>
                    </label>
                  </div>
                  <div className="grid grid-cols-2 gap-3 sm:grid-cols-4 lg:grid-cols-7">
                    <div className="space-y-1">
                      {label('sellingPrice', 'selling')}
                      <Input id={id('selling')} aria-label={named('sellingPrice')} inputMode="decimal" aria-invalid={Boolean(rowErrors?.sellingPrice)} placeholder="0.00" disabled={!row.offered || !canManagePrices} {...register(`branches.${i}.sellingPrice`)} />
                    </div>
                    <div className="space-y-1">
                      {label('purchasePrice', 'purchase')}
                      <Input id={id('purchase')} aria-label={named('purchasePrice')} inputMode="decimal" aria-invalid={Boolean(rowErrors?.purchasePrice)} placeholder="0.00" disabled={!row.offered || !canManagePrices} {...register(`branches.${i}.purchasePrice`)} />
                    </div>
                    <div className="space-y-1">
                      {label('minMargin', 'margin')}
                      <Input
                        id={id('margin')} aria-label={named('minMargin')}
                        inputMode="decimal"
                        aria-invalid={Boolean(rowErrors?.minMargin)}
                        placeholder={values.minMargin || String(defaultMarginPercent)}
                        disabled={!row.offered || !canManagePrices}
                        {...register(`branches.${i}.minMargin`)}
                      />
                    </div>
                    <div className="space-y-1">
                      {label('lowStock', 'low')}
                      <Input id={id('low')} aria-label={named('lowStock')} inputMode="numeric" aria-invalid={Boolean(rowErrors?.lowStockThreshold)} placeholder={values.lowStockThreshold} disabled={!row.offered} {...register(`branches.${i}.lowStockThreshold`)} />
                    </div>
                    <div className="space-y-1 text-sm">
                      <span className="block text-xs font-medium text-slate-600" aria-hidden="true">{t('branchColumns.minSellingPrice')}</span>
                      <output className="block py-2 tabular-nums" aria-label={t('branchFields.minSellingPrice', { branch: row.branchName })} aria-live="polite">
                        {figures ? formatMoney(figures.minimumSellingPriceCents) : '—'}
                      </output>
                      {low ? <span className="block text-xs font-medium text-red-600">{t('form.belowMinimum')}</span> : null}
                    </div>
                    <div className="space-y-1 text-sm">
                      <span className="block text-xs font-medium text-slate-600" aria-hidden="true">{t('branchColumns.margin')}</span>
                      <output className="block py-2 tabular-nums" aria-label={t('branchFields.margin', { branch: row.branchName })}>
                        {figures?.marginPercent != null ? formatPercent(figures.marginPercent) : '—'}
                      </output>
                    </div>
                    <div className="space-y-1 text-sm">
                      <span className="block text-xs font-medium text-slate-600" aria-hidden="true">{t('branchColumns.markup')}</span>
                      <output className="block py-2 tabular-nums" aria-label={t('branchFields.markup', { branch: row.branchName })}>
                        {figures?.markupPercent != null ? formatPercent(figures.markupPercent) : '—'}
                      </output>
                    </div>
                  </div>
                  {rowError.length > 0 ? (
                    <p role="alert" className="text-xs font-medium text-red-600">
                      {rowError.join(' ')}
                    </p>
                  ) : null}
                </li>
              );
            })}
          </ul>
          {editing && detail.product.lastPriceUpdateAt ? (
            <p className="px-4 py-3 text-xs text-slate-500">
              {t('form.lastPriceChange', {
                at: formatDateTime(detail.product.lastPriceUpdateAt),
                reason: detail.product.lastPriceUpdateReason ?? '—',
              })}
            </p>
          ) : null}
        </Card>

        {canReceiveStock ? (
          <Card title={t('opening.title')} description={t('opening.description')} aria-label={t('opening.title')}>
            <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
              {branches.length > 1 ? (
                <Field label={t('opening.branch')} error={openingErrors?.branchId?.message} className="sm:col-span-2 lg:col-span-4">
                  <Select {...register('openingStock.branchId')} placeholder={t('opening.sessionBranch')} options={branches.map((b) => ({ value: b.id, label: b.name }))} />
                </Field>
              ) : null}
              <Field label={t('opening.quantity')} error={openingErrors?.quantity?.message}>
                <Input inputMode="numeric" {...register('openingStock.quantity')} />
              </Field>
              <Field label={t('opening.batchNumber')} error={openingErrors?.batchNumber?.message}>
                <Input {...register('openingStock.batchNumber')} maxLength={64} autoComplete="off" />
              </Field>
              <Field label={t('opening.expiryDate')} error={openingErrors?.expiryDate?.message}>
                <Input type="date" {...register('openingStock.expiryDate')} min={today} />
              </Field>
              <Field label={t('opening.unitCost')} error={openingErrors?.unitCost?.message}>
                <Input inputMode="decimal" placeholder="0.00" {...register('openingStock.unitCost')} />
              </Field>
              {openingExpired && !openingErrors?.expiryDate ? (
                <p role="alert" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900 sm:col-span-2 lg:col-span-4">
                  {t('opening.expired', { date: formatDate(opening.expiryDate) })}
                </p>
              ) : null}
            </div>
          </Card>
        ) : null}

        <FormActions error={serverError} notice={isDemo ? t('form.demoDisabled') : null}>
          <Link to={editing ? `/app/products/history/${detail.product.id}` : '/app/products'} className={buttonClasses('outline')}>
            {t('form.cancel')}
          </Link>
          <Button type="submit" loading={saving} disabled={isDemo}>
            {editing ? t('form.saveChanges') : t('form.create')}
          </Button>
        </FormActions>
      </form>
    </div>
  );
}

/**
 * Another product with the same name (case, spaces and accents aside), found as the name is typed: a warning,
 * never a refusal — two strengths or suppliers may share a name (decision 0033).
 */
function useDuplicateName(name: string, ownId: string | undefined): string | null {
  const [typed] = useDebouncedValue(name.trim().replace(/\s+/g, ' '), 400);
  const search = useProducts({ q: typed.slice(0, 100), limit: 10, sort: 'name' }, { enabled: typed.length >= 2 });
  if (typed.length < 2 || !sameProductName(typed, name)) return null;
  const match = search.data?.items.find((p) => p.id !== ownId && sameProductName(p.name, typed));
  return match ? match.name : null;
}
