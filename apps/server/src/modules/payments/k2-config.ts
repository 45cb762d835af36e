/** How the server reaches Kopo Kopo K2 (integrations reference section 1). */
export interface KopoKopoConfig {
  /** https://sandbox.kopokopo.com, https://api.kopokopo.com, or the local simulator's address. */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** The HMAC key of X-KopoKopo-Signature on callbacks. */
  apiKey: string;
  /** The online payments till, prefixed K. */
  tillNumber: string;
  /** Where K2 posts STK results: K2_CALLBACK_URL, else PUBLIC_URL + /webhooks/kopokopo. */
  callbackUrl: string;
  /** The local simulator plays K2 (npm start without credentials). */
  simulator: boolean;
}

/** Outside /api: K2 sends no session and no CSRF token; the signature is its proof (decision 0044). */
export const K2_CALLBACK_PATH = '/webhooks/kopokopo';

/** K2_CLIENT_ID, K2_CLIENT_SECRET and K2_API_KEY (all three), K2_BASE_URL, K2_TILL_NUMBER, K2_CALLBACK_URL. */
export function loadKopoKopoConfig(env: NodeJS.ProcessEnv, publicUrl: string): KopoKopoConfig | undefined {
  const clientId = env.K2_CLIENT_ID?.trim();
  const clientSecret = env.K2_CLIENT_SECRET?.trim();
  const apiKey = env.K2_API_KEY?.trim();
  if (!clientId || !clientSecret || !apiKey) return undefined;
  return {
    baseUrl: (env.K2_BASE_URL?.trim() || 'https://sandbox.kopokopo.com').replace(/\/+$/, ''),
    clientId,
    clientSecret,
    apiKey,
    tillNumber: env.K2_TILL_NUMBER?.trim() || 'K000000',
    callbackUrl: env.K2_CALLBACK_URL?.trim() || `${publicUrl.replace(/\/+$/, '')}${K2_CALLBACK_PATH}`,
    simulator: false,
  };
}
