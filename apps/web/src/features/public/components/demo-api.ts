import type { MeResponse } from '@pharmapoint/domain/auth';
import type { DemoAccessResponse, DemoEnterResponse, DemoRegisterRequest, DemoRegisterResponse } from '@pharmapoint/domain/demo';
import { api } from '@/lib/api';

/** The demo's calls (apps/server/src/modules/demo; decision 0046). */
export const registerDemo = (body: DemoRegisterRequest) => api.post<DemoRegisterResponse>('/api/demo/register', body);
export const getDemoAccess = () => api.get<DemoAccessResponse>('/api/demo/access');
export const sendDemoSignInLink = (email: string) => api.post<DemoRegisterResponse>('/api/demo/sign-in-link', { email });
export const completeDemoSignIn = (email: string, oobCode: string) => api.post<MeResponse & { message: string }>('/api/demo/sign-in', { email, oobCode, mode: 'signIn' });
export const enterDemo = () => api.post<DemoEnterResponse>('/api/demo/enter');
