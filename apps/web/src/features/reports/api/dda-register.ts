import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { DDA_REGISTER_MAX_PAGE_SIZE, type DdaRegister, type DdaRegisterQueryInput, type DdaRegisterResponse } from '@pharmapoint/domain/dda-register';
import { api } from '@/lib/api';

/** Query keys start with 'stock': the live stock stream refreshes them by prefix. */
export const ddaRegisterKeys = {
  page: (query: DdaRegisterQueryInput) => ['stock', 'reports', 'dda', query] as const,
};

function params(query: DdaRegisterQueryInput): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== null && value !== '') out[key] = value as string | number;
  return out;
}

export function fetchDdaRegister(query: DdaRegisterQueryInput, signal?: AbortSignal): Promise<DdaRegisterResponse> {
  return api.get<DdaRegisterResponse>('/api/reports/dda', { query: params(query), signal });
}

/** GET /api/reports/dda (report:advanced): one page of registers. Not asked while `enabled` is false (a bad range). */
export function useDdaRegister(query: DdaRegisterQueryInput, enabled: boolean) {
  return useQuery({
    queryKey: ddaRegisterKeys.page(query),
    queryFn: ({ signal }) => fetchDdaRegister(query, signal),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** Every register of the range (all pages), for the PDF and the CSV: the whole register, not only the page shown. */
export async function fetchWholeDdaRegister(query: Omit<DdaRegisterQueryInput, 'page' | 'pageSize'>): Promise<{ pharmacyName: string; registers: DdaRegister[] }> {
  const first = await fetchDdaRegister({ ...query, page: 1, pageSize: DDA_REGISTER_MAX_PAGE_SIZE });
  const registers = [...first.registers];
  const pages = Math.ceil(first.total / DDA_REGISTER_MAX_PAGE_SIZE);
  for (let page = 2; page <= pages; page += 1) registers.push(...(await fetchDdaRegister({ ...query, page, pageSize: DDA_REGISTER_MAX_PAGE_SIZE })).registers);
  return { pharmacyName: first.pharmacyName, registers };
}
