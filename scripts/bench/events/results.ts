// What an event scenario reports: its figures (for the JSON), its lines (for the readable report),
// its target judgements (report.ts TargetOutcome, as the HTTP section's), the CPU split of its
// measured stretch and any MaxListenersExceededWarning its server printed.
import type { TargetOutcome } from '../report.ts';
import type { EventCpuSplit } from './process-meter.ts';
import type { EventScenario } from './settings.ts';

export interface EventScenarioResult {
  scenario: EventScenario;
  title: string;
  figures: Record<string, unknown>;
  lines: string[];
  targets: TargetOutcome[];
  cpu: EventCpuSplit | null;
  listenerWarnings: string[];
}

/**
 * A target judgement. A run smaller than the scale the target names (`scale`: [what, needed, ran])
 * reports its value but is not judged, and so does one run under conditions the target does not
 * name (`notJudged`: why).
 */
export function judged(
  label: string,
  value: string,
  met: boolean,
  options: { informational?: boolean; scale?: [string, number, number]; notJudged?: string | null } = {},
): TargetOutcome {
  const [what, needed, ran] = options.scale ?? ['', 0, 0];
  const why = ran < needed ? `${what}=${ran}; the target is stated for ${needed.toLocaleString('en')}` : (options.notJudged ?? null);
  return {
    target: label,
    cell: null,
    value: why ? `${value} (${why})` : value,
    met: why ? null : met,
    informational: options.informational ?? false,
  };
}

/** why a throughput target is not judged when the writes were paced (they then set the rate) */
export const pacedWrites = (recordsPerSecond: number) => (recordsPerSecond > 0 ? `writes paced at ${recordsPerSecond}/s (BENCH_EVENTS_RATE): the rate follows them` : null);

export const rate = (perSecond: number) => `${perSecond.toFixed(perSecond < 10 ? 1 : 0)}/s`;
export const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export function cpuLine(cpu: EventCpuSplit): string {
  const f = (v: number | null) => (v === null ? 'n/a' : v.toFixed(2));
  return (
    `CPU over ${cpu.wallSeconds.toFixed(1)} s, in cores of ${cpu.machineCores}: server ${f(cpu.server)}, postgres ${f(cpu.postgres)}` +
    `${cpu.clients === null ? '' : `, ws clients ${f(cpu.clients)}`}, bench ${f(cpu.bench)}, other ${f(cpu.other)}, steal ${f(cpu.steal)}`
  );
}
