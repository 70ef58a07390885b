// Recovery bound: a job whose worker process died (SIGKILL mid-handler) is run again by
// another worker within 30 s, on a queue with the platform's defaults (heartbeat 10 s, supervisor
// every 5 s): no test-only supervisor, no shortened expiry. Once in effect: the job completes once.
import type { Job } from 'pg-boss';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Jobs } from '../../src/app/jobs.ts';
import { createLogger } from '../../src/app/logger.ts';
import type { ThrowawayDatabase } from '../db/helpers.ts';
import { createMigratedDatabase } from '../support/migrated-database.ts';
import { untilWith } from '../support/until.ts';
import { startWorkerProcess } from '../support/worker-process.ts';

const RECOVERY_BOUND_MS = 30_000;
const QUEUE = 'resilience.generic';
const until = untilWith({ timeoutMs: 10_000, everyMs: 50 });
const cleanups: (() => Promise<unknown>)[] = [];
let db: ThrowawayDatabase;

beforeAll(async () => {
  // the queue's jobs must be seen by this file's workers alone
  db = await createMigratedDatabase('worker_recovery');
});
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  await db?.drop();
});

it('a job whose worker was killed mid-handler runs again on another worker within 30 s', { timeout: 90_000 }, async () => {
  const script = `
    import { Jobs } from ${JSON.stringify(new URL('../../src/app/jobs.ts', import.meta.url).href)};
    import { createLogger } from ${JSON.stringify(new URL('../../src/app/logger.ts', import.meta.url).href)};
    const jobs = new Jobs(process.env.DATABASE_URL, createLogger('silent'));
    jobs.define({ name: process.env.QUEUE, handler: async (batch) => {
      for (const job of batch) process.stdout.write('claimed ' + job.id + '\\n');
      await new Promise(() => {}); // still working when it is killed
    } });
    jobs.bindServices({});
    await jobs.start({ work: true });
    process.stdout.write('working\\n');
  `;
  const doomed = await startWorkerProcess(script, { DATABASE_URL: db.url, QUEUE }, cleanups);

  const ran: Job<{ n: number }>[] = [];
  const define = (jobs: Jobs) => {
    jobs.define<{ n: number }>({ name: QUEUE, handler: async (batch) => void ran.push(...batch) });
    jobs.bindServices({} as never);
    cleanups.push(() => jobs.stop(1000));
  };
  // an API server's side of the queue: it sends, it runs no handler
  const sender = new Jobs(db.url, createLogger('silent'));
  define(sender);
  await sender.start({ work: false });

  const id = (await sender.send(QUEUE, { n: 1 }))!;
  await until('the doomed worker to claim the job', () => doomed.stdout().includes(`claimed ${id}`));
  expect((await sender.boss.getJobById(QUEUE, id))?.state).toBe('active');

  doomed.child.kill('SIGKILL');
  const killedAt = Date.now();
  expect(await doomed.exited).toBe('SIGKILL');
  // the surviving worker: this process, the product's Jobs class and settings
  const worker = new Jobs(db.url, createLogger('silent'));
  define(worker);
  await worker.start({ work: true });

  await until('the job to run again', () => ran.length > 0, RECOVERY_BOUND_MS + 5_000, 100);
  const recoveredAfter = Date.now() - killedAt;
  expect(recoveredAfter).toBeLessThan(RECOVERY_BOUND_MS);
  expect(ran.map((job) => job.id)).toEqual([id]);
  await until('the job to be completed', async () => (await worker.boss.getJobById(QUEUE, id))?.state === 'completed');
  expect((await worker.boss.getJobById(QUEUE, id))?.retryCount).toBe(1);
  expect(ran).toHaveLength(1);
});
