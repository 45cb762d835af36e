import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import pg from 'pg';
import { inject } from 'vitest';
import { openPglite, openPostgres, type Database } from '../src/db/database.ts';
import { migrate } from '../src/db/migrate.ts';

export type DatabaseKind = 'pglite' | 'postgres';

/**
 * The databases every server test runs on: PGlite always, and the PostgreSQL server when TEST_DATABASE_URL is set.
 * When it is set and the server is unreachable, the tests fail (openPostgres connects eagerly); they never skip.
 */
export function testDatabaseKinds(): DatabaseKind[] {
  return process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
}

let snapshot: Promise<Blob> | undefined;

/** The migrated PGlite of this run (test/global-setup.ts), read once per test file. */
function pgliteSnapshot(): Promise<Blob> {
  snapshot ??= readFile(inject('pgliteSnapshot')).then((bytes) => new Blob([bytes]));
  return snapshot;
}

/**
 * A fresh, migrated database: PGlite in memory started from the run's migrated snapshot, or a new database on the
 * PostgreSQL server cloned from the run's migrated template (dropped on close). migrate() still runs on each; it
 * applies only migration files added since the run started, usually none.
 */
export async function createTestDatabase(kind: DatabaseKind): Promise<Database> {
  if (kind === 'pglite') {
    const db = await openPglite(undefined, await pgliteSnapshot());
    await migrate(db);
    return db;
  }
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set');
  const template = inject('postgresTemplate');
  if (!template) throw new Error('No PostgreSQL template: test/global-setup.ts did not run with TEST_DATABASE_URL set');
  const name = `pp_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  await cloneDatabase(url, name, template);
  const dbUrl = new URL(url);
  dbUrl.pathname = `/${name}`;
  const db = await openPostgres(dbUrl.toString(), { max: 5 });
  await migrate(db);
  const closeConnections = db.close.bind(db);
  return Object.assign(db, {
    async close() {
      await closeConnections();
      const dropper = new pg.Client({ connectionString: url });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropper.end();
    },
  });
}

/**
 * CREATE DATABASE ... TEMPLATE. The template refuses connections, so no session should hold it; PostgreSQL still
 * answers 'being accessed by other users' if one does (a stray psql), so wait and try again for a few seconds.
 */
async function cloneDatabase(url: string, name: string, template: string): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
        return;
      } catch (error) {
        if (attempt >= 20 || !/being accessed by other users/.test((error as Error).message)) throw error;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
  } finally {
    await admin.end();
  }
}
