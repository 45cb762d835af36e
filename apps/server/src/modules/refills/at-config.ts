import { createHmac } from 'node:crypto';

/**
 * Africa's Talking SMS (the platform's account: AT_USERNAME, AT_API_KEY, AT_SENDER_ID). Without them, `npm start`
 * runs the local simulator (dev/at-simulator.ts), which speaks the same protocol and posts delivery reports back.
 */
export interface AfricasTalkingConfig {
  /** https://api.africastalking.com, the sandbox host when the username is 'sandbox', or the simulator. */
  baseUrl: string;
  username: string;
  apiKey: string;
  /** A registered alphanumeric sender ID or short code; none: AT's default. */
  senderId?: string;
  /**
   * The secret path token of the delivery report and opt-out callbacks: AT signs neither, so the URL registered in
   * its dashboard carries a token only AT and this server know (AT_CALLBACK_TOKEN, else derived from the API key).
   */
  callbackToken: string;
  simulator: boolean;
}

export const AT_LIVE_URL = 'https://api.africastalking.com';
export const AT_SANDBOX_URL = 'https://api.sandbox.africastalking.com';
export const AT_DELIVERY_PATH = '/webhooks/africastalking/delivery';
export const AT_OPT_OUT_PATH = '/webhooks/africastalking/opt-out';

export function callbackTokenOf(apiKey: string): string {
  return createHmac('sha256', apiKey).update('pharmapoint sms callbacks').digest('hex').slice(0, 32);
}

export function loadAfricasTalkingConfig(env: NodeJS.ProcessEnv): AfricasTalkingConfig | undefined {
  const username = env.AT_USERNAME?.trim();
  const apiKey = env.AT_API_KEY?.trim();
  if (!username || !apiKey) return undefined;
  return {
    baseUrl: (env.AT_BASE_URL?.trim() || (username === 'sandbox' ? AT_SANDBOX_URL : AT_LIVE_URL)).replace(/\/+$/, ''),
    username,
    apiKey,
    senderId: env.AT_SENDER_ID?.trim() || undefined,
    callbackToken: env.AT_CALLBACK_TOKEN?.trim() || callbackTokenOf(apiKey),
    simulator: false,
  };
}
