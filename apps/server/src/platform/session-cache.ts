import { readAtCommit, type Database } from '../db/database.ts';

/**
 * A short-lived in-process cache of loaded sessions, keyed by the session token's hash (decision 0062). Every
 * request loads its session (platform/auth-plugin.ts); a hit costs no database round trip.
 *
 * It stays correct with several server instances on one database:
 * - every change a cached session shows fires a row trigger (migration 0029) that sends NOTIFY pp_session_cache
 *   with the key of what changed (s:<token hash>, u:<user id>, p:<pharmacy id>); every instance LISTENs and drops
 *   the entries concerned as soon as the notification arrives, which PostgreSQL sends at COMMIT;
 * - the same triggers list the keys in the transaction's setting pharmapoint.session_cache (migration 0033); the
 *   transactions of this instance read it at commit and drop those entries before the request answers (watch()),
 *   so what a request changed is seen by this instance's next request without waiting for the notification, and a
 *   write that changed no session (a sale, a stock change) drops nothing (decision 0073);
 * - a load that started before an invalidation is never stored (an epoch counts invalidations), so a session
 *   read before a sign-out committed cannot be cached after it;
 * - an entry lives `ttlMs` at most: the bound when a notification is lost (the LISTEN connection was dropped and
 *   reconnects a second later; notifications of the gap are not replayed).
 */
export const SESSION_CACHE_CHANNEL = 'pp_session_cache';

/** The transaction-local setting migration 0033's triggers list their keys in (' s:… u:… ', or '*': everything). */
export const SESSION_CACHE_KEYS_SETTING = 'pharmapoint.session_cache';

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
  hash: string;
  /** The session token itself when the load was asked by token (getByToken finds it without hashing). */
  token: string | undefined;
  value: T;
  keys: CacheKeys;
  storedAt: number;
}

export class SessionCache<T> {
  private readonly entries = new Map<string, Entry<T>>();
  /**
   * The same entries by the token they were loaded for: a request finds its session without hashing its token
   * (SHA-256 through node:crypto is a few microseconds, a sizeable part of a cached request). The tokens live here
   * only as long as their entry (ttlMs at most), in this process's memory, which every request's cookie reaches
   * anyway; the database still stores and is asked by the hash only.
   */
  private readonly byToken = new Map<string, Entry<T>>();
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
    return this.fresh(this.entries.get(tokenHash))?.value;
  }

  /** The entry loaded for this session token, with its hash, if it is still fresh. */
  getByToken(token: string): { hash: string; value: T } | undefined {
    return this.fresh(this.byToken.get(token));
  }

  private fresh(entry: Entry<T> | undefined): Entry<T> | undefined {
    if (!entry) return undefined;
    if (this.clock() - entry.storedAt >= this.ttlMs) {
      this.remove(entry.hash);
      return undefined;
    }
    return entry;
  }

  private remove(tokenHash: string): void {
    const entry = this.entries.get(tokenHash);
    if (!entry) return;
    this.entries.delete(tokenHash);
    if (entry.token !== undefined) this.byToken.delete(entry.token);
  }

  /**
   * Keeps a loaded value, unless something was invalidated since `epoch` (the load may predate the change). With
   * `token`, getByToken finds it too.
   */
  store(tokenHash: string, value: T, keys: CacheKeys, epoch: number, token?: string): void {
    if (!this.enabled || epoch !== this.epochValue) return;
    this.remove(tokenHash);
    if (this.entries.size >= MAX_ENTRIES) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.remove(oldest);
    }
    const entry: Entry<T> = { hash: tokenHash, token, value, keys, storedAt: this.clock() };
    this.entries.set(tokenHash, entry);
    if (token !== undefined) this.byToken.set(token, entry);
  }

  /** Drops one session's entry. */
  dropSession(tokenHash: string): void {
    this.epochValue += 1;
    this.remove(tokenHash);
  }

  /** Drops every entry of a user, or of sessions in a pharmacy. */
  dropWhere(match: { userId?: string; pharmacyId?: string | null }): void {
    this.epochValue += 1;
    for (const [hash, entry] of this.entries) {
      if ((match.userId !== undefined && entry.keys.userId === match.userId) || (match.pharmacyId && entry.keys.pharmacyId === match.pharmacyId)) {
        this.remove(hash);
      }
    }
  }

  clear(): void {
    this.epochValue += 1;
    this.entries.clear();
    this.byToken.clear();
  }

  /** Applies the keys a transaction listed in SESSION_CACHE_KEYS_SETTING ('*' or anything unknown clears the cache). */
  applyKeys(listed: string): void {
    for (const key of listed.split(' ')) if (key) this.apply(key);
  }

  /**
   * The database as the request transactions should use it: on PostgreSQL each transaction reads, in COMMIT's own
   * round trip (readAtCommit in db/database.ts: no statement more), the keys the triggers of migration 0033 listed
   * (the sessions, users, memberships, branches and pharmacies it changed) and, once it has committed, drops those
   * entries here, before the request answers. A transaction that changed none of those tables lists none and drops
   * nothing (a sale, a stock change). On PGlite the triggers' notifications reach this instance's listener before
   * COMMIT returns: nothing to add.
   */
  watch(db: Database): Database {
    if (db.kind !== 'postgres') return db;
    const transaction: Database['transaction'] = (scope, work, opening) =>
      db.transaction(
        scope,
        async (q) => {
          if (this.enabled) readAtCommit(q, SESSION_CACHE_KEYS_SETTING, (keys) => this.applyKeys(keys));
          return work(q);
        },
        opening,
      );
    return Object.assign(Object.create(db) as Database, { transaction });
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
