import { randomBytes } from 'node:crypto';
import { fdatasyncSync } from 'node:fs';
import { createRequire } from 'node:module';
import { PGlite, type PGliteInterface } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { NodeFS } from '@electric-sql/pglite/nodefs';
import pg from 'pg';

/**
 * How column values come back, registered once for both drivers: int8 and numeric as numbers (money is integer
 * cents and counts are far below 2^53), date as 'YYYY-MM-DD' text (a calendar day has no time zone) and
 * timestamptz as an ISO 8601 string. No module converts driver values itself.
 */
const PG_INT8 = 20;
const PG_NUMERIC = 1700;
const PG_DATE = 1082;
const PG_TIMESTAMPTZ = 1184;
const PG_INT8_ARRAY = 1016;
const parseTimestamptz = pg.types.getTypeParser(PG_TIMESTAMPTZ) as (value: string) => Date;
/** A timestamptz as a UTC server sends it (TimeZone UTC, DateStyle ISO): 'YYYY-MM-DD HH:MM:SS[.ffffff]+00', years 1000-9999. */
const UTC_TIMESTAMPTZ = /^([1-9]\d{3}-\d\d-\d\d) (\d\d:\d\d:\d\d)(\.\d{1,6})?\+00$/;
/**
 * A timestamptz as ISO 8601: for UTC text straight from its fields (no Date built and formatted again: a sale reads
 * several, and each cost more than its whole row otherwise), else through node-postgres's parser. The same string
 * either way: the milliseconds are the fraction's first three digits, as Date.UTC truncates postgres-date's
 * 1000 * fraction (the fraction as a number, so a float a hair under the digits truncates one lower: kept exact by
 * taking that path for fractions of more than three digits).
 */
function timestamptzIso(value: string): string {
  const match = UTC_TIMESTAMPTZ.exec(value);
  if (match) {
    const fraction = match[3];
    if (fraction === undefined) return `${match[1]}T${match[2]}.000Z`;
    const ms = Math.trunc(1000 * parseFloat(fraction));
    return `${match[1]}T${match[2]}.${ms < 10 ? '00' : ms < 100 ? '0' : ''}${ms}Z`;
  }
  return parseTimestamptz(value).toISOString();
}
const parseInt8Array = (value: string): number[] => (pg.types.getTypeParser(PG_INT8_ARRAY as 20) as unknown as (v: string) => string[])(value).map(Number);
export const COLUMN_PARSERS: Record<number, (value: string) => unknown> = {
  [PG_INT8]: Number,
  [PG_NUMERIC]: Number,
  [PG_DATE]: (value) => value,
  [PG_TIMESTAMPTZ]: timestamptzIso,
  [PG_INT8_ARRAY]: parseInt8Array,
};
const pgTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    (format ?? 'text') === 'text' && COLUMN_PARSERS[oid] ? COLUMN_PARSERS[oid] : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

/** Something SQL can be sent to: a transaction, or (for migrations and seeds only) the owner connection. */
export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<T[]>;
}

/** The role every request runs as: not the owner of the tables, not a superuser, so row-level security applies. */
export const APP_ROLE = 'pharmapoint_app';

export interface TransactionScope {
  /** The tenant of this transaction; tenant tables show only its rows. */
  pharmacyId?: string | null;
  /** The signed-in user; lets a user see their own memberships across pharmacies before a tenant is chosen. */
  userId?: string | null;
}

export interface OwnerSession extends Queryable {
  /** Runs a script of several statements without parameters. */
  exec(sql: string): Promise<void>;
}

export type NotificationListener = (payload: string) => void;

/** A statement with its parameters. */
export interface Statement {
  sql: string;
  params: readonly unknown[];
}

export interface Database {
  readonly kind: 'pglite' | 'postgres';
  /**
   * A transaction as the application role, with the tenant (and user) of the scope set for it alone. `opening`, when
   * given, is a statement sent with BEGIN in the same round trip (parameters inlined as deferWrite's are); the work
   * reads its rows with openingRows(q). The Idempotency-Key's claim opens a keyed create this way (decision 0077).
   * On a PostgreSQL server the work starts without waiting for BEGIN's answer: its first statements follow BEGIN on
   * the wire (decision 0086); a failure of BEGIN's message is the transaction's error.
   */
  transaction<T>(scope: TransactionScope, work: (q: Queryable) => Promise<T>, opening?: Statement): Promise<T>;
  /** The owner connection: migrations, seeds and tests' own inspection only. Row-level security does not apply. */
  readonly owner: Queryable;
  /** One owner connection for a piece of work that needs it (migrations: advisory lock, multi-statement scripts). */
  ownerSession<T>(work: (session: OwnerSession) => Promise<T>): Promise<T>;
  /** LISTEN on a channel (every server instance on the same database hears NOTIFY). Returns an unsubscribe. */
  listen(channel: string, listener: NotificationListener): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/** Tasks to run at the end of a transaction, right before COMMIT, keyed so each runs once per transaction. */
const commitTasks = new WeakMap<Queryable, Map<string, () => Promise<void>>>();

/**
 * Runs `task` once at the end of the transaction q belongs to, right before COMMIT (after the use case's work), and
 * never if the work fails. Registering the same key again replaces nothing: the first task of a key runs. The ledger
 * uses it to send a transaction's live stock events in one NOTIFY, however many changes it made.
 */
export function beforeCommit(q: Queryable, key: string, task: () => Promise<void>): void {
  const tasks = commitTasks.get(q);
  if (!tasks) throw new Error('beforeCommit: not inside Database.transaction');
  if (!tasks.has(key)) tasks.set(key, task);
}

async function runCommitTasks(q: Queryable): Promise<void> {
  const tasks = commitTasks.get(q);
  if (!tasks) return;
  // A task may register another (rare): run until none is left.
  while (tasks.size > 0) {
    const [key, task] = tasks.entries().next().value as [string, () => Promise<void>];
    tasks.delete(key);
    await task();
  }
}

/** Transaction settings read in COMMIT's own round trip, with what to do with each value once committed (readAtCommit). */
const commitReads = new WeakMap<Queryable, Map<string, (value: string) => void>>();
const SETTING_NAME = /^[a-z_]+\.[a-z_]+$/;

/**
 * Reads the transaction setting `name` (a custom `prefix.name` that triggers set with set_config(..., true)) at the
 * end of the transaction q belongs to, in the same round trip as COMMIT on PostgreSQL (`SELECT current_setting(...);
 * COMMIT` as one simple-protocol message: no statement more), and hands its value ('' when unset) to `then` once the
 * transaction has committed; never if it fails. The session cache learns this way which sessions a write changed
 * (decision 0073).
 */
export function readAtCommit(q: Queryable, name: string, then: (value: string) => void): void {
  const reads = commitReads.get(q);
  if (!reads) throw new Error('readAtCommit: not inside Database.transaction');
  if (!SETTING_NAME.test(name)) throw new Error(`readAtCommit: not a custom setting name: ${name}`);
  reads.set(name, then);
}

/** The SELECT of the settings to read at commit, or '' when none is asked for. */
function commitReadStatement(q: Queryable): { sql: string; names: string[] } {
  const names = [...(commitReads.get(q)?.keys() ?? [])];
  if (names.length === 0) return { sql: '', names };
  return { sql: `SELECT ${names.map((n, i) => `coalesce(current_setting('${n}', true), '') AS r${i}`).join(', ')}`, names };
}

/** Hands the committed transaction's read settings to their callbacks. */
function deliverCommitReads(q: Queryable, names: readonly string[], row: Record<string, unknown> | undefined): void {
  const reads = commitReads.get(q);
  commitReads.delete(q);
  if (!reads) return;
  names.forEach((name, i) => {
    try {
      reads.get(name)?.(String(row?.[`r${i}`] ?? ''));
    } catch (error) {
      console.error(`a commit read of ${name} failed: ${(error as Error).message}`);
    }
  });
}

/** The rows of the statement a transaction was opened with (Database.transaction's `opening`). */
const openings = new WeakMap<Queryable, Promise<Record<string, unknown>[]>>();

/** The rows the transaction's opening statement returns (sent with BEGIN); undefined when it had none. */
export function openingRows<T = Record<string, unknown>>(q: Queryable): Promise<T[]> | undefined {
  return openings.get(q) as Promise<T[]> | undefined;
}

/** Transactions whose statements' answers are held back until a verdict (holdAnswers). */
const holds = new WeakMap<Queryable, { verdict: Promise<boolean>; refusal: () => unknown }>();

/**
 * Holds back the answers of q's statements until `verdict` resolves (decision 0086): statements are still sent at once
 * (pipelined), but each answers only once the verdict is known — its own answer when the verdict is true; when it is
 * false (or fails), `refusal()` (or the verdict's error) instead, so work that started before the verdict never acts on
 * a statement's answer. Whatever such work sent is then the caller's to roll back (throw, so the transaction does).
 * The Idempotency-Key's claim, sent with BEGIN, is the verdict of a keyed create: its first reads go out with the claim.
 */
export function holdAnswers(q: Queryable, verdict: Promise<boolean>, refusal: () => unknown): void {
  const hold = { verdict, refusal };
  holds.set(q, hold);
  // Once it is true, answers flow again without a hop; false or failed, the hold stays for the transaction's end.
  verdict.then(
    (ok) => {
      if (ok && holds.get(q) === hold) holds.delete(q);
    },
    () => undefined,
  );
}

/**
 * Awaits statements (or use-case steps) sent together without waiting for one another: on a PostgreSQL server the
 * transaction's connection pipelines them (node-postgres `pipeline` mode: each is on the wire as soon as it is issued,
 * and the server runs them one after the other, in the order they were issued, each a statement of its own with its
 * own READ COMMITTED snapshot taken when it starts — after any lock an earlier one waited for), so a batch costs one
 * wait instead of one per statement (decision 0086). The embedded database runs them in the same order, one at a time.
 * Issue them in the order they must run (a lock before the reads that rely on it) and pass them in that order: the
 * answer is every value, or — once all have settled, so no rejection is left unhandled and no statement of the batch
 * is still running — the failure of the first one in that order that failed (what running them one by one would
 * have reported: a failed statement makes the later ones of the transaction fail with 25P02, never reported instead
 * of it; see Database.transaction). Only statements whose results none of the others needs may go together.
 */
export async function together<T extends readonly unknown[]>(...steps: { [K in keyof T]: Promise<T[K]> }): Promise<T> {
  const settled = await Promise.allSettled(steps);
  for (const outcome of settled) if (outcome.status === 'rejected') throw outcome.reason;
  return settled.map((outcome) => (outcome as PromiseFulfilledResult<unknown>).value) as unknown as T;
}

/** PostgreSQL's in_failed_sql_transaction: a statement sent after one that failed in the same transaction. */
const IN_FAILED_TRANSACTION = '25P02';

/**
 * The error a failed transaction reports: the first statement's that failed when the work's is only a later
 * statement's 25P02 (with pipelined statements the work may see that one first), else the work's own.
 */
function reportedError(error: unknown, firstFailure: unknown): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  return code === IN_FAILED_TRANSACTION && firstFailure !== undefined ? firstFailure : error;
}

/**
 * A transaction's Queryable: `run` sends a statement; the first statement that fails is kept (reportedError), and once
 * the transaction has ended (committed or rolled back, the connection back in the pool) a statement is refused
 * instead of being sent on a connection another request may hold.
 */
function transactionQueryable(run: (sql: string, params: readonly unknown[] | undefined) => Promise<Record<string, unknown>[]>): {
  q: Queryable;
  firstFailure: () => unknown;
  /** Keeps `error` as the transaction's first failure (BEGIN's message, sent outside q) unless one is kept already. */
  fail: (error: unknown) => void;
  end: () => void;
} {
  let failure: unknown;
  let ended = false;
  const fail = (error: unknown) => {
    if (failure === undefined && (error as { code?: unknown } | null)?.code !== IN_FAILED_TRANSACTION) failure = error;
  };
  const q: Queryable = {
    query<T>(sql: string, params?: readonly unknown[]): Promise<T[]> {
      if (ended) return Promise.reject(new Error('Queryable used after its transaction ended'));
      const answer = run(sql, params).then(
        (rows) => rows as T[],
        (error: unknown) => {
          fail(error);
          throw error;
        },
      );
      const hold = holds.get(q);
      if (!hold) return answer;
      return hold.verdict.then(
        (ok) => {
          if (ok) return answer;
          answer.catch(() => undefined);
          throw hold.refusal();
        },
        (error: unknown) => {
          answer.catch(() => undefined);
          throw error;
        },
      );
    },
  };
  return { q, firstFailure: () => failure, fail, end: () => void (ended = true) };
}

/** Writes deferred to the end of a transaction (deferWrite), in registration order. */
const commitWrites = new WeakMap<Queryable, { sql: string; params: readonly unknown[] }[]>();

/**
 * Runs the statement `sql` with `params` at the end of the transaction q belongs to — after its beforeCommit tasks, in
 * registration order — and on a PostgreSQL server in COMMIT's own round trip: every deferred write, the commit reads
 * and COMMIT go as one simple-protocol message, with the parameters inlined as quoted literals (decision 0077). A write
 * whose result nobody reads and whose only failure is the transaction's (the audit row, the Idempotency-Key's answer, a
 * restamp) thus costs no round trip of its own. Its result is never read; an error it raises fails the transaction
 * (ROLLBACK) and reaches the caller as that database error, so a refusal must be raised by the SQL itself. Parameters
 * are `$1`..`$n` as for q.query and keep its semantics: each becomes a literal of unknown type, as node-postgres sends
 * an untyped text parameter, so `$2::uuid[]` and a column's type resolve it alike. `sql` is a fixed text of a
 * repository (a `$n` inside a quoted string stays text, as it does for q.query; no dollar-quoted bodies); never a text
 * built from input.
 */
export function deferWrite(q: Queryable, sql: string, params: readonly unknown[] = []): void {
  const writes = commitWrites.get(q);
  if (!writes) throw new Error('deferWrite: not inside Database.transaction');
  writes.push({ sql, params });
}

/** The deferred writes of q (cleared). */
function takeDeferredWrites(q: Queryable): { sql: string; params: readonly unknown[] }[] {
  const writes = commitWrites.get(q) ?? [];
  commitWrites.set(q, []);
  return writes;
}

const pgUtils = createRequire(import.meta.url)('pg/lib/utils.js') as { prepareValue: (value: unknown) => string | Buffer | null };

/**
 * A text as a quoted SQL literal, exactly as pg.escapeLiteral writes it (quotes and backslashes doubled, E'' when
 * there is a backslash), without its character-by-character copy: the Idempotency-Key's answer and the audit row are
 * inlined into every write request's COMMIT message, a few kilobytes of JSON each.
 */
function quoteLiteral(text: string): string {
  const quoted = text.includes("'") ? text.replace(/'/g, "''") : text;
  return text.includes('\\') ? ` E'${quoted.replace(/\\/g, '\\\\')}'` : `'${quoted}'`;
}

/** A parameter as a quoted SQL literal of unknown type (NULL for null): the text node-postgres would send for it. */
function parameterLiteral(value: unknown): string {
  if (value === undefined) return 'NULL';
  const text = pgUtils.prepareValue(value);
  if (text === null) return 'NULL';
  if (Buffer.isBuffer(text)) return `'\\x${text.toString('hex')}'`;
  return quoteLiteral(text);
}

const QUOTE = 39; // '
const DOLLAR = 36; // $
const isDigit = (code: number) => code >= 48 && code <= 57;

/** A deferred write with its parameters inlined ($n outside quoted strings only). */
export function inlineParameters(sql: string, params: readonly unknown[]): string {
  // The text between parameters is copied in slices, not character by character.
  let out = '';
  let copied = 0;
  let quoted = false;
  for (let i = 0; i < sql.length; i += 1) {
    const c = sql.charCodeAt(i);
    if (c === QUOTE) quoted = !quoted;
    else if (!quoted && c === DOLLAR && isDigit(sql.charCodeAt(i + 1))) {
      let j = i + 1;
      while (j < sql.length && isDigit(sql.charCodeAt(j))) j += 1;
      const n = Number(sql.slice(i + 1, j));
      if (n < 1 || n > params.length) throw new Error(`deferWrite: $${n} has no parameter (${params.length} given)`);
      out += sql.slice(copied, i) + parameterLiteral(params[n - 1]);
      copied = j;
      i = j - 1;
    }
  }
  return copied === 0 ? sql : out + sql.slice(copied);
}

/** Notifications a transaction publishes when, and only when, it commits (notifyOnCommit). */
const commitNotices = new WeakMap<Queryable, Notice[]>();

interface Notice {
  channel: string;
  payload: string;
}

/**
 * Publishes payloads on a channel once the transaction q belongs to has committed (never if it rolls back): to this
 * instance's listeners at once, and to every other instance on the same database through one NOTIFY a few
 * milliseconds later, shared with the other transactions that committed meanwhile (NoticeRelay). Unlike a NOTIFY
 * sent inside the transaction, it takes no lock: PostgreSQL serialises the commits of every transaction that
 * notified (a global lock from the NOTIFY queue's write to the end of COMMIT), which capped every till and every
 * stock change at one commit at a time (decision 0067).
 */
export function notifyOnCommit(q: Queryable, channel: string, payloads: readonly string[]): void {
  const notices = commitNotices.get(q);
  if (!notices) throw new Error('notifyOnCommit: not inside Database.transaction');
  for (const payload of payloads) notices.push({ channel, payload });
}

/** Marks a payload this process sent, so its own LISTEN connection does not deliver it a second time. */
const ORIGIN_MARK = '\u0001';
/** How long the relay gathers committed notices before it sends them in one NOTIFY statement. */
export const NOTICE_FLUSH_MS = 20;

/**
 * One per Database: delivers a committed transaction's notices to this instance's listeners at once and queues them
 * for the other instances; every NOTICE_FLUSH_MS at most it sends what is queued in one statement (its own short
 * transaction, outside any request's). A payload travels as ORIGIN_MARK + origin + ORIGIN_MARK + payload; the
 * listener of this instance drops its own. If the process dies between a commit and the flush, the other instances
 * miss those events: browsers read the stock again whenever their stream reconnects, and the server never trusts a
 * browser's stock figure, so the loss shows as a few seconds of an older number on another instance's screens.
 */
class NoticeRelay {
  private readonly origin = randomBytes(6).toString('base64url');
  private queue: Notice[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly deliverLocally: (notice: Notice) => void,
    /** Sends payloads to the other instances (null: there are none, as with the embedded database). */
    private readonly send: ((channel: string, payloads: string[]) => Promise<void>) | null,
  ) {}

  publish(notices: readonly Notice[]): void {
    if (notices.length === 0) return;
    for (const notice of notices) this.deliverLocally(notice);
    if (!this.send) return;
    this.queue.push(...notices);
    this.timer ??= setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, NOTICE_FLUSH_MS);
  }

  /** A payload heard on LISTEN: the payload to deliver, or null when this instance sent it (already delivered). */
  accept(payload: string): string | null {
    if (!payload.startsWith(ORIGIN_MARK)) return payload;
    const end = payload.indexOf(ORIGIN_MARK, 1);
    if (end < 0) return payload;
    return payload.slice(1, end) === this.origin ? null : payload.slice(end + 1);
  }

  /** Sends what is queued (the flushes run one after the other, in publish order). */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.queue;
    this.queue = [];
    const send = this.send;
    if (batch.length === 0 || !send) return this.flushing;
    const byChannel = new Map<string, string[]>();
    for (const { channel, payload } of batch) {
      let list = byChannel.get(channel);
      if (!list) byChannel.set(channel, (list = []));
      list.push(`${ORIGIN_MARK}${this.origin}${ORIGIN_MARK}${payload}`);
    }
    this.flushing = this.flushing.then(async () => {
      for (const [channel, payloads] of byChannel) {
        try {
          await send(channel, payloads);
        } catch (error) {
          // The other instances miss these events (their browsers resync on reconnect); never the request's problem.
          console.error(`live events not sent to other instances (${payloads.length}): ${(error as Error).message}`);
        }
      }
    });
    return this.flushing;
  }
}

/** The per-transaction state: its commit tasks and the notices it publishes after COMMIT (see notifyOnCommit). */
function beginTransactionState(q: Queryable): void {
  commitTasks.set(q, new Map());
  commitWrites.set(q, []);
  commitNotices.set(q, []);
  commitReads.set(q, new Map());
}

function committedNotices(q: Queryable): Notice[] {
  const notices = commitNotices.get(q) ?? [];
  commitNotices.delete(q);
  return notices;
}

/** Calls each listener; one that throws does not keep the payload from the others. */
function deliver(listeners: ReadonlySet<NotificationListener> | undefined, payload: string): void {
  for (const listener of listeners ?? []) {
    try {
      listener(payload);
    } catch (error) {
      console.error(`a notification listener failed: ${(error as Error).message}`);
    }
  }
}

/** A literal for a simple-protocol statement: pharmacy ids and user ids are checked, the quote doubled anyway. */
function literal(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

/**
 * The statement that starts a request transaction: the application role and the tenant and user, as one statement
 * (set_config('role', ...) is SET LOCAL ROLE), so a transaction pays one round trip before its own work.
 */
function scopeStatement(scope: TransactionScope): string {
  return `SELECT set_config('role', '${APP_ROLE}', true), set_config('app.pharmacy_id', ${literal(scope.pharmacyId ?? '')}, true), set_config('app.user_id', ${literal(scope.userId ?? '')}, true)`;
}

/**
 * Durability of the embedded database (issue 7 item 11, docs/decisions/0018). PGlite as shipped starts PostgreSQL with
 * `-F` (fsync off), and its Node filesystem (Emscripten's NODEFS) has no fsync operation, so a commit reached the
 * operating system's cache but never the disk: a power cut could lose sales the till was told were saved. On a data
 * directory we start PostgreSQL with fsync on and wal_sync_method=fsync (its fdatasync is a no-op stub in PGlite's
 * build, its fsync() reaches the filesystem), and give NODEFS an fsync that calls fdatasync(2) on the file (or
 * directory). Every COMMIT then waits for its WAL to be on disk, as on a PostgreSQL server with default settings.
 */
const DURABLE_START_PARAMS = [...(PGlite as unknown as { defaultStartParams: string[] }).defaultStartParams.filter((p) => p !== '-F'), '-c', 'fsync=on', '-c', 'wal_sync_method=fsync', '-c', 'synchronous_commit=on'];

let embeddedSyncs = 0;
/** How many fsyncs the embedded databases of this process asked the disk for (tests read it). */
export function embeddedSyncCount(): number {
  return embeddedSyncs;
}

interface NodefsStream {
  nfd?: number;
}
interface EmscriptenModule {
  NODEFS: { stream_ops: { fsync?: (stream: NodefsStream) => number } };
}

/** PGlite's NodeFS with an fsync that reaches the disk. */
class DurableNodeFS extends NodeFS {
  override async init(pg: Parameters<NodeFS['init']>[0], opts: Parameters<NodeFS['init']>[1]): ReturnType<NodeFS['init']> {
    const result = await super.init(pg, opts);
    const giveFsync = (module: EmscriptenModule) => {
      module.NODEFS.stream_ops.fsync = (stream) => {
        if (stream.nfd !== undefined) {
          fdatasyncSync(stream.nfd);
          embeddedSyncs++;
        }
        return 0;
      };
    };
    const preRun = result.emscriptenOpts.preRun ?? [];
    result.emscriptenOpts.preRun = [giveFsync as unknown as (typeof preRun)[number], ...preRun];
    return result;
  }
}

export interface PgliteOptions {
  /** Start from a dumpDataDir() tarball (tests). */
  loadDataDir?: Blob;
  /**
   * Make every COMMIT wait for the disk (default true on a data directory; memory has no disk). PGLITE_FSYNC=off
   * turns it off for throwaway data (faster, and a power cut can lose the last seconds of commits).
   */
  durable?: boolean;
}

/** Embedded PostgreSQL (PGlite): a directory on disk, or memory when dataDir is undefined; loadDataDir starts it from a dumpDataDir() tarball (tests). */
export async function openPglite(dataDir?: string, loadDataDirOrOptions?: Blob | PgliteOptions): Promise<Database> {
  const options: PgliteOptions = loadDataDirOrOptions instanceof Blob ? { loadDataDir: loadDataDirOrOptions } : (loadDataDirOrOptions ?? {});
  const { loadDataDir } = options;
  const durable = Boolean(dataDir) && options.durable !== false;
  const storage = dataDir ? (durable ? { fs: new DurableNodeFS(dataDir), startParams: DURABLE_START_PARAMS } : { dataDir }) : {};
  const db: PGliteInterface = await PGlite.create({ ...storage, ...(loadDataDir ? { loadDataDir } : {}), extensions: { pg_trgm }, parsers: COLUMN_PARSERS });
  const owner: Queryable = {
    async query<T>(sql: string, params?: readonly unknown[]) {
      const result = await db.query<T>(sql, params ? [...params] : undefined);
      return result.rows;
    },
  };
  const localListeners = new Map<string, Set<NotificationListener>>();
  const relay = new NoticeRelay(({ channel, payload }) => deliver(localListeners.get(channel), payload), null);
  return {
    kind: 'pglite',
    owner,
    async ownerSession(work) {
      return work({ ...owner, exec: async (sql) => void (await db.exec(sql)) });
    },
    async transaction(scope, work, opening) {
      let notices: Notice[] = [];
      let committedQ: Queryable | undefined;
      let readNames: string[] = [];
      let readRow: Record<string, unknown> | undefined;
      // PGlite runs a transaction's statements one at a time in the order they are issued (its query lock): statements
      // sent together (together()) run as they would on a server, without the saved round trips.
      let guarded: ReturnType<typeof transactionQueryable> | undefined;
      const value = await db.transaction(async (tx) => {
        guarded = transactionQueryable(async (sql, params) => (await tx.query<Record<string, unknown>>(sql, params ? [...params] : undefined)).rows);
        const { q } = guarded;
        beginTransactionState(q);
        await tx.query(scopeStatement(scope));
        if (opening) openings.set(q, Promise.resolve((await tx.query<Record<string, unknown>>(opening.sql, [...opening.params])).rows));
        const result = await work(q);
        await runCommitTasks(q);
        // In process, a statement more costs no round trip: the deferred writes run one by one, and the settings are
        // read right before COMMIT.
        for (const write of takeDeferredWrites(q)) await tx.query(write.sql, [...write.params]);
        notices = committedNotices(q);
        const reads = commitReadStatement(q);
        if (reads.sql) {
          readNames = reads.names;
          readRow = (await tx.query<Record<string, unknown>>(reads.sql)).rows[0];
        }
        committedQ = q;
        return result;
      }).catch((error: unknown) => {
        throw reportedError(error, guarded?.firstFailure());
      }).finally(() => guarded?.end());
      if (committedQ) deliverCommitReads(committedQ, readNames, readRow);
      relay.publish(notices);
      return value;
    },
    async listen(channel, listener) {
      // One process holds an embedded database: its committed notices go straight to its listeners (NoticeRelay);
      // LISTEN still hears what SQL itself notifies (the job queue's wake-up).
      let set = localListeners.get(channel);
      if (!set) localListeners.set(channel, (set = new Set()));
      set.add(listener);
      const unsubscribe = await db.listen(channel, listener);
      return async () => {
        set.delete(listener);
        await unsubscribe();
      };
    },
    async close() {
      await db.close();
    },
  };
}

/** A PostgreSQL server through node-postgres. */
export async function openPostgres(connectionString: string, options: { max?: number; appConnectionString?: string } = {}): Promise<Database> {
  // Pipeline mode (decision 0086): a statement issued while another is running goes on the wire at once instead of
  // waiting in node-postgres's queue for the answer before it; the server still runs them one after the other.
  const pool = new pg.Pool({ connectionString, max: options.max ?? 10, types: pgTypes, pipeline: true });
  // An idle connection the server ends (restart, DROP DATABASE ... FORCE) must not crash the process: the pool drops it.
  pool.on('error', () => undefined);
  // Fail loudly and early when the server is unreachable.
  await pool.query('SELECT 1');
  // Request transactions on their own login role when one is given (APP_DATABASE_URL: a role that owns nothing
  // and is only a member of pharmapoint_app); otherwise on the owner's connection, still dropping to
  // pharmapoint_app with SET LOCAL ROLE in every transaction (docs/decisions/0009).
  const appPool = options.appConnectionString ? new pg.Pool({ connectionString: options.appConnectionString, max: options.max ?? 10, types: pgTypes, pipeline: true }) : pool;
  if (appPool !== pool) {
    appPool.on('error', () => undefined);
    await appPool.query('SELECT 1');
  }
  const owner: Queryable = {
    async query<T>(sql: string, params?: readonly unknown[]) {
      const result = await pool.query(sql, params ? [...params] : undefined);
      return result.rows as T[];
    },
  };
  const listeners = new Map<string, Set<NotificationListener>>();
  const relay = new NoticeRelay(
    ({ channel, payload }) => deliver(listeners.get(channel), payload),
    async (channel, payloads) => void (await pool.query(`SELECT pg_notify($1, payload) FROM unnest($2::text[]) AS payload`, [channel, payloads])),
  );
  let listenClient: pg.PoolClient | null = null;
  let closed = false;
  // The LISTEN connection. When the server drops it (restart, failover) it must not crash the process: drop
  // it, connect again after a second and LISTEN again on every channel (events of the gap are lost).
  async function connectListener(): Promise<pg.PoolClient> {
    const client = await pool.connect();
    client.on('notification', (message) => {
      const payload = relay.accept(message.payload ?? '');
      if (payload !== null) deliver(listeners.get(message.channel), payload);
    });
    client.on('error', () => {
      if (closed || listenClient !== client) return;
      listenClient = null;
      client.release(true);
      setTimeout(() => void reconnectListener(), 1000).unref();
    });
    for (const channel of listeners.keys()) await client.query(`LISTEN "${channel.replace(/"/g, '')}"`);
    return client;
  }
  async function reconnectListener(): Promise<void> {
    if (closed || listenClient) return;
    try {
      listenClient = await connectListener();
    } catch {
      if (!closed) setTimeout(() => void reconnectListener(), 1000).unref();
    }
  }
  return {
    kind: 'postgres',
    owner,
    async ownerSession(work) {
      const client = await pool.connect();
      try {
        return await work({
          async query<T>(sql: string, params?: readonly unknown[]) {
            return (await client.query(sql, params ? [...params] : undefined)).rows as T[];
          },
          exec: async (sql) => void (await client.query(sql)),
        });
      } finally {
        client.release();
      }
    },
    async transaction(scope, work, opening) {
      const client = await appPool.connect();
      const guarded = transactionQueryable(async (sql, params) => (await send(client, sql, params)).rows as Record<string, unknown>[]);
      const { q } = guarded;
      beginTransactionState(q);
      try {
        // BEGIN, then the scope and the opening statement in one simple-protocol message, neither awaited: the work's
        // first statements go on the wire right behind them (pipeline mode) and run after them, in the transaction, as
        // the application role. Their failure is the transaction's first (later statements fail with 25P02), and they
        // are awaited before COMMIT: never a COMMIT of a transaction that did not begin. BEGIN is a message of its own:
        // a message PostgreSQL cannot parse runs none of its statements, so with BEGIN inside the scope's message the
        // work's statements behind it would run outside any transaction, as the connection's login role; alone, BEGIN
        // always runs, and whatever fails after it fails the transaction (pipelined-statements.test.ts).
        const started = client.query('BEGIN');
        started.catch((error: unknown) => guarded.fail(error));
        const begun = client.query(opening ? `${scopeStatement(scope)};\n${inlineParameters(opening.sql, opening.params)}` : scopeStatement(scope));
        begun.catch((error: unknown) => guarded.fail(error));
        if (opening) {
          const rows = begun.then((results) => ((results as unknown as pg.QueryResult[])[1]?.rows ?? []) as Record<string, unknown>[]);
          rows.catch(() => undefined);
          openings.set(q, rows);
        }
        const value = await work(q);
        await started;
        await begun;
        await runCommitTasks(q);
        const writes = takeDeferredWrites(q).map((w) => inlineParameters(w.sql, w.params));
        const reads = commitReadStatement(q);
        if (writes.length > 0 || reads.sql) {
          // The deferred writes, the settings and COMMIT in one simple-protocol message: one round trip, results in order.
          const text = [...writes, ...(reads.sql ? [reads.sql] : []), 'COMMIT'].join(';\n');
          const results = (await client.query(text)) as unknown as pg.QueryResult[];
          deliverCommitReads(q, reads.names, reads.sql ? (results[writes.length]?.rows[0] as Record<string, unknown> | undefined) : undefined);
        } else {
          await client.query('COMMIT');
        }
        relay.publish(committedNotices(q));
        return value;
      } catch (error) {
        // Behind any statement of the work still on the wire (pipelined): ROLLBACK is answered after them.
        await client.query('ROLLBACK').catch(() => undefined);
        throw reportedError(error, guarded.firstFailure());
      } finally {
        guarded.end();
        client.release();
      }
    },
    async listen(channel, listener) {
      if (!listenClient) listenClient = await connectListener();
      let set = listeners.get(channel);
      if (!set) {
        set = new Set();
        listeners.set(channel, set);
        await listenClient.query(`LISTEN "${channel.replace(/"/g, '')}"`);
      }
      set.add(listener);
      return async () => {
        set.delete(listener);
      };
    },
    async close() {
      await relay.flush();
      closed = true;
      listenClient?.release();
      listenClient = null;
      if (appPool !== pool) await appPool.end();
      await pool.end();
    },
  };
}

/**
 * Named prepared statements for the request transactions on a PostgreSQL server (decision 0067). Each statement a
 * request sends was parsed, rewritten with the row-level security policies and planned again every time: a 3-item
 * sale's 33 statements cost PostgreSQL 7.8 ms of CPU; named, a connection parses a statement once and PostgreSQL
 * keeps its plan (custom plans for the first five runs, then the generic plan when it is no worse — the server's
 * default plan_cache_mode), 5.0 ms (docs/benchmarks.md, 'Where a sale's time goes'). The tenant is never part of a
 * plan: the policies read it with current_setting() when the statement runs. A statement gets a name once this process
 * has seen it PREPARE_AFTER times (the repositories' fixed texts; a text built for one request stays unnamed), and at
 * most PREPARED_MAX texts get one, so a connection never holds an unbounded number of plans.
 */
const PREPARE_AFTER = 3;
const PREPARED_MAX = 800;
const preparedNames = new Map<string, string>();
const statementSightings = new Map<string, number>();

function preparedName(sql: string): string | undefined {
  const known = preparedNames.get(sql);
  if (known !== undefined) return known;
  if (preparedNames.size >= PREPARED_MAX || sql.length > 8000) return undefined;
  const seen = (statementSightings.get(sql) ?? 0) + 1;
  if (seen < PREPARE_AFTER) {
    // Texts seen once or twice: forget them all now and then (a text built per request would otherwise pile up).
    if (statementSightings.size >= 5000) statementSightings.clear();
    statementSightings.set(sql, seen);
    return undefined;
  }
  statementSightings.delete(sql);
  const name = `pp_${preparedNames.size}`;
  preparedNames.set(sql, name);
  return name;
}

/**
 * Sends a request transaction's statement: named (prepared) once its text is known, else as node-postgres sends a
 * text with values. (Decision 0081 measured node-postgres's per-statement work — its copy of the config object, the
 * row template rebuilt from every RowDescription — and left it to the driver: working around it meant overriding the
 * driver's private Query and Result internals for about 0.1 ms of a sale's 6.)
 */
function send(client: pg.PoolClient, sql: string, params: readonly unknown[] | undefined): Promise<pg.QueryResult> {
  const prepared = params ? preparedName(sql) : undefined;
  return prepared ? client.query({ name: prepared, text: sql, values: [...params!] }) : client.query(sql, params ? [...params] : undefined);
}

/** DATABASE_URL picks a PostgreSQL server (APP_DATABASE_URL its request role); otherwise PGlite in dataDir. */
export async function openDatabase(options: { databaseUrl?: string; appDatabaseUrl?: string; dataDir?: string; durable?: boolean }): Promise<Database> {
  return options.databaseUrl
    ? openPostgres(options.databaseUrl, { appConnectionString: options.appDatabaseUrl })
    : openPglite(options.dataDir, { durable: options.durable });
}
