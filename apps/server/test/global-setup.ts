import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openPostgres, type Database, type OwnerSession } from '../src/db/database.ts';
import { migrate } from '../src/db/migrate.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A dumpDataDir() tarball of a freshly migrated PGlite (test/database.ts starts every PGlite from it). */
    pgliteSnapshot: string;
    /** A migrated database on the TEST_DATABASE_URL server that test databases are cloned from, or '' without one. */
    postgresTemplate: string;
  }
}

/**
 * Once per run of the server project: migrate one PGlite and dump it, and (with TEST_DATABASE_URL) one template
 * database on the PostgreSQL server. Both are built from the migration files of this run, never reused from an
 * earlier one, and removed at the end. Starting a test database from them skips initdb and the migrations
 * (most of the cost of a fresh PGlite); test/database.ts still runs migrate() on each, which applies nothing
 * unless a migration file appeared during the run.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // Two projects use this setup (server, and server-isolated for the files that change module state; see
  // vitest.config.ts): they share one snapshot and one template, built by the first and removed by the last.
  const shared = globalThis as typeof globalThis & { ppTestDatabases?: { users: number; built: Promise<Built> } };
  shared.ppTestDatabases ??= { users: 0, built: build() };
  shared.ppTestDatabases.users += 1;
  const { snapshot, template, teardown: remove } = await shared.ppTestDatabases.built;
  project.provide('pgliteSnapshot', snapshot);
  project.provide('postgresTemplate', template);
  return async () => {
    const entry = shared.ppTestDatabases;
    if (!entry) return;
    entry.users -= 1;
    if (entry.users > 0) return;
    shared.ppTestDatabases = undefined;
    await remove();
  };
}

interface Built {
  snapshot: string;
  template: string;
  teardown(): Promise<void>;
}

async function build(): Promise<Built> {
  const dir = await mkdtemp(path.join(tmpdir(), 'pp-test-snapshot-'));
  const snapshot = path.join(dir, 'pglite.tar');
  const url = process.env.TEST_DATABASE_URL;
  const template = url ? `pp_template_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}` : '';
  // The two are independent: build them side by side.
  const built = await Promise.allSettled([snapshotPglite(snapshot), url ? createTemplate(url, template) : undefined]);
  const failed = built.find((result) => result.status === 'rejected');
  if (failed) {
    await teardown(dir, url, template);
    throw failed.reason;
  }
  return { snapshot, template, teardown: () => teardown(dir, url, template) };
}

/**
 * A bare in-memory PGlite, since the Database of openPglite does not expose dumpDataDir; migrate() uses only the
 * kind and the owner session of a Database. Uncompressed: gunzip would cost every test database.
 */
async function snapshotPglite(file: string): Promise<void> {
  const raw = await PGlite.create({ extensions: { pg_trgm } });
  try {
    const session: OwnerSession = {
      async query<T>(sql: string, params?: readonly unknown[]) {
        return (await raw.query<T>(sql, params ? [...params] : undefined)).rows;
      },
      exec: async (sql) => void (await raw.exec(sql)),
    };
    const owner: Pick<Database, 'kind' | 'ownerSession'> = { kind: 'pglite', ownerSession: async (work) => work(session) };
    await migrate(owner as Database);
    // A checkpoint first, so a database started from the snapshot has no WAL to replay (about 0.1 s of CPU less
    // for each of the run's ~130 PGlite databases).
    await raw.exec('CHECKPOINT');
    const tarball = await raw.dumpDataDir('none');
    await writeFile(file, Buffer.from(await tarball.arrayBuffer()));
  } finally {
    await raw.close();
  }
}

async function createTemplate(url: string, template: string): Promise<void> {
  await adminQuery(url, `CREATE DATABASE ${template}`);
  const templateUrl = new URL(url);
  templateUrl.pathname = `/${template}`;
  const db = await openPostgres(templateUrl.toString(), { max: 1 });
  try {
    await migrate(db);
  } finally {
    await db.close();
  }
  // No session may connect to it from now on: a connected session would make CREATE DATABASE ... TEMPLATE fail.
  await adminQuery(url, `ALTER DATABASE ${template} ALLOW_CONNECTIONS false`);
}

/** Test databases are named pp_test_<run>_<random>, <run> being the template's, so the run's teardown finds them all. */
export function testDatabasePrefix(template: string): string {
  return `pp_test_${template.replace(/^pp_template_/, '')}_`;
}

async function teardown(dir: string, url: string | undefined, template: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
  if (!url || !template) return;
  // test/database.ts drops a test database in the background when its file closes it, and clones the next one
  // ahead: whatever of this run is left (a drop cut short by the end of a worker, the last clone made ahead) goes
  // here, a few at a time (each DROP DATABASE waits for a checkpoint; concurrent ones share it).
  const prefix = testDatabasePrefix(template);
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    // A clone made ahead may still be under way when the last worker ends: wait for it (a few seconds at most).
    for (let waited = 0; waited < 10_000; waited += 200) {
      const { rows: creating } = await admin.query(`SELECT 1 FROM pg_stat_activity WHERE query LIKE 'CREATE DATABASE ' || $1 || '%' AND state = 'active'`, [prefix]);
      if (creating.length === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    // This run's test databases, and those of earlier runs whose template is gone (a run that was killed).
    const { rows } = await admin.query<{ datname: string }>(
      `SELECT datname FROM pg_database d
        WHERE left(datname, length($1)) = $1
           OR (datname ~ '^pp_test_[0-9a-z]+_[0-9a-f]+_[0-9a-f]+$'
               AND NOT EXISTS (SELECT 1 FROM pg_database t WHERE t.datname = 'pp_template_' || substring(d.datname FROM '^pp_test_([0-9a-z]+_[0-9a-f]+)_')))`,
      [prefix],
    );
    const names = rows.map((row) => row.datname);
    await Promise.all(
      Array.from({ length: Math.min(4, names.length) }, async () => {
        for (let name = names.pop(); name; name = names.pop()) await adminQuery(url, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      }),
    );
  } finally {
    await admin.end();
  }
  await adminQuery(url, `DROP DATABASE IF EXISTS ${template} WITH (FORCE)`);
}

async function adminQuery(url: string, sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}
