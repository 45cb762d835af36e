import type { AuthProvidersResponse, InviteDetailsResponse, MeResponse } from '@pharmapoint/domain/auth';
import { api } from '@/lib/api';

/** The sign-in and session endpoints (seed 000 sections 4 and 5). */

export interface LoginResponse extends MeResponse {
  message?: string;
}

export const login = (email: string, password: string) => api.post<LoginResponse>('/api/auth/login', { email, password });
export const logout = () => api.post<unknown>('/api/auth/logout');
export const lockSession = () => api.post<unknown>('/api/auth/lock');
export const unlockSession = (method: 'pin' | 'password', secret: string) => api.post<MeResponse | { ok: true }>('/api/auth/unlock', { method, secret });
export const setPin = (pin: string, currentPassword: string) => api.put<unknown>('/api/me/pin', { pin, currentPassword });
export const forgotPassword = (email: string) => api.post<{ message?: string }>('/api/auth/forgot-password', { email });
export const resetPassword = (token: string, password: string, confirmPassword: string) =>
  api.post<{ message?: string }>('/api/auth/reset-password', { token, password, confirmPassword });

export type InviteDetails = InviteDetailsResponse;
export const getInvite = (token: string) => api.get<InviteDetails>(`/api/auth/invite/${encodeURIComponent(token)}`);
export const acceptInvite = (token: string, password: string, confirmPassword: string, name?: string) =>
  api.post<MeResponse | { message?: string }>('/api/auth/accept-invite', { token, password, confirmPassword, ...(name ? { name } : {}) });
export const verifyEmail = (mode: string, oobCode: string) => api.post<{ message?: string; demo?: boolean }>('/api/auth/verify-email', { mode, oobCode });
export const resendVerification = () => api.post<{ message?: string }>('/api/auth/resend-verification');
export const getProviders = () => api.get<AuthProvidersResponse>('/api/auth/providers');
export const switchBranch = (branchId: string) => api.post<MeResponse | { ok: true }>('/api/me/branch', { branchId });
