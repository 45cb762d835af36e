import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { RefillCompletion, RefillReminderListQueryInput, RefillReminderListResponse } from '@pharmapoint/domain/refills';
import { api } from '@/lib/api';

export const refillKeys = {
  all: ['refill-reminders'] as const,
  list: (query: RefillReminderListQueryInput) => ['refill-reminders', query] as const,
};

function clean(input: Record<string, unknown>): Record<string, string | number | undefined> {
  const out: Record<string, string | number | undefined> = {};
  for (const [key, value] of Object.entries(input)) if (value !== undefined && value !== null && value !== '') out[key] = value as string | number;
  return out;
}

export function fetchRefillReminders(query: RefillReminderListQueryInput, signal?: AbortSignal): Promise<RefillReminderListResponse> {
  return api.get<RefillReminderListResponse>('/api/refill-reminders', { query: clean(query), signal });
}

/** GET /api/refill-reminders (report:inventory). */
export function useRefillReminders(query: RefillReminderListQueryInput) {
  return useQuery({ queryKey: refillKeys.list(query), queryFn: ({ signal }) => fetchRefillReminders(query, signal), placeholderData: keepPreviousData });
}

/** POST /api/refill-reminders/:saleId/:line/complete */
export function useCompleteRefill() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (line: { saleId: string; line: number }) => api.post<RefillCompletion>(`/api/refill-reminders/${line.saleId}/${line.line}/complete`),
    onSettled: () => client.invalidateQueries({ queryKey: refillKeys.all }),
  });
}
