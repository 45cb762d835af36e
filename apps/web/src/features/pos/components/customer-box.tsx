import { useMemo, useRef, useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { UserPlus, X } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { CONTACT_SUGGESTIONS_MAX, type Contact, type ContactListResponse } from '@pharmapoint/domain/contacts';
import { WALK_IN_CUSTOMER } from '@pharmapoint/domain/sales';
import { Button } from '@/components/ui/button';
import { Combobox, type ComboboxOption } from '@/components/ui/combobox';
import { Field } from '@/components/ui/field';
import { api, errorMessage } from '@/lib/api';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { AddClientDialog } from '@/features/pos/components/add-client-dialog';

export interface CustomerBoxProps {
  /** The selected client; null is the Walk-in Customer. */
  value: Contact | null;
  onChange: (client: Contact | null) => void;
  disabled?: boolean;
  /** The cart holds DDA products: a new client needs location and full address. */
  ddaInCart?: boolean;
}

/** GET /api/contacts?type=customer&search=…: at most 5 suggestions by name or phone (seed 001 section 9). */
function searchClients(search: string, signal: AbortSignal): Promise<ContactListResponse> {
  return api.get<ContactListResponse>('/api/contacts', {
    query: { type: 'customer', search: search.trim() || undefined, limit: CONTACT_SUGGESTIONS_MAX },
    signal,
  });
}

function phoneText(phone: string | null): string {
  if (!phone) return '';
  return phone.startsWith('254') ? `+${phone}` : phone;
}

/**
 * The till's customer box (seed 001 sections 2 and 5): 'Walk-in Customer' until a client is chosen, at most 5
 * suggestions by name or phone from the server as the cashier types, a button back to Walk-in, and Add New Client.
 */
export function CustomerBox({ value, onChange, disabled, ddaInCart }: CustomerBoxProps) {
  const { t } = useTranslation('posClients');
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 250);
  const [adding, setAdding] = useState(false);
  const lastSearch = useRef('');
  const results = useQuery({
    queryKey: ['pos', 'clients', debounced.trim()],
    queryFn: ({ signal }) => searchClients(debounced, signal),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
    enabled: !disabled,
  });
  const found = useMemo(() => results.data?.items ?? [], [results.data]);
  const options: ComboboxOption[] = useMemo(() => {
    const list = value && !found.some((c) => c.id === value.id) ? [value, ...found] : found;
    return list.map((client) => ({
      value: client.id,
      label: client.name,
      description: [phoneText(client.phone), client.location].filter(Boolean).join(' · ') || undefined,
    }));
  }, [found, value]);

  return (
    <div className="flex items-end gap-2">
      <Field label={t('customer.label')} className="min-w-0 flex-1">
        <Combobox
          value={value?.id ?? null}
          onValueChange={(id) => {
            const client = found.find((c) => c.id === id) ?? (value?.id === id ? value : undefined);
            if (client) onChange(client);
            lastSearch.current = '';
          }}
          options={options}
          placeholder={t('customer.walkIn', { defaultValue: WALK_IN_CUSTOMER })}
          searchLabel={t('customer.searchLabel')}
          searchPlaceholder={t('customer.searchPlaceholder')}
          emptyText={results.isError ? t('customer.loadFailed', { message: errorMessage(results.error) }) : t('customer.empty')}
          onSearchChange={(text) => {
            setSearch(text);
            if (text) lastSearch.current = text;
          }}
          loading={results.isFetching && found.length === 0}
          loadingText={t('customer.loading')}
          disabled={disabled}
        />
      </Field>
      {value ? (
        <Button variant="outline" size="icon" onClick={() => onChange(null)} disabled={disabled} aria-label={t('customer.clear')} title={t('customer.clear')}>
          <X className="size-4" aria-hidden="true" />
        </Button>
      ) : null}
      <Button
        variant="outline"
        size="icon"
        onClick={() => setAdding(true)}
        disabled={disabled}
        aria-label={t('customer.add')}
        title={t('customer.add')}
      >
        <UserPlus className="size-4" aria-hidden="true" />
      </Button>
      <AddClientDialog
        open={adding}
        onOpenChange={setAdding}
        ddaInCart={ddaInCart}
        initialText={lastSearch.current}
        onSaved={(client) => onChange(client)}
      />
    </div>
  );
}
