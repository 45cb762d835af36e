import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { isFinalDeliveryStatus } from '@pharmapoint/domain/refills';
import type { AutoReminderSettings, RefillCompletion, RefillReminderListQueryInput, RefillReminderListResponse, RefillSms, ReminderConsent, ReminderConsentInput } from '@pharmapoint/domain/refills';
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
  return useQuery({
    queryKey: refillKeys.list(query),
    queryFn: ({ signal }) => fetchRefillReminders(query, signal),
    placeholderData: keepPreviousData,
    // While an SMS on the page waits to be sent or for its delivery report, the list is read again every 3 s (for 10 minutes).
    refetchInterval: (current) => (current.state.data?.items.some((r) => r.sms && r.sms.status !== 'failed' && !isFinalDeliveryStatus(r.sms.deliveryStatus) && Date.now() - Date.parse(r.sms.createdAt) < 600_000) ? 3000 : false),
  });
}

/** POST /api/refill-reminders/:saleId/:line/complete */
export function useCompleteRefill() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (line: { saleId: string; line: number }) => api.post<RefillCompletion>(`/api/refill-reminders/${line.saleId}/${line.line}/complete`),
    onSettled: () => client.invalidateQueries({ queryKey: refillKeys.all }),
  });
}

/** POST /api/refill-reminders/:saleId/:line/sms (Idempotency-Key: one key per click, so a retried request sends one SMS). */
export function useSendRefillSms() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { saleId: string; line: number; key: string }) =>
      api.post<RefillSms>(`/api/refill-reminders/${input.saleId}/${input.line}/sms`, {}, { headers: { 'Idempotency-Key': input.key } }),
    onSettled: () => client.invalidateQueries({ queryKey: refillKeys.all }),
  });
}

export const consentKeys = { of: (contactId: string) => ['reminder-consent', contactId] as const };

/** GET /api/contacts/:id/reminder-consent */
export function useReminderConsent(contactId: string | undefined) {
  return useQuery({
    queryKey: consentKeys.of(contactId ?? ''),
    queryFn: ({ signal }) => api.get<ReminderConsent>(`/api/contacts/${contactId}/reminder-consent`, { signal }),
    enabled: Boolean(contactId),
  });
}

/** PUT /api/contacts/:id/reminder-consent */
export function useSetReminderConsent() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { contactId: string } & ReminderConsentInput) => api.put<ReminderConsent>(`/api/contacts/${input.contactId}/reminder-consent`, { consent: input.consent, source: input.source }),
    onSuccess: (answer) => client.setQueryData(consentKeys.of(answer.contactId), answer),
    onSettled: () => client.invalidateQueries({ queryKey: refillKeys.all }),
  });
}

const settingsKey = ['refill-reminders', 'settings'] as const;

/** GET /api/refill-reminders/settings */
export function useAutoReminderSettings() {
  return useQuery({ queryKey: settingsKey, queryFn: ({ signal }) => api.get<AutoReminderSettings>('/api/refill-reminders/settings', { signal }) });
}

/** PUT /api/refill-reminders/settings */
export function useSaveAutoReminderSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (settings: AutoReminderSettings) => api.put<AutoReminderSettings>('/api/refill-reminders/settings', settings),
    onSuccess: (answer) => client.setQueryData(settingsKey, answer),
  });
}
