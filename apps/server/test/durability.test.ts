import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { embeddedSyncCount, openPglite } from '../src/db/database.ts';

/**
 * Issue 7 item 11 (decision 0018): the embedded database on a data directory makes every COMMIT wait for the disk.
 * PGlite as shipped runs PostgreSQL with fsync off and its Node filesystem has no fsync: no commit ever reached the
 * disk before the operating system chose to write it. One data directory is made once and reused: from the run's
 * migrated snapshot (test/global-setup.ts) instead of initdb, which the e2e server's first start does every run.
 */

const SERVER_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'pp-durable-'));

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** The data directory on disk; the first open fills it from the run's snapshot. */
function open(durable: boolean) {
  const empty = !existsSync(path.join(dataDir, 'PG_VERSION'));
  return openPglite(dataDir, { durable, ...(empty ? { loadDataDir: new Blob([readFileSync(inject('pgliteSnapshot'))]) } : {}) });
}

async function commitRows(durable: boolean, count: number): Promise<{ syncs: number; fsync: string; method: string }> {
  const db = await open(durable);
  try {
    await db.owner.query('CREATE TABLE IF NOT EXISTS till_sales (id serial PRIMARY KEY, note text NOT NULL)');
    const [fsync] = await db.owner.query<{ fsync: string }>('SHOW fsync');
    const [method] = await db.owner.query<{ wal_sync_method: string }>('SHOW wal_sync_method');
    const before = embeddedSyncCount();
    for (let i = 0; i < count; i++) {
      // Each statement outside a transaction block is its own transaction: one COMMIT.
      await db.owner.query('INSERT INTO till_sales (note) VALUES ($1)', [`sale ${i}`]);
    }
    return { syncs: embeddedSyncCount() - before, fsync: fsync!.fsync, method: method!.wal_sync_method };
  } finally {
    await db.close();
  }
}

describe('the embedded database on disk', () => {
  it('waits for the disk at every commit by default (fsync on, one fsync or more per commit)', { timeout: 300_000 }, async () => {
    const durable = await commitRows(true, 20);
    expect(durable.fsync).toBe('on');
    expect(durable.method).toBe('fsync');
    expect(durable.syncs).toBeGreaterThanOrEqual(20);
  });

  it('is not durable with PGLITE_FSYNC=off (PGlite’s own default): no commit asks the disk', { timeout: 300_000 }, async () => {
    const relaxed = await commitRows(false, 20);
    expect(relaxed.fsync).toBe('off');
    expect(relaxed.syncs).toBe(0);
  });

  it('keeps a committed row when the process is killed with SIGKILL right after the commit', { timeout: 300_000 }, async () => {
    const script = path.join(dataDir, '..', `pp-durable-child-${process.pid}.mts`);
    writeFileSync(
      script,
      `import { openPglite } from ${JSON.stringify(path.join(SERVER_DIR, 'src/db/database.ts'))};
const db = await openPglite(${JSON.stringify(dataDir)});
await db.owner.query("INSERT INTO till_sales (note) VALUES ('paid before the power cut')");
process.stdout.write('committed\\n');
setInterval(() => undefined, 1000);
`,
    );
    try {
      const child = spawn(process.execPath, ['--import', 'tsx', script], { cwd: SERVER_DIR, stdio: ['ignore', 'pipe', 'inherit'] });
      await new Promise<void>((resolve, reject) => {
        child.stdout!.on('data', (chunk: Buffer) => {
          if (chunk.toString().includes('committed')) {
            child.kill('SIGKILL');
            resolve();
          }
        });
        child.once('exit', (code) => reject(new Error(`the child exited (${code}) before committing`)));
      });
      await new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve(null) : child.once('exit', resolve)));
      const db = await openPglite(dataDir);
      try {
        const rows = await db.owner.query<{ note: string }>(`SELECT note FROM till_sales WHERE note = 'paid before the power cut'`);
        expect(rows).toHaveLength(1);
      } finally {
        await db.close();
      }
    } finally {
      rmSync(script, { force: true });
    }
  });
});
