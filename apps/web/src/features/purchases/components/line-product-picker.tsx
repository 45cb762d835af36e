import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Combobox } from '@/components/ui/combobox';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { useProducts } from '@/features/products/api/products';
import '@/features/purchases/purchases-catalogue';

export interface PickedProduct {
  id: string;
  name: string;
  purchasePriceCents: number;
  sellingPriceCents: number;
}

/** A purchase line's product: type to search the catalogue on the server (name, SKU or barcode). */
export function LineProductPicker({
  value,
  name,
  onChange,
  id,
  'aria-invalid': invalid,
  'aria-describedby': describedBy,
}: {
  value: string;
  name: string;
  onChange: (product: PickedProduct) => void;
  id?: string;
  'aria-invalid'?: boolean | 'true' | 'false';
  'aria-describedby'?: string;
  required?: boolean;
}) {
  const { t } = useTranslation('purchases');
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search.trim(), 250);
  const results = useProducts({ q: q || undefined, active: 'true', limit: 25, sort: 'name' });
  const items = results.data?.items ?? [];
  const options = items.map((p) => ({ value: p.id, label: p.name, description: p.sku ?? undefined, keywords: [p.sku ?? ''] }));
  if (value && !options.some((o) => o.value === value)) options.unshift({ value, label: name || t('form.product'), description: undefined, keywords: [] });
  return (
    <Combobox
      id={id}
      value={value}
      onValueChange={(next) => {
        const found = items.find((p) => p.id === next);
        if (found) onChange({ id: found.id, name: found.name, purchasePriceCents: found.purchasePriceCents, sellingPriceCents: found.sellingPriceCents });
      }}
      options={options}
      placeholder={t('form.chooseProduct')}
      searchLabel={t('form.searchProduct')}
      searchPlaceholder={t('form.searchProductPlaceholder')}
      emptyText={t('form.noProducts')}
      onSearchChange={setSearch}
      loading={results.isFetching}
      loadingText={t('form.searching')}
      aria-invalid={invalid}
      aria-describedby={describedBy}
    />
  );
}
