// CPU accounting for the throughput benchmarks: on a shared 2-core machine the CPU a transaction or request costs
// moves far less with other work than its rate does, and when the machine is CPU-bound the ratio of two rates is the
// inverse ratio of their CPU per unit (Linux /proc only).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Queryable } from '../../apps/server/src/db/database.ts';

const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** Busy CPU of the whole machine so far (user, nice, system, irq, softirq, steal), in ms; /proc/stat. */
export function machineBusyMs(): number {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = fields;
  return ((user + nice + system + irq + softirq + steal) * 1000) / CLOCK_TICKS;
}

/** CPU (user + system, ms) the given processes have used so far; an ended process counts 0. */
export function processCpuMs(pids: readonly number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // ended
    }
  }
  return (ticks * 1000) / CLOCK_TICKS;
}

/** CPU per unit of work over a measured run, ms: the whole machine, this Node process, the database's backends. */
export interface CpuFigures {
  machineCpu: number;
  nodeCpu: number;
  postgresCpu: number;
}

/**
 * Starts measuring: the machine's busy time, this process's CPU and the CPU of the server processes of the database
 * `owner` is connected to. The pool opens and closes connections during a run (an idle one ends after 10 s), and an
 * ended process's CPU can no longer be read, so the backends are sampled every 250 ms and each counts with the last
 * figure seen. `finish(units)` gives CPU per unit.
 */
export async function startCpu(owner: Queryable | null): Promise<{ finish(units: number): Promise<CpuFigures> }> {
  const backends = async () => (owner ? (await owner.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE datname = current_database()`)).map((r) => r.pid) : []);
  const first = new Map<number, number>();
  const last = new Map<number, number>();
  const sample = (pids: readonly number[], isStart: boolean) => {
    for (const pid of pids) {
      const ms = processCpuMs([pid]);
      if (ms === 0 && !last.has(pid) && !isStart) continue;
      // A backend that appears during the run started from nothing; one seen at the start counts from its figure then.
      if (!first.has(pid)) first.set(pid, isStart ? ms : 0);
      if (ms > 0 || !last.has(pid)) last.set(pid, Math.max(ms, last.get(pid) ?? 0));
    }
  };
  sample(await backends(), true);
  const busyBefore = machineBusyMs();
  const nodeBefore = process.cpuUsage();
  let polling = false;
  const timer = setInterval(() => {
    if (polling) return;
    polling = true;
    backends()
      .then((pids) => sample([...new Set([...pids, ...last.keys()])], false))
      .catch(() => undefined)
      .finally(() => (polling = false));
  }, 250);
  return {
    async finish(units) {
      const busy = machineBusyMs() - busyBefore;
      const node = process.cpuUsage(nodeBefore);
      clearInterval(timer);
      sample([...new Set([...(await backends()), ...last.keys()])], false);
      let pg = 0;
      for (const [pid, ms] of last) pg += ms - (first.get(pid) ?? 0);
      const per = (ms: number) => (units > 0 ? ms / units : Number.NaN);
      return { machineCpu: per(busy), nodeCpu: per((node.user + node.system) / 1000), postgresCpu: per(pg) };
    },
  };
}
