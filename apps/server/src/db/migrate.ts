import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import type { Database } from './database.ts';

const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/**
 * Applies every migration not yet applied, in file-name order, each in its own transaction, as the owner.
 * Migrations are never edited after they land; a change is a new file.
 */
export async function migrate(db: Database): Promise<string[]> {
  return db.ownerSession(async (session) => {
    // Serialise concurrent starters (two server instances on one PostgreSQL).
    if (db.kind === 'postgres') await session.query('SELECT pg_advisory_lock(727001)');
    try {
      await session.exec(
        `CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
      );
      const rows = await session.query<{ name: string }>('SELECT name FROM schema_migrations');
      const applied = new Set(rows.map((r) => r.name));
      const files = (await readdir(MIGRATIONS_DIR)).filter((f) => f.endsWith('.sql')).sort();
      const done: string[] = [];
      for (const file of files) {
        if (applied.has(file)) continue;
        const sql = await readFile(path.join(MIGRATIONS_DIR, file), 'utf8');
        try {
          await session.exec(`BEGIN;\n${sql}\n;INSERT INTO schema_migrations (name) VALUES ('${file.replace(/'/g, "''")}');\nCOMMIT;`);
        } catch (error) {
          await session.exec('ROLLBACK').catch(() => undefined);
          throw new Error(`Migration ${file} failed: ${(error as Error).message}`, { cause: error });
        }
        done.push(file);
      }
      return done;
    } finally {
      if (db.kind === 'postgres') await session.query('SELECT pg_advisory_unlock(727001)');
    }
  });
}
