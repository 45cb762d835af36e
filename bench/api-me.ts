// Benchmark: authenticated GET /api/me under load on loopback, against a bare Fastify hello-world in the same
// run (reported as a ratio), plus sign-in latency (argon2id). Prints figures; never passes or fails on time.
// Each server runs in its own process (as in production: its own event loop) and autocannon in this one, so the
// load generator does not share the server's event loop. The app is measured with its session cache (decision
// 0062) and with it turned off (the session and branches in one query per request).
// Besides requests per second, each server's CPU time per request (user + system time of its process, from
// /proc/<pid>/stat, over the timed run): on a shared machine it moves much less with the load than throughput does,
// so the CPU ratio (hello-world's CPU per request ÷ the app's) is printed too (decision 0073).
// Run: npm run bench -- api-me   (or: npx tsx bench/api-me.ts; BENCH_KINDS=postgres, BENCH_SECONDS, BENCH_CONNECTIONS)
import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);

/** `--serve hello` or `--serve app <kind> <cache: on|off>`: this file as a child process serving one thing. */
async function serve(args: string[]): Promise<void> {
  const [what, kind, cache] = args;
  let close: () => Promise<void>;
  let url: string;
  if (what === 'hello') {
    const { default: Fastify } = await import('fastify');
    const hello = Fastify();
    hello.get('/', async () => ({ hello: 'world' }));
    url = await hello.listen({ port: 0, host: '127.0.0.1' });
    close = async () => void (await hello.close());
  } else {
    const { buildApp } = await import('../apps/server/src/app.ts');
    const { loadConfig } = await import('../apps/server/src/config.ts');
    const { seedDemoData } = await import('../apps/server/src/db/seed.ts');
    const { openKind } = await import('./lib/stock-bench.ts');
    const { db, drop } = await openKind(kind as 'pglite' | 'postgres');
    await seedDemoData(db);
    const app = await buildApp({ db, config: { ...loadConfig({}), webDist: '/nonexistent', seed: false, logLevel: 'warn' } });
    // Before decision 0062 the app had no session cache: then there is nothing to turn off.
    const sessionCache = (app as unknown as { sessionCache?: { ttlMs: number } }).sessionCache;
    if (cache === 'off' && sessionCache) sessionCache.ttlMs = 0;
    url = await app.listen({ port: 0, host: '127.0.0.1' });
    close = async () => {
      await app.close();
      await db.close();
      await drop();
    };
  }
  console.log(JSON.stringify({ url }));
  // The parent closes stdin when it is done with us.
  process.stdin.resume();
  process.stdin.on('end', () => void close().then(() => process.exit(0)));
}

function child(args: string[]): Promise<{ url: string; proc: ChildProcess; stop: () => Promise<void> }> {
  const proc = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), '--serve', ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: proc.stdout! });
    lines.on('line', (line) => {
      if (!line.startsWith('{"url"')) return;
      const { url } = JSON.parse(line) as { url: string };
      const exited = new Promise<void>((done) => proc.on('exit', () => done()));
      resolve({ url, proc, stop: async () => (proc.stdin!.end(), await exited) });
    });
    proc.on('exit', (code) => reject(new Error(`server process ${args.join(' ')} exited with ${code}`)));
  });
}

/** CPU time of a process so far, in milliseconds (user + system; undefined where there is no /proc). */
function cpuMs(pid: number | undefined): number | undefined {
  const file = `/proc/${pid}/stat`;
  if (pid === undefined || !existsSync(file)) return undefined;
  // The fields after the command name (which may hold spaces): utime and stime are the 12th and 13th, in clock
  // ticks (USER_HZ: 100 on Linux).
  const fields = readFileSync(file, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/** A timed run against a server process, with its CPU time per request (µs). */
async function measured(server: { url: string; proc: ChildProcess }, path: string, headers: Record<string, string> = {}): Promise<{ result: autocannon.Result; cpuUs: number | undefined }> {
  const before = cpuMs(server.proc.pid);
  const result = await run(`${server.url}${path}`, headers);
  const after = cpuMs(server.proc.pid);
  const cpuUs = before === undefined || after === undefined || result.requests.total === 0 ? undefined : ((after - before) * 1000) / result.requests.total;
  return { result, cpuUs };
}

const us = (value: number | undefined) => (value === undefined ? 'n/a' : value.toFixed(1));

function run(url: string, headers: Record<string, string> = {}): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon({ url, headers, duration: DURATION, connections: CONNECTIONS }, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

const load = () => os.loadavg().map((l) => l.toFixed(2)).join(' ');

async function main(): Promise<void> {
  const kinds = (process.env.BENCH_KINDS ?? 'pglite,postgres').split(',').map((k) => k.trim());
  const helloRun = async (): Promise<{ result: autocannon.Result; cpuUs: number | undefined }> => {
    const hello = await child(['hello']);
    const measurement = await measured(hello, '/');
    await hello.stop();
    return measurement;
  };
  const loadBefore = load();
  const { result: base, cpuUs: baseCpu } = await helloRun();
  console.log(`\nMachine: ${os.cpus().length} cores (${os.cpus()[0]?.model}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`);
  console.log(`Load: ${CONNECTIONS} connections for ${DURATION} s each, autocannon on loopback in its own process; each server in its own process`);
  console.log(`Load average (1, 5, 15 min) at the start: ${loadBefore}\n`);
  console.log('| measurement | requests/s (mean) | latency p50 ms | latency p99 ms | ratio to hello-world | server CPU µs per request | sign-in p50 / p95 ms | load average (1 min) after |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  console.log(`| bare Fastify hello-world | ${base.requests.average.toFixed(0)} | ${base.latency.p50} | ${base.latency.p99} | 1 | ${us(baseCpu)} | | ${os.loadavg()[0]!.toFixed(2)} |`);

  for (const kind of kinds) {
    for (const cache of ['on', 'off']) {
      const server = await child(['app', kind, cache]);
      const appUrl = server.url;
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
        // The session's own CSRF token comes with the sign-in (decision 0089).
        const token = /pp_csrf=([^;]+)/.exec(response.headers.get('set-cookie') ?? '')?.[1] ?? '';
        return { cookie: `pp_session=${session}; pp_csrf=${token}`, ms };
      };
      const logins: number[] = [];
      let cookie = '';
      for (let i = 0; i < 20; i += 1) {
        const result = await signIn();
        logins.push(result.ms);
        cookie = result.cookie;
      }
      logins.sort((a, b) => a - b);
      const { result: me, cpuUs } = await measured(server, '/api/me', { cookie });
      await server.stop();
      if (me.non2xx > 0) throw new Error(`GET /api/me answered ${me.non2xx} non-2xx responses`);
      rows.push({ kind, cache, me, logins, cpuUs });
      const label = `${kind === 'pglite' ? 'PGlite (in memory)' : 'PostgreSQL (loopback)'}, session cache ${cache}`;
      console.log(
        `| authenticated GET /api/me, ${label} | ${me.requests.average.toFixed(0)} | ${me.latency.p50} | ${me.latency.p99} | ${(me.requests.average / base.requests.average).toFixed(3)} | ${us(cpuUs)} | ${percentile(logins, 50).toFixed(1)} / ${percentile(logins, 95).toFixed(1)} | ${os.loadavg()[0]!.toFixed(2)} |`,
      );
    }
  }
  // The machine is shared: the hello-world again at the end, and the ratios against the mean of both runs.
  const { result: end, cpuUs: endCpu } = await helloRun();
  const mean = (base.requests.average + end.requests.average) / 2;
  console.log(`| bare Fastify hello-world, again at the end | ${end.requests.average.toFixed(0)} | ${end.latency.p50} | ${end.latency.p99} | | ${us(endCpu)} | | ${os.loadavg()[0]!.toFixed(2)} |`);
  console.log(`\nRatios to the mean hello-world of the run (${mean.toFixed(0)}/s): ${rows.map((r) => `${r.kind} cache ${r.cache} ${(r.me.requests.average / mean).toFixed(3)}`).join(', ')}`);
  if (baseCpu !== undefined && endCpu !== undefined) {
    const helloCpu = (baseCpu + endCpu) / 2;
    const ratios = rows.map((r) => `${r.kind} cache ${r.cache} ${r.cpuUs === undefined ? 'n/a' : (helloCpu / r.cpuUs).toFixed(3)}`);
    console.log(`CPU ratios (hello-world's ${helloCpu.toFixed(1)} µs per request ÷ the app's): ${ratios.join(', ')}`);
  }
}

const rows: { kind: string; cache: string; me: autocannon.Result; logins: number[]; cpuUs: number | undefined }[] = [];

const serveAt = process.argv.indexOf('--serve');
await (serveAt >= 0 ? serve(process.argv.slice(serveAt + 1)) : main());
