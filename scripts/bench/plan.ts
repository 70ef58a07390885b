// Which scenarios `npm run bench` runs, against which baseline, and in which order. The matrix is
// transports × connection counts; docs/benchmark.md ("The matrix") explains the choices.
export type Transport = 'https' | 'http';
export const TRANSPORTS: readonly Transport[] = ['https', 'http'];

export interface Cell {
  transport: Transport;
  connections: number;
}

export interface ScenarioInfo {
  id: string;
  /** `records`: needs the seeded collection; `BENCH_ONLY=records` selects the group */
  group: 'core' | 'records';
  /** where it runs: a bare baseline server, the platform, or another server (BENCH_POSTGRAPHILE_URL) */
  target: 'baseline' | 'platform' | 'external';
  /** the baseline its req/s ratio is taken against (same transport and connections); null: none */
  baseline: string | null;
  /** runs in every cell; the others run in the home cell only, unless BENCH_ONLY names them */
  matrix: boolean;
  /** the only transport it can run over (PostGraphile serves plain HTTP); null: any */
  onlyOver: Transport | null;
}

const info = (id: string, group: ScenarioInfo['group'], baseline: string | null, matrix = false): ScenarioInfo => ({
  id,
  group,
  target: id.startsWith('baseline') ? 'baseline' : id.startsWith('postgraphile') ? 'external' : 'platform',
  baseline,
  matrix,
  onlyOver: id.startsWith('postgraphile') ? 'http' : null,
});

/** In run order within a cell (baselines are moved first): batch create stays last, it grows the collection. */
export const SCENARIOS: readonly ScenarioInfo[] = [
  info('baseline', 'core', null),
  info('healthz', 'core', 'baseline'),
  info('rest-me', 'core', 'baseline'),
  info('graphql-me', 'core', 'baseline'),
  info('rest-team-roles', 'core', 'baseline'),
  info('graphql-team-roles', 'core', 'baseline'),
  info('baseline-record-get', 'records', null, true),
  info('baseline-record-list', 'records', null, true),
  info('rest-record-get', 'records', 'baseline-record-get', true),
  info('graphql-record-get', 'records', 'baseline-record-get', true),
  info('rest-record-list', 'records', 'baseline-record-list', true),
  info('graphql-record-list', 'records', 'baseline-record-list', true),
  // a page of 25 found by two filters: the list of 25 is the nearest bare equivalent
  info('rest-record-search', 'records', 'baseline-record-list'),
  info('rest-record-search-selective', 'records', 'baseline-record-list'),
  // 100 validated writes with their keys, audit and events: nothing bare does the same work
  info('rest-record-batch-create', 'records', null),
  // PostGraphile on the same database, when BENCH_POSTGRAPHILE_URL names it (docs/benchmark.md)
  info('postgraphile-record-get', 'records', 'baseline-record-get', true),
  info('postgraphile-record-list', 'records', 'baseline-record-list', true),
];

export const SCENARIO_IDS = SCENARIOS.map((s) => s.id);

export function scenarioInfo(id: string): ScenarioInfo {
  const found = SCENARIOS.find((s) => s.id === id);
  if (!found) throw new Error(`unknown scenario ${id}`);
  return found;
}

export interface PlannedRun {
  scenario: ScenarioInfo;
  cell: Cell;
}

export interface Plan {
  /** every scenario that runs at least once */
  scenarios: ScenarioInfo[];
  /** where the scenarios outside the matrix run: the first transport, the lowest connection count */
  home: Cell;
  /** one app per transport, in this order (the home transport last) */
  phases: { transport: Transport; runs: PlannedRun[] }[];
  withRecords: boolean;
}

/**
 * `only`: BENCH_ONLY's ids (`records` for the record group); empty: everything. A scenario named
 * in BENCH_ONLY runs in every cell; a platform scenario brings its baseline into the cells it
 * runs in. Ratios are only ever taken within one cell. `external`: a PostGraphile URL was given,
 * so the postgraphile-* scenarios belong to "everything" and to `records`.
 */
export function planRuns(only: readonly string[], transports: readonly Transport[], connections: readonly number[], options: { external: boolean }): Plan {
  const unknown = only.filter((id) => id !== 'records' && !SCENARIO_IDS.includes(id));
  if (unknown.length > 0) throw new Error(`BENCH_ONLY: unknown scenario(s) ${unknown.join(', ')}; known: ${SCENARIO_IDS.join(', ')}, records, events (docs/benchmark.md "Events"), and the section groups and scenarios of scripts/bench/sections.ts`);
  if (transports.length === 0 || connections.length === 0) throw new Error('at least one transport and one connection count are needed');
  const available = SCENARIOS.filter((s) => options.external || s.target !== 'external');
  const named = new Set(only.filter((id) => id !== 'records'));
  const unavailable = [...named].filter((id) => !available.some((s) => s.id === id));
  if (unavailable.length > 0) throw new Error(`BENCH_ONLY: ${unavailable.join(', ')} need(s) BENCH_POSTGRAPHILE_URL`);
  const wanted = new Set(
    only.length === 0 ? available.map((s) => s.id) : [...named, ...(only.includes('records') ? available.filter((s) => s.group === 'records').map((s) => s.id) : [])],
  );
  for (const s of available) {
    if (wanted.has(s.id) && s.onlyOver && !transports.includes(s.onlyOver)) {
      throw new Error(`${s.id} runs over ${s.onlyOver} only: add it to BENCH_TRANSPORTS (now ${transports.join(',')})`);
    }
  }
  const selfWanted = new Set(wanted);
  for (const id of [...wanted]) {
    const baseline = scenarioInfo(id).baseline;
    if (baseline) wanted.add(baseline);
  }
  const scenarios = SCENARIOS.filter((s) => wanted.has(s.id));
  const everywhere = new Set(scenarios.filter((s) => s.matrix || named.has(s.id)).map((s) => s.id));
  for (const s of scenarios) if (everywhere.has(s.id) && s.baseline) everywhere.add(s.baseline);

  // a baseline that is only here for its scenarios runs over the transports they run over
  const runsOver = (s: ScenarioInfo, transport: Transport): boolean =>
    (s.onlyOver === null || s.onlyOver === transport) &&
    (selfWanted.has(s.id) || scenarios.some((d) => d.baseline === s.id && everywhere.has(d.id) && runsOver(d, transport)));

  const home: Cell = { transport: transports[0]!, connections: Math.min(...connections) };
  const baselinesFirst = (list: ScenarioInfo[]) => [...list.filter((s) => s.target === 'baseline'), ...list.filter((s) => s.target !== 'baseline')];
  const inEveryCell = baselinesFirst(scenarios.filter((s) => everywhere.has(s.id)));
  const inHomeCell = baselinesFirst(scenarios.filter((s) => !everywhere.has(s.id)));
  // The home transport runs last so that its single runs (batch create grows the collection)
  // come after every other measurement of the seeded collection.
  const order = [...transports.slice(1), transports[0]!];
  const phases = order.map((transport) => {
    const runs: PlannedRun[] = connections.flatMap((n) =>
      inEveryCell.filter((s) => runsOver(s, transport)).map((scenario) => ({ scenario, cell: { transport, connections: n } })),
    );
    if (transport === home.transport) runs.push(...inHomeCell.map((scenario) => ({ scenario, cell: home })));
    return { transport, runs };
  });
  return { scenarios, home, phases: phases.filter((p) => p.runs.length > 0), withRecords: scenarios.some((s) => s.group === 'records') };
}
