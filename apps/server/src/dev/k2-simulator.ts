import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { KopoKopoConfig } from '../modules/payments/k2-config.ts';

/**
 * A local Kopo Kopo K2 for development and tests (issue 11 item 3; decision 0044). It speaks the part of K2's HTTP
 * API the server uses (integrations reference section 1): OAuth client credentials (POST /oauth/token), incoming
 * payments (POST /api/v2/incoming_payments answering 201 with a Location), the status query (GET on that
 * location) and the STK result callback, signed the way K2 signs it (X-KopoKopo-Signature: the hex HMAC-SHA256 of
 * the raw body with the API key). It plays the customer's phone: its page (GET /) lists the STK prompts with
 * Approve, Decline and Time out. `npm start` runs it when no K2 credentials are configured; it listens on the
 * loopback address only.
 */

export type PromptStatus = 'Pending' | 'Success' | 'Failed';
export type PromptDecision = 'approve' | 'decline' | 'timeout';

export interface SimulatedPrompt {
  id: string;
  phoneNumber: string;
  firstName: string;
  lastName: string;
  amount: string;
  tillNumber: string;
  metadata: Record<string, unknown>;
  callbackUrl: string;
  initiationTime: string;
  status: PromptStatus;
  reference: string | null;
  originationTime: string | null;
  errors: string | null;
  /** Callbacks posted (and their HTTP answers). */
  deliveries: number[];
  /** The K2 application (client id) that asked: its API key signs the callback. */
  clientId: string;
}

/** A K2 application: a pharmacy's own till credentials (decision 0058), or the simulator's own. */
export interface SimulatedClient {
  clientId: string;
  clientSecret: string;
  apiKey: string;
  tillNumber: string;
}

/** The failure texts the phone gives (Daraja's result descriptions, integrations reference section 2.7). */
export const SIMULATED_FAILURES = {
  decline: 'Request cancelled by user',
  timeout: 'DS timeout user cannot be reached',
} as const;

export interface K2SimulatorOptions {
  host?: string;
  port?: number;
  clientId?: string;
  clientSecret?: string;
  apiKey?: string;
  tillNumber?: string;
  /** Access tokens live this long (seconds; K2's fixtures say 3600). */
  tokenSeconds?: number;
}

export interface K2Simulator {
  /** http://host:port: the base URL of the API and of the page. */
  url: string;
  clientId: string;
  clientSecret: string;
  apiKey: string;
  tillNumber: string;
  /** A KopoKopoConfig for a server that posts callbacks to callbackUrl. */
  config(callbackUrl: string): KopoKopoConfig;
  prompts(): SimulatedPrompt[];
  /** OAuth tokens issued so far. */
  tokensIssued(): number;
  /**
   * Answers a pending prompt as the customer's phone would. `deliveries` callbacks are posted at once (default 1;
   * 0 = a lost callback, which only a status query finds; 5 = a duplicated callback).
   */
  decide(id: string, decision: PromptDecision, options?: { deliveries?: number }): Promise<SimulatedPrompt>;
  /** The signature K2 puts on a body (with the API key of this client; the simulator's own by default). */
  sign(body: string, clientId?: string): string;
  /**
   * Another K2 application (a pharmacy's till, decision 0058), as K2's dashboard would issue it: the given values,
   * or new random ones. Its callbacks are signed with its own API key.
   */
  addClient(client?: Partial<SimulatedClient>): SimulatedClient;
  close(): Promise<void>;
}

/** A value deep in parsed JSON, or undefined. */
function dig(value: unknown, ...keys: string[]): unknown {
  let current = value;
  for (const key of keys) {
    if (!current || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
}

async function readBody(request: IncomingMessage, limit = 65536): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > limit) throw new Error('body too large');
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function send(response: ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}): void {
  const text = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
  response.writeHead(status, {
    ...(body === undefined ? {} : { 'content-type': typeof body === 'string' ? 'text/html; charset=utf-8' : 'application/json' }),
    ...headers,
  });
  response.end(text);
}

/** Starts the simulator; resolves once it listens. */
export async function startK2Simulator(options: K2SimulatorOptions = {}): Promise<K2Simulator> {
  const clientId = options.clientId ?? 'k2-simulator';
  const clientSecret = options.clientSecret ?? randomBytes(16).toString('hex');
  const apiKey = options.apiKey ?? randomBytes(24).toString('hex');
  const tillNumber = options.tillNumber ?? 'K000000';
  const tokenSeconds = options.tokenSeconds ?? 3600;
  const tokens = new Map<string, { expires: number; clientId: string }>();
  const clients = new Map<string, SimulatedClient>([[clientId, { clientId, clientSecret, apiKey, tillNumber }]]);
  const addClient = (client: Partial<SimulatedClient> = {}): SimulatedClient => {
    const made: SimulatedClient = {
      clientId: client.clientId ?? `sim-${randomBytes(6).toString('hex')}`,
      clientSecret: client.clientSecret ?? randomBytes(16).toString('hex'),
      apiKey: client.apiKey ?? randomBytes(24).toString('hex'),
      tillNumber: client.tillNumber ?? `K${100000 + (randomBytes(3).readUIntBE(0, 3) % 900000)}`,
    };
    clients.set(made.clientId, made);
    return made;
  };
  const prompts = new Map<string, SimulatedPrompt>();
  let issued = 0;
  let url = '';

  const sign = (body: string, client = clientId) => createHmac('sha256', clients.get(client)?.apiKey ?? apiKey).update(body).digest('hex');

  const resourceOf = (p: SimulatedPrompt) => ({
    data: {
      id: p.id,
      type: 'incoming_payment',
      attributes: {
        initiation_time: p.initiationTime,
        status: p.status,
        event: {
          type: 'Incoming Payment Request',
          resource:
            p.status === 'Success'
              ? {
                  id: randomUUID(),
                  reference: p.reference,
                  origination_time: p.originationTime,
                  sender_phone_number: p.phoneNumber,
                  amount: p.amount,
                  currency: 'KES',
                  till_number: p.tillNumber,
                  system: 'Lipa Na M-PESA',
                  status: 'Received',
                  sender_first_name: p.firstName,
                  sender_middle_name: null,
                  sender_last_name: p.lastName,
                }
              : null,
          errors: p.errors,
        },
        metadata: p.metadata,
        _links: { callback_url: p.callbackUrl, self: `${url}/api/v2/incoming_payments/${p.id}` },
      },
    },
  });

  async function deliver(p: SimulatedPrompt, times: number): Promise<void> {
    const body = JSON.stringify(resourceOf(p));
    const signature = sign(body, p.clientId);
    await Promise.all(
      Array.from({ length: times }, async () => {
        for (let attempt = 0; attempt < 3; attempt += 1) {
          try {
            const answer = await fetch(p.callbackUrl, {
              method: 'POST',
              headers: { 'content-type': 'application/json', accept: 'application/json', 'x-kopokopo-signature': signature },
              body,
              signal: AbortSignal.timeout(10_000),
            });
            p.deliveries.push(answer.status);
            if (answer.status < 500) return;
          } catch {
            p.deliveries.push(0);
          }
          await new Promise((resolve) => setTimeout(resolve, 1000 * (attempt + 1)));
        }
      }),
    );
  }

  async function decide(id: string, decision: PromptDecision, decideOptions: { deliveries?: number } = {}): Promise<SimulatedPrompt> {
    const p = prompts.get(id);
    if (!p) throw new Error(`No STK prompt ${id}`);
    if (p.status !== 'Pending') throw new Error(`The STK prompt ${id} was already answered (${p.status})`);
    if (decision === 'approve') {
      p.status = 'Success';
      p.reference = `S${randomBytes(5).toString('hex').toUpperCase().slice(0, 9)}`;
      p.originationTime = new Date().toISOString();
    } else {
      p.status = 'Failed';
      p.errors = SIMULATED_FAILURES[decision];
    }
    await deliver(p, decideOptions.deliveries ?? 1);
    return p;
  }

  /** The client whose valid token the request carries, or undefined. */
  function bearer(request: IncomingMessage): SimulatedClient | undefined {
    const match = /^Bearer (.+)$/.exec(request.headers.authorization ?? '');
    const token = match ? tokens.get(match[1]!) : undefined;
    return token && token.expires > Date.now() ? clients.get(token.clientId) : undefined;
  }

  function page(): string {
    const list = [...prompts.values()].reverse();
    const pending = list.some((p) => p.status === 'Pending');
    const rows = list
      .map(
        (p) => `<li class="prompt" data-status="${escapeHtml(p.status)}">
  <div><strong>KSh ${escapeHtml(Number(p.amount).toLocaleString('en-KE'))}</strong> to till ${escapeHtml(p.tillNumber)} from ${escapeHtml(p.phoneNumber)}
  (${escapeHtml(`${p.firstName} ${p.lastName}`.trim())})</div>
  <div class="meta">Prompt ${escapeHtml(p.id)} &middot; ${escapeHtml(p.initiationTime)} &middot; <span class="status">${escapeHtml(p.status)}</span>${
    p.reference ? ` &middot; receipt ${escapeHtml(p.reference)}` : ''
  }${p.errors ? ` &middot; ${escapeHtml(p.errors)}` : ''}</div>
  ${
    p.status === 'Pending'
      ? `<form method="post" action="/prompts/${escapeHtml(p.id)}/approve"><button class="approve">Approve</button></form>
  <form method="post" action="/prompts/${escapeHtml(p.id)}/decline"><button>Decline</button></form>
  <form method="post" action="/prompts/${escapeHtml(p.id)}/timeout"><button>Time out</button></form>`
      : ''
  }
</li>`,
      )
      .join('\n');
    return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
${pending ? '' : '<meta http-equiv="refresh" content="2">'}
<title>M-Pesa simulator (Kopo Kopo K2)</title>
<style>
body{font-family:system-ui,sans-serif;margin:0 auto;max-width:720px;padding:16px;color:#111827}
h1{font-size:1.4rem}.note{color:#4b5563}ul{list-style:none;padding:0}
li{border:1px solid #e5e7eb;border-radius:8px;padding:12px;margin:8px 0}.meta{color:#6b7280;font-size:.85rem;margin:4px 0 8px;word-break:break-all}
form{display:inline}button{font:inherit;padding:6px 14px;margin-right:6px;border-radius:6px;border:1px solid #d1d5db;background:#fff;cursor:pointer}
button.approve{background:#16a34a;border-color:#16a34a;color:#fff}
</style></head><body>
<h1>M-Pesa simulator</h1>
<p class="note">This page plays the customer's phone for STK push requests sent to the local Kopo Kopo K2 simulator.
Approve completes the payment, Decline cancels it, Time out answers as a phone that could not be reached.
${pending ? '<a href="/">Refresh</a>' : 'Waiting for payment requests (this page refreshes by itself).'}</p>
${list.length ? `<ul>${rows}</ul>` : '<p>No STK prompts yet.</p>'}
<h2 id="till-apps">Till apps</h2>
<p class="note">A pharmacy's own Kopo Kopo credentials for M-Pesa at the till (Settings &gt; Integrations). While this simulator runs,
a pharmacy without credentials of its own uses the simulator's till (${escapeHtml(tillNumber)}). Add one to try a pharmacy's own credentials.</p>
<ul>${[...clients.values()]
      .filter((c) => c.clientId !== clientId)
      .map(
        (c) => `<li class="client"><div>Till number <strong>${escapeHtml(c.tillNumber)}</strong></div>
<div class="meta">Client ID ${escapeHtml(c.clientId)} &middot; client secret ${escapeHtml(c.clientSecret)} &middot; API key ${escapeHtml(c.apiKey)}</div></li>`,
      )
      .join('\n')}</ul>
<form method="post" action="/clients"><button>Add a till app</button></form>
</body></html>`;
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    const method = request.method ?? 'GET';
    if (method === 'GET' && path === '/') return send(response, 200, page(), { 'cache-control': 'no-store' });
    if (method === 'POST' && path === '/oauth/token') {
      const form = new URLSearchParams(await readBody(request));
      if (form.get('grant_type') !== 'client_credentials') return send(response, 400, { error: 'unsupported_grant_type', error_description: 'The authorization grant type is not supported.' });
      const client = clients.get(form.get('client_id') ?? '');
      if (!client || form.get('client_secret') !== client.clientSecret) {
        return send(response, 401, { error: 'invalid_client', error_description: 'Client authentication failed.' });
      }
      const token = randomBytes(24).toString('hex');
      tokens.set(token, { expires: Date.now() + tokenSeconds * 1000, clientId: client.clientId });
      issued += 1;
      return send(response, 200, { access_token: token, token_type: 'Bearer', expires_in: tokenSeconds, created_at: Math.floor(Date.now() / 1000) });
    }
    const decision = /^\/prompts\/([0-9a-f-]{36})\/(approve|decline|timeout)$/.exec(path);
    if (method === 'POST' && decision) {
      await readBody(request);
      const p = prompts.get(decision[1]!);
      if (p?.status === 'Pending') await decide(p.id, decision[2] as PromptDecision);
      return send(response, 303, undefined, { location: '/' });
    }
    if (method === 'POST' && path === '/clients') {
      await readBody(request);
      addClient();
      return send(response, 303, undefined, { location: '/#till-apps' });
    }
    if (path.startsWith('/api/v2/')) {
      const caller = bearer(request);
      if (!caller) return send(response, 401, { error_code: 401, error_message: 'Unauthorized: the access token is invalid or expired.' });
      if (method === 'POST' && path === '/api/v2/incoming_payments') {
        let json: unknown;
        try {
          json = JSON.parse(await readBody(request));
        } catch {
          return send(response, 400, { error_code: 400, error_message: 'The request body is not valid JSON.' });
        }
        const at = (...keys: string[]) => dig(json, ...keys);
        const phone = String(at('subscriber', 'phone_number') ?? '');
        const value = Number(at('amount', 'value'));
        const callbackUrl = String(at('_links', 'callback_url') ?? '');
        if (at('payment_channel') !== 'M-PESA STK Push') return send(response, 400, { error_code: 400, error_message: 'payment_channel must be M-PESA STK Push' });
        if (!/^\+254[17]\d{8}$/.test(phone)) return send(response, 400, { error_code: 400, error_message: 'Invalid phone number' });
        if (at('amount', 'currency') !== 'KES' || !(value > 0)) return send(response, 400, { error_code: 400, error_message: 'Invalid amount' });
        if (at('till_number') !== caller.tillNumber) return send(response, 400, { error_code: 400, error_message: 'Invalid till number' });
        if (!/^https?:\/\//.test(callbackUrl)) return send(response, 400, { error_code: 400, error_message: 'A callback_url is required' });
        const id = randomUUID();
        prompts.set(id, {
          id,
          phoneNumber: phone,
          firstName: String(at('subscriber', 'first_name') ?? ''),
          lastName: String(at('subscriber', 'last_name') ?? ''),
          amount: value.toFixed(1),
          tillNumber: caller.tillNumber,
          clientId: caller.clientId,
          metadata: (at('metadata') as Record<string, unknown> | undefined) ?? {},
          callbackUrl,
          initiationTime: new Date().toISOString(),
          status: 'Pending',
          reference: null,
          originationTime: null,
          errors: null,
          deliveries: [],
        });
        return send(response, 201, undefined, { location: `${url}/api/v2/incoming_payments/${id}` });
      }
      const query = /^\/api\/v2\/incoming_payments\/([0-9a-f-]{36})$/.exec(path);
      if (method === 'GET' && query) {
        const p = prompts.get(query[1]!);
        if (!p) return send(response, 404, { error_code: 404, error_message: 'Not found' });
        return send(response, 200, resourceOf(p));
      }
    }
    return send(response, 404, { error_code: 404, error_message: 'Not found' });
  }

  const server: Server = createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) send(response, 500, { error_code: 500, error_message: 'Simulator error' });
      else response.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  url = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;

  return {
    url,
    clientId,
    clientSecret,
    apiKey,
    tillNumber,
    config: (callbackUrl) => ({ baseUrl: url, clientId, clientSecret, apiKey, tillNumber, callbackUrl, simulator: true }),
    prompts: () => [...prompts.values()],
    addClient,
    tokensIssued: () => issued,
    decide,
    sign,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}
