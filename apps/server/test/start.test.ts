import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { openPglite } from '../src/db/database.ts';

/**
 * Issue 8 items 1 and 11: the server as `npm start` runs it (scripts/start.mjs: the server compiled into
 * apps/server/dist when its sources changed, then run, on a PGlite directory), started twice on the same directory.
 * WEB_DIST points elsewhere, so the web app is not built here. The first start seeds and prints the sign-in table; a
 * restart prints no table; both listen on 127.0.0.1 unless HOST says otherwise. The data directory starts as the run's migrated snapshot (test/global-setup.ts),
 * so the first start seeds without paying for initdb and the migrations here; the e2e server's first start does
 * those from an empty directory on every run.
 */

const SERVER_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PORT = 3208;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'pp-start-test-'));
let child: ChildProcess | undefined;

async function start(): Promise<{ output: () => string; stop: () => Promise<void>; seconds: number }> {
  let output = '';
  const started = Date.now();
  child = spawn(process.execPath, [path.join(SERVER_DIR, '../../scripts/start.mjs')], {
    cwd: SERVER_DIR,
    env: { ...process.env, PORT: String(PORT), DATA_DIR: dataDir, HOST: '', WEB_DIST: '/nonexistent', LOG_LEVEL: 'warn', NODE_ENV: 'test' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 170_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}):\n${output}`);
    if (Date.now() > deadline) throw new Error(`no answer from /health:\n${output}`);
    try {
      if ((await fetch(`http://127.0.0.1:${PORT}/health`)).ok && output.includes('PharmaPoint is running')) break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const seconds = (Date.now() - started) / 1000;
  const running = child;
  return {
    output: () => output,
    seconds,
    stop: async () => {
      const exited = new Promise((resolve) => running.once('exit', resolve));
      running.kill('SIGTERM');
      await exited;
      child = undefined;
    },
  };
}

afterAll(() => {
  child?.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

describe('npm start', () => {
  it('listens on 127.0.0.1 unless HOST is set', () => {
    expect(loadConfig({}).host).toBe('127.0.0.1');
    expect(loadConfig({ HOST: '' }).host).toBe('127.0.0.1');
    expect(loadConfig({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
  });

  it('prints the seeded sign-in table on the first start only, and restarts without seeding again', { timeout: 400_000 }, async () => {
    const migrated = await openPglite(dataDir, { loadDataDir: new Blob([readFileSync(inject('pgliteSnapshot'))]) });
    const [seeded] = await migrated.owner.query<{ n: number }>(`SELECT count(*)::int AS n FROM pharmacies`);
    await migrated.close();
    expect(seeded!.n).toBe(0);
    const first = await start();
    await first.stop();
    expect(first.output()).toContain('Seeded sign-in details');
    expect(first.output()).toContain('owner@afyabora.test');
    expect(first.output()).toContain(`Listening on 127.0.0.1:${PORT}`);
    // The compiled server, not the TypeScript sources: built now or found up to date, and started from there.
    expect(first.output()).toMatch(/Built the server \(apps\/server\/dist\/main\.mjs\)|Server up to date/);
    expect(first.output()).not.toContain('Web app');
    expect(first.output()).toMatch(/PharmaPoint is running at \S+ \(started in \d+\.\d s\)/);

    const again = await start();
    await again.stop();
    expect(again.output()).not.toContain('Seeded sign-in details');
    expect(again.output()).not.toContain('owner@afyabora.test');
    expect(again.output()).toContain('Demo data: seeded earlier');
    expect(again.output()).toContain('Server up to date');
    console.log(`start: first ${first.seconds.toFixed(1)} s, restart ${again.seconds.toFixed(1)} s (until /health answers)`);
  });
});
