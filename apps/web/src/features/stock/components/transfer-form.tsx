import { useEffect, useState } from 'react';
import { useFieldArray, useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { Plus, Trash2 } from 'lucide-react';
import { createTransferSchema, isSameBranchTransfer, SAME_BRANCH_TRANSFER_MESSAGE, type CreateTransferInput } from '@pharmapoint/domain/stock';
import { Button } from '@/components/ui/button';
import { FormActions } from '@/components/ui/form-actions';
import { Card } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { applyServerErrors } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { Table, TBody, Td, Th, THead, Tr } from '@/components/ui/table';
import { Textarea } from '@/components/ui/textarea';
import { formatDate, formatNumber } from '@/lib/format';
import { useIdempotencyKey } from '@/lib/idempotency';
import { toast } from '@/lib/toast';
import { usePermissions } from '@/features/auth/hooks/use-permissions';
import { useProduct } from '@/features/products/api/products';
import { useCreateTransfer } from '@/features/stock/api/stock';
import { ProductPicker } from '@/features/stock/components/product-picker';

/** The request the form builds, checked by the domain's createTransferSchema and the same-branch rule. */
const transferFormSchema = createTransferSchema.superRefine((input, ctx) => {
  if (input.fromBranchId && input.toBranchId && isSameBranchTransfer(input)) ctx.addIssue({ code: 'custom', path: ['toBranchId'], message: SAME_BRANCH_TRANSFER_MESSAGE });
});

/** What a line shows beside its request fields. */
interface LineLabel {
  productName: string;
  batchLabel: string;
}

/**
 * A new transfer: from and to branch, lines of product (and batch) and quantity. A line's quantity is checked as
 * it is typed against the pieces the source branch (or the chosen batch) still holds after the lines above it.
 */
export function TransferForm({ branches }: { branches: { id: string; name: string }[] }) {
  const { t } = useTranslation('stock');
  const { me, isDemo } = usePermissions();
  const create = useCreateTransfer();
  const keys = useIdempotencyKey();
  const allowed = me?.allowedBranches ?? [];
  const defaultFrom = me?.branch?.id ?? allowed[0]?.id ?? '';
  const form = useForm<CreateTransferInput>({
    resolver: zodResolver(transferFormSchema),
    defaultValues: { fromBranchId: defaultFrom, toBranchId: branches.find((b) => b.id !== defaultFrom)?.id ?? '', note: '', items: [] },
  });
  const { register, control, handleSubmit, setError, setValue, getValues, reset, formState } = form;
  const errors = formState.errors;
  const items = useFieldArray({ control, name: 'items' });
  // The user's branch may arrive after the first render: it is the default source, the first other branch the target.
  useEffect(() => {
    if (!defaultFrom || getValues('fromBranchId')) return;
    setValue('fromBranchId', defaultFrom);
    if (!getValues('toBranchId')) setValue('toBranchId', branches.find((b) => b.id !== defaultFrom)?.id ?? '');
  }, [defaultFrom, branches, getValues, setValue]);
  const [labels, setLabels] = useState<LineLabel[]>([]);
  const fromBranchId = useWatch({ control, name: 'fromBranchId' });
  const lines = useWatch({ control, name: 'items' });
  const [productId, setProductId] = useState('');
  const [productName, setProductName] = useState('');
  const [batchId, setBatchId] = useState('');
  const [quantity, setQuantity] = useState('');
  const [lineErrors, setLineErrors] = useState<{ product?: string; quantity?: string }>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const detail = useProduct(productId || undefined);
  const sourceRow = detail.data?.branches.find((b) => b.branchId === fromBranchId);
  const batches = (detail.data?.batches ?? []).filter((b) => b.branchId === fromBranchId && !b.isExpired && b.quantity > 0);
  const batch = batches.find((b) => b.id === batchId);

  // Pieces still free for a new line: the batch's (or the branch's sellable) stock less the lines already added.
  const onHand = detail.data ? (batch ? batch.quantity : (sourceRow?.quantity ?? 0)) : undefined;
  const taken = lines.filter((l) => l.productId === productId && (!batchId || !l.batchId || l.batchId === batchId)).reduce((sum, l) => sum + l.quantity, 0);
  const free = onHand === undefined ? undefined : Math.max(0, onHand - taken);
  const typed = quantity.trim();
  const qty = /^\d+$/.test(typed) ? Number(typed) : NaN;
  const tooMany = free !== undefined && productId !== '' && qty > free;
  const quantityError = lineErrors.quantity ?? (tooMany ? t('validation.tooMany', { count: free }) : undefined);

  function addLine() {
    const found: typeof lineErrors = {};
    if (!productId) found.product = t('validation.product');
    if (!(qty >= 1)) found.quantity = t('validation.quantity');
    setLineErrors(found);
    if (found.product || found.quantity || tooMany) return;
    items.append(batchId ? { productId, quantity: qty, batchId } : { productId, quantity: qty });
    setLabels((current) => [
      ...current,
      {
        productName: productName || detail.data?.product.name || '',
        batchLabel: batch ? `${batch.batchNumber ?? t('adjust.unbatched')}${batch.expiryDate ? ` · ${formatDate(batch.expiryDate)}` : ''}` : t('transfer.fefo'),
      },
    ]);
    setProductId('');
    setProductName('');
    setBatchId('');
    setQuantity('');
  }

  function removeLine(index: number) {
    items.remove(index);
    setLabels((current) => current.filter((_, i) => i !== index));
  }

  async function onValid(input: CreateTransferInput) {
    if (isDemo) return;
    setServerError(null);
    try {
      const body = { ...input, note: input.note?.trim() || null };
      await create.mutateAsync({ input: body, key: keys.keyFor(body) });
      keys.renew();
      toast.success(t('transfer.created'));
      reset({ ...input, note: '', items: [] });
      setLabels([]);
    } catch (error) {
      setServerError(
        applyServerErrors(error, setError, (path) =>
          path === 'fromBranchId' || path === 'toBranchId' || path === 'note' || path === 'items' ? path : /^items\.\d+\.quantity$/.test(path) ? (path as `items.${number}.quantity`) : null,
        ),
      );
    }
  }

  return (
    <Card title={t('transfer.newTitle')} description={t('transfer.newDescription')}>
      <form noValidate onSubmit={(event) => void handleSubmit(onValid)(event)} className="space-y-4" aria-label={t('transfer.newTitle')}>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label={t('transfer.from')} required error={errors.fromBranchId?.message}>
            <Select
              {...register('fromBranchId', { onChange: () => setBatchId('') })}
              options={allowed.map((b) => ({ value: b.id, label: b.name }))}
            />
          </Field>
          <Field label={t('transfer.to')} required error={errors.toBranchId?.message}>
            <Select {...register('toBranchId')} placeholder={t('transfer.chooseBranch')} options={branches.map((b) => ({ value: b.id, label: b.name }))} />
          </Field>
        </div>

        <fieldset className="min-w-0 space-y-3 rounded-md border border-slate-200 p-3">
          <legend className="px-1 text-sm font-medium text-slate-700">{t('transfer.addLine')}</legend>
          <ProductPicker
            idPrefix="transfer"
            value={productId}
            error={lineErrors.product}
            onChange={(id, name) => {
              setProductId(id);
              setProductName(name);
              setBatchId('');
              setLineErrors({});
            }}
          />
          <div className="grid gap-3 sm:grid-cols-3">
            <Field label={t('transfer.batch')} hint={free !== undefined ? t('transfer.available', { count: free }) : undefined}>
              <Select
                value={batchId}
                placeholder={t('transfer.fefo')}
                options={batches.map((b) => ({
                  value: b.id,
                  label: `${b.batchNumber ?? t('adjust.unbatched')}${b.expiryDate ? ` · ${t('adjust.expires', { date: formatDate(b.expiryDate) })}` : ''} · ${t('adjust.pieces', { count: b.quantity })}`,
                }))}
                onChange={(e) => setBatchId(e.target.value)}
              />
            </Field>
            <Field label={t('transfer.quantity')} required error={quantityError}>
              <Input
                inputMode="numeric"
                value={quantity}
                onChange={(e) => {
                  setQuantity(e.target.value);
                  setLineErrors((current) => ({ ...current, quantity: undefined }));
                }}
                onKeyDown={(e) => {
                  if (e.key === 'Enter') {
                    e.preventDefault();
                    addLine();
                  }
                }}
              />
            </Field>
            <div className="flex items-end">
              <Button variant="outline" disabled={tooMany} icon={<Plus className="size-4" aria-hidden="true" />} onClick={addLine}>
                {t('transfer.addItem')}
              </Button>
            </div>
          </div>
        </fieldset>

        {items.fields.length > 0 ? (
          <Table caption={t('transfer.linesCaption')} showCaption>
            <THead>
              <Tr>
                <Th>{t('list.product')}</Th>
                <Th>{t('list.batch')}</Th>
                <Th numeric>{t('transfer.quantity')}</Th>
                <Th className="text-right">{t('transfer.actions')}</Th>
              </Tr>
            </THead>
            <TBody>
              {items.fields.map((line, index) => {
                const label = labels[index];
                const lineError = errors.items?.[index]?.quantity?.message;
                return (
                  <Tr key={line.id}>
                    <Td>
                      {label?.productName}
                      {lineError ? (
                        <span role="alert" className="block text-xs font-medium text-red-600">
                          {lineError}
                        </span>
                      ) : null}
                    </Td>
                    <Td>{label?.batchLabel}</Td>
                    <Td numeric>{formatNumber(line.quantity)}</Td>
                    <Td className="text-right">
                      <Button
                        variant="ghost"
                        size="sm"
                        aria-label={t('transfer.removeLine', { name: label?.productName ?? '' })}
                        icon={<Trash2 className="size-4" aria-hidden="true" />}
                        onClick={() => removeLine(index)}
                      >
                        {t('transfer.remove')}
                      </Button>
                    </Td>
                  </Tr>
                );
              })}
            </TBody>
          </Table>
        ) : (
          <p className={errors.items ? 'text-sm font-medium text-red-600' : 'text-sm text-slate-500'} role={errors.items ? 'alert' : undefined}>
            {errors.items?.message ?? errors.items?.root?.message ?? t('transfer.noLines')}
          </p>
        )}

        <Field label={t('transfer.note')} error={errors.note?.message}>
          <Textarea rows={2} maxLength={500} {...register('note')} />
        </Field>

        <FormActions error={serverError} notice={isDemo ? t('demoDisabled') : null}>
          <Button type="submit" loading={create.isPending} disabled={isDemo}>
            {t('transfer.submit')}
          </Button>
        </FormActions>
      </form>
    </Card>
  );
}
