import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AT_DELIVERY_PATH, AT_OPT_OUT_PATH, callbackTokenOf, type AfricasTalkingConfig } from '../modules/refills/at-config.ts';

/**
 * A local Africa's Talking SMS service for development and tests. It speaks the part of AT's HTTP API the server
 * uses (integrations reference section 4): POST /version1/messaging, form-encoded, authenticated by the apiKey
 * header, answering 201 with SMSMessageData.Recipients (statusCode 101 Sent, 406 UserInBlacklist for a number that
 * opted out, 403 InvalidPhoneNumber), and the two callbacks AT posts form-encoded: the delivery report (id, status,
 * phoneNumber, networkCode, failureReason) and the opt-out (senderId, phoneNumber). Its page (GET /) plays the
 * handsets: each message with Delivered, Failed and Reply STOP. It listens on the loopback address only.
 */

export type SimulatedDelivery = 'Success' | 'Failed' | 'Rejected' | 'Buffered' | 'AbsentSubscriber';

export interface SimulatedSms {
  id: string;
  to: string;
  from: string | null;
  message: string;
  at: string;
  status: string;
  failureReason: string | null;
  /** Delivery reports posted (their HTTP answers; 0: not reached). */
  deliveries: number[];
}

export interface AtSimulator {
  url: string;
  username: string;
  apiKey: string;
  /** The server's config: callbacks go to `${serverUrl}${path}/${token}`. */
  config(serverUrl: string): AfricasTalkingConfig;
  messages(): SimulatedSms[];
  /** The network's answer for a message: posts the delivery report. */
  deliver(id: string, status: SimulatedDelivery, failureReason?: string): Promise<SimulatedSms>;
  /** The subscriber replies STOP: the number is blacklisted for this sender and the opt-out callback is posted. */
  optOut(phoneNumber: string): Promise<number>;
  close(): Promise<void>;
}

function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
}

async function readBody(request: IncomingMessage, limit = 65536): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new Error('body too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function send(response: ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}): void {
  const text = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
  response.writeHead(status, { ...(body === undefined ? {} : { 'content-type': typeof body === 'string' ? 'text/html; charset=utf-8' : 'application/json' }), ...headers });
  response.end(text);
}

export async function startAtSimulator(options: { host?: string; port?: number; username?: string; apiKey?: string } = {}): Promise<AtSimulator> {
  const username = options.username ?? 'sandbox';
  const apiKey = options.apiKey ?? randomBytes(24).toString('hex');
  const token = callbackTokenOf(apiKey);
  const messages = new Map<string, SimulatedSms>();
  const blacklist = new Set<string>();
  let serverUrl = '';
  let url = '';

  async function post(path: string, form: Record<string, string>): Promise<number> {
    if (!serverUrl) return 0;
    for (let attempt = 0; attempt < 3; attempt += 1) {
      try {
        const answer = await fetch(`${serverUrl}${path}/${token}`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams(form).toString(),
          signal: AbortSignal.timeout(10_000),
        });
        if (answer.status < 500) return answer.status;
      } catch {
        // Not reached: try again.
      }
      await new Promise((resolve) => setTimeout(resolve, 500 * (attempt + 1)));
    }
    return 0;
  }

  async function deliver(id: string, status: SimulatedDelivery, failureReason?: string): Promise<SimulatedSms> {
    const sms = messages.get(id);
    if (!sms) throw new Error(`No SMS ${id}`);
    sms.status = status;
    sms.failureReason = status === 'Failed' || status === 'Rejected' ? (failureReason ?? 'UserIsInactive') : null;
    const form: Record<string, string> = { id, status, phoneNumber: sms.to, networkCode: '63902' };
    if (sms.failureReason) form.failureReason = sms.failureReason;
    sms.deliveries.push(await post(AT_DELIVERY_PATH, form));
    return sms;
  }

  async function optOut(phoneNumber: string): Promise<number> {
    blacklist.add(phoneNumber);
    const from = [...messages.values()].find((m) => m.to === phoneNumber)?.from ?? 'AFRICASTKNG';
    return post(AT_OPT_OUT_PATH, { senderId: from, phoneNumber });
  }

  function page(): string {
    const list = [...messages.values()].reverse();
    const rows = list
      .map(
        (m) => `<li class="sms" data-status="${escapeHtml(m.status)}">
  <div>To <strong>${escapeHtml(m.to)}</strong>${m.from ? ` from ${escapeHtml(m.from)}` : ''}</div>
  <p class="text">${escapeHtml(m.message)}</p>
  <div class="meta">Message ${escapeHtml(m.id)} &middot; ${escapeHtml(m.at)} &middot; <span class="status">${escapeHtml(m.status)}</span>${m.failureReason ? ` &middot; ${escapeHtml(m.failureReason)}` : ''}</div>
  ${
    m.status === 'Submitted'
      ? `<form method="post" action="/messages/${encodeURIComponent(m.id)}/Success"><button class="ok">Delivered</button></form>
  <form method="post" action="/messages/${encodeURIComponent(m.id)}/Failed"><button>Failed</button></form>`
      : ''
  }
  ${blacklist.has(m.to) ? '<span class="meta">Opted out</span>' : `<form method="post" action="/opt-out/${encodeURIComponent(m.to)}"><button>Reply STOP</button></form>`}
</li>`,
      )
      .join('\n');
    return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>SMS simulator (Africa's Talking)</title>
<style>
body{font-family:system-ui,sans-serif;margin:0 auto;max-width:720px;padding:16px;color:#111827}
h1{font-size:1.4rem}.note{color:#4b5563}ul{list-style:none;padding:0}
li{border:1px solid #e5e7eb;border-radius:8px;padding:12px;margin:8px 0}.meta{color:#6b7280;font-size:.85rem;margin:4px 0 8px;word-break:break-all}
.text{white-space:pre-wrap;margin:6px 0}form{display:inline}
button{font:inherit;padding:6px 14px;margin-right:6px;border-radius:6px;border:1px solid #d1d5db;background:#fff;cursor:pointer}
button.ok{background:#16a34a;border-color:#16a34a;color:#fff}
</style></head><body>
<h1>SMS simulator</h1>
<p class="note">SMS sent to the local Africa's Talking simulator. Delivered and Failed post the network's delivery report back to
PharmaPoint; Reply STOP opts the number out (AT's opt-out callback) and later messages to it are refused as blacklisted.
<a href="/">Refresh</a></p>
${list.length ? `<ul>${rows}</ul>` : '<p>No SMS yet.</p>'}
</body></html>`;
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    const method = request.method ?? 'GET';
    if (method === 'GET' && path === '/') return send(response, 200, page(), { 'cache-control': 'no-store' });
    if (method === 'POST' && path === '/version1/messaging') {
      const body = await readBody(request);
      if (request.headers.apikey !== apiKey) return send(response, 401, 'The supplied authentication is invalid', { 'content-type': 'text/plain' });
      if (!(request.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) return send(response, 400, { error: 'Content-Type must be application/x-www-form-urlencoded' });
      const form = new URLSearchParams(body);
      if (form.get('username') !== username) return send(response, 401, 'The supplied authentication is invalid', { 'content-type': 'text/plain' });
      const to = form.get('to') ?? '';
      const message = form.get('message') ?? '';
      if (!to || !message) return send(response, 400, 'Request is missing required form field', { 'content-type': 'text/plain' });
      const recipients = to.split(',').map((number) => {
        const n = number.trim();
        if (!/^\+254[17]\d{8}$/.test(n)) return { statusCode: 403, number: n, status: 'InvalidPhoneNumber', cost: '0', messageId: 'None' };
        if (blacklist.has(n)) return { statusCode: 406, number: n, status: 'UserInBlacklist', cost: '0', messageId: 'None' };
        const id = `ATXid_${randomBytes(16).toString('hex')}`;
        messages.set(id, { id, to: n, from: form.get('from'), message, at: new Date().toISOString(), status: 'Submitted', failureReason: null, deliveries: [] });
        return { statusCode: 101, number: n, status: 'Success', cost: 'KES 0.8000', messageId: id };
      });
      const sent = recipients.filter((r) => r.statusCode === 101).length;
      return send(response, 201, { SMSMessageData: { Message: `Sent to ${sent}/${recipients.length} Total Cost: KES ${(0.8 * sent).toFixed(4)}`, Recipients: recipients } });
    }
    const decision = /^\/messages\/([^/]+)\/(Success|Failed)$/.exec(path);
    if (method === 'POST' && decision) {
      await readBody(request);
      const id = decodeURIComponent(decision[1]!);
      if (messages.get(id)?.status === 'Submitted') await deliver(id, decision[2] as SimulatedDelivery);
      return send(response, 303, undefined, { location: '/' });
    }
    const stop = /^\/opt-out\/([^/]+)$/.exec(path);
    if (method === 'POST' && stop) {
      await readBody(request);
      await optOut(decodeURIComponent(stop[1]!));
      return send(response, 303, undefined, { location: '/' });
    }
    return send(response, 404, { error: 'Not found' });
  }

  const server: Server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => send(response, 500, { error: (error as Error).message }));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve));
  const address = server.address() as AddressInfo;
  url = `http://${options.host ?? '127.0.0.1'}:${address.port}`;

  return {
    url,
    username,
    apiKey,
    config(base: string) {
      serverUrl = base.replace(/\/+$/, '');
      return { baseUrl: url, username, apiKey, callbackToken: token, simulator: true };
    },
    messages: () => [...messages.values()],
    deliver,
    optOut,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
