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
