// Benchmark: authenticated GET /api/me under load on loopback, against a bare Fastify hello-world in the same
// run (reported as a ratio), plus sign-in latency (argon2id). Prints figures; never passes or fails on time.
// Run: npm run bench -- api-me   (or: npx tsx bench/api-me.ts)
import autocannon from 'autocannon';
import Fastify from 'fastify';
import os from 'node:os';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { seedDemoData } from '../apps/server/src/db/seed.ts';
import { benchKinds, openKind } from './lib/stock-bench.ts';

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

const base = await run(helloUrl);
console.log(`\nMachine: ${os.cpus().length} cores (${os.cpus()[0]?.model}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`);
console.log(`Load: ${CONNECTIONS} connections for ${DURATION} s each, autocannon on loopback\n`);
console.log('| measurement | requests/s (mean) | latency p50 ms | latency p99 ms | ratio to hello-world | sign-in p50 / p95 ms |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
console.log(`| bare Fastify hello-world | ${base.requests.average.toFixed(0)} | ${base.latency.p50} | ${base.latency.p99} | 1 | |`);

for (const kind of benchKinds()) {
  const { db, drop } = await openKind(kind);
  await seedDemoData(db);
  const app = await buildApp({ db, config: { ...loadConfig({}), webDist: '/nonexistent', seed: false } });
  const appUrl = await app.listen({ port: 0, host: '127.0.0.1' });

  const signIn = async (): Promise<{ cookie: string; ms: number }> => {
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
  };

  const logins: number[] = [];
  let cookie = '';
  for (let i = 0; i < 20; i += 1) {
    const result = await signIn();
    logins.push(result.ms);
    cookie = result.cookie;
  }
  logins.sort((a, b) => a - b);

  const me = await run(`${appUrl}/api/me`, { cookie });
  if (me.non2xx > 0) throw new Error(`GET /api/me answered ${me.non2xx} non-2xx responses`);
  const label = kind === 'pglite' ? 'PGlite (in memory)' : 'PostgreSQL (loopback)';
  console.log(
    `| authenticated GET /api/me, ${label} | ${me.requests.average.toFixed(0)} | ${me.latency.p50} | ${me.latency.p99} | ${(me.requests.average / base.requests.average).toFixed(3)} | ${percentile(logins, 50).toFixed(1)} / ${percentile(logins, 95).toFixed(1)} |`,
  );
  await app.close();
  await db.close();
  await drop();
}
await hello.close();
