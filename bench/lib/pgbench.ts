// pgbench helpers shared by the write-path and sales-throughput benchmarks: a scratch database on the benchmark's
// PostgreSQL server, `pgbench -i` into it, and a timed run whose p50/p99 come from pgbench's per-transaction log.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { machineBusyMs } from './cpu.ts';
import { BENCH_PG_URL, percentile } from './stock-bench.ts';

export interface PgbenchFigures {
  label: string;
  clients: number;
  perSecond: number;
  p50: number;
  p99: number;
  /** Failed transactions (pgbench's count). */
  failed: number;
  /** The whole machine's busy CPU per transaction (pgbench and its backends included; lib/cpu.ts), ms. */
  machineCpu: number;
}

/** pgbench's own TPC-B-like script (pgbench 15 builtin "tpcb-like"), with extra statements before END. */
/**
 * The latency of every transaction, in ms, sorted, from the per-transaction logs pgbench wrote into `dir` (run with
 * `-l --log-prefix=<dir>/tx`; log lines: client_id transaction_no time_us script_no epoch epoch_us).
 */
export function pgbenchLatencies(dir: string): number[] {
  const latencies: number[] = [];
  for (const log of readdirSync(dir).filter((f) => f.startsWith('tx.'))) {
    for (const line of readFileSync(path.join(dir, log), 'utf8').split('\n')) {
      const us = Number(line.split(' ')[2]);
      if (line && Number.isFinite(us)) latencies.push(us / 1000);
    }
  }
  return latencies.sort((a, b) => a - b);
}

export function tpcbScript(extra = ''): string {
  return [
    '\\set aid random(1, 100000 * :scale)',
    '\\set bid random(1, 1 * :scale)',
    '\\set tid random(1, 10 * :scale)',
    '\\set delta random(-5000, 5000)',
    'BEGIN;',
    'UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;',
    'SELECT abalance FROM pgbench_accounts WHERE aid = :aid;',
    'UPDATE pgbench_tellers SET tbalance = tbalance + :delta WHERE tid = :tid;',
    'UPDATE pgbench_branches SET bbalance = bbalance + :delta WHERE bid = :bid;',
    'INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (:tid, :bid, :aid, :delta, CURRENT_TIMESTAMP);',
    extra,
    'END;',
    '',
  ].join('\n');
}

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: BENCH_PG_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** A scratch pgbench database on the benchmark's server (BENCH_PG_URL), initialised at `scale`; drop() removes it. */
export async function pgbenchDatabase(scale: number): Promise<{
  name: string;
  connArgs: string[];
  initSeconds: number;
  run(label: string, clients: number, seconds: number, script?: string): PgbenchFigures;
  drop(): Promise<void>;
}> {
  const server = new URL(BENCH_PG_URL);
  const name = `pp_pgbench_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const connArgs = ['-h', server.hostname, '-p', server.port || '5432', '-U', decodeURIComponent(server.username || 'postgres')];
  await admin(`CREATE DATABASE ${name}`);
  const started = performance.now();
  const init = spawnSync('pgbench', [...connArgs, '-i', '-q', '-s', String(scale), name], { encoding: 'utf8' });
  if (init.status !== 0) {
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    throw new Error(`pgbench -i failed: ${init.stderr}`);
  }
  const initSeconds = (performance.now() - started) / 1000;
  return {
    name,
    connArgs,
    initSeconds,
    /** Runs pgbench with a script (default: TPC-B) for `seconds`; tps from its summary, p50/p99 from its log. */
    run(label, clients, seconds, script = tpcbScript()) {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'pp-pgbench-'));
      try {
        const file = path.join(dir, 'script.sql');
        writeFileSync(file, script);
        const args = [...connArgs, '-n', '-c', String(clients), '-j', String(Math.min(2, clients)), '-T', String(seconds), '-s', String(scale), '-f', file, '-l', `--log-prefix=${path.join(dir, 'tx')}`, name];
        const busyBefore = machineBusyMs();
        const result = spawnSync('pgbench', args, { cwd: dir, encoding: 'utf8' });
        const busy = machineBusyMs() - busyBefore;
        if (result.status !== 0) throw new Error(`pgbench failed (${result.status}): ${result.stderr}\n${result.stdout}`);
        const tps = Number(/tps = ([\d.]+) \(without initial connection time\)/.exec(result.stdout)?.[1]);
        const failed = Number(/number of failed transactions: (\d+)/.exec(result.stdout)?.[1] ?? 0);
        const latencies = pgbenchLatencies(dir);
        if (!Number.isFinite(tps) || latencies.length === 0) throw new Error(`could not read pgbench's output:\n${result.stdout}`);
        return { label, clients, perSecond: tps, p50: percentile(latencies, 50), p99: percentile(latencies, 99), failed, machineCpu: busy / latencies.length };
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}
