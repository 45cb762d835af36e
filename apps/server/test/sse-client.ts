import http from 'node:http';
import type { Database } from '../src/db/database.ts';
import { hashSecret, newSecret } from '../src/platform/tokens.ts';

export interface SseEvent {
  event: string;
  data: any;
  id?: string;
}

export interface MinimalPharmacy {
  pharmacyId: string;
  ownerId: string;
  branches: { id: string; name: string }[];
}

/** A pharmacy, two branches and an owner membership, inserted directly (no password: sessions are made below). */
export async function minimalPharmacy(db: Database, id: string, branchNames = ['Main Branch', 'Westlands Branch']): Promise<MinimalPharmacy> {
  const [user] = await db.owner.query<{ id: string }>(`INSERT INTO users (email, name) VALUES ($1, $2) RETURNING id`, [`owner@${id}.test`, `Owner ${id}`]);
  await db.owner.query(`INSERT INTO pharmacies (id, name) VALUES ($1, $2)`, [id, `Pharmacy ${id}`]);
  const branches: { id: string; name: string }[] = [];
  for (const [i, name] of branchNames.entries()) {
    const [row] = await db.owner.query<{ id: string }>(
      `INSERT INTO branches (pharmacy_id, name, is_default) VALUES ($1, $2, $3) RETURNING id`,
      [id, name, i === 0],
    );
    branches.push({ id: row!.id, name });
  }
  await db.owner.query(`INSERT INTO memberships (pharmacy_id, user_id, role, is_owner) VALUES ($1, $2, 'owner', true)`, [id, user!.id]);
  return { pharmacyId: id, ownerId: user!.id, branches };
}

/** A signed-in session made directly in the database (as sign-in would): returns the cookie header value. */
export async function sessionCookie(db: Database, userId: string, pharmacyId: string, branchId: string | null): Promise<string> {
  const token = newSecret();
  await db.owner.query(
    `INSERT INTO sessions (token_hash, user_id, pharmacy_id, branch_id, expires_at) VALUES ($1, $2, $3, $4, now() + interval '1 day')`,
    [hashSecret(token), userId, pharmacyId, branchId],
  );
  return `pp_session=${token}`;
}

/** An EventSource-like reader of a real HTTP server-sent events stream. */
export class SseClient {
  readonly events: SseEvent[] = [];
  readonly comments: string[] = [];
  status = 0;
  headers: http.IncomingHttpHeaders = {};
  retry: number | null = null;
  private buffer = '';
  private waiters: { predicate: (e: SseEvent) => boolean; resolve: (e: SseEvent) => void }[] = [];
  private request: http.ClientRequest | null = null;
  private closed = false;
  body = '';

  /** Opens the stream; resolves once the response head has arrived. */
  static open(url: string, cookie: string): Promise<SseClient> {
    const client = new SseClient();
    return new Promise((resolve, reject) => {
      client.request = http.get(url, { headers: { cookie, accept: 'text/event-stream' } }, (res) => {
        client.status = res.statusCode ?? 0;
        client.headers = res.headers;
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => client.feed(chunk));
        res.on('end', () => {
          client.closed = true;
        });
        resolve(client);
      });
      client.request.on('error', (error) => (client.closed ? undefined : reject(error)));
    });
  }

  get ended(): boolean {
    return this.closed;
  }

  private feed(chunk: string): void {
    this.body += chunk;
    this.buffer += chunk;
    let index: number;
    while ((index = this.buffer.indexOf('\n\n')) >= 0) {
      const block = this.buffer.slice(0, index);
      this.buffer = this.buffer.slice(index + 2);
      let event = 'message';
      let id: string | undefined;
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) this.comments.push(line.slice(1).trim());
        else if (line.startsWith('event: ')) event = line.slice(7);
        else if (line.startsWith('data: ')) data.push(line.slice(6));
        else if (line.startsWith('id: ')) id = line.slice(4);
        else if (line.startsWith('retry: ')) this.retry = Number(line.slice(7));
      }
      if (data.length === 0) continue;
      const parsed: SseEvent = { event, data: JSON.parse(data.join('\n')), ...(id ? { id } : {}) };
      this.events.push(parsed);
      this.waiters = this.waiters.filter((w) => {
        if (!w.predicate(parsed)) return true;
        w.resolve(parsed);
        return false;
      });
    }
  }

  /** The first event (already received or coming) that matches; rejects after the timeout. */
  next(predicate: (e: SseEvent) => boolean, timeoutMs = 5000): Promise<SseEvent> {
    const seen = this.events.find(predicate);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no matching event within ${timeoutMs} ms; got ${JSON.stringify(this.events)}`)), timeoutMs);
      this.waiters.push({
        predicate,
        resolve: (e) => {
          clearTimeout(timer);
          resolve(e);
        },
      });
    });
  }

  close(): void {
    this.closed = true;
    this.request?.destroy();
  }
}
