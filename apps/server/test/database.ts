import { randomBytes } from 'node:crypto';
import pg from 'pg';
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

/** A fresh, migrated database: PGlite in memory, or a new database on the PostgreSQL server (dropped on close). */
export async function createTestDatabase(kind: DatabaseKind): Promise<Database> {
  if (kind === 'pglite') {
    const db = await openPglite();
    await migrate(db);
    return db;
  }
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set');
  const name = `pp_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
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
