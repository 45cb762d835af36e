import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  Contact,
  ContactListQueryInput,
  ContactListResponse,
  ContactSummary,
  CreateContactInput,
  ImportContactsInput,
  UpdateContactInput,
} from '@pharmapoint/domain/contacts';
import type { CreateSupplierPaymentInput, SupplierPaymentSaved } from '@pharmapoint/domain/supplier-payments';
import { api } from '@/lib/api';

/** Query keys: contacts and supplier payments share the 'contacts' prefix (a payment changes a contact's page). */
export const contactKeys = {
  all: ['contacts'] as const,
  list: (query: ContactListQueryInput) => ['contacts', 'list', query] as const,
  summary: (id: string) => ['contacts', 'summary', id] as const,
};

function queryOf(input: Record<string, unknown>): Record<string, string | number | boolean | undefined> {
  const out: Record<string, string | number | boolean | undefined> = {};
  for (const [key, value] of Object.entries(input)) if (value !== undefined && value !== null && value !== '') out[key] = value as string | number | boolean;
  return out;
}

/** GET /api/contacts?paged=true: one page of the contacts screen. */
export function useContacts(query: ContactListQueryInput) {
  return useQuery({
    queryKey: contactKeys.list(query),
    queryFn: ({ signal }) => api.get<ContactListResponse>('/api/contacts', { query: queryOf({ ...query, paged: 'true' }), signal }),
    placeholderData: keepPreviousData,
  });
}

/** Every contact of a type and status, page by page (the CSV export). */
export async function fetchAllContacts(query: Omit<ContactListQueryInput, 'limit' | 'offset'>): Promise<Contact[]> {
  const all: Contact[] = [];
  for (let offset = 0; ; offset += 200) {
    const page = await api.get<ContactListResponse>('/api/contacts', { query: queryOf({ ...query, paged: 'true', limit: 200, offset }) });
    all.push(...page.items);
    if (page.items.length < 200 || all.length >= page.total) return all;
  }
}

/** GET /api/contacts/:id/summary: the contact's page. */
export function useContactSummary(id: string | undefined) {
  return useQuery({
    queryKey: contactKeys.summary(id ?? ''),
    queryFn: ({ signal }) => api.get<ContactSummary>(`/api/contacts/${encodeURIComponent(id ?? '')}/summary`, { signal }),
    enabled: Boolean(id),
  });
}

export function useSaveContact() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body, key }: { id?: string; body: CreateContactInput | UpdateContactInput; key: string }) =>
      id ? api.patch<Contact>(`/api/contacts/${encodeURIComponent(id)}`, body) : api.post<Contact>('/api/contacts', body, { headers: { 'Idempotency-Key': key } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: contactKeys.all }),
  });
}

export function useImportContacts() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, key }: { body: ImportContactsInput; key: string }) => api.post<{ created: number }>('/api/contacts/import', body, { headers: { 'Idempotency-Key': key } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: contactKeys.all }),
  });
}

export function useSavePayment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body, key }: { id?: string; body: CreateSupplierPaymentInput; key: string }) => {
      if (!id) return api.post<SupplierPaymentSaved>('/api/supplier-payments', body, { headers: { 'Idempotency-Key': key } });
      const { supplierId: _supplier, ...rest } = body;
      return api.put<SupplierPaymentSaved>(`/api/supplier-payments/${encodeURIComponent(id)}`, rest);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: contactKeys.all }),
  });
}

export function useDeletePayment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<{ message: string }>(`/api/supplier-payments/${encodeURIComponent(id)}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: contactKeys.all }),
  });
}
