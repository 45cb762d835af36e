import type { Database } from '../../apps/server/src/db/database.ts';
import { createMaintenance } from '../../apps/server/src/platform/maintenance.ts';

/**
 * What a running server's tables have: planner statistics. PostgreSQL's autovacuum ANALYZEs a table once 50 rows
 * (+ 10 %) changed; where autovacuum is off (this machine's PostgreSQL) and on PGlite, the app's own maintenance pass
 * does the same (platform/maintenance.ts, started by main.ts). A benchmark builds the app without that scheduler on a
 * new database, so without this its tables never have statistics, and the plans PostgreSQL keeps per connection —
 * foreign key checks among them — are the ones made for empty tables (decision 0083). Run it after the seed and
 * after a few dozen warm-up writes (an empty table is left alone: it has no changed rows), as the pass would have.
 */
export async function analyzeLikeARunningServer(db: Database): Promise<string[]> {
  return createMaintenance(db).analyzeChanged();
}

/**
 * BENCH_SCANS=1: the tables read by sequential scans so far (foreign key checks among them — a check planned while its
 * table was small keeps reading the whole table as it grows), with their size; printed by the throughput benches.
 */
export async function printSequentialScans(db: Database): Promise<void> {
  if (!process.env.BENCH_SCANS || db.kind !== 'postgres') return;
  await new Promise((resolve) => setTimeout(resolve, 1500)); // backends report their counters when idle
  const scans = await db.owner.query(
    `SELECT relname AS table, seq_scan, seq_tup_read AS rows_read, idx_scan, n_live_tup AS live, n_dead_tup AS dead,
            pg_relation_size(relid) / 8192 AS pages
       FROM pg_stat_user_tables WHERE seq_tup_read > 0 ORDER BY seq_tup_read DESC`,
  );
  console.table(scans);
}
