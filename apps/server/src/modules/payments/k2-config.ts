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

/** The K2 hosts of a pharmacy's own till (settings.integrations.kopokopo.environment). */
export const K2_BASE_URLS = { sandbox: 'https://sandbox.kopokopo.com', production: 'https://api.kopokopo.com' } as const;

/**
 * Till payments' callbacks (decision 0058): one path per pharmacy, so the callback is verified with THAT pharmacy's
 * API key, chosen from the path before the body is read.
 */
export const TILL_CALLBACK_PREFIX = '/webhooks/kopokopo/till';

/** A pharmacy's K2 till credentials as settings.integrations.kopokopo holds them. */
export interface TillCredentials {
  enabled: boolean;
  environment: 'sandbox' | 'production';
  tillNumber: string;
  clientId: string;
  clientSecret: string;
  apiKey: string;
}

/** Are all of the till's credentials there (and turned on)? */
export function tillCredentialsComplete(c: TillCredentials | undefined): c is TillCredentials {
  return !!c && c.enabled && c.tillNumber.trim() !== '' && c.clientId.trim() !== '' && c.clientSecret !== '' && c.apiKey !== '';
}

/**
 * The K2 a pharmacy's till payments use, or undefined when it has none (decision 0058): its own credentials, sent
 * to sandbox or production as it chose, or to the local simulator when the server runs one (npm start without K2);
 * with no credentials of its own, the simulator's own client when the server runs the simulator (so the demo
 * pharmacy of npm start can try the flow), else none. Callbacks come back to TILL_CALLBACK_PREFIX/<pharmacy id> on
 * the platform's callback origin (K2_CALLBACK_URL's, else PUBLIC_URL).
 */
export function tillKopoKopoConfig(
  platform: KopoKopoConfig | undefined,
  own: TillCredentials | undefined,
  publicUrl: string,
  pharmacyId: string,
): KopoKopoConfig | undefined {
  let origin = publicUrl.replace(/\/+$/, '');
  try {
    if (platform?.callbackUrl) origin = new URL(platform.callbackUrl).origin;
  } catch {
    // keep PUBLIC_URL
  }
  const callbackUrl = `${origin}${TILL_CALLBACK_PREFIX}/${encodeURIComponent(pharmacyId)}`;
  if (tillCredentialsComplete(own)) {
    return {
      baseUrl: platform?.simulator ? platform.baseUrl : K2_BASE_URLS[own.environment],
      clientId: own.clientId.trim(),
      clientSecret: own.clientSecret,
      apiKey: own.apiKey,
      tillNumber: own.tillNumber.trim().toUpperCase(),
      callbackUrl,
      simulator: platform?.simulator ?? false,
    };
  }
  if (platform?.simulator) return { ...platform, callbackUrl };
  return undefined;
}
