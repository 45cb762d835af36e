import { buildApp, type App } from '../src/app.ts';
import { loadConfig, type Config } from '../src/config.ts';
import type { Database } from '../src/db/database.ts';
import { createMailer, type Mailer } from '../src/platform/mailer.ts';
import { createTestDatabase, type DatabaseKind } from './database.ts';
import { TestClient } from './http.ts';

export interface TestApp {
  app: App;
  db: Database;
  config: Config;
  mailer: Mailer;
  client(ip?: string): TestClient;
  close(): Promise<void>;
}

/** The real application on a fresh database of the given kind; config overrides for the test (SMTP_URL, ...). */
export async function createTestApp(kind: DatabaseKind, overrides: Partial<Config> = {}): Promise<TestApp> {
  const db = await createTestDatabase(kind);
  const config: Config = {
    ...loadConfig({}),
    webDist: '/nonexistent',
    seed: false,
    publicUrl: 'http://localhost:3000',
    ...overrides,
  };
  const mailer = createMailer({ db, config });
  const app = await buildApp({ db, config, mailer });
  await app.ready();
  // A test's own SQL changes what sessions show as another instance would: after a write, wait until this app's
  // session cache has heard of it (decision 0062: another instance hears a change milliseconds after its commit).
  // A plain SELECT changes nothing a session shows and skips the wait (one round trip less per read). PGlite delivers
  // a notification inside the query that sent it, so there is nothing to wait for there, and the wrapper is left
  // out: with it, maintenance.test.ts (PGlite, which hands t.db to the scheduler) saw no ANALYZE pass within 30 s.
  const sync = () => app.sessionCache.sync();
  const testDb: Database = db.kind === 'pglite' ? db : {
    ...db,
    owner: {
      async query<T>(sql: string, params?: readonly unknown[]) {
        const rows = await db.owner.query<T>(sql, params);
        if (!/^\s*SELECT\b/i.test(sql)) await sync();
        return rows;
      },
    },
    async transaction(scope, work) {
      const value = await db.transaction(scope, work);
      await sync();
      return value;
    },
  };
  return {
    app,
    db: testDb,
    config,
    mailer,
    client: (ip?: string) => new TestClient(app, ip),
    async close() {
      await app.close();
      await mailer.stop();
      await db.close();
    },
  };
}
