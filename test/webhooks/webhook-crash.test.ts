// At least once (Document 1 §6 rule 6): a worker process killed (SIGKILL) while its delivery is in
// flight (the receiver stalls) leaves the job claimed; pg-boss notices the missing heartbeat, and
// a worker started afterwards delivers the same signed body within 30 s of the kill (the job's
// 10 s heartbeat, a supervisor pass every 5 s, a 2 s crash-retry delay). The killed attempt has
// no outcome, so it is not logged and does not count against retryCount.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { DELIVER_WEBHOOK } from '../../src/modules/webhooks/delivery-job.ts';
import { createCollection } from '../support/data-fixtures.ts';
import { expectOk } from '../support/expect-envelope.ts';
import { createTeam } from '../support/fixtures.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { untilWith } from '../support/until.ts';
import { startWorkerProcess } from '../support/worker-process.ts';
import { type Receiver, startWebhookBed, type WebhookBed } from '../support/webhook-receiver.ts';

const until = untilWith({ timeoutMs: 20_000, everyMs: 100 });
const cleanups: (() => Promise<unknown>)[] = [];
let bed: WebhookBed;
let receiver: Receiver;

beforeAll(async () => {
  bed = await startWebhookBed('webhook_crash');
  receiver = bed.receiver;
});
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  await bed?.close();
});

it('a delivery whose worker dies mid-request is delivered after restart', { timeout: 90_000 }, async () => {
  // one data folder for every instance: they share the secrets key the signing secret is sealed with
  const dataDir = path.join(inject('testDataDir'), `webhook-crash-${randomBytes(4).toString('hex')}`);
  const { env, db } = bed;
  // the API server runs no workers: only the child dispatches and delivers at first
  const server: TestServer = await startTestServer({ databaseUrl: db.url, runJobs: false, dataDir, env });
  cleanups.push(() => server.close());
  const team = await createTeam(server);
  const people = await createCollection(server, team, { name: 'People', formula: '{name}', fields: { name: 'PLAIN_TEXT' } });
  const hookPath = `/hooks/crash-${randomBytes(3).toString('hex')}`;
  const hook = expectOk(
    await server.request('POST', '/v1/webhooks', { token: team.apiKey, body: { eventType: 'DATA_RECORD_CREATED', targetUrl: `${receiver.origin}${hookPath}`, retryCount: 0 } }),
    201,
  );
  receiver.secret(hookPath, hook.secret);
  // the first request stalls for good (the worker will die holding it); later ones succeed
  receiver.reply(hookPath, (n) => (n === 1 ? { stall: true } : { status: 200, body: 'got it' }));

  const script = `
    import { loadConfig } from ${JSON.stringify(new URL('../../src/main/config.ts', import.meta.url).href)};
    import { createServices } from ${JSON.stringify(new URL('../../src/main/services.ts', import.meta.url).href)};
    import { createLogger } from ${JSON.stringify(new URL('../../src/app/logger.ts', import.meta.url).href)};
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: process.env.DATA_DIR, WEBHOOK_ALLOW_LOOPBACK: 'true', WEBHOOK_CA_FILE: process.env.CA_FILE, LOG_LEVEL: 'silent' });
    const services = await createServices({ config, databaseUrl: process.env.DATABASE_URL, migrate: false, logger: createLogger('silent'), jobPollingIntervalSeconds: 0.5 });
    await services.jobs.start({ work: true });
    process.stdout.write('working\\n');
  `;
  const { child, exited } = await startWorkerProcess(script, { DATABASE_URL: db.url, DATA_DIR: dataDir, CA_FILE: receiver.certFile }, cleanups);

  const field = people.fields.name!;
  const record = expectOk(await server.request('POST', '/v1/data-records', { token: team.apiKey, body: { dataCollectionSimplyId: people.id, fields: { [field]: 'Ada' } } }), 201);
  await until('the stalled first request', () => receiver.on(hookPath).length === 1);
  child.kill('SIGKILL');
  const killedAt = Date.now();
  expect(await exited).toBe('SIGKILL');

  const delivery = await server.app.services.prisma.webhookDelivery.findFirstOrThrow({ where: { teamId: team.teamId } });
  expect(delivery).toMatchObject({ deliveryStatus: 'PENDING', attemptCount: 0 });
  const job = await server.app.services.pool.query(`SELECT id, state FROM pgboss.job WHERE name = $1 AND data->>'deliveryId' = $2`, [DELIVER_WEBHOOK, String(delivery.id)]);
  expect(job.rows).toEqual([{ id: expect.any(String), state: 'active' }]); // nobody settled it

  // the restart: a server instance with workers; its own supervisor (every 5 s) notices the dead
  // worker's missing heartbeat
  const restarted = await startTestServer({ databaseUrl: db.url, runJobs: true, dataDir, env });
  cleanups.push(() => restarted.close());

  await until('the redelivery', () => receiver.on(hookPath).length === 2, 40_000);
  expect(receiver.on(hookPath)[1]!.receivedAt - killedAt).toBeLessThanOrEqual(30_000);
  const [first, second] = receiver.on(hookPath);
  expect(second!.rawBody).toBe(first!.rawBody);
  expect(second!.headers['x-service-event-id']).toBe(first!.headers['x-service-event-id']);
  expect(second!.signatureValid).toBe(true);
  expect(second!.body.data.id).toBe(record.id);

  const entry = await until('the delivery to be logged', async () => {
    const list = expectOk(await server.request('GET', `/v1/webhooks/${hook.id}/deliveries`, { token: team.apiKey }));
    return list[0]?.deliveryStatus === 'SUCCEEDED' && list[0];
  });
  expect(entry).toMatchObject({ attemptNumber: 1, responseStatus: 200, responseBody: 'got it' });
  expect(entry.attempts).toHaveLength(1);
  const settled = await server.app.services.jobs.boss.getJobById(DELIVER_WEBHOOK, job.rows[0].id);
  expect(settled).toMatchObject({ state: 'completed', retryCount: 1 });
});
