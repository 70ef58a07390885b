// Who used the cores during a measured stretch of an event scenario, and the server's memory: the
// platform server (its own process), the PostgreSQL cluster, the forked graphql-ws clients, this
// bench process (writer, receivers, SMTP sink) and everything else, from /proc.
import os from 'node:os';
import { CLOCK_TICKS_PER_SECOND, machineTicks, postgresDelta, postgresTicks, processTicks } from '../cpu-accounting.ts';
import { processRss } from '../memory-sampler.ts';

export interface EventCpuSplit {
  /** cores in use on average over the stretch (1.0 = one core busy the whole time) */
  server: number | null;
  /** null with DATABASE_URL (the cluster's processes are not known) */
  postgres: number | null;
  /** the forked graphql-ws client processes; null when none ran */
  clients: number | null;
  bench: number;
  other: number | null;
  steal: number | null;
  machineCores: number;
  wallSeconds: number;
}

export interface MeteredPids {
  server: number;
  postmaster: () => number | null;
  clients?: () => number[];
}

/** clock ticks of all `pids` together; null when one cannot be read */
function ticksOf(pids: number[]): number | null {
  let sum = 0;
  for (const pid of pids) {
    const ticks = processTicks(pid);
    if (ticks === null) return null;
    sum += ticks;
  }
  return sum;
}

/** Snapshots now; `stop` splits the stretch's CPU time. */
export function startCpuSplit(pids: MeteredPids): { stop: () => EventCpuSplit } {
  const machineBefore = machineTicks();
  const serverBefore = processTicks(pids.server);
  const postgresBefore = postgresTicks(pids.postmaster());
  const clientPids = pids.clients?.() ?? [];
  const clientsBefore = ticksOf(clientPids);
  const benchBefore = process.cpuUsage();
  const wallBefore = performance.now();
  return {
    stop() {
      const wallSeconds = (performance.now() - wallBefore) / 1000;
      const cores = (ticks: number | null) => (ticks === null ? null : ticks / CLOCK_TICKS_PER_SECOND / wallSeconds);
      const serverAfter = processTicks(pids.server);
      const server = cores(serverBefore === null || serverAfter === null ? null : serverAfter - serverBefore);
      const postgres = cores(postgresDelta(postgresBefore, postgresTicks(pids.postmaster())));
      const clientsAfter = ticksOf(clientPids);
      const clients = clientPids.length === 0 ? null : cores(clientsBefore === null || clientsAfter === null ? null : clientsAfter - clientsBefore);
      const benchUsage = process.cpuUsage(benchBefore);
      const bench = (benchUsage.user + benchUsage.system) / 1e6 / wallSeconds;
      const machineAfter = machineTicks();
      const machine = machineBefore && machineAfter ? { busy: cores(machineAfter.busy - machineBefore.busy)!, steal: cores(machineAfter.steal - machineBefore.steal)! } : null;
      const known = [server, postgres].every((v) => v !== null) ? server! + postgres! + (clients ?? 0) + bench : null;
      return {
        server,
        postgres,
        clients,
        bench,
        other: machine === null || known === null ? null : Math.max(0, machine.busy - machine.steal - known),
        steal: machine?.steal ?? null,
        machineCores: os.cpus().length,
        wallSeconds,
      };
    },
  };
}

/** Samples a process's RSS every `everyMs` until `stop`, which returns the largest and the last. */
export function watchRss(pid: number, everyMs = 250): { stop: () => { maxBytes: number | null; lastBytes: number | null } } {
  let maxBytes: number | null = null;
  let lastBytes: number | null = null;
  const sample = () => {
    const rss = processRss(pid);
    if (rss === null) return;
    lastBytes = rss;
    maxBytes = Math.max(maxBytes ?? 0, rss);
  };
  sample();
  const timer = setInterval(sample, everyMs);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return { maxBytes, lastBytes };
    },
  };
}
