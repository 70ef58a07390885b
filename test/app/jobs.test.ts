// pg-boss jobs: the credential purge, a worker process separate from the server, stopping, and
// at-least-once delivery when a worker dies holding a job.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { PgBoss, type Job } from 'pg-boss';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../../src/main/config.ts';
import type { Services } from '../../src/app/context.ts';
import { Jobs } from '../../src/app/jobs.ts';
import { PURGE_EXPIRED_CREDENTIALS } from '../../src/modules/credentials/credentials.jobs.ts';
import { closeServices, createServices } from '../../src/main/services.ts';
import { createLogger } from '../../src/app/logger.ts';
import { untilWith } from '../support/until.ts';
import { useServer } from '../support/use-server.ts';
import { startWorkerProcess } from '../support/worker-process.ts';

const DAY = 86_400_000;
const logger = createLogger('silent');
const until = untilWith({ timeoutMs: 10_000, everyMs: 50 });

async function jobState(boss: PgBoss, queue: string, id: string) {
  return (await boss.getJobById(queue, id))?.state;
}

describe('credential purge job', () => {
  const { server, teams: [team] } = useServer({ runJobs: true, teams: 1 });

  it('deletes session and refresh tokens that expired or were revoked more than a week before `now`', async () => {
    const { prisma } = server.app.services;
    expect(server.app.services.jobs.isWorking).toBe(true);
    const mint = async () => {
      const response = await server.request('POST', '/v1/session-tokens', { token: team.apiKey, body: { expiresInMinutes: 5 } });
      expect(response.status).toBe(201);
      return response.body.data.id as string;
    };
    const [expiredLongAgo, revokedLongAgo, expiredLastWeek, live] = [await mint(), await mint(), await mint(), await mint()];
    expect((await server.request('DELETE', `/v1/session-tokens/${revokedLongAgo}`, { token: team.apiKey })).status).toBe(200);
    const login = async () => {
      const response = await server.request('POST', '/v1/auth/login', { body: { email: team.email, password: team.password } });
      expect(response.status).toBe(200);
      return response.body.data.refreshToken as string;
    };
    await login();
    await login();

    // Let time pass, row by row: the purge is global, so `now` stays the real now and the rows
    // age instead (moving `now` a week ahead would purge other test files' live tokens too).
    const now = new Date();
    const ago = (days: number) => new Date(now.getTime() - days * DAY);
    await prisma.sessionToken.update({ where: { simplyId: expiredLongAgo }, data: { expiresAt: ago(8) } });
    await prisma.sessionToken.update({ where: { simplyId: revokedLongAgo }, data: { revokedAt: ago(7.5) } });
    await prisma.sessionToken.update({ where: { simplyId: expiredLastWeek }, data: { expiresAt: ago(6.9) } });
    const refresh = await prisma.refreshToken.findMany({ where: { userId: team.userId }, orderBy: { id: 'asc' } });
    expect(refresh.length).toBeGreaterThanOrEqual(2);
    const [oldRefresh, freshRefresh] = [refresh[0]!, refresh[refresh.length - 1]!];
    await prisma.refreshToken.update({ where: { id: oldRefresh.id }, data: { expiresAt: ago(9) } });

    const jobId = await server.app.services.jobs.send(PURGE_EXPIRED_CREDENTIALS, { now: now.toISOString() });
    expect(jobId).toBeTruthy();
    await until('the purge job to complete', async () => (await jobState(server.app.services.jobs.boss, PURGE_EXPIRED_CREDENTIALS, jobId!)) === 'completed');

    const remaining = await prisma.sessionToken.findMany({ where: { simplyId: { in: [expiredLongAgo, revokedLongAgo, expiredLastWeek, live] } } });
    expect(remaining.map((t) => t.simplyId).sort()).toEqual([expiredLastWeek, live].sort());
    expect(await prisma.refreshToken.findUnique({ where: { id: oldRefresh.id } })).toBeNull();
    expect(await prisma.refreshToken.findUnique({ where: { id: freshRefresh.id } })).not.toBeNull();

    // inspection still answers for the recently expired token, and 404s for the purged one
    const recent = await server.request('GET', `/v1/session-tokens/${expiredLastWeek}`, { token: team.apiKey });
    expect(recent.status).toBe(200);
    expect(recent.body.data.expired).toBe(true);
    expect((await server.request('GET', `/v1/session-tokens/${expiredLongAgo}`, { token: team.apiKey })).status).toBe(404);
  });
});

describe('separate worker process', () => {
  const { server } = useServer({ runJobs: false });
  let worker: Services | undefined;
  afterAll(async () => {
    if (worker) await closeServices(worker);
  });

  it('a worker built with createServices + jobs.start({ work: true }) runs a job the server sends', async () => {
    expect(server.app.services.jobs.isWorking).toBe(false);
    const config = loadConfig({ NODE_ENV: 'test' }, { DATA_DIR: path.join(inject('testDataDir'), `worker-${randomBytes(4).toString('hex')}`), LOG_LEVEL: 'silent', SHUTDOWN_TIMEOUT_MS: 2000 });
    worker = await createServices({ config, databaseUrl: inject('databaseUrl'), migrate: false, logger, jobPollingIntervalSeconds: 0.5 });
    // a queue of this test alone, so only this worker can be the one that ran the job
    const queue = `test.worker.${randomBytes(4).toString('hex')}`;
    const received: Job<{ sentBy: string }>[] = [];
    worker.jobs.define<{ sentBy: string }>({ name: queue, handler: async (batch) => void received.push(...batch) });
    await worker.jobs.start({ work: true });
    expect(worker.jobs.isWorking).toBe(true);

    const id = await server.app.services.jobs.send(queue, { sentBy: server.baseUrl });
    await until('the worker to run the job', () => received.length > 0);
    expect(received.map((j) => [j.id, j.data])).toEqual([[id, { sentBy: server.baseUrl }]]);
    await until('the job to be completed', async () => (await jobState(server.app.services.jobs.boss, queue, id!)) === 'completed');
    // the server process itself runs no handler: its pg-boss only sends
    expect(server.app.services.jobs.isWorking).toBe(false);
  });
});

describe('at-least-once delivery', () => {
  const { server } = useServer({ runJobs: false });
  const cleanups: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  });

  it('a job whose worker process dies mid-handler is run again by another worker after it expires', async () => {
    const databaseUrl = inject('databaseUrl');
    const boss = server.app.services.jobs.boss;
    const queue = `test.crash.${randomBytes(4).toString('hex')}`;
    await boss.createQueue(queue, { retryLimit: 3 });

    // Worker 1: another process whose handler never finishes; it will be killed with SIGKILL.
    const jobsModule = new URL('../../src/app/jobs.ts', import.meta.url).href;
    const loggerModule = new URL('../../src/app/logger.ts', import.meta.url).href;
    const script = `
      import { Jobs } from ${JSON.stringify(jobsModule)};
      import { createLogger } from ${JSON.stringify(loggerModule)};
      const jobs = new Jobs(process.env.DATABASE_URL, createLogger('silent'), { pollingIntervalSeconds: 0.5 });
      jobs.define({ name: process.env.QUEUE, handler: async (batch) => {
        for (const job of batch) process.stdout.write('claimed ' + job.id + '\\n');
        await new Promise(() => {});
      } });
      jobs.bindServices({}); // a bare queue worker: its handler uses no services
      await jobs.start({ work: true });
      process.stdout.write('working\\n');
    `;
    const worker1 = await startWorkerProcess(script, { DATABASE_URL: databaseUrl, QUEUE: queue }, cleanups);
    const { child, exited } = worker1;

    // a short expiry so the test need not wait pg-boss's default 15 minutes
    const id = (await boss.send(queue, { attempt: 'first' }, { expireInSeconds: 2, retryBackoff: false, retryDelay: 0 }))!;
    await until('worker 1 to claim the job', () => worker1.stdout().includes(`claimed ${id}`));
    expect(await jobState(boss, queue, id)).toBe('active');

    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    expect(await jobState(boss, queue, id)).toBe('active'); // nobody settled it

    // Worker 2, in this process, with the product's Jobs class.
    const received: Job<{ attempt: string }>[] = [];
    const worker2 = new Jobs(databaseUrl, logger, { pollingIntervalSeconds: 0.5 });
    worker2.define<{ attempt: string }>({ name: queue, handler: async (batch) => void received.push(...batch) });
    worker2.bindServices(server.app.services);
    await worker2.start({ work: true });
    cleanups.push(() => worker2.stop(1000));
    // pg-boss's supervisor fails expired active jobs back to retry; each instance runs it every
    // 60 s by default, this one every second so the test is quick
    const supervisor = new PgBoss({ connectionString: databaseUrl, schema: 'pgboss', superviseIntervalSeconds: 1, monitorIntervalSeconds: 1, schedule: false, max: 2 });
    supervisor.on('error', () => {});
    await supervisor.start();
    cleanups.push(() => supervisor.stop({ graceful: false, close: true }));

    await until('worker 2 to run the job again', () => received.length > 0, 15_000);
    expect(received.map((j) => j.id)).toEqual([id]);
    expect(received[0]!.data).toEqual({ attempt: 'first' });
    await until('the job to be completed', async () => (await jobState(boss, queue, id)) === 'completed');
    const settled = await boss.getJobById(queue, id);
    expect(settled!.retryCount).toBe(1);
  });
});

describe('draining a queue', () => {
  const { server } = useServer({ runJobs: false });
  const cleanups: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  });

  it('JOB_CONCURRENCY is read as queue → slots and refused when malformed', () => {
    expect(loadConfig({ JOB_CONCURRENCY: 'webhooks.deliver=32, mail.send=8' }).JOB_CONCURRENCY).toEqual({ 'webhooks.deliver': 32, 'mail.send': 8 });
    expect(loadConfig({}).JOB_CONCURRENCY).toEqual({});
    for (const bad of ['webhooks.deliver', 'mail.send=0', 'a=1;b=2']) expect(() => loadConfig({ JOB_CONCURRENCY: bad })).toThrow(/JOB_CONCURRENCY/);
  });

  it('new jobs wake idle slots and a slot that handled a job fetches again at once, without waiting for polls', async () => {
    const queue = `test.drain.${randomBytes(4).toString('hex')}`;
    const handled: number[] = [];
    // a 30 s poll: draining 40 jobs one poll at a time would take minutes
    const jobs = new Jobs(inject('databaseUrl'), logger, { pollingIntervalSeconds: 30, concurrency: { [queue]: 2 } });
    jobs.define<{ n: number }>({ name: queue, handler: async (batch) => void handled.push(...batch.map((j) => j.data.n)) });
    jobs.bindServices(server.app.services);
    await jobs.start({ work: true });
    cleanups.push(() => jobs.stop(1000));
    expect(jobs.concurrencyOf({ name: queue })).toBe(2);

    // one insert, so one wake-up: the rest is fetched because each slot fetches again after a job
    await jobs.boss.insert(queue, Array.from({ length: 40 }, (_, n) => ({ data: { n } })));
    await until('every job to be handled', () => handled.length === 40, 10_000);
    expect([...handled].sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, n) => n));
  });

  it('jobs that come due later are found by one backstop poll and spread over every slot at once', async () => {
    const queue = `test.due.${randomBytes(4).toString('hex')}`;
    let running = 0;
    let together = 0;
    // only the first slot polls every second; the others would wait a minute for their own poll
    const jobs = new Jobs(inject('databaseUrl'), logger, { pollingIntervalSeconds: 0.5, backstopPollSeconds: 1, concurrency: { [queue]: 3 } });
    jobs.define({ name: queue, handler: async () => {
      together = Math.max(together, ++running);
      // each job runs until all three run side by side (or gives up after 15 s)
      await until('three jobs at once', () => together === 3, 15_000).catch(() => {});
      running--;
    } });
    jobs.bindServices(server.app.services);
    await jobs.start({ work: true });
    cleanups.push(() => jobs.stop(1000));

    // sent with a delay: the NOTIFY of the send finds nothing due, so only a poll sees them
    for (let n = 0; n < 3; n++) await jobs.send(queue, { n }, { startAfter: 2 });
    const sent = performance.now();
    await until('the three due jobs to run at once', () => together === 3, 15_000);
    expect(performance.now() - sent).toBeLessThan(10_000);
  });
});

describe('stopping', () => {
  const { server } = useServer({ runJobs: false });

  /** a bare queue worker on a queue of this test's own, whose handler runs for handlerMs; resolves once it runs */
  async function workerWith(handlerMs: number) {
    const jobs = new Jobs(inject('databaseUrl'), logger, { pollingIntervalSeconds: 0.5 });
    const queue = `test.stop.${randomBytes(4).toString('hex')}`;
    let started = false;
    jobs.define({ name: queue, handler: async () => {
      started = true;
      await new Promise((r) => setTimeout(r, handlerMs));
    } });
    jobs.bindServices({} as Services);
    await jobs.start({ work: true });
    const id = (await server.app.services.jobs.send(queue, {}))!;
    await until('the handler to start', () => started);
    return { jobs, queue, id };
  }

  it('lets the running handler finish: its job completed', async () => {
    const { jobs, queue, id } = await workerWith(300);
    await jobs.stop(5000);
    expect(await jobState(server.app.services.jobs.boss, queue, id)).toBe('completed');
  });

  it('hands a handler still running at the deadline back to its queue', async () => {
    const { jobs, queue, id } = await workerWith(20_000);
    const stopping = performance.now();
    await jobs.stop(300);
    // at the deadline, not at the handler's end
    expect(performance.now() - stopping).toBeLessThan(15_000);
    // failed once by the shutdown: back in the queue for a retry
    expect(await jobState(server.app.services.jobs.boss, queue, id)).toBe('retry');
  });
});
