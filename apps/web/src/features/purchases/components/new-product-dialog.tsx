import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { parseMoneyToCents } from '@pharmapoint/domain/money';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { formErrorText } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { useCreateProduct } from '@/features/products/api/products';
import type { PickedProduct } from './line-product-picker';
import { useIdempotencyKey } from '@/lib/idempotency';
import '@/features/purchases/purchases-catalogue';

/**
 * A new product from a purchase line, without leaving the purchase: name (and SKU), with the line's prices
 * as its first prices. The product is created at once; the line then names it.
 */
export function NewProductDialog({
  open,
  onOpenChange,
  onCreated,
  purchasePrice,
  sellingPrice,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCreated: (product: PickedProduct) => void;
  purchasePrice: string;
  sellingPrice: string;
}) {
  const { t } = useTranslation('purchases');
  const create = useCreateProduct();
  const keys = useIdempotencyKey();
  const [name, setName] = useState('');
  const [sku, setSku] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function save() {
    const trimmed = name.trim();
    if (!trimmed) {
      setNameError(t('newProduct.nameRequired'));
      return;
    }
    setError(null);
    const purchasePriceCents = parseMoneyToCents(purchasePrice.trim()) ?? 0;
    const sellingPriceCents = parseMoneyToCents(sellingPrice.trim()) ?? 0;
    try {
      const input = { name: trimmed, sku: sku.trim() || null, purchasePriceCents, sellingPriceCents };
      const detail = await create.mutateAsync({ input, key: keys.keyFor(input) });
      keys.renew();
      onCreated({ id: detail.product.id, name: detail.product.name, purchasePriceCents, sellingPriceCents });
      setName('');
      setSku('');
      onOpenChange(false);
    } catch (e) {
      setError(formErrorText(e));
    }
  }

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={t('newProduct.title')}
      description={t('newProduct.description')}
      footer={
        <>
          <Button variant="outline" onClick={() => onOpenChange(false)}>
            {t('common:actions.cancel')}
          </Button>
          <Button loading={create.isPending} onClick={() => void save()}>
            {t('newProduct.create')}
          </Button>
        </>
      }
    >
      <form
        className="space-y-3"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <Field label={t('newProduct.name')} required error={nameError ?? undefined}>
          <Input
            value={name}
            maxLength={120}
            autoFocus
            onChange={(e) => {
              setName(e.target.value);
              setNameError(null);
            }}
          />
        </Field>
        <Field label={t('newProduct.sku')}>
          <Input value={sku} maxLength={64} onChange={(e) => setSku(e.target.value)} />
        </Field>
        {error ? (
          <p role="alert" className="text-sm font-medium text-red-600">
            {error}
          </p>
        ) : null}
        <button type="submit" className="hidden" aria-hidden="true" tabIndex={-1} />
      </form>
    </Dialog>
  );
}
