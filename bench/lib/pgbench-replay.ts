// pgbench with custom scripts on any database of the benchmark's server (bench/write-ceiling.ts): several script
// files (pgbench picks one at random per transaction), -D variables, a timed run (-T) or a fixed count per client
// (-t). Run asynchronously so lib/cpu.ts can sample the database's backends while pgbench runs.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Queryable } from '../../apps/server/src/db/database.ts';
import { processCpuMs, startCpu } from './cpu.ts';
import { pgbenchLatencies } from './pgbench.ts';
import { BENCH_PG_URL, percentile } from './stock-bench.ts';

export interface ReplayFigures {
  label: string;
  clients: number;
  perSecond: number;
  p50: number;
  p99: number;
  /** Transactions pgbench completed (its "number of transactions actually processed"). */
  transactions: number;
  /** The whole machine's busy CPU per transaction (pgbench, its backends, everything else), ms. */
  machineCpu: number;
  /** The CPU of the database's server processes per transaction (every backend of `database`), ms. */
  postgresCpu: number;
  /** PostgreSQL's background writers (WAL writer, checkpointer, background writer) per transaction, ms. */
  backgroundCpu: number;
  /** pgbench's own CPU (the client) per transaction, ms. */
  clientCpu: number;
}

/**
 * Starts measuring the CPU of the server's background processes that write for every database (WAL writer,
 * checkpointer, background writer: they live as long as the server). finish() gives their CPU since, ms.
 */
export async function startBackgroundCpu(owner: Queryable): Promise<{ finish(): number }> {
  const pids = (await owner.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE backend_type IN ('walwriter', 'checkpointer', 'background writer')`)).map((r) => r.pid);
  const before = processCpuMs(pids);
  return { finish: () => processCpuMs(pids) - before };
}

const CLOCK_TICKS_PER_S = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

export interface ReplayOptions {
  /** Database name on BENCH_PG_URL's server. */
  database: string;
  label: string;
  clients: number;
  /** -T seconds, or: */
  seconds?: number;
  /** -t transactions per client. */
  perClient?: number;
  scripts: readonly string[];
  /** -D name=value. */
  defines?: Record<string, string | number>;
  /** A connection to the same database (the owner), to find its backends for the CPU figure. */
  owner: Queryable;
}

/** pgbench under a shell that writes its own /proc stat when pgbench has ended: the children's CPU (pgbench's). */
function pgbench(args: string[], cwd: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', 'pgbench "$@"; status=$?; cat /proc/$$/stat > shell.stat; exit $status', 'sh', ...args], { cwd });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** Runs pgbench -n -M simple with the scripts; throws when pgbench fails or a client aborts. */
export async function runScripts(options: ReplayOptions): Promise<ReplayFigures> {
  const server = new URL(BENCH_PG_URL);
  const connArgs = ['-h', server.hostname, '-p', server.port || '5432', '-U', decodeURIComponent(server.username || 'postgres')];
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pp-replay-'));
  let keep = Boolean(process.env.BENCH_KEEP_SCRIPTS);
  try {
    const files = options.scripts.map((script, i) => {
      const file = path.join(dir, `script-${i}.sql`);
      writeFileSync(file, script);
      return file;
    });
    const args = [
      ...connArgs,
      '-n',
      '-M',
      'simple',
      '-c',
      String(options.clients),
      '-j',
      String(Math.min(2, options.clients)),
      ...(options.perClient !== undefined ? ['-t', String(options.perClient)] : ['-T', String(options.seconds ?? 10)]),
      ...Object.entries(options.defines ?? {}).flatMap(([name, value]) => ['-D', `${name}=${value}`]),
      ...files.flatMap((file) => ['-f', file]),
      '-l',
      `--log-prefix=${path.join(dir, 'tx')}`,
      options.database,
    ];
    const cpu = await startCpu(options.owner);
    const background = await startBackgroundCpu(options.owner);
    const result = await pgbench(args, dir);
    const backgroundMs = background.finish();
    // cutime + cstime of the shell: the CPU of the children it waited for (pgbench), in clock ticks.
    const shellStat = readFileSync(path.join(dir, 'shell.stat'), 'utf8').split(') ')[1]!.split(' ');
    const clientMs = ((Number(shellStat[13]) + Number(shellStat[14])) * 1000) / CLOCK_TICKS_PER_S;
    if (result.status !== 0 || /aborted/.test(result.stderr)) {
      keep = true;
      throw new Error(`pgbench failed (${result.status}) for ${options.label}:\n${result.stderr.slice(0, 3000)}\n${result.stdout}\n(scripts in ${files[0]})`);
    }
    const transactions = Number(/number of transactions actually processed: (\d+)/.exec(result.stdout)?.[1]);
    const used = await cpu.finish(transactions);
    const tps = Number(/tps = ([\d.]+) \(without initial connection time\)/.exec(result.stdout)?.[1]);
    const latencies = pgbenchLatencies(dir);
    if (!Number.isFinite(tps) || !Number.isFinite(transactions) || latencies.length === 0) throw new Error(`could not read pgbench's output:\n${result.stdout}`);
    return {
      label: options.label,
      clients: options.clients,
      perSecond: tps,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      transactions,
      machineCpu: used.machineCpu,
      postgresCpu: used.postgresCpu,
      backgroundCpu: backgroundMs / transactions,
      clientCpu: clientMs / transactions,
    };
  } finally {
    if (!keep) rmSync(dir, { recursive: true, force: true });
  }
}
