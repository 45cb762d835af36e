import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ExportQuery } from '@pharmapoint/domain/product-import';
import type {
  BranchPricesInput,
  CreateProductInput,
  MovementListQueryInput,
  MovementListResponse,
  ProductDetailResponse,
  ProductListQueryInput,
  ProductListResponse,
  ReceiveBatchInput,
  ReceiveBatchResponse,
  UpdateProductInput,
} from '@pharmapoint/domain/products';
import { api } from '@/lib/api';
import { withKey } from '@/lib/idempotency';

/** Query keys: every product query starts with 'products' (the live stream refreshes them by prefix). */
export const productKeys = {
  all: ['products'] as const,
  list: (query: ProductListQueryInput) => ['products', 'list', query] as const,
  detail: (id: string) => ['products', 'detail', id] as const,
  movements: (id: string, query: MovementListQueryInput) => ['products', 'movements', id, query] as const,
};

function queryOf(input: Record<string, unknown>): Record<string, string | number | boolean | undefined> {
  const out: Record<string, string | number | boolean | undefined> = {};
  for (const [key, value] of Object.entries(input)) {
    if (value === undefined || value === null || value === '') continue;
    out[key] = value as string | number | boolean;
  }
  return out;
}

/** GET /api/products: one page of products with their values in the branch. */
export function useProducts(query: ProductListQueryInput, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: productKeys.list(query),
    queryFn: ({ signal }) => api.get<ProductListResponse>('/api/products', { query: queryOf(query), signal }),
    placeholderData: keepPreviousData,
    enabled: options.enabled ?? true,
  });
}

/** GET /api/products/:id: the product, its branches, batches and price changes. */
export function useProduct(id: string | undefined) {
  return useQuery({
    queryKey: productKeys.detail(id ?? ''),
    queryFn: ({ signal }) => api.get<ProductDetailResponse>(`/api/products/${encodeURIComponent(id ?? '')}`, { signal }),
    enabled: Boolean(id),
  });
}

/** GET /api/products/:id/movements: the product's ledger. */
export function useProductMovements(id: string, query: MovementListQueryInput) {
  return useQuery({
    queryKey: productKeys.movements(id, query),
    queryFn: ({ signal }) => api.get<MovementListResponse>(`/api/products/${encodeURIComponent(id)}/movements`, { query: queryOf(query), signal }),
    placeholderData: keepPreviousData,
  });
}

export function useCreateProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    /** key: the form's Idempotency-Key (lib/idempotency.ts): a retried submission creates one product. */
    mutationFn: ({ input, key }: { input: CreateProductInput; key: string }) => api.post<ProductDetailResponse>('/api/products', input, withKey(key)),
    onSuccess: async (detail) => {
      queryClient.setQueryData(productKeys.detail(detail.product.id), detail);
      await queryClient.invalidateQueries({ queryKey: ['products', 'list'] });
    },
  });
}

/** A product edit: the product's own fields, then each branch whose values changed. */
export interface ProductEdit {
  id: string;
  product: UpdateProductInput;
  branches: { branchId: string; values: BranchPricesInput }[];
}

export function useUpdateProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, product, branches }: ProductEdit) => {
      const path = `/api/products/${encodeURIComponent(id)}`;
      let detail: ProductDetailResponse | null = null;
      if (Object.keys(product).length > 0) detail = await api.patch<ProductDetailResponse>(path, product);
      for (const branch of branches) {
        detail = await api.put<ProductDetailResponse>(`${path}/branches/${encodeURIComponent(branch.branchId)}`, branch.values);
      }
      return detail ?? (await api.get<ProductDetailResponse>(path));
    },
    onSettled: async (_data, _error, variables) => {
      await queryClient.invalidateQueries({ queryKey: productKeys.detail(variables.id) });
      await queryClient.invalidateQueries({ queryKey: ['products', 'list'] });
    },
  });
}

/** The export link (GET /api/products/export) with the list's filters. */
export function exportHref(filters: Partial<Record<keyof ExportQuery, string>>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) if (value) params.set(key, value);
  const text = params.toString();
  return `/api/products/export${text ? `?${text}` : ''}`;
}

/** POST /api/products/:id/batches: opening stock received into a batch. */
export function useReceiveBatch(productId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ input, key }: { input: ReceiveBatchInput; key: string }) =>
      api.post<ReceiveBatchResponse>(`/api/products/${encodeURIComponent(productId)}/batches`, input, withKey(key)),
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: ['products'] });
    },
  });
}
