// The readable report of `npm run bench` (tables per cell, the ratios, the CPU split, the
// targets) and the targets themselves. The JSON summary carries the same results.
import type { CpuSplit } from './cpu-accounting.ts';
import type { LoadResult } from './load-generator.ts';
import type { Cell, ScenarioInfo, Transport } from './plan.ts';

export interface ScenarioResult extends Omit<LoadResult, 'id'> {
  scenario: string;
  target: ScenarioInfo['target'];
  transport: Transport;
  connections: number;
  /** the baseline scenario the ratio is taken against (same transport and connections) */
  baseline: string | null;
  request: string;
  ratioToBaseline: number | null;
  /** Authenticator.loads during the measured run, and per response */
  credentialLoads: number | null;
  credentialLoadsPerRequest: number | null;
  /** statements sent through pg per response: every pool of the bench process for the platform, the
   *  baseline child's own for a baseline; null: an external server */
  pgQueriesPerRequest: number | null;
  /** CPU time of the server process (user + system, all threads) per response, microseconds: the bench
   *  process for the platform, the baseline's child process, an external server's own
   *  (BENCH_POSTGRAPHILE_PID), or null without its pid */
  serverCpuMicrosPerRequest: number | null;
  /** server process CPU use over the measured run, in cores (1.0 = one core saturated) */
  serverCpuCores: number;
  /** machine-wide CPU use during the measured run, in cores */
  cpu: CpuSplit;
  /** largest RSS of the server process sampled every 200 ms during the measured run: the bench process for
   *  the platform, the baseline's child process, an external server's own (BENCH_POSTGRAPHILE_PID), or
   *  null without its pid */
  rssMaxBytes: number | null;
  /** largest V8 heap in use over the same samples (the baseline child's own); null: an external server */
  heapUsedMaxBytes: number | null;
  /** searches: records the check request's filters matched */
  matched: number | null;
  /** from the check request */
  note: string | null;
  /** BENCH_CPU_PROF: the profile of the measured run */
  cpuProfile: string | null;
}

export interface TargetOutcome {
  target: string;
  /** where it is judged; the value may come from another cell when that one was not run */
  cell: Cell | null;
  value: string;
  /** null: not measured where the target applies */
  met: boolean | null;
  informational: boolean;
}

const MiB = 1024 * 1024;
export const mib = (bytes: number) => bytes / MiB;
const cellName = (c: Cell) => `${c.transport}, ${c.connections} connection${c.connections === 1 ? '' : 's'}`;

interface Target {
  scenario: string;
  cell: Cell;
  label: string;
  informational?: boolean;
  judge: (r: ScenarioResult) => { met: boolean | null; value: string };
}

const ratioAtLeast = (scenario: string, min: number, what: string): Target => ({
  scenario,
  cell: { transport: 'https', connections: 50 },
  label: `${what} ≥ ${min} × its baseline's req/s`,
  judge: (r) => (r.ratioToBaseline === null ? { met: null, value: 'no baseline in this run' } : { met: r.ratioToBaseline >= min, value: `${r.ratioToBaseline.toFixed(2)} × ${r.baseline}` }),
});

const p95Below = (scenario: string, ms: number, what: string, options: { maxMatchedShare?: number; informational?: boolean; seeded: number | null }): Target => ({
  scenario,
  cell: { transport: 'https', connections: 10 },
  label: `${what} p95 < ${ms} ms`,
  informational: options.informational,
  judge: (r) => {
    const share = r.matched !== null && options.seeded ? r.matched / options.seeded : null;
    const matched = share === null ? '' : ` (filters match ${(share * 100).toFixed(2)} %)`;
    const outOfScope = options.maxMatchedShare !== undefined && share !== null && share > options.maxMatchedShare;
    return { met: outOfScope ? null : r.latency.p95 < ms, value: `${r.latency.p95.toFixed(1)} ms${matched}${outOfScope ? `: more than ${options.maxMatchedShare! * 100} %, outside the target` : ''}` };
  },
});

/** The HTTP targets, judged at the cell each names; RSS over the whole run. */
export function judgeTargets(results: ScenarioResult[], seeded: number | null): TargetOutcome[] {
  const targets: Target[] = [
    ratioAtLeast('rest-record-get', 0.6, 'record get'),
    ratioAtLeast('rest-record-list', 0.5, 'list of 25 with exact total'),
    ratioAtLeast('graphql-record-get', 0.45, 'GraphQL record get'),
    ratioAtLeast('graphql-record-list', 0.45, 'GraphQL list of 25 with exact total'),
    p95Below('rest-record-search-selective', 25, 'search with two filters matching ≤ 1 %', { maxMatchedShare: 0.01, seeded }),
    p95Below('rest-record-search', 25, 'search with two filters matching 10 %', { informational: true, seeded }),
    {
      scenario: 'rest-record-batch-create',
      cell: { transport: 'https', connections: 10 },
      label: 'batch create of 100 p50 < 200 ms',
      informational: true,
      judge: (r) => ({ met: r.latency.p50 < 200, value: `${r.latency.p50.toFixed(1)} ms` }),
    },
  ];
  const outcomes: TargetOutcome[] = [];
  for (const t of targets) {
    const runs = results.filter((r) => r.scenario === t.scenario);
    if (runs.length === 0) continue;
    const exact = runs.find((r) => r.transport === t.cell.transport && r.connections === t.cell.connections);
    const label = `${t.label} (${cellName(t.cell)})`;
    if (exact) {
      outcomes.push({ target: label, cell: t.cell, ...t.judge(exact), informational: t.informational ?? false });
    } else {
      // the nearest run, for information: same transport if any, then the most connections
      const nearest = [...runs].sort((a, b) => Number(b.transport === t.cell.transport) - Number(a.transport === t.cell.transport) || b.connections - a.connections)[0]!;
      const judged = t.judge(nearest);
      outcomes.push({ target: label, cell: null, met: null, value: `not run there; ${judged.value} at ${cellName(nearest)}`, informational: t.informational ?? false });
    }
  }
  const platform = results.filter((r) => r.target === 'platform');
  if (platform.length > 0) {
    const peak = Math.max(...platform.map((r) => r.rssMaxBytes!));
    outcomes.push({ target: 'server RSS < 300 MiB under load', cell: null, met: peak < 300 * MiB, value: `${mib(peak).toFixed(0)} MiB at most`, informational: false });
  }
  return outcomes;
}

type Row = string[];

function table(header: Row, rows: Row[]): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: Row) => `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`;
  return [line(header), `|${widths.map((w, i) => (i === 0 ? `:${'-'.repeat(w + 1)}` : `${'-'.repeat(w + 1)}:`)).join('|')}|`, ...rows.map(line)];
}

const sameCell = (a: Cell, b: Cell) => a.transport === b.transport && a.connections === b.connections;

/** Result tables, one per cell in matrix order; the ratios; the CPU split. */
export function resultTables(results: ScenarioResult[], cells: Cell[]): string[] {
  const out: string[] = [];
  const header = ['scenario', 'req/s', 'p50 ms', 'p90 ms', 'p95 ms', 'p99 ms', 'errors', 'non-2xx', 'vs baseline', 'cred loads/req', 'pg queries/req', 'server CPU µs/req', 'RSS MiB', 'heap MiB'];
  for (const cell of cells) {
    const inCell = results.filter((r) => sameCell(r, cell));
    if (inCell.length === 0) continue;
    out.push('', `${cellName(cell)}:`);
    out.push(
      ...table(
        header,
        inCell.map((r) => [
          r.scenario,
          r.requestsPerSecond.toFixed(0),
          r.latency.p50.toFixed(2),
          r.latency.p90.toFixed(2),
          r.latency.p95.toFixed(2),
          r.latency.p99.toFixed(2),
          String(r.errors + r.timeouts),
          String(r.non2xx),
          r.target === 'baseline' ? '1.00' : r.ratioToBaseline === null ? '-' : r.ratioToBaseline.toFixed(2),
          r.credentialLoadsPerRequest === null ? '-' : `${r.credentialLoadsPerRequest.toFixed(4)} (${r.credentialLoads})`,
          r.pgQueriesPerRequest?.toFixed(2) ?? '-',
          r.serverCpuMicrosPerRequest?.toFixed(0) ?? '-',
          r.rssMaxBytes === null ? '-' : mib(r.rssMaxBytes).toFixed(0),
          r.heapUsedMaxBytes === null ? '-' : mib(r.heapUsedMaxBytes).toFixed(0),
        ]),
      ),
    );
  }

  const ranCells = cells.filter((c) => results.some((r) => sameCell(r, c)));
  const compared = [...new Set(results.filter((r) => r.target !== 'baseline' && r.baseline).map((r) => r.scenario))];
  if (compared.length > 0) {
    out.push('', 'req/s as a ratio to the baseline named, within the same transport and connection count:');
    const baselineRows = [...new Set(results.filter((r) => r.target === 'baseline').map((r) => r.scenario))].map((b) => [
      b,
      '(req/s)',
      ...ranCells.map((c) => results.find((r) => r.scenario === b && sameCell(r, c))?.requestsPerSecond.toFixed(0) ?? ''),
    ]);
    const ratioRows = compared.map((s) => [
      s,
      results.find((r) => r.scenario === s)!.baseline!,
      ...ranCells.map((c) => {
        const r = results.find((x) => x.scenario === s && sameCell(x, c));
        return r?.ratioToBaseline == null ? '' : r.ratioToBaseline.toFixed(2);
      }),
    ]);
    out.push(...table(['scenario', 'baseline', ...ranCells.map((c) => `${c.transport} ${c.connections}`)], [...baselineRows, ...ratioRows]));
  }

  const cpuCores = results[0]?.cpu.machineCores ?? 0;
  out.push('', `CPU during the measured runs, in cores (of ${cpuCores}):`);
  const fmt = (v: number | null) => (v === null ? 'n/a' : v.toFixed(2));
  // `server` is the bench process, which holds the platform (idle in the other rows); a server in a
  // process of its own (the baseline's child; PostGraphile when BENCH_POSTGRAPHILE_PID names it)
  // has its column, named for which of them ran
  const ownProcesses = [
    ...(results.some((r) => r.target === 'baseline' && r.cpu.external !== null) ? ['baseline'] : []),
    ...(results.some((r) => r.target === 'external' && r.cpu.external !== null) ? ['postgraphile'] : []),
  ];
  const withExternal = ownProcesses.length > 0;
  out.push(
    ...table(
      ['scenario', 'transport', 'conns', 'server', 'postgres', ...(withExternal ? [ownProcesses.join('/')] : []), 'autocannon', 'other processes', 'steal'],
      results.map((r) => [
        r.scenario,
        r.transport,
        String(r.connections),
        fmt(r.cpu.server),
        fmt(r.cpu.postgres),
        ...(withExternal ? [fmt(r.cpu.external)] : []),
        fmt(r.cpu.loadGenerator),
        fmt(r.cpu.other),
        fmt(r.cpu.steal),
      ]),
    ),
  );
  return out;
}

export function targetLines(outcomes: TargetOutcome[]): string[] {
  if (outcomes.length === 0) return [];
  const mark = (t: TargetOutcome) => (t.met === null ? '?   ' : t.met ? 'met ' : 'MISS');
  const out = ['', 'targets:'];
  for (const t of outcomes.filter((o) => !o.informational)) out.push(`  ${mark(t)} ${t.target}: ${t.value}`);
  const info = outcomes.filter((o) => o.informational);
  if (info.length > 0) {
    out.push('informational:');
    for (const t of info) out.push(`  ${mark(t)} ${t.target}: ${t.value}`);
  }
  return out;
}
