// Benchmark: authenticated GET /api/me under load on loopback, against a bare Fastify hello-world in the same
// run (reported as a ratio), plus sign-in latency (argon2id). Prints figures; never passes or fails on time.
// Run: npm run bench -- api-me   (or: npx tsx bench/api-me.ts)
import autocannon from 'autocannon';
import Fastify from 'fastify';
import os from 'node:os';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { openPglite } from '../apps/server/src/db/database.ts';
import { migrate } from '../apps/server/src/db/migrate.ts';
import { seedDemoData } from '../apps/server/src/db/seed.ts';

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);

function run(url: string, headers: Record<string, string> = {}): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon({ url, headers, duration: DURATION, connections: CONNECTIONS }, (error, result) =>
      error ? reject(error) : resolve(result),
    );
  });
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

const hello = Fastify();
hello.get('/', async () => ({ hello: 'world' }));
const helloUrl = await hello.listen({ port: 0, host: '127.0.0.1' });

const db = await openPglite();
await migrate(db);
await seedDemoData(db);
const app = await buildApp({ db, config: { ...loadConfig({}), webDist: '/nonexistent', seed: false } });
const appUrl = await app.listen({ port: 0, host: '127.0.0.1' });

async function signIn(): Promise<{ cookie: string; ms: number }> {
  const first = await fetch(`${appUrl}/api/me`);
  const csrf = /pp_csrf=([^;]+)/.exec(first.headers.get('set-cookie') ?? '')?.[1] ?? '';
  const started = performance.now();
  const response = await fetch(`${appUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: `pp_csrf=${csrf}`, 'x-csrf-token': csrf },
    body: JSON.stringify({ email: 'owner@afyabora.test', password: 'Pharma#2026' }),
  });
  const ms = performance.now() - started;
  if (response.status !== 200) throw new Error(`sign-in failed: ${response.status} ${await response.text()}`);
  const session = /pp_session=([^;]+)/.exec(response.headers.get('set-cookie') ?? '')?.[1];
  return { cookie: `pp_session=${session}; pp_csrf=${csrf}`, ms };
}

const logins: number[] = [];
let cookie = '';
for (let i = 0; i < 20; i += 1) {
  const result = await signIn();
  logins.push(result.ms);
  cookie = result.cookie;
}
logins.sort((a, b) => a - b);

const base = await run(helloUrl);
const me = await run(`${appUrl}/api/me`, { cookie });
if (me.non2xx > 0) throw new Error(`GET /api/me answered ${me.non2xx} non-2xx responses`);

console.log(`\nMachine: ${os.cpus().length} cores (${os.cpus()[0]?.model}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`);
console.log(`Load: ${CONNECTIONS} connections for ${DURATION} s each, autocannon on loopback, PGlite in memory\n`);
console.log('| measurement | requests/s (mean) | latency p50 ms | latency p99 ms |');
console.log('| --- | ---: | ---: | ---: |');
console.log(`| bare Fastify hello-world | ${base.requests.average.toFixed(0)} | ${base.latency.p50} | ${base.latency.p99} |`);
console.log(`| authenticated GET /api/me | ${me.requests.average.toFixed(0)} | ${me.latency.p50} | ${me.latency.p99} |`);
console.log(`\nRatio GET /api/me / hello-world: ${(me.requests.average / base.requests.average).toFixed(3)}`);
console.log(`Sign-in (POST /api/auth/login, argon2id verify), 20 sequential: p50 ${percentile(logins, 50).toFixed(1)} ms, p95 ${percentile(logins, 95).toFixed(1)} ms`);

await app.close();
await hello.close();
await db.close();
