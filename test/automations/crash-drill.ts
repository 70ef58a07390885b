// The steps the automation crash drills share: a worker process that runs automation jobs, and
// after its SIGKILL, a worker started in its place that must finish the interrupted execution
// within the recovery bound every queue is held to.
import type pg from 'pg';
import { expect } from 'vitest';
import type { AutomationExecution } from '../../src/generated/prisma/client.ts';
import { startTestServer } from '../support/server.ts';
import { untilWith } from '../support/until.ts';
import { startWorkerProcess, type WorkerProcess } from '../support/worker-process.ts';

export const RECOVERY_MS = 30_000;
const until = untilWith({ timeoutMs: RECOVERY_MS + 5_000, everyMs: 100 });

type Cleanups = (() => Promise<unknown>)[];

/** A process of its own that works the job queues (polling every 0.5 s), ready once it says so. */
export function startAutomationWorker(databaseUrl: string, dataDir: string, cleanups: Cleanups): Promise<WorkerProcess> {
  const script = `
    import { loadConfig } from ${JSON.stringify(new URL('../../src/main/config.ts', import.meta.url).href)};
    import { createServices } from ${JSON.stringify(new URL('../../src/main/services.ts', import.meta.url).href)};
    import { createLogger } from ${JSON.stringify(new URL('../../src/app/logger.ts', import.meta.url).href)};
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: process.env.DATA_DIR, LOG_LEVEL: 'silent' });
    const services = await createServices({ config, databaseUrl: process.env.DATABASE_URL, migrate: false, logger: createLogger('silent'), jobPollingIntervalSeconds: 0.5 });
    await services.jobs.start({ work: true });
    process.stdout.write('working\\n');
  `;
  return startWorkerProcess(script, { DATABASE_URL: databaseUrl, DATA_DIR: dataDir }, cleanups);
}

export interface Drill {
  worker: WorkerProcess;
  /** the test's transaction holding the lock the run waits for */
  stall: pg.Client;
  databaseUrl: string;
  dataDir: string;
  cleanups: Cleanups;
  prisma: { automationExecution: { findUniqueOrThrow(args: { where: { id: bigint } }): Promise<AutomationExecution> } };
  executionId: bigint;
}

/**
 * SIGKILLs the worker mid-run, lets go of the stall, starts a worker after it (whose supervisor
 * notices the dead one's stale heartbeat) and waits for the execution to finish: within
 * RECOVERY_MS of the kill. Returns the finished execution.
 */
export async function killAndRecover(drill: Drill): Promise<AutomationExecution> {
  drill.worker.child.kill('SIGKILL');
  expect(await drill.worker.exited).toBe('SIGKILL');
  const killedAt = Date.now();
  await drill.stall.query('ROLLBACK');
  const restarted = await startTestServer({ databaseUrl: drill.databaseUrl, runJobs: true, dataDir: drill.dataDir });
  drill.cleanups.push(() => restarted.close());
  const done = await until('the execution to complete', async () => {
    const row = await drill.prisma.automationExecution.findUniqueOrThrow({ where: { id: drill.executionId } });
    return row.status !== 'RUNNING' && row;
  });
  expect(Date.now() - killedAt).toBeLessThan(RECOVERY_MS);
  return done;
}
