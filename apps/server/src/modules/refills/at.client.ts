import type { AfricasTalkingConfig } from './at-config.ts';

/**
 * Africa's Talking's Send SMS call: POST {baseUrl}/version1/messaging, form-encoded (username, to, message, from,
 * bulkSMSMode=1), headers apiKey and Accept: application/json. HTTP 201 with SMSMessageData.Recipients[] on success;
 * each recipient's statusCode 100 (Processed), 101 (Sent) or 102 (Queued) means accepted.
 */

export interface SmsRecipientResult {
  statusCode: number;
  status: string;
  number: string;
  cost: string | null;
  messageId: string | null;
}

/** A refusal that sending again would not change (HTTP 4xx: bad credentials, bad request). */
export class SmsSendError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
  ) {
    super(message);
  }
}

export const AT_ACCEPTED_CODES = [100, 101, 102] as const;

export async function sendSms(config: AfricasTalkingConfig, input: { to: string; message: string }, signal?: AbortSignal): Promise<SmsRecipientResult> {
  const form = new URLSearchParams({ username: config.username, to: input.to, message: input.message, bulkSMSMode: '1' });
  if (config.senderId) form.set('from', config.senderId);
  let response: Response;
  try {
    response = await fetch(`${config.baseUrl}/version1/messaging`, {
      method: 'POST',
      headers: { apiKey: config.apiKey, accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
      signal: signal ?? AbortSignal.timeout(15_000),
    });
  } catch (error) {
    throw new SmsSendError(`The SMS service could not be reached: ${(error as Error).message}`, false);
  }
  const text = await response.text();
  if (response.status !== 201) throw new SmsSendError(`The SMS service answered ${response.status}: ${text.slice(0, 200)}`, response.status < 500);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new SmsSendError('The SMS service answered with something that is not JSON.', true);
  }
  const recipient = (parsed as { SMSMessageData?: { Recipients?: Record<string, unknown>[]; Message?: string } })?.SMSMessageData?.Recipients?.[0];
  if (!recipient) {
    const message = (parsed as { SMSMessageData?: { Message?: string } })?.SMSMessageData?.Message;
    throw new SmsSendError(`The SMS service sent to no recipient${message ? `: ${message}` : ''}.`, true);
  }
  return {
    statusCode: Number(recipient.statusCode),
    status: String(recipient.status ?? ''),
    number: String(recipient.number ?? input.to),
    cost: typeof recipient.cost === 'string' ? recipient.cost : null,
    messageId: typeof recipient.messageId === 'string' && recipient.messageId !== 'None' ? recipient.messageId : null,
  };
}
