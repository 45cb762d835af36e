import type { z } from 'zod';
import type { HealthResponse } from '@pharmapoint/domain/health';
import {
  PAYMENT_TIMING,
  type CreateOwnerRequest,
  type CreateOwnerResponse,
  type emailCheckResponseSchema,
  type PaymentStatusResponse,
  type RegistrationForm,
  type StkPushRequest,
  type StkPushResponse,
} from '@pharmapoint/domain/platform-payments';
import { api } from '@/lib/api';

/** The purchase flow's HTTP calls (seed 002 section 7) and what it keeps in browser storage. */

export type ServiceStatus = 'checking' | 'online' | 'offline' | 'misconfigured';

/** GET /health with a 10 s abort: misconfigured when kopokopo.configured is false, offline when its status says so. */
export async function paymentServiceStatus(): Promise<{ status: Exclude<ServiceStatus, 'checking'>; simulator: boolean }> {
  try {
    const response = await fetch('/health', { credentials: 'include', signal: AbortSignal.timeout(PAYMENT_TIMING.healthTimeoutMs) });
    const body = (await response.json()) as Partial<HealthResponse>;
    const k2 = body.kopokopo;
    if (!k2 || !k2.configured) return { status: 'misconfigured', simulator: false };
    return { status: k2.status === 'offline' ? 'offline' : 'online', simulator: k2.simulator };
  } catch {
    return { status: 'offline', simulator: false };
  }
}

export const checkEmailAvailable = (email: string) =>
  api.post<z.infer<typeof emailCheckResponseSchema>>('/api/payments/email-check', { email }).then((r) => r.available);

/**
 * Starts the payment. `idempotencyKey` is the purchase attempt's (decision 0076): sent again with the same body (a
 * double click, a retry after a dropped connection), the server answers the first answer and sends no second prompt.
 */
export const startStkPush = (body: StkPushRequest, idempotencyKey: string) =>
  api.post<StkPushResponse>('/api/payments/kopokopo/stk-push', body, { headers: { 'Idempotency-Key': idempotencyKey } });

export const getPaymentStatus = (id: string, signal?: AbortSignal) =>
  api.get<PaymentStatusResponse>(`/api/payments/kopokopo/status/${encodeURIComponent(id)}`, { signal });

export const createOwner = (body: CreateOwnerRequest) => api.post<CreateOwnerResponse>('/api/tenants/create-owner', body, { signal: AbortSignal.timeout(10_000) });

/** Best effort: a failure is only logged (section 7). */
export function requestConfirmationEmail(transactionId: string, details: Record<string, unknown>): void {
  api.post('/api/emails/payment-confirmation', { transactionId, ...details }).catch((error: unknown) => console.warn('Payment confirmation email', error));
}

// ---------------------------------------------------------------------------------------------- browser storage

/** Local storage: the registration form (seed 002 section 7). */
export const REGISTRATION_KEY = 'pharmapoint_registration';
/** Local storage: the completed payment's details with a timestamp. */
export const PAYMENT_COMPLETE_KEY = 'pharmapoint_payment_complete';
/** Session storage: what password setup needs (it survives a reload of the tab, not the tab). */
export const PENDING_REGISTRATION_KEY = 'pendingRegistration';

export type RegistrationDraft = Partial<Record<keyof RegistrationForm, string>>;

export function loadRegistration(): RegistrationDraft {
  try {
    const value = JSON.parse(localStorage.getItem(REGISTRATION_KEY) ?? '{}') as unknown;
    return value && typeof value === 'object' ? (value as RegistrationDraft) : {};
  } catch {
    return {};
  }
}

export function saveRegistration(values: RegistrationDraft): void {
  try {
    localStorage.setItem(REGISTRATION_KEY, JSON.stringify(values));
  } catch {
    // storage full or off: the form still works
  }
}

/** What /password-setup reads (navigation state, or this tab's session storage after a reload). */
export interface PendingRegistration {
  pharmacyData: { id: string; name: string; pharmacyName: string; ownerName: string; ownerEmail: string; ownerPhone?: string; subdomain: string | null };
  paymentDetails: { transactionId: string; amount: number; phoneNumber: string; status: string; mpesaReceiptNumber: string | null; setupToken: string };
  plan: string;
  timestamp: number;
}

/** Kept from the start of the payment (so /payment-confirmation can lead to password setup); `complete` once paid. */
export function savePendingRegistration(pending: PendingRegistration, complete = true): void {
  try {
    sessionStorage.setItem(PENDING_REGISTRATION_KEY, JSON.stringify(pending));
    if (!complete) return;
    const { setupToken: _secret, ...payment } = pending.paymentDetails;
    localStorage.setItem(PAYMENT_COMPLETE_KEY, JSON.stringify({ ...payment, timestamp: pending.timestamp }));
    localStorage.removeItem(REGISTRATION_KEY);
  } catch {
    // navigation state still carries it
  }
}

/** The purchase data guard (seed 002 section 5): pharmacy data an object, the plan a string. */
export function isPendingRegistration(value: unknown): value is PendingRegistration {
  if (!value || typeof value !== 'object') return false;
  const v = value as Partial<PendingRegistration>;
  return !!v.pharmacyData && typeof v.pharmacyData === 'object' && !!v.paymentDetails && typeof v.paymentDetails === 'object' && typeof v.plan === 'string';
}

export function loadPendingRegistration(): PendingRegistration | null {
  try {
    const value = JSON.parse(sessionStorage.getItem(PENDING_REGISTRATION_KEY) ?? 'null') as unknown;
    return isPendingRegistration(value) ? value : null;
  } catch {
    return null;
  }
}

export function clearPendingRegistration(): void {
  try {
    sessionStorage.removeItem(PENDING_REGISTRATION_KEY);
  } catch {
    // nothing to clear
  }
}

/** KSh with thousands separators and 2 decimals (seed 002 section 9). */
export function formatShillings(amount: number): string {
  return amount.toLocaleString('en-KE', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

/** m:ss */
export function formatCountdown(seconds: number): string {
  const s = Math.max(0, seconds);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}
