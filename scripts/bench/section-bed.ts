// The scaffolding every self-contained section of `npm run bench` shares (sections.ts finds them),
// so that a section file holds only its scenarios: the lines, targets and JSON summary it reports;
// a scenario that throws is reported and fails the section while the others still run; and, for a
// section on a platform of its own, a temp folder, a fresh database and a bootstrapped team, torn
// down with whatever the section added (servers, sinks, connections) however the section ends.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startEventDatabases, type EventDatabases, type ScenarioDatabase } from './events/databases.ts';
import { runSvc, svcEnvironment } from './events/platform-process.ts';
import type { TargetOutcome } from './report.ts';
import type { SectionResult } from './section-result.ts';

export interface SectionRun<S extends string = string> {
  lines: string[];
  targets: TargetOutcome[];
  /** the section's part of the JSON summary */
  summary: Record<string, unknown>;
  progress: (line: string) => void;
  /** whether BENCH_ONLY chose the scenario */
  wants(id: S): boolean;
  /** `run` if the scenario was chosen; a throw is reported as `<id> FAILED TO RUN` */
  scenario(id: S, run: () => Promise<void>): Promise<void>;
  /** `run` always, for a stretch that is not one scenario; `context` adds a line to its failure (a server's output) */
  guard(label: string, run: () => Promise<void>, context?: () => string | undefined): Promise<void>;
  /** run when the section ends, the latest registered first */
  onCleanup(cleanup: () => unknown): void;
  /** a temp folder, an empty database and the platform's settings for them, for the rest of the section */
  openBed(name: string): Promise<SectionBed<S>>;
}

/** What `svc bootstrap` made: a team, its admin (signed in: userToken) and an API key of the team. */
export interface BootstrappedTeam {
  teamSimplyId: string;
  userSimplyId: string;
  email: string;
  password: string;
  apiKey: string;
  userToken: string;
}

export interface SectionBed<S extends string = string> extends SectionRun<S> {
  root: string;
  /** the platform's DATA_DIR */
  dataDir: string;
  databases: EventDatabases;
  database: ScenarioDatabase;
  /** DATABASE_URL, DATA_DIR, HOST and LOG_LEVEL for `svc` processes (through svcEnvironment) */
  env: Record<string, string>;
  bootstrap(teamName: string): Promise<BootstrappedTeam>;
}

const failure = (error: unknown) => (error instanceof Error ? (error.stack ?? error.message) : String(error));

/** A section that needs no platform (or opens its bed only for some scenarios: `run.openBed`). */
export async function runScenarios<S extends string>(
  scenarios: readonly S[],
  progress: (line: string) => void,
  body: (run: SectionRun<S>) => Promise<void>,
): Promise<SectionResult> {
  const lines: string[] = [];
  const targets: TargetOutcome[] = [];
  const summary: Record<string, unknown> = {};
  const cleanups: (() => unknown)[] = [];
  let failed = false;
  const run: SectionRun<S> = {
    lines,
    targets,
    summary,
    progress,
    wants: (id) => scenarios.includes(id),
    scenario: (id, scenario) => (scenarios.includes(id) ? run.guard(id, scenario) : Promise.resolve()),
    guard: async (label, scenario, context) => {
      try {
        await scenario();
      } catch (error) {
        failed = true;
        lines.push(`${label} FAILED TO RUN: ${failure(error)}`);
        const more = context?.();
        if (more !== undefined) lines.push(more);
      }
    },
    onCleanup: (cleanup) => void cleanups.push(cleanup),
    openBed: (name) => openBed(run, name),
  };
  try {
    await body(run);
  } finally {
    // a teardown that fails must neither skip the ones after it nor hide the figures already taken
    for (let cleanup = cleanups.pop(); cleanup; cleanup = cleanups.pop()) await Promise.resolve().then(cleanup).catch(() => {});
  }
  return { lines, targets, summary, failed };
}

/** A section on a platform of its own: `body` gets the bed (`name` labels its folder and database). */
export function runSection<S extends string>(
  name: string,
  scenarios: readonly S[],
  progress: (line: string) => void,
  body: (bed: SectionBed<S>) => Promise<void>,
): Promise<SectionResult> {
  return runScenarios(scenarios, progress, async (run) => body(await run.openBed(name)));
}

async function openBed<S extends string>(run: SectionRun<S>, name: string): Promise<SectionBed<S>> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), `svc-bench-${name}-`));
  run.onCleanup(() => fs.rmSync(root, { recursive: true, force: true }));
  // as root the embedded cluster runs as the postgres user, which must traverse this folder
  fs.chmodSync(root, 0o755);
  const dataDir = path.join(root, 'platform');
  fs.mkdirSync(dataDir);
  const databases = await startEventDatabases({ dataDir: path.join(root, 'cluster'), databaseUrl: process.env.DATABASE_URL, log: run.progress });
  run.onCleanup(() => databases.stop());
  const database = await databases.create(name);
  run.onCleanup(() => database.drop());
  const env = { DATABASE_URL: database.url, DATA_DIR: dataDir, HOST: '127.0.0.1', LOG_LEVEL: 'warn' };
  const bootstrap = async (teamName: string): Promise<BootstrappedTeam> => {
    const email = `bench-${name}-${randomBytes(4).toString('hex')}@example.test`;
    const password = `bench-${randomBytes(12).toString('hex')}`;
    const stdout = await runSvc(['bootstrap', '--team', teamName, '--email', email, '--password', password], svcEnvironment(env));
    // the team is the last line of the output, as JSON
    return { ...(JSON.parse(stdout.trim().split('\n').at(-1)!) as BootstrappedTeam), email, password };
  };
  return { ...run, root, dataDir, databases, database, env, bootstrap };
}
