import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Plus, Trash2 } from 'lucide-react';
import { isSameBranchTransfer, SAME_BRANCH_TRANSFER_MESSAGE } from '@pharmapoint/domain/stock';
import { Button } from '@/components/ui/button';
import { FormActions } from '@/components/ui/form-actions';
import { Card } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { Table, TBody, Td, Th, THead, Tr } from '@/components/ui/table';
import { Textarea } from '@/components/ui/textarea';
import { errorMessage } from '@/lib/api';
import { formatDate, formatNumber } from '@/lib/format';
import { toast } from '@/lib/toast';
import { usePermissions } from '@/features/auth/hooks/use-permissions';
import { useProduct } from '@/features/products/api/products';
import { useCreateTransfer } from '@/features/stock/api/stock';
import { ProductPicker } from '@/features/stock/components/product-picker';

interface Line {
  key: string;
  productId: string;
  productName: string;
  batchId: string;
  batchLabel: string;
  quantity: number;
}

/** A new transfer: from and to branch, lines of product (and batch) and quantity. */
export function TransferForm({ branches }: { branches: { id: string; name: string }[] }) {
  const { t } = useTranslation('stock');
  const { me, isDemo } = usePermissions();
  const create = useCreateTransfer();
  const allowed = me?.allowedBranches ?? [];
  const [fromBranchId, setFromBranchId] = useState(me?.branch?.id ?? allowed[0]?.id ?? '');
  const [toBranchId, setToBranchId] = useState(() => branches.find((b) => b.id !== (me?.branch?.id ?? allowed[0]?.id))?.id ?? '');
  const [note, setNote] = useState('');
  const [lines, setLines] = useState<Line[]>([]);
  const [productId, setProductId] = useState('');
  const [productName, setProductName] = useState('');
  const [batchId, setBatchId] = useState('');
  const [quantity, setQuantity] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const detail = useProduct(productId || undefined);
  const sourceRow = detail.data?.branches.find((b) => b.branchId === fromBranchId);
  const batches = (detail.data?.batches ?? []).filter((b) => b.branchId === fromBranchId && !b.isExpired && b.quantity > 0);

  function addLine() {
    const found: Record<string, string> = {};
    if (!productId) found.product = t('validation.product');
    const qty = /^\d+$/.test(quantity.trim()) ? Number(quantity.trim()) : 0;
    if (qty < 1) found.quantity = t('validation.quantity');
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const batch = batches.find((b) => b.id === batchId);
    setLines((current) => [
      ...current,
      {
        key: `${productId}:${batchId}:${Date.now()}`,
        productId,
        productName: productName || detail.data?.product.name || '',
        batchId,
        batchLabel: batch ? `${batch.batchNumber ?? t('adjust.unbatched')}${batch.expiryDate ? ` · ${formatDate(batch.expiryDate)}` : ''}` : t('transfer.fefo'),
        quantity: qty,
      },
    ]);
    setProductId('');
    setProductName('');
    setBatchId('');
    setQuantity('');
  }

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (isDemo) return;
    setServerError(null);
    const found: Record<string, string> = {};
    if (!fromBranchId) found.from = t('validation.branch');
    if (!toBranchId) found.to = t('validation.branch');
    if (fromBranchId && toBranchId && isSameBranchTransfer({ fromBranchId, toBranchId })) found.to = SAME_BRANCH_TRANSFER_MESSAGE;
    if (lines.length === 0) found.lines = t('validation.lines');
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    try {
      await create.mutateAsync({
        fromBranchId,
        toBranchId,
        note: note.trim() || null,
        items: lines.map((l) => ({ productId: l.productId, quantity: l.quantity, ...(l.batchId ? { batchId: l.batchId } : {}) })),
      });
      toast.success(t('transfer.created'));
      setLines([]);
      setNote('');
    } catch (error) {
      setServerError(errorMessage(error));
    }
  }

  return (
    <Card title={t('transfer.newTitle')} description={t('transfer.newDescription')}>
      <form noValidate onSubmit={(event) => void onSubmit(event)} className="space-y-4" aria-label={t('transfer.newTitle')}>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label={t('transfer.from')} required error={errors.from}>
            <Select
              value={fromBranchId}
              options={allowed.map((b) => ({ value: b.id, label: b.name }))}
              onChange={(e) => {
                setFromBranchId(e.target.value);
                setBatchId('');
              }}
            />
          </Field>
          <Field label={t('transfer.to')} required error={errors.to}>
            <Select value={toBranchId} placeholder={t('transfer.chooseBranch')} options={branches.map((b) => ({ value: b.id, label: b.name }))} onChange={(e) => setToBranchId(e.target.value)} />
          </Field>
        </div>

        <fieldset className="space-y-3 rounded-md border border-slate-200 p-3">
          <legend className="px-1 text-sm font-medium text-slate-700">{t('transfer.addLine')}</legend>
          <ProductPicker
            idPrefix="transfer"
            value={productId}
            error={errors.product}
            onChange={(id, name) => {
              setProductId(id);
              setProductName(name);
              setBatchId('');
            }}
          />
          <div className="grid gap-3 sm:grid-cols-3">
            <Field label={t('transfer.batch')} hint={sourceRow ? t('transfer.available', { count: sourceRow.quantity }) : undefined}>
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
            <Field label={t('transfer.quantity')} required error={errors.quantity}>
              <Input
                inputMode="numeric"
                value={quantity}
                onChange={(e) => setQuantity(e.target.value)}
                onKeyDown={(e) => {
                  if (e.key === 'Enter') {
                    e.preventDefault();
                    addLine();
                  }
                }}
              />
            </Field>
            <div className="flex items-end">
              <Button variant="outline" data-demo-allow="" icon={<Plus className="size-4" aria-hidden="true" />} onClick={addLine}>
                {t('transfer.addItem')}
              </Button>
            </div>
          </div>
        </fieldset>

        {lines.length > 0 ? (
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
              {lines.map((line) => (
                <Tr key={line.key}>
                  <Td>{line.productName}</Td>
                  <Td>{line.batchLabel}</Td>
                  <Td numeric>{formatNumber(line.quantity)}</Td>
                  <Td className="text-right">
                    <Button
                      variant="ghost"
                      size="sm"
                      data-demo-allow=""
                      aria-label={t('transfer.removeLine', { name: line.productName })}
                      icon={<Trash2 className="size-4" aria-hidden="true" />}
                      onClick={() => setLines((current) => current.filter((l) => l.key !== line.key))}
                    >
                      {t('transfer.remove')}
                    </Button>
                  </Td>
                </Tr>
              ))}
            </TBody>
          </Table>
        ) : (
          <p className={errors.lines ? 'text-sm font-medium text-red-600' : 'text-sm text-slate-500'} role={errors.lines ? 'alert' : undefined}>
            {errors.lines ?? t('transfer.noLines')}
          </p>
        )}

        <Field label={t('transfer.note')}>
          <Textarea rows={2} maxLength={500} value={note} onChange={(e) => setNote(e.target.value)} />
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
