// Benchmark: what durable commits cost the embedded database (issue 7 item 11, decision 0018).
// One PGlite data directory is made (initdb, migrations, demo seed) and copied; the app then runs on each copy, durable
// (the default: fsync on, every COMMIT waits for fdatasync) and relaxed (PGLITE_FSYNC=off: PGlite's own default), and
// POST /api/stock/adjustments (one item, +1 piece of a random demo product) is sent over real HTTP for BENCH_SECONDS
// at 1 client (one till) and at BENCH_CONNECTIONS clients (a busy pharmacy), with autocannon. Also counts the fsyncs
// per adjustment. Prints a markdown table; never passes or fails on time.
// Run: npx tsx bench/embedded-durability.ts   (BENCH_SECONDS=10, BENCH_CONNECTIONS=8)
import autocannon from 'autocannon';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { embeddedSyncCount, openPglite } from '../apps/server/src/db/database.ts';
import { migrate } from '../apps/server/src/db/migrate.ts';
import { DEMO_PHARMACY_ID, seedDemoData } from '../apps/server/src/db/seed.ts';
import { machine } from './lib/stock-bench.ts';

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CLIENTS = Number(process.env.BENCH_CONNECTIONS ?? 8);

interface Row {
  mode: string;
  clients: number;
  perSecond: number;
  p50: number;
  p99: number;
  syncsPerRequest: number;
  failed: number;
}

async function measure(dataDir: string, durable: boolean): Promise<Row[]> {
  const db = await openPglite(dataDir, { durable });
  const app = await buildApp({ db, config: { ...loadConfig({}), webDist: '/nonexistent', seed: false } });
  try {
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    const first = await fetch(`${url}/api/me`);
    const csrf = /pp_csrf=([^;]+)/.exec(first.headers.get('set-cookie') ?? '')?.[1] ?? '';
    const login = await fetch(`${url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: `pp_csrf=${csrf}`, 'x-csrf-token': csrf },
      body: JSON.stringify({ email: 'owner@afyabora.test', password: 'Pharma#2026' }),
    });
    if (login.status !== 200) throw new Error(`sign-in failed: ${login.status} ${await login.text()}`);
    const session = /pp_session=([^;]+)/.exec(login.headers.get('set-cookie') ?? '')?.[1];
    // The session's own CSRF token comes with the sign-in (decision 0089).
    const token = /pp_csrf=([^;]+)/.exec(login.headers.get('set-cookie') ?? '')?.[1] ?? '';
    const headers = { cookie: `pp_session=${session}; pp_csrf=${token}`, 'x-csrf-token': token, 'content-type': 'application/json' };
    const catalogue = await db.owner.query<{ id: string }>(`SELECT id FROM products WHERE pharmacy_id = $1 AND is_active`, [DEMO_PHARMACY_ID]);
    const body = () =>
      JSON.stringify({
        reason: 'Durability benchmark',
        items: [{ productId: catalogue[Math.floor(Math.random() * catalogue.length)]!.id, delta: 1, reasonType: 'count_correction' }],
      });
    const rows: Row[] = [];
    for (const clients of [1, CLIENTS]) {
      const syncsBefore = embeddedSyncCount();
      const result = await new Promise<autocannon.Result>((resolve, reject) => {
        autocannon(
          {
            url: `${url}/api/stock/adjustments`,
            connections: clients,
            duration: DURATION,
            requests: [{ method: 'POST', headers, setupRequest: (req) => ({ ...req, body: body() }) }],
          },
          (error, r) => (error ? reject(error) : resolve(r)),
        );
      });
      const requests = result.requests.total || 1;
      rows.push({
        mode: durable ? 'durable (default)' : 'PGLITE_FSYNC=off',
        clients,
        perSecond: result.requests.average,
        p50: result.latency.p50,
        p99: result.latency.p99,
        syncsPerRequest: (embeddedSyncCount() - syncsBefore) / requests,
        failed: result.non2xx + result.errors,
      });
    }
    return rows;
  } finally {
    await app.close();
    await db.close();
  }
}

const root = mkdtempSync(path.join(os.tmpdir(), 'pp-bench-durable-'));
try {
  console.log(`Machine: ${machine()}`);
  console.log(`Load at start: ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}; ${DURATION} s per measurement\n`);
  const template = path.join(root, 'template');
  let started = performance.now();
  const db = await openPglite(template, { durable: true });
  await migrate(db);
  await seedDemoData(db);
  await db.close();
  console.log(`data directory made (initdb, migrations, demo seed; durable): ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const rows: Row[] = [];
  for (const durable of [true, false]) {
    const dir = path.join(root, durable ? 'durable' : 'relaxed');
    cpSync(template, dir, { recursive: true });
    started = performance.now();
    rows.push(...(await measure(dir, durable)));
  }
  console.log('\n| mode | clients | adjustments/s | p50 ms | p99 ms | fsyncs per adjustment | failed |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const r of rows) {
    console.log(`| ${r.mode} | ${r.clients} | ${r.perSecond.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.syncsPerRequest.toFixed(1)} | ${r.failed} |`);
  }
  console.log(`\nLoad at end: ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
} finally {
  rmSync(root, { recursive: true, force: true });
}
