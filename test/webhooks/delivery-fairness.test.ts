// Fairness of the delivery queue (delivery-order.ts, docs/api/webhooks.md "Throughput and
// order"): one team's burst does not hold back another team's delivery until the burst is
// through, a receiver that stalls does not hold back a healthy one, and a target known to be slow
// has its jobs moved to the slow lane (slow-targets.ts). Real record writes,
// real HTTPS receivers, one instance with two delivery slots so the order is observable.
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { DELIVER_WEBHOOK, DELIVER_WEBHOOK_SLOW } from '../../src/modules/webhooks/delivery-job.ts';
import { FAIR_SHARE } from '../../src/modules/webhooks/delivery-order.ts';
import { SLOW_MS } from '../../src/modules/webhooks/slow-targets.ts';
import { createCollection, type CollectionFixture } from '../support/data-fixtures.ts';
import { expectOk } from '../support/expect-envelope.ts';
import { createTeam, type TeamFixture } from '../support/fixtures.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { untilWith } from '../support/until.ts';
import { type Receiver, startReceiver, startWebhookBed, type WebhookBed } from '../support/webhook-receiver.ts';

const until = untilWith({ timeoutMs: 60_000, everyMs: 50 });
let bed: WebhookBed;
let receiver: Receiver;
let stalling: Receiver;
let server: TestServer;

beforeAll(async () => {
  bed = await startWebhookBed('webhook_fairness');
  receiver = bed.receiver;
  // a second receiver, so the stalling target is another origin; the platform trusts both certificates
  stalling = await startReceiver(path.join(inject('testDataDir'), 'webhook_fairness-stalling'));
  const bothCas = path.join(path.dirname(receiver.certFile), `both-${randomBytes(3).toString('hex')}.pem`);
  fs.writeFileSync(bothCas, `${fs.readFileSync(receiver.certFile, 'utf8').trim()}\n${fs.readFileSync(stalling.certFile, 'utf8')}`);
  // two handler slots: two batches at a time, so the fetch order decides who is delivered first
  server = await startTestServer({ databaseUrl: bed.db.url, runJobs: true, env: { ...bed.env, WEBHOOK_CA_FILE: bothCas, JOB_CONCURRENCY: 'webhooks.deliver=2' as never } });
});
afterAll(async () => {
  await server?.close();
  await stalling?.close();
  await bed?.close();
});

async function teamWithHook(origin: string, body: Record<string, unknown> = {}): Promise<{ team: TeamFixture; people: CollectionFixture; hookPath: string; hookId: string }> {
  const team = await createTeam(server);
  const people = await createCollection(server, team, { name: 'People', formula: '{name}', fields: { name: 'PLAIN_TEXT' } });
  const hookPath = `/hooks/${randomBytes(4).toString('hex')}`;
  const hook = expectOk(await server.request('POST', '/v1/webhooks', { token: team.apiKey, body: { eventType: 'DATA_RECORD_CREATED', targetUrl: `${origin}${hookPath}`, ...body } }), 201);
  return { team, people, hookPath, hookId: hook.id };
}

async function writeRecords(t: { team: TeamFixture; people: CollectionFixture }, count: number): Promise<void> {
  const field = t.people.fields.name!;
  for (let i = 0; i < count; i += 100) {
    const records = Array.from({ length: Math.min(100, count - i) }, (_, j) => ({ fields: { [field]: `r${i + j}` } }));
    expectOk(await server.request('POST', '/v1/data-records/batch', { token: t.team.apiKey, body: { dataCollectionSimplyId: t.people.id, records } }));
  }
}

it("one team's burst does not hold back another team's delivery until the burst is through", { timeout: 120_000 }, async () => {
  const a = await teamWithHook(receiver.origin);
  const b = await teamWithHook(receiver.origin);
  // each of A's requests takes a while, so its burst takes many batches to get through
  receiver.reply(a.hookPath, { status: 200, delayMs: 100 });
  const burst = 600;
  await writeRecords(a, burst);
  await until("A's burst under way", () => receiver.on(a.hookPath).length > 0);
  const aAtWrite = receiver.on(a.hookPath).length;
  await writeRecords(b, 1);
  await until("B's delivery", () => receiver.on(b.hookPath).length === 1);
  const bArrived = receiver.on(b.hookPath)[0]!.receivedAt;
  const aBefore = receiver.on(a.hookPath).filter((r) => r.receivedAt <= bArrived).length;
  // first come first served would deliver all the rest of A's burst first; the fair order lets B in
  // after the batches in flight and a round or two of A's (plus what A got while B's write was
  // being dispatched)
  expect(aBefore - aAtWrite).toBeLessThan((burst - aAtWrite) / 2);
  expect(burst - aBefore).toBeGreaterThan(2 * FAIR_SHARE);
  await until("the rest of A's burst", () => receiver.on(a.hookPath).length >= burst);
  expect(receiver.on(a.hookPath)).toHaveLength(burst);
});

it('a receiver that stalls does not hold back a healthy one; both are delivered', { timeout: 120_000 }, async () => {
  const team = await createTeam(server);
  const people = await createCollection(server, team, { name: 'People', formula: '{name}', fields: { name: 'PLAIN_TEXT' } });
  const healthyPath = `/hooks/healthy-${randomBytes(3).toString('hex')}`;
  const slowPath = `/hooks/slow-${randomBytes(3).toString('hex')}`;
  const healthy = expectOk(await server.request('POST', '/v1/webhooks', { token: team.apiKey, body: { eventType: 'DATA_RECORD_CREATED', targetUrl: `${receiver.origin}${healthyPath}` } }), 201);
  const slow = expectOk(
    await server.request('POST', '/v1/webhooks', { token: team.apiKey, body: { eventType: 'DATA_RECORD_CREATED', targetUrl: `${stalling.origin}${slowPath}`, timeoutSeconds: 15, retryCount: 0 } }),
    201,
  );
  // the slow receiver answers only once the healthy deliveries are checked (inside its subscription's timeout)
  let release!: () => void;
  stalling.reply(slowPath, { status: 200, until: new Promise<void>((resolve) => (release = resolve)) });
  const events = 20;
  await writeRecords({ team, people }, events);
  // every healthy delivery is made and logged while the slow receiver still holds every request
  // of its own, though they share batches
  await until('the healthy deliveries', () => receiver.on(healthyPath).length === events);
  const logged = await until('the healthy deliveries logged', async () => {
    const list = expectOk(await server.request('GET', `/v1/webhooks/${healthy.id}/deliveries?limit=100`, { token: team.apiKey })) as any[];
    return list.length === events && list.every((d) => d.deliveryStatus === 'SUCCEEDED') && list;
  });
  expect(logged).toHaveLength(events);
  const slowLog = expectOk(await server.request('GET', `/v1/webhooks/${slow.id}/deliveries?limit=100`, { token: team.apiKey })) as any[];
  expect(slowLog.filter((d) => d.deliveryStatus === 'SUCCEEDED')).toHaveLength(0);
  // and the slow one gets all of its deliveries in the end
  release();
  await until('the slow deliveries', () => stalling.on(slowPath).length === events, 60_000);
  await until('the slow deliveries logged', async () => {
    const list = expectOk(await server.request('GET', `/v1/webhooks/${slow.id}/deliveries?limit=100`, { token: team.apiKey })) as any[];
    return list.length === events && list.every((d) => d.deliveryStatus === 'SUCCEEDED');
  });
});

it('a target whose attempts take over 2 s moves to the slow lane: its later jobs leave the main slots free', { timeout: 120_000 }, async () => {
  const team = await createTeam(server);
  const people = await createCollection(server, team, { name: 'People', formula: '{name}', fields: { name: 'PLAIN_TEXT' } });
  const healthyPath = `/hooks/healthy-${randomBytes(3).toString('hex')}`;
  const slowPath = `/hooks/slow-${randomBytes(3).toString('hex')}`;
  const body = (origin: string, hookPath: string) => ({ eventType: 'DATA_RECORD_CREATED', targetUrl: `${origin}${hookPath}`, timeoutSeconds: 15, retryCount: 0 });
  expectOk(await server.request('POST', '/v1/webhooks', { token: team.apiKey, body: body(receiver.origin, healthyPath) }), 201);
  const slow = expectOk(await server.request('POST', '/v1/webhooks', { token: team.apiKey, body: body(stalling.origin, slowPath) }), 201);
  stalling.reply(slowPath, { status: 200, delayMs: 5_000 });

  // the first delivery to the slow target is still running after SLOW_MS: the target is marked slow
  await writeRecords({ team, people }, 1);
  await until('the first slow request', () => stalling.on(slowPath).length === 1);
  await new Promise((resolve) => setTimeout(resolve, SLOW_MS + 500));

  // the next ones are moved to the slow lane without an attempt from the main lane's two slots
  const events = 30;
  await writeRecords({ team, people }, events);
  await until('the healthy deliveries', () => receiver.on(healthyPath).length === events + 1);
  const deliveries = await server.app.services.prisma.webhookDelivery.findMany({ where: { teamId: team.teamId, subscription: { simplyId: slow.id } }, select: { id: true } });
  expect(deliveries).toHaveLength(events + 1);
  // every later job is moved (on a loaded machine the last moves may come after the healthy deliveries)
  const lanesOf = async () =>
    (
      await server.app.services.pool.query<{ name: string; n: number }>(
        `SELECT name, count(DISTINCT data->>'deliveryId')::int AS n FROM pgboss.job WHERE data->>'deliveryId' = ANY($1::text[]) GROUP BY name ORDER BY name`,
        [deliveries.map((d) => String(d.id))],
      )
    ).rows;
  const expected = [
    { name: DELIVER_WEBHOOK, n: events + 1 },
    { name: DELIVER_WEBHOOK_SLOW, n: events },
  ];
  await until('the later jobs in the slow lane', async () => JSON.stringify(await lanesOf()) === JSON.stringify(expected), 30_000);
  // and the slow target still gets every delivery, once
  await until('the slow deliveries', () => stalling.on(slowPath).length === events + 1);
  await until('the slow deliveries logged', async () => {
    const list = expectOk(await server.request('GET', `/v1/webhooks/${slow.id}/deliveries?limit=100`, { token: team.apiKey })) as any[];
    return list.length === events + 1 && list.every((d) => d.deliveryStatus === 'SUCCEEDED' && d.attemptNumber === 1);
  });
});
