import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../src/app.ts';
import { loadConfig, type Config } from '../src/config.ts';
import type { Database } from '../src/db/database.ts';
import { createTestDatabase } from './database.ts';

/**
 * Issue 8 item 2: one concise line per request at info, nothing for the web app's files and pages or /health*, and
 * LOG_LEVEL (config.logLevel) to change the level. The app logs to a stream the test reads.
 */

let lines: Array<Record<string, unknown>> = [];
const sink = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
    done();
  },
});

let dist: string;
let db: Database;
let app: App;

async function build(overrides: Partial<Config>): Promise<App> {
  const config: Config = { ...loadConfig({}), webDist: dist, seed: false, ...overrides };
  const built = await buildApp({ db, config, logStream: sink });
  await built.ready();
  return built;
}

beforeAll(async () => {
  dist = mkdtempSync(path.join(os.tmpdir(), 'pp-log-dist-'));
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>PharmaPoint</title>');
  writeFileSync(path.join(dist, 'assets/index-Zz99.js'), 'console.log(1)');
  db = await createTestDatabase('pglite');
  app = await build({ logLevel: 'info' });
});

afterAll(async () => {
  await app?.close();
  await db?.close();
  rmSync(dist, { recursive: true, force: true });
});

beforeEach(() => {
  lines = [];
});

/** Lets pino's stream write what it has (it writes synchronously to a Writable, but keep it safe). */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('request logs', () => {
  it('write nothing for a static file, the web app’s pages and the health checks', async () => {
    for (const url of ['/assets/index-Zz99.js', '/', '/app/products', '/health', '/health/ready']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBeLessThan(500);
    }
    await settle();
    expect(lines).toEqual([]);
  });

  it('write one line for an API request: method, path, status and time, at info', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/auth/providers?x=1' });
    expect(response.statusCode).toBe(200);
    await settle();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 30 });
    expect(lines[0]!.msg).toMatch(/^GET \/api\/auth\/providers 200 \d+ ms$/);
    // Short: no request or response dump, no pid or hostname.
    expect(Object.keys(lines[0]!).sort()).toEqual(['level', 'msg', 'reqId', 'time']);
  });

  it('never write a token that is part of the path', async () => {
    await app.inject({ method: 'GET', url: '/api/auth/invite/secret-invitation-token-123' });
    await settle();
    expect(lines).toHaveLength(1);
    expect(lines[0]!.msg).toMatch(/^GET \/api\/auth\/invite\/:token \d{3} \d+ ms$/);
    expect(JSON.stringify(lines)).not.toContain('secret-invitation-token-123');
  });

  it('follow LOG_LEVEL: at warn an ordinary API request writes nothing', async () => {
    const quiet = await build({ logLevel: 'warn' });
    try {
      await quiet.inject({ method: 'GET', url: '/api/auth/providers' });
      await settle();
      expect(lines).toEqual([]);
    } finally {
      await quiet.close();
    }
    expect(loadConfig({ LOG_LEVEL: 'debug' }).logLevel).toBe('debug');
  });
});
