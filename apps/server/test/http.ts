import type { App } from '../src/app.ts';

export interface TestResponse<T = any> {
  status: number;
  body: T;
  headers: Record<string, string | string[] | number | undefined>;
}

/**
 * A browser-like client for app.inject(): keeps cookies (session, CSRF) and sends the CSRF header on writes,
 * as the web app does.
 */
export class TestClient {
  readonly cookies = new Map<string, string>();

  constructor(
    private readonly app: App,
    private readonly ip = '127.0.0.1',
  ) {}

  private cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async request<T = any>(method: string, url: string, body?: unknown, headers: Record<string, string> = {}): Promise<TestResponse<T>> {
    if (method !== 'GET' && !this.cookies.has('pp_csrf')) await this.request('GET', '/api/me');
    const response = await this.app.inject({
      method: method as 'GET',
      url,
      remoteAddress: this.ip,
      headers: {
        ...(this.cookies.size ? { cookie: this.cookieHeader() } : {}),
        ...(method !== 'GET' && this.cookies.has('pp_csrf') ? { 'x-csrf-token': this.cookies.get('pp_csrf')! } : {}),
        ...(body !== undefined && typeof body !== 'string' ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      ...(body !== undefined ? { payload: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
    });
    for (const c of response.cookies) {
      if (c.value === '' || (c.expires && c.expires.getTime() < Date.now())) this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
    let parsed: unknown = response.body;
    try {
      parsed = response.body ? JSON.parse(response.body) : undefined;
    } catch {
      // not JSON (HTML, CSV): keep the text
    }
    return { status: response.statusCode, body: parsed as T, headers: response.headers };
  }

  get<T = any>(url: string) {
    return this.request<T>('GET', url);
  }
  /** POSTs `payload` asking for NDJSON (a streamed import's progress lines): the answer with its lines parsed. */
  async postNdjson<Line>(url: string, payload: string, contentType = 'text/csv'): Promise<TestResponse<unknown> & { lines: Line[] }> {
    const response = await this.request<unknown>('POST', url, payload, { 'content-type': contentType, accept: 'application/x-ndjson' });
    // One line alone is also valid JSON, which request() parses: back to its text.
    const text = typeof response.body === 'string' ? response.body : JSON.stringify(response.body);
    return { ...response, lines: text.trim().split('\n').map((line) => JSON.parse(line) as Line) };
  }
  post<T = any>(url: string, body?: unknown) {
    return this.request<T>('POST', url, body ?? {});
  }
  put<T = any>(url: string, body?: unknown) {
    return this.request<T>('PUT', url, body ?? {});
  }
  patch<T = any>(url: string, body?: unknown) {
    return this.request<T>('PATCH', url, body ?? {});
  }
  delete<T = any>(url: string) {
    return this.request<T>('DELETE', url);
  }

  /** Signs in through the real endpoint; throws unless it succeeds. */
  async login(email: string, password: string): Promise<this> {
    const response = await this.post('/api/auth/login', { email, password });
    if (response.status !== 200) throw new Error(`login ${email} failed: ${response.status} ${JSON.stringify(response.body)}`);
    return this;
  }
}
