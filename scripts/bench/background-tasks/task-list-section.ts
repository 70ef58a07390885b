// The background-task list of `npm run bench` (docs/benchmark.md "Background tasks"), on a platform
// server of its own (`svc start`) over a fresh database:
//   background-task-list  GET /v1/background-tasks for a team with 10,000 tasks (half the admin's,
//                         half started by the platform), signed in as the team admin: first pages,
//                         pages further in, a status filter and a type filter; one at a time, at 4
//                         connections (the target, p95 < 20 ms) and at 10 (informational)
// The tasks are written straight into the table, as finished tasks would have left them.
import { ApiClient } from '../events/api-client.ts';
import { queryDatabase, type ScenarioDatabase } from '../events/databases.ts';
import { startPlatform, svcEnvironment } from '../events/platform-process.ts';
import { judged } from '../events/results.ts';
import { summarizeLatencies } from '../events/stats.ts';
import { startCpuSplit } from '../events/process-meter.ts';
import { defineBenchSection } from '../bench-section.ts';
import { runSection, type BootstrappedTeam, type SectionBed } from '../section-bed.ts';

export const TASK_LIST_SCENARIOS = ['background-task-list'] as const;
export type TaskListScenario = (typeof TASK_LIST_SCENARIOS)[number];

const TASKS = 10_000;
/** the target's load (as the other per-request targets of the bench), and a heavier one for information */
const CONNECTIONS = 4;
const HEAVY_CONNECTIONS = 10;
const REQUESTS = 1000;
const TARGET_MS = 20;
const PAGE = 50;

const p95 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.ceil(0.95 * values.length) - 1]!;
const fixed = (ms: number) => ms.toFixed(1);

/** Tasks of every type and status, one a minute (newest last), with progress, results and a few errors. */
async function seedTasks(database: ScenarioDatabase, teamSimplyId: string): Promise<void> {
  await queryDatabase(
    database.url,
    `WITH team AS (SELECT id FROM "Team" WHERE "simplyId" = $1),
          admin AS (SELECT m."userId" AS id FROM "TeamMembership" m WHERE m."teamId" = (SELECT id FROM team) ORDER BY m.id LIMIT 1)
     INSERT INTO "BackgroundTask" ("simplyId", "teamId", "taskType", status, "userId", "queueData", progress, result, "errorCount", "unacknowledgedErrorCount",
                                   "createdAt", "startedAt", "completedAt", "lastUpdatedAt")
     SELECT 'btk-' || regexp_replace(translate(upper(substr(md5('task' || g), 1, 12)), '01', 'GH'), '(.{4})(.{4})(.{4})', '\\1-\\2-\\3'),
            (SELECT id FROM team),
            (ARRAY['DATA_EXPORT','BULK_DATA_IMPORT','BULK_DELETE','DOCUMENT_GENERATION','IMAGE_VARIANT_GENERATION'])[1 + g % 5],
            (ARRAY['COMPLETED','COMPLETED','COMPLETED','PARTIAL_SUCCESS','FAILED'])[1 + g % 5],
            CASE WHEN g % 2 = 0 THEN (SELECT id FROM admin) ELSE NULL END,
            '{}'::jsonb, jsonb_build_object('processedCount', g % 1000, 'totalCount', 1000),
            jsonb_build_object('recordCount', g % 1000, 'durationMs', g % 5000), g % 7, g % 3,
            now() - (($2::int - g) || ' minutes')::interval, now() - (($2::int - g) || ' minutes')::interval,
            now() - (($2::int - g) || ' minutes')::interval, now() - (($2::int - g) || ' minutes')::interval
       FROM generate_series(0, $2::int - 1) AS g`,
    [teamSimplyId, TASKS],
  );
  await queryDatabase(database.url, 'VACUUM ANALYZE "BackgroundTask"');
}

async function listScenario({ databases, database, env, progress, lines, targets, summary }: SectionBed, boot: BootstrappedTeam): Promise<void> {
  const platform = await startPlatform(svcEnvironment({ ...env, PORT: '0', RATE_LIMIT_PER_MINUTE: '1000000' }));
  try {
    progress(`background tasks: seeding ${TASKS.toLocaleString('en')} tasks`);
    await seedTasks(database, boot.teamSimplyId);
    const api = new ApiClient({ baseUrl: platform.baseUrl, ca: platform.ca, apiKey: boot.userToken, sockets: CONNECTIONS });
    const kinds = ['first page', 'deeper page', 'status filter', 'type filter'] as const;
    const url = (kind: (typeof kinds)[number], n: number) => {
      const base = `/v1/background-tasks?teamSimplyId=${boot.teamSimplyId}`;
      if (kind === 'first page') return `${base}&limit=${PAGE}`;
      if (kind === 'deeper page') return `${base}&limit=${PAGE}&offset=${50 * (1 + (n % 40))}`;
      if (kind === 'status filter') return `${base}&status=PARTIAL_SUCCESS&limit=${PAGE}`;
      return `${base}&enumBackgroundTaskTypeId=BULK_DELETE&limit=${PAGE}`;
    };
    for (let i = 0; i < 40; i++) await api.request('GET', url(kinds[i % 4]!, i));
    const share = (n: number | null) => (n === null ? '?' : n.toFixed(2));
    const measure = async (connections: number) => {
      const measured = new Map<string, number[]>(kinds.map((k) => [k, []]));
      const perLane = Math.ceil(REQUESTS / connections);
      const lane = async (laneIndex: number) => {
        for (let i = 0; i < perLane; i++) {
          const kind = kinds[(i + laneIndex) % kinds.length]!;
          const response = await api.request('GET', url(kind, laneIndex * perLane + i));
          if (response.status !== 200 || response.body.data.total < 1) throw new Error(`${kind} answered ${response.status}: ${JSON.stringify(response.body).slice(0, 300)}`);
          measured.get(kind)!.push(response.doneAt - response.sentAt);
        }
      };
      const cpu = startCpuSplit({ server: platform.pid, postmaster: () => databases.postmasterPid() });
      await Promise.all(Array.from({ length: connections }, (_, i) => lane(i)));
      const split = cpu.stop();
      const all = [...measured.values()].flat();
      lines.push(`  ${connections} connections, ${all.length} requests: p50 ${fixed(summarizeLatencies(all).p50)} ms, p95 ${fixed(p95(all))} ms`);
      for (const [kind, values] of measured) lines.push(`    ${kind}: p50 ${fixed(summarizeLatencies(values).p50)} ms, p95 ${fixed(p95(values))} ms`);
      lines.push(`    cores in use: server ${share(split.server)}, PostgreSQL ${share(split.postgres)}, load generator ${share(split.bench)}, other ${share(split.other)} (of ${split.machineCores})`);
      return { all: { ...summarizeLatencies(all), p95: p95(all) }, cpu: split, ...Object.fromEntries([...measured].map(([k, v]) => [k, { ...summarizeLatencies(v), p95: p95(v) }])) };
    };
    // one at a time (informational): what a request costs when nothing queues
    const alone: number[] = [];
    for (let i = 0; i < 200; i++) {
      const response = await api.request('GET', url(kinds[i % kinds.length]!, i));
      alone.push(response.doneAt - response.sentAt);
    }
    lines.push('', `background-task-list: ${TASKS.toLocaleString('en')} tasks, as the team admin, limit ${PAGE}: first pages, pages up to 2,000 deep, a status filter, a type filter`);
    lines.push(`  one at a time: p50 ${fixed(summarizeLatencies(alone).p50)} ms, p95 ${fixed(p95(alone))} ms`);
    const target = await measure(CONNECTIONS);
    const heavy = await measure(HEAVY_CONNECTIONS);
    api.close();
    summary.list = { tasks: TASKS, page: PAGE, alone: { ...summarizeLatencies(alone), p95: p95(alone) }, [`c${CONNECTIONS}`]: target, [`c${HEAVY_CONNECTIONS}`]: heavy };
    targets.push(judged(`background task list at ${TASKS.toLocaleString('en')} tasks, ${CONNECTIONS} connections, p95 < ${TARGET_MS} ms`, `${fixed(target.all.p95)} ms`, target.all.p95 < TARGET_MS));
  } finally {
    await platform.stop();
  }
}

export const runTaskListSection = (scenarios: readonly TaskListScenario[], progress: (line: string) => void) =>
  runSection('task-list', scenarios, progress, async (bed) => {
    const boot = await bed.bootstrap('Bench tasks');
    await bed.scenario('background-task-list', () => listScenario(bed, boot));
  });

export const benchSection = defineBenchSection('background-tasks', TASK_LIST_SCENARIOS, runTaskListSection);
