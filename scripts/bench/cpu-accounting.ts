// Who used the machine's cores during a measured run of `npm run bench`: this process (the
// platform's server), a server in a process of its own (the baseline's child, PostGraphile), the
// embedded cluster, the load generator, everything else, and steal. Read from /proc (Linux); a
// figure that cannot be read is null rather than a guess.
import fs from 'node:fs';
import os from 'node:os';

export const CLOCK_TICKS_PER_SECOND = 100;

export interface CpuSplit {
  /** cores in use on average over the run (1.0 = one core busy the whole time) */
  server: number;
  loadGenerator: number;
  /** the embedded cluster's processes; null with DATABASE_URL */
  postgres: number | null;
  /** the server under load when it runs in a process of its own: the baseline's child, or
   *  PostGraphile (BENCH_POSTGRAPHILE_PID); null: none named */
  external: number | null;
  /** everything else on the machine (other processes), null when /proc is not readable */
  other: number | null;
  /** time the hypervisor gave to other guests */
  steal: number | null;
  machineCores: number;
}

export interface CpuMeasurement {
  split: CpuSplit;
  /** CPU time of this process (user + system, all threads), microseconds */
  serverCpuMicros: number;
  /** CPU time of that process of its own, microseconds; null: none named or not readable */
  externalCpuMicros: number | null;
  wallSeconds: number;
}

export function machineTicks(): { busy: number; steal: number } | null {
  try {
    const fields = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal guest guest_nice (guest time is already in user)
    const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = fields;
    return { busy: user + nice + system + irq + softirq + steal, steal };
  } catch {
    return null;
  }
}

/** utime + stime per process of the postmaster and its children, in clock ticks (null when not measurable). */
export function postgresTicks(postmasterPid: number | null): Map<number, number> | null {
  if (postmasterPid === null) return null;
  const ticks = new Map<number, number>();
  try {
    for (const entry of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      let stat: string;
      try {
        stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      } catch {
        continue; // exited meanwhile
      }
      // fields after "(comm)": state ppid … utime(14) stime(15), counted from the pid as field 1
      const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const pid = Number(entry);
      if (pid !== postmasterPid && Number(rest[1]) !== postmasterPid) continue;
      ticks.set(pid, Number(rest[11]) + Number(rest[12]));
    }
    return ticks;
  } catch {
    return null;
  }
}

/** utime + stime of one process, in clock ticks (null when not readable) */
export function processTicks(pid: number | null): number | null {
  if (pid === null) return null;
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(rest[11]) + Number(rest[12]);
  } catch {
    return null;
  }
}

/**
 * Ticks the cluster used between two snapshots. Backends come and go (pg.Pool closes clients idle
 * for 10 s): a process only in `after` counts whole, one gone by `after` is left out (it was idle).
 */
export function postgresDelta(before: Map<number, number> | null, after: Map<number, number> | null): number | null {
  if (!before || !after) return null;
  let total = 0;
  for (const [pid, ticks] of after) total += ticks - (before.get(pid) ?? 0);
  return total;
}

/** Snapshots now; `stop` snapshots again and splits the interval's CPU time. */
export function startCpuMeter(postmasterPid: () => number | null, externalPid: number | null = null): { stop: (loadGeneratorCpuMicros: number) => CpuMeasurement } {
  const machineBefore = machineTicks();
  const postgresBefore = postgresTicks(postmasterPid());
  const externalBefore = processTicks(externalPid);
  const cpuBefore = process.cpuUsage();
  const wallBefore = process.hrtime.bigint();
  return {
    stop(loadGeneratorCpuMicros) {
      const wallSeconds = Number(process.hrtime.bigint() - wallBefore) / 1e9;
      const cpu = process.cpuUsage(cpuBefore);
      const machineAfter = machineTicks();
      const postgresAfter = postgresTicks(postmasterPid());
      const externalAfter = processTicks(externalPid);
      const externalTicks = externalBefore === null || externalAfter === null ? null : externalAfter - externalBefore;
      const cores = (ticks: number) => ticks / CLOCK_TICKS_PER_SECOND / wallSeconds;
      const server = (cpu.user + cpu.system) / 1e6 / wallSeconds;
      const loadGenerator = loadGeneratorCpuMicros / 1e6 / wallSeconds;
      const postgresUsed = postgresDelta(postgresBefore, postgresAfter);
      const postgres = postgresUsed === null ? null : cores(postgresUsed);
      const external = externalTicks === null ? null : cores(externalTicks);
      const machine = machineBefore && machineAfter ? { busy: cores(machineAfter.busy - machineBefore.busy), steal: cores(machineAfter.steal - machineBefore.steal) } : null;
      return {
        split: {
          server,
          loadGenerator,
          postgres,
          external,
          other: machine === null || postgres === null ? null : Math.max(0, machine.busy - server - loadGenerator - postgres - (external ?? 0) - machine.steal),
          steal: machine?.steal ?? null,
          machineCores: os.cpus().length,
        },
        serverCpuMicros: cpu.user + cpu.system,
        externalCpuMicros: externalTicks === null ? null : (externalTicks / CLOCK_TICKS_PER_SECOND) * 1e6,
        wallSeconds,
      };
    },
  };
}
