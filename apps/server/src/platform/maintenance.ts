import type { Database } from '../db/database.ts';

/**
 * Planner statistics and vacuum for the embedded database. PGlite has no autovacuum, so without this its tables
 * keep the statistics of the day they were first analyzed (or none), and plans go wrong as a catalogue grows — and
 * plans a connection cached while the tables were small are kept until an ANALYZE invalidates them (decision 0075).
 * PostgreSQL has autovacuum: there the scheduler does nothing, unless the server runs with autovacuum off (as this
 * project's CI and benchmark machine does), where the app does the same as on PGlite.
 *
 * PGlite runs SQL synchronously on the Node thread: while a statement runs, no request is served at all. So:
 * - ANALYZE runs table by table (yielding to the event loop between tables), only on tables whose rows changed
 *   enough since their last analyze (pg_stat_user_tables.n_mod_since_analyze, autovacuum's default threshold),
 *   with default_statistics_target 10 for that statement: a sample of 3,000 rows, whatever the table's size.
 *   Measured on 50,000 imported products (2 cores under a load average of 16): ANALYZE products took 109 ms at
 *   target 10, 322 ms at 30 and 2,000 ms at the default 100; ANALYZE of the whole database at 100 took 2.9 s.
 * - VACUUM (not FULL) runs once a day at a quiet hour (03:00 in Nairobi by default), table by table, on tables
 *   with dead rows or rows inserted since their last vacuum. Its time grows with the changes (a first VACUUM
 *   after 50,000 imported products took 2.5 s under that load), hence the night hour.
 */

export interface MaintenanceOptions {
  /** How often to look for changed tables (default 1 minute: autovacuum's own naptime; a look at unchanged tables is one query). */
  analyzeEveryMs?: number;
  /** Delay of the pass requestAnalyze() asks for (default 2 s: lets the rest of the bulk work commit first). */
  requestedDelayMs?: number;
  /** The UTC hour of the daily VACUUM (default 0, 03:00 in Nairobi). */
  vacuumUtcHour?: number;
  /** default_statistics_target of the ANALYZE statements (default 10). */
  statisticsTarget?: number;
  /** A line per pass that did work, and failures (default: failures on stderr only). */
  log?: (line: string) => void;
}

export interface Maintenance {
  /** Starts the timers (PGlite, or a PostgreSQL server with autovacuum off; otherwise autovacuum does this). */
  start(): void;
  /** Stops the timers and waits for a pass under way. */
  stop(): Promise<void>;
  /** ANALYZEs the changed tables now; returns their names. */
  analyzeChanged(): Promise<string[]>;
  /** VACUUMs the changed tables now; returns their names. */
  vacuumChanged(): Promise<string[]>;
  /** Is the scheduler running (started, and needed on this database)? */
  readonly active: boolean;
}

const started = new WeakMap<Database, { request(): void }>();

/**
 * Asks the database's started scheduler for an ANALYZE pass soon (bulk work: an import, a catalogue seed). Does
 * nothing when none is started (PostgreSQL, tests without one).
 */
export function requestAnalyze(db: Database): void {
  started.get(db)?.request();
}

/** Milliseconds from now to the next whole hour `utcHour` (UTC). */
export function msUntilUtcHour(utcHour: number, now: Date = new Date()): number {
  const next = new Date(now);
  next.setUTCHours(utcHour, 0, 0, 0);
  if (next.getTime() <= now.getTime()) next.setUTCDate(next.getUTCDate() + 1);
  return next.getTime() - now.getTime();
}

export function createMaintenance(db: Database, options: MaintenanceOptions = {}): Maintenance {
  const analyzeEveryMs = options.analyzeEveryMs ?? 60_000;
  const requestedDelayMs = options.requestedDelayMs ?? 2000;
  const vacuumUtcHour = options.vacuumUtcHour ?? 0;
  const target = options.statisticsTarget ?? 10;
  if (!Number.isInteger(target) || target < 1 || target > 10_000) throw new Error('createMaintenance: statisticsTarget must be an integer from 1 to 10000');
  const log = options.log ?? (() => undefined);

  let running: Promise<unknown> = Promise.resolve();
  let stopped = true;
  /** Set by stop(): a pass under way ends after its current table. */
  let closing = false;
  let analyzeTimer: NodeJS.Timeout | undefined;
  let requestTimer: NodeJS.Timeout | undefined;
  let vacuumTimer: NodeJS.Timeout | undefined;

  /** One pass at a time, analyze and vacuum alike. */
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const next = running.then(work, work);
    running = next.catch(() => undefined);
    return next;
  };
  const yieldToRequests = () => new Promise<void>((resolve) => setImmediate(resolve));

  /** Makes this backend's pending table counters visible in pg_stat_user_tables (PostgreSQL 15+ flushes them lazily). */
  const flushStats = async () => {
    await db.owner.query('SELECT pg_stat_force_next_flush()');
  };

  const analyzeChanged = () =>
    serial(async () => {
      await flushStats();
      // autovacuum's rule: 50 rows + 10 % of the table changed; or rows never analyzed at all.
      const tables = await db.owner.query<{ name: string }>(
        `SELECT format('%I.%I', schemaname, relname) AS name
           FROM pg_stat_user_tables
          WHERE n_mod_since_analyze > 50 + 0.1 * n_live_tup
             OR (n_mod_since_analyze > 0 AND last_analyze IS NULL AND last_autoanalyze IS NULL)
          ORDER BY n_mod_since_analyze DESC`,
      );
      const done: string[] = [];
      for (const { name } of tables) {
        if (closing) break;
        const began = performance.now();
        await db.ownerSession(async (session) => {
          try {
            await session.exec(`BEGIN; SET LOCAL default_statistics_target = ${target}; ANALYZE ${name}; COMMIT;`);
          } catch (error) {
            // A failed statement leaves the script's transaction open on the one connection: close it.
            await session.exec('ROLLBACK').catch(() => undefined);
            throw error;
          }
        });
        log(`maintenance: ANALYZE ${name} ${(performance.now() - began).toFixed(0)} ms`);
        done.push(name);
        await yieldToRequests();
      }
      return done;
    });

  const vacuumChanged = () =>
    serial(async () => {
      await flushStats();
      const tables = await db.owner.query<{ name: string }>(
        `SELECT format('%I.%I', schemaname, relname) AS name FROM pg_stat_user_tables WHERE n_dead_tup > 0 OR n_ins_since_vacuum > 0`,
      );
      const done: string[] = [];
      for (const { name } of tables) {
        if (closing) break;
        const began = performance.now();
        await db.owner.query(`VACUUM ${name}`);
        log(`maintenance: VACUUM ${name} ${(performance.now() - began).toFixed(0)} ms`);
        done.push(name);
        await yieldToRequests();
      }
      return done;
    });

  const report = (what: string) => (error: unknown) => {
    const line = `maintenance: ${what} failed: ${error instanceof Error ? error.message : String(error)}`;
    if (options.log) options.log(line);
    else console.error(line);
  };

  const scheduleVacuum = () => {
    vacuumTimer = setTimeout(() => {
      void vacuumChanged()
        .catch(report('VACUUM'))
        .finally(() => {
          if (!stopped) scheduleVacuum();
        });
    }, msUntilUtcHour(vacuumUtcHour));
    vacuumTimer.unref();
  };

  const scheduler = {
    request() {
      if (stopped || requestTimer) return;
      requestTimer = setTimeout(() => {
        requestTimer = undefined;
        void analyzeChanged().catch(report('ANALYZE'));
      }, requestedDelayMs);
      requestTimer.unref();
    },
  };

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      closing = false;
      const begin = () => {
        if (stopped) return;
        started.set(db, scheduler);
        analyzeTimer = setInterval(() => void analyzeChanged().catch(report('ANALYZE')), analyzeEveryMs);
        analyzeTimer.unref();
        scheduleVacuum();
      };
      if (db.kind === 'pglite') return begin();
      void db.owner.query<{ autovacuum: string }>(`SELECT current_setting('autovacuum') AS autovacuum`).then(([row]) => {
        if (row?.autovacuum !== 'off') return;
        log('maintenance: autovacuum is off on this PostgreSQL server: the app analyzes changed tables itself');
        begin();
      }, report('the autovacuum check'));
    },
    /** Is the scheduler running (started, and needed on this database)? */
    get active() {
      return started.get(db) === scheduler;
    },
    async stop() {
      stopped = true;
      closing = true;
      if (started.get(db) === scheduler) started.delete(db);
      clearInterval(analyzeTimer);
      clearTimeout(requestTimer);
      clearTimeout(vacuumTimer);
      requestTimer = undefined;
      await running;
      closing = false;
    },
    analyzeChanged,
    vacuumChanged,
  };
}
