import { useMemo, useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ArrowLeft } from 'lucide-react';
import type { ProductDetailResponse } from '@pharmapoint/domain/products';
import { isLowMargin } from '@pharmapoint/domain/margins';
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
import { Table, TBody, Td, Th, THead, Tr } from '@/components/ui/table';
import { Textarea } from '@/components/ui/textarea';
import { ApiError, errorMessage } from '@/lib/api';
import { formatDateTime, formatMoney, formatPercent } from '@/lib/format';
import { toast } from '@/lib/toast';
import { usePermissions } from '@/features/auth/hooks/use-permissions';
import { useBranches } from '@/features/branches/api/branches';
import { useSettings } from '@/features/settings/api/settings';
import { useCreateProduct, useProduct, useUpdateProduct } from '@/features/products/api/products';
import {
  createInput,
  editInput,
  emptyFormValues,
  fieldOfIssue,
  formValuesOf,
  parseForm,
  rowFigures,
  type BranchRowValues,
  type FormErrors,
  type ProductFormValues,
} from '@/features/products/components/product-form-values';

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
  const update = useUpdateProduct();
  const initial = useMemo(() => (detail ? formValuesOf(detail, branches) : emptyFormValues(branches)), [detail, branches]);
  const [values, setValues] = useState<ProductFormValues>(initial);
  const [errors, setErrors] = useState<FormErrors>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const canManagePrices = can('product:manage_price');
  const saving = create.isPending || update.isPending;
  const editing = detail !== null;

  const set = <K extends keyof ProductFormValues>(key: K, value: ProductFormValues[K]) => {
    setValues((current) => ({ ...current, [key]: value }));
    clearError(key);
  };
  const setRow = (branchId: string, key: keyof BranchRowValues, value: string | boolean) => {
    setValues((current) => ({ ...current, branches: current.branches.map((row) => (row.branchId === branchId ? { ...row, [key]: value } : row)) }));
    clearError(`branches.${branchId}.${key}`);
    if (key === 'offered') clearError('offered');
  };
  function clearError(key: string) {
    setErrors((current) => {
      if (!(key in current)) return current;
      const next = { ...current };
      delete next[key];
      return next;
    });
  }

  function copyFirstRowPrices() {
    setValues((current) => {
      const first = current.branches.find((b) => b.offered);
      if (!first) return current;
      return {
        ...current,
        branches: current.branches.map((row) => ({ ...row, sellingPrice: first.sellingPrice, purchasePrice: first.purchasePrice, minMargin: first.minMargin })),
      };
    });
  }

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (isDemo) return;
    setServerError(null);
    const { parsed, errors: found } = parseForm(values, {
      required: t('validation.required'),
      money: t('validation.money'),
      margin: t('validation.margin'),
      pieces: t('validation.pieces'),
      packageSize: t('validation.packageSize'),
      taxRate: t('validation.taxRate'),
      offered: t('validation.offered'),
    });
    if (!parsed) {
      setErrors(found);
      setServerError(t('form.invalid'));
      return;
    }
    setErrors({});
    try {
      if (!detail) {
        const created = await create.mutateAsync(createInput(parsed, values.priceChangeReason, canManagePrices));
        toast.success(t('form.created', { name: created.product.name }));
        void navigate(`/app/products/history/${created.product.id}`);
      } else {
        const edit = editInput(parsed, detail, values.priceChangeReason, canManagePrices);
        if (Object.keys(edit.product).length === 0 && edit.branches.length === 0) {
          toast.info(t('form.noChanges'));
          return;
        }
        const saved = await update.mutateAsync({ id: detail.product.id, ...edit });
        toast.success(t('form.updated', { name: saved.product.name }));
        void navigate(`/app/products/history/${saved.product.id}`);
      }
    } catch (error) {
      setServerError(errorMessage(error));
      if (error instanceof ApiError) {
        const issues = (error.details as { issues?: { path?: string; message?: string }[] } | undefined)?.issues ?? [];
        const offeredIds = values.branches.filter((b) => b.offered).map((b) => b.branchId);
        const mapped: FormErrors = {};
        for (const issue of issues) {
          const field = fieldOfIssue(issue.path ?? '', offeredIds);
          if (field && issue.message && !mapped[field]) mapped[field] = issue.message;
        }
        setErrors(mapped);
      }
    }
  }

  const categoryOptions = [...new Set([...categories, ...(values.category ? [values.category] : [])])].map((c) => ({ value: c, label: c }));
  const packageOptions = [...new Set([...PACKAGE_TYPES, values.packageType])].map((p) => ({ value: p, label: p }));
  const priceHint = canManagePrices ? undefined : t('form.pricesLocked');

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
      <form noValidate onSubmit={(event) => void onSubmit(event)} className="space-y-6" aria-label={editing ? t('form.editTitle') : t('form.addTitle')}>
        <Card title={t('form.details')}>
          <div className="grid gap-4 md:grid-cols-2 lg:grid-cols-3">
            <Field label={t('fields.name')} required error={errors.name} className="lg:col-span-2">
              <Input value={values.name} maxLength={200} onChange={(e) => set('name', e.target.value)} autoComplete="off" />
            </Field>
            <Field label={t('fields.sku')} error={errors.sku}>
              <Input value={values.sku} maxLength={64} onChange={(e) => set('sku', e.target.value)} autoComplete="off" />
            </Field>
            <Field label={t('fields.barcodes')} hint={t('fields.barcodesHint')} error={errors.barcodes}>
              <Textarea rows={2} value={values.barcodes} onChange={(e) => set('barcodes', e.target.value)} />
            </Field>
            <Field label={t('fields.category')} error={errors.category} hint={categories.length === 0 ? t('fields.noCategories') : undefined}>
              <Select value={values.category} placeholder={t('fields.noCategory')} options={categoryOptions} onChange={(e) => set('category', e.target.value)} />
            </Field>
            <Field label={t('fields.packageSize')} required error={errors.packageSize} hint={t('fields.packageSizeHint')}>
              <Input inputMode="numeric" value={values.packageSize} onChange={(e) => set('packageSize', e.target.value)} />
            </Field>
            <Field label={t('fields.packageType')} required error={errors.packageType}>
              <Select value={values.packageType} options={packageOptions} onChange={(e) => set('packageType', e.target.value)} />
            </Field>
            <Field label={t('fields.unit')} required error={errors.unit}>
              <Input value={values.unit} maxLength={40} onChange={(e) => set('unit', e.target.value)} />
            </Field>
            <div className="space-y-3 pt-1">
              <Checkbox label={t('fields.isDda')} description={t('fields.isDdaHint')} checked={values.isDda} onCheckedChange={(v) => set('isDda', v)} />
              <Checkbox label={t('fields.isActive')} description={t('fields.isActiveHint')} checked={values.isActive} onCheckedChange={(v) => set('isActive', v)} />
            </div>
          </div>
        </Card>

        <Card title={t('form.taxAndStock')}>
          <div className="grid gap-4 md:grid-cols-2 lg:grid-cols-4">
            <div className="pt-7">
              <Checkbox label={t('fields.taxApplied')} checked={values.taxApplied} onCheckedChange={(v) => set('taxApplied', v)} />
            </div>
            <Field label={t('fields.taxRate')} error={errors.taxRate}>
              <Input inputMode="decimal" value={values.taxRate} disabled={!values.taxApplied} onChange={(e) => set('taxRate', e.target.value)} />
            </Field>
            <Field label={t('fields.lowStockThreshold')} error={errors.lowStockThreshold} hint={t('fields.lowStockThresholdHint')}>
              <Input inputMode="numeric" value={values.lowStockThreshold} onChange={(e) => set('lowStockThreshold', e.target.value)} />
            </Field>
            <Field label={t('fields.reorderLevel')} error={errors.reorderLevel}>
              <Input inputMode="numeric" value={values.reorderLevel} onChange={(e) => set('reorderLevel', e.target.value)} />
            </Field>
          </div>
        </Card>

        <Card
          title={t('form.pricing')}
          description={t('form.pricingDescription', { margin: defaultMarginPercent })}
          flush
          actions={
            values.branches.length > 1 ? (
              <Button variant="outline" size="sm" data-demo-allow="" disabled={!canManagePrices} onClick={copyFirstRowPrices}>
                {t('form.copyPrices')}
              </Button>
            ) : null
          }
        >
          <div className="grid gap-4 p-4 md:grid-cols-3">
            <Field label={t('fields.minMargin')} error={errors.minMargin} hint={priceHint ?? t('fields.minMarginHint', { margin: defaultMarginPercent })}>
              <Input inputMode="decimal" value={values.minMargin} disabled={!canManagePrices} placeholder={String(defaultMarginPercent)} onChange={(e) => set('minMargin', e.target.value)} />
            </Field>
            <Field label={t('fields.priceChangeReason')} error={errors.priceChangeReason} hint={t('fields.priceChangeReasonHint')} className="md:col-span-2">
              <Input value={values.priceChangeReason} maxLength={200} disabled={!canManagePrices} onChange={(e) => set('priceChangeReason', e.target.value)} />
            </Field>
          </div>
          {errors.offered ? (
            <p role="alert" className="px-4 pb-2 text-sm font-medium text-red-600">
              {errors.offered}
            </p>
          ) : null}
          <Table caption={t('form.branchTable')}>
            <THead>
              <Tr>
                <Th>{t('branchColumns.branch')}</Th>
                <Th>{t('branchColumns.offered')}</Th>
                <Th>{t('branchColumns.available')}</Th>
                <Th>{t('branchColumns.sellingPrice')}</Th>
                <Th>{t('branchColumns.purchasePrice')}</Th>
                <Th>{t('branchColumns.minMargin')}</Th>
                <Th>{t('branchColumns.lowStock')}</Th>
                <Th numeric>{t('branchColumns.minSellingPrice')}</Th>
                <Th numeric>{t('branchColumns.margin')}</Th>
                <Th numeric>{t('branchColumns.markup')}</Th>
              </Tr>
            </THead>
            <TBody>
              {values.branches.map((row) => {
                const figures = rowFigures(row, values.minMargin, defaultMarginPercent);
                const low = figures ? figures.sellingPriceCents > 0 && isLowMargin(figures.sellingPriceCents, figures.minimumSellingPriceCents) : false;
                const key = `branches.${row.branchId}`;
                const rowError = [errors[`${key}.sellingPrice`], errors[`${key}.purchasePrice`], errors[`${key}.minMargin`], errors[`${key}.lowStockThreshold`]].filter(Boolean);
                return (
                  <Tr key={row.branchId} data-branch-id={row.branchId}>
                    <Th scope="row" className="whitespace-nowrap font-medium normal-case tracking-normal">
                      {row.branchName}
                      {rowError.length > 0 ? (
                        <span role="alert" className="block text-xs font-medium text-red-600">
                          {rowError.join(' ')}
                        </span>
                      ) : null}
                    </Th>
                    <Td>
                      <input
                        type="checkbox"
                        className="size-4 accent-primary"
                        aria-label={t('branchFields.offered', { branch: row.branchName })}
                        checked={row.offered}
                        onChange={(e) => setRow(row.branchId, 'offered', e.target.checked)}
                      />
                    </Td>
                    <Td>
                      <input
                        type="checkbox"
                        className="size-4 accent-primary"
                        aria-label={t('branchFields.available', { branch: row.branchName })}
                        checked={row.isAvailable}
                        disabled={!row.offered}
                        onChange={(e) => setRow(row.branchId, 'isAvailable', e.target.checked)}
                      />
                    </Td>
                    <Td>
                      <Input
                        className="w-28"
                        inputMode="decimal"
                        aria-label={t('branchFields.sellingPrice', { branch: row.branchName })}
                        aria-invalid={Boolean(errors[`${key}.sellingPrice`])}
                        value={row.sellingPrice}
                        placeholder="0.00"
                        disabled={!row.offered || !canManagePrices}
                        onChange={(e) => setRow(row.branchId, 'sellingPrice', e.target.value)}
                      />
                    </Td>
                    <Td>
                      <Input
                        className="w-28"
                        inputMode="decimal"
                        aria-label={t('branchFields.purchasePrice', { branch: row.branchName })}
                        aria-invalid={Boolean(errors[`${key}.purchasePrice`])}
                        value={row.purchasePrice}
                        placeholder="0.00"
                        disabled={!row.offered || !canManagePrices}
                        onChange={(e) => setRow(row.branchId, 'purchasePrice', e.target.value)}
                      />
                    </Td>
                    <Td>
                      <Input
                        className="w-20"
                        inputMode="decimal"
                        aria-label={t('branchFields.minMargin', { branch: row.branchName })}
                        aria-invalid={Boolean(errors[`${key}.minMargin`])}
                        value={row.minMargin}
                        placeholder={values.minMargin || String(defaultMarginPercent)}
                        disabled={!row.offered || !canManagePrices}
                        onChange={(e) => setRow(row.branchId, 'minMargin', e.target.value)}
                      />
                    </Td>
                    <Td>
                      <Input
                        className="w-20"
                        inputMode="numeric"
                        aria-label={t('branchFields.lowStock', { branch: row.branchName })}
                        aria-invalid={Boolean(errors[`${key}.lowStockThreshold`])}
                        value={row.lowStockThreshold}
                        placeholder={values.lowStockThreshold}
                        disabled={!row.offered}
                        onChange={(e) => setRow(row.branchId, 'lowStockThreshold', e.target.value)}
                      />
                    </Td>
                    <Td numeric>
                      <output aria-label={t('branchFields.minSellingPrice', { branch: row.branchName })} aria-live="polite">
                        {figures ? formatMoney(figures.minimumSellingPriceCents) : '—'}
                      </output>
                      {low ? <span className="block text-xs font-medium text-red-600">{t('form.belowMinimum')}</span> : null}
                    </Td>
                    <Td numeric>
                      <output aria-label={t('branchFields.margin', { branch: row.branchName })}>
                        {figures?.marginPercent != null ? formatPercent(figures.marginPercent) : '—'}
                      </output>
                    </Td>
                    <Td numeric>
                      <output aria-label={t('branchFields.markup', { branch: row.branchName })}>
                        {figures?.markupPercent != null ? formatPercent(figures.markupPercent) : '—'}
                      </output>
                    </Td>
                  </Tr>
                );
              })}
            </TBody>
          </Table>
          {editing && detail.product.lastPriceUpdateAt ? (
            <p className="px-4 py-3 text-xs text-slate-500">
              {t('form.lastPriceChange', {
                at: formatDateTime(detail.product.lastPriceUpdateAt),
                reason: detail.product.lastPriceUpdateReason ?? '—',
              })}
            </p>
          ) : null}
        </Card>

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
