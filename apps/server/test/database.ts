import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import pg from 'pg';
import { inject } from 'vitest';
import { openPglite, openPostgres, type Database } from '../src/db/database.ts';
import { migrate } from '../src/db/migrate.ts';
import { testDatabasePrefix } from './global-setup.ts';

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
  // The clone made ahead for this call (or one made now), and the next one started while this one is used: a
  // CREATE DATABASE takes 0.4-1 s of the server's time that the test file need not wait for.
  const name = await (nextClone ?? cloneDatabase(url, template));
  nextClone = cloneDatabase(url, template);
  nextClone.catch(() => undefined); // awaited (and its error thrown) by the next call, if there is one
  const dbUrl = new URL(url);
  dbUrl.pathname = `/${name}`;
  const db = await openPostgres(dbUrl.toString(), { max: 5 });
  await migrate(db);
  const closeConnections = db.close.bind(db);
  return Object.assign(db, {
    async close() {
      await closeConnections();
      // DROP DATABASE waits for a checkpoint of the whole server (0.1-1.5 s under load): it runs in the background
      // while the next test goes on, and global-setup.ts drops whatever of this run is left at the end.
      void dropDatabase(url, name).catch(() => undefined);
    },
  });
}

/** The clone made ahead for the next test database of this worker (the server project shares one module graph). */
let nextClone: Promise<string> | undefined;

/**
 * CREATE DATABASE ... TEMPLATE. The template refuses connections, so no session should hold it; PostgreSQL still
 * answers 'being accessed by other users' if one does (a stray psql), so wait and try again for a few seconds.
 */
async function cloneDatabase(url: string, template: string): Promise<string> {
  const name = `${testDatabasePrefix(template)}${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
        return name;
      } catch (error) {
        if (attempt >= 20 || !/being accessed by other users/.test((error as Error).message)) throw error;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
  } finally {
    await admin.end();
  }
}

async function dropDatabase(url: string, name: string): Promise<void> {
  const dropper = new pg.Client({ connectionString: url });
  await dropper.connect();
  try {
    await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } finally {
    await dropper.end();
  }
}
