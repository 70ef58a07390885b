// The events section of `npm run bench` (docs/benchmark.md "Events"): webhook deliveries, a slow
// and a refusing webhook target beside a healthy one, automation executions, mail handed to SMTP
// and graphql-ws fan-out, each on a platform server of its own (platform-process.ts) over a fresh
// copy of one bootstrapped database (databases.ts), judged against the events targets (docs/benchmark.md "Events").
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TargetOutcome } from '../report.ts';
import { queryDatabase, startEventDatabases } from './databases.ts';
import { passedThroughSettings, runSvc, svcEnvironment } from './platform-process.ts';
import { judged, type EventScenarioResult } from './results.ts';
import type { BenchTeam, SectionContext } from './scenario-bed.ts';
import { runAutomationScenario } from './scenario-automations.ts';
import { runMailScenario } from './scenario-mail.ts';
import { runSubscriberScenario } from './scenario-subscribers.ts';
import { runWebhookScenario } from './scenario-webhooks.ts';
import type { EventScenario, EventSettings } from './settings.ts';

const RUN: Record<EventScenario, (ctx: SectionContext) => Promise<EventScenarioResult>> = {
  'events-webhooks': (ctx) => runWebhookScenario(ctx, 'burst'),
  'events-webhooks-sustained': (ctx) => runWebhookScenario(ctx, 'sustained'),
  'events-webhooks-slow': (ctx) => runWebhookScenario(ctx, 'troubled'),
  'events-automations': runAutomationScenario,
  'events-mail': runMailScenario,
  'events-subscribers': runSubscriberScenario,
};

export interface EventsSection {
  /** readable report lines (targets not included: `targets`) */
  lines: string[];
  targets: TargetOutcome[];
  /** for the JSON summary */
  summary: Record<string, unknown>;
  /** a scenario failed to run (not: missed a target) */
  failed: boolean;
}

export async function runEventsSection(settings: EventSettings, progress: (line: string) => void): Promise<EventsSection> {
  const started = performance.now();
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-events-'));
  // as root the embedded cluster runs as the postgres user, which must traverse this folder
  fs.chmodSync(root, 0o755);
  const dataDir = path.join(root, 'platform');
  fs.mkdirSync(dataDir);
  const stops = new Set<() => Promise<void>>();
  const stopAll = async () => {
    for (const stop of [...stops].reverse()) await stop().catch((error) => progress(`cleanup step failed: ${String(error)}`));
  };
  let interrupted = false;
  let stopDatabases = async () => {};
  const onSignal = (signal: NodeJS.Signals) => {
    if (interrupted) return;
    interrupted = true;
    progress(`\n${signal}: stopping the events section…`);
    void stopAll()
      .then(() => stopDatabases())
      .catch(() => {})
      .finally(() => {
      fs.rmSync(root, { recursive: true, force: true });
      process.exit(130);
    });
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const databases = await startEventDatabases({ dataDir: path.join(root, 'cluster'), databaseUrl: process.env.DATABASE_URL, log: progress });
  stopDatabases = () => databases.stop();
  try {
    const template = await databases.create('template');
    stops.add(() => template.drop());
    const bootstrapped = JSON.parse(
      (
        await runSvc(
          ['bootstrap', '--team', 'Bench events', '--email', `bench-events-${randomBytes(4).toString('hex')}@example.test`],
          svcEnvironment({ DATABASE_URL: template.url, DATA_DIR: dataDir, LOG_LEVEL: 'warn' }),
        )
      )
        .trim()
        .split('\n')
        .at(-1)!,
    ) as Omit<BenchTeam, 'teamId'>;
    const [teamRow] = await queryDatabase<{ id: string }>(template.url, `SELECT id FROM "Team" WHERE "simplyId" = $1`, [bootstrapped.teamSimplyId]);
    const team: BenchTeam = { ...bootstrapped, teamId: BigInt(teamRow!.id) };
    const ctx: SectionContext = {
      settings,
      databases,
      template,
      team,
      dataDir,
      progress,
      track: (stop) => {
        stops.add(stop);
        return () => void stops.delete(stop);
      },
    };
    const passed = passedThroughSettings();
    progress(
      `\nevents: ${settings.scenarios.join(', ')}; ${settings.events} events per scenario, ${settings.subscribers} subscribers; ` +
        `servers: svc start, NODE_ENV=${process.env.NODE_ENV ?? 'production'}, PostgreSQL ${databases.embedded ? 'embedded' : 'DATABASE_URL'}` +
        (Object.keys(passed).length ? `; from the environment: ${Object.entries(passed).map(([k, v]) => `${k}=${v}`).join(' ')}` : ''),
    );

    const results: EventScenarioResult[] = [];
    const errors: { scenario: EventScenario; error: string }[] = [];
    for (const scenario of settings.scenarios) {
      progress(`events: ${scenario}`);
      try {
        const result = await RUN[scenario](ctx);
        results.push(result);
        for (const line of result.lines) progress(`  ${line}`);
      } catch (error) {
        if (interrupted) throw error;
        const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
        errors.push({ scenario, error: text });
        progress(`  ${scenario} failed: ${text}`);
      }
    }

    const warnings = results.flatMap((r) => r.listenerWarnings.map((w) => `${r.scenario}: ${w}`));
    const targets = results.flatMap((r) => r.targets);
    if (results.length > 0) {
      targets.push(
        judged('no MaxListenersExceededWarning from any server', warnings.length === 0 ? 'none' : `${warnings.length}: ${warnings[0]}`, warnings.length === 0),
      );
    }
    const pgVersion = await databases.serverVersion();
    const cpus = os.cpus();
    const lines = [
      '',
      `events: node ${process.version}, ${cpus.length} × ${cpus[0]?.model.trim() ?? 'CPU'}, PostgreSQL ${pgVersion} (${databases.embedded ? 'embedded' : 'DATABASE_URL'}); ` +
        `each scenario on its own \`svc start\` (NODE_ENV=${process.env.NODE_ENV ?? 'production'}, jobs in the server) and a fresh database` +
        (Object.keys(passed).length ? `; from the environment: ${Object.entries(passed).map(([k, v]) => `${k}=${v}`).join(' ')}` : ''),
      ...results.flatMap((r) => ['', `${r.scenario}: ${r.title}`, ...r.lines.map((l) => `  ${l}`)]),
      ...errors.map((e) => `\n${e.scenario}: FAILED TO RUN: ${e.error.split('\n')[0]}`),
      ...(warnings.length ? ['', `MaxListenersExceededWarning printed ${warnings.length} time(s); first: ${warnings[0]}`] : []),
    ];
    const busiest = Math.max(0, ...results.map((r) => r.cpu?.other ?? 0));
    if (busiest > 0.25) lines.push(`warning: other processes used up to ${busiest.toFixed(2)} cores during the event scenarios; the figures are not from a quiet machine`);
    const totalSeconds = (performance.now() - started) / 1000;
    lines.push(`events section: ${totalSeconds.toFixed(1)} s`);
    return {
      lines,
      targets,
      failed: errors.length > 0,
      summary: {
        environment: { node: process.version, nodeEnv: process.env.NODE_ENV ?? 'production', cpus: cpus.length, cpuModel: cpus[0]?.model.trim() ?? null },
        settings,
        postgres: pgVersion,
        database: databases.embedded ? 'embedded' : 'DATABASE_URL',
        passedThrough: passed,
        totalSeconds,
        scenarios: results.map(({ lines: _lines, ...rest }) => rest),
        errors,
        listenerWarnings: warnings,
      },
    };
  } finally {
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
    if (!interrupted) {
      await stopAll();
      await databases.stop();
      fs.rmSync(root, { recursive: true, force: true });
    }
  }
}
