import type { Database } from '../db/database.ts';

/**
 * A short-lived in-process cache of loaded sessions, keyed by the session token's hash (decision 0062). Every
 * request loads its session (platform/auth-plugin.ts); a hit costs no database round trip.
 *
 * It stays correct with several server instances on one database:
 * - every change a cached session shows fires a row trigger (migration 0029) that sends NOTIFY pp_session_cache
 *   with the key of what changed (s:<token hash>, u:<user id>, p:<pharmacy id>); every instance LISTENs and drops
 *   the entries concerned as soon as the notification arrives, which PostgreSQL sends at COMMIT;
 * - a write request on this instance drops, when it answers, the entries of its own user and pharmacy (all of them
 *   for a platform operator or a caller without a session), so what a request changed is seen by this instance's
 *   next request without waiting for the notification;
 * - a load that started before an invalidation is never stored (an epoch counts invalidations), so a session
 *   read before a sign-out committed cannot be cached after it;
 * - an entry lives `ttlMs` at most: the bound when a notification is lost (the LISTEN connection was dropped and
 *   reconnects a second later; notifications of the gap are not replayed).
 */
export const SESSION_CACHE_CHANNEL = 'pp_session_cache';

/** How long an entry may be used without being loaded again (the bound of decision 0062). */
export const SESSION_CACHE_TTL_MS = 5_000;

/** The most entries kept; the oldest go first (a Map keeps insertion order). */
const MAX_ENTRIES = 20_000;

export interface CacheKeys {
  userId: string;
  /** The session's pharmacy as stored on the session row (even when the membership gives no access there). */
  pharmacyId: string | null;
}

interface Entry<T> {
  value: T;
  keys: CacheKeys;
  storedAt: number;
}

export class SessionCache<T> {
  private readonly entries = new Map<string, Entry<T>>();
  private epochValue = 0;
  private unlisten: (() => Promise<void>) | null = null;
  private db: Database | null = null;
  private readonly instance = Math.random().toString(36).slice(2, 10);
  private syncs = 0;
  private readonly waiting = new Map<string, () => void>();

  constructor(
    /** Milliseconds an entry may be used (0: no cache). Tests shorten it to show the bound. */
    public ttlMs: number = SESSION_CACHE_TTL_MS,
    private readonly clock: () => number = Date.now,
  ) {}

  get enabled(): boolean {
    return this.ttlMs > 0;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The epoch to hand to store() after a load: take it BEFORE the load starts. */
  get epoch(): number {
    return this.epochValue;
  }

  get(tokenHash: string): T | undefined {
    const entry = this.entries.get(tokenHash);
    if (!entry) return undefined;
    if (this.clock() - entry.storedAt >= this.ttlMs) {
      this.entries.delete(tokenHash);
      return undefined;
    }
    return entry.value;
  }

  /** Keeps a loaded value, unless something was invalidated since `epoch` (the load may predate the change). */
  store(tokenHash: string, value: T, keys: CacheKeys, epoch: number): void {
    if (!this.enabled || epoch !== this.epochValue) return;
    this.entries.delete(tokenHash);
    if (this.entries.size >= MAX_ENTRIES) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(tokenHash, { value, keys, storedAt: this.clock() });
  }

  /** Drops one session's entry. */
  dropSession(tokenHash: string): void {
    this.epochValue += 1;
    this.entries.delete(tokenHash);
  }

  /** Drops every entry of a user, or of sessions in a pharmacy. */
  dropWhere(match: { userId?: string; pharmacyId?: string | null }): void {
    this.epochValue += 1;
    for (const [hash, entry] of this.entries) {
      if ((match.userId !== undefined && entry.keys.userId === match.userId) || (match.pharmacyId && entry.keys.pharmacyId === match.pharmacyId)) {
        this.entries.delete(hash);
      }
    }
  }

  clear(): void {
    this.epochValue += 1;
    this.entries.clear();
  }

  /** Applies one notification of migration 0029 (anything unknown clears the cache: safe by default). */
  apply(message: string): void {
    if (message.startsWith('sync:')) {
      this.waiting.get(message)?.();
      return;
    }
    const kind = message.slice(0, 2);
    const key = message.slice(2);
    if (kind === 's:' && key) this.dropSession(key);
    else if (kind === 'u:' && key) this.dropWhere({ userId: key });
    else if (kind === 'p:' && key) this.dropWhere({ pharmacyId: key });
    else this.clear();
  }

  /** LISTENs for the invalidations of every instance on this database. */
  async attach(db: Database): Promise<void> {
    if (!this.enabled || this.unlisten) return;
    this.db = db;
    this.unlisten = await db.listen(SESSION_CACHE_CHANNEL, (payload) => this.apply(payload));
  }

  /**
   * Resolves once every notification committed before the call has been applied here: it sends a notification of
   * its own and waits to hear it (PostgreSQL delivers a database's notifications in commit order). For a change made
   * outside this instance's requests that must show at once on it, such as a test's own SQL; at most `waitMs`.
   */
  async sync(waitMs = 2_000): Promise<void> {
    if (!this.db || !this.unlisten) return;
    this.syncs += 1;
    const message = `sync:${this.instance}:${this.syncs}`;
    let timer: NodeJS.Timeout | undefined;
    const heard = new Promise<void>((resolve) => {
      this.waiting.set(message, resolve);
      timer = setTimeout(resolve, waitMs);
    });
    try {
      await this.db.owner.query(`SELECT pg_notify($1, $2)`, [SESSION_CACHE_CHANNEL, message]);
      await heard;
    } finally {
      clearTimeout(timer);
      this.waiting.delete(message);
    }
  }

  async detach(): Promise<void> {
    const unlisten = this.unlisten;
    this.unlisten = null;
    this.db = null;
    this.clear();
    if (unlisten) await unlisten();
  }
}
