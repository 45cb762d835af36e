import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { useProduct, useProducts } from '@/features/products/api/products';

/**
 * Choose a product: a search box (name, SKU or barcode, searched on the server) and the list of matches.
 * Two labelled native controls: fast and accessible with 50,000 products.
 */
export function ProductPicker({
  value,
  onChange,
  error,
  idPrefix,
}: {
  value: string;
  onChange: (productId: string, name: string) => void;
  error?: string;
  idPrefix?: string;
}) {
  const { t } = useTranslation('stock');
  const [search, setSearch] = useState('');
  const [q, searchNow] = useDebouncedValue(search.trim(), 250);
  const results = useProducts({ q: q || undefined, active: 'true', limit: 25, sort: 'name' });
  const chosen = useProduct(value || undefined);
  const options = (results.data?.items ?? []).map((p) => ({ value: p.id, label: `${p.name}${p.sku ? ` (${p.sku})` : ''} · ${t('picker.inStock', { count: p.quantity })}` }));
  if (value && chosen.data && !options.some((o) => o.value === value)) options.unshift({ value, label: chosen.data.product.name });

  return (
    <div className="grid gap-3 sm:grid-cols-2">
      <Field label={t('picker.search')} id={idPrefix ? `${idPrefix}-search` : undefined}>
        <Input
          type="search"
          value={search}
          placeholder={t('picker.searchPlaceholder')}
          onChange={(e) => setSearch(e.target.value)}
          onKeyDown={(e) => {
            if (e.key !== 'Enter') return;
            e.preventDefault();
            searchNow();
          }}
        />
      </Field>
      <Field label={t('picker.product')} required error={error} id={idPrefix ? `${idPrefix}-product` : undefined} hint={results.isFetching ? t('picker.searching') : t('picker.matches', { count: results.data?.total ?? 0 })}>
        <Select
          value={value}
          placeholder={t('picker.choose')}
          options={options}
          onChange={(e) => {
            const id = e.target.value;
            const item = results.data?.items.find((p) => p.id === id);
            onChange(id, item?.name ?? chosen.data?.product.name ?? '');
          }}
        />
      </Field>
    </div>
  );
}
