// Deliveries end to end (Document 1 §6): record writes → outbox → one delivery per matching
// subscription → signed HTTPS POSTs to a real receiver (self-signed, trusted via WEBHOOK_CA_FILE,
// loopback allowed by WEBHOOK_ALLOW_LOOPBACK), retries on the subscription's schedule, the
// delivery log and counters, the delivery-time address check, and the webhookDeliveryAttempts
// subscription over a real graphql-ws client. A database of this file's own (see support.ts).
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookFanOut } from '../../src/modules/webhooks/webhook-fanout.ts';
import { sendWebhook } from '../../src/modules/webhooks/webhook-sender.ts';
import { createCollection, type CollectionFixture, createLabelCollection } from '../support/data-fixtures.ts';
import { expectOk } from '../support/expect-envelope.ts';
import { createApiKey, createTeam, type TeamFixture } from '../support/fixtures.ts';
import { serverGraphqlWsClient } from '../support/realtime.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { untilWith } from '../support/until.ts';
import { type Receiver, startWebhookBed, type WebhookBed } from '../support/webhook-receiver.ts';
import { inTransaction } from '../../src/app/transaction.ts';

const until = untilWith({ timeoutMs: 15_000, everyMs: 50 });
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

let bed: WebhookBed;
let receiver: Receiver;
let server: TestServer;

beforeAll(async () => {
  bed = await startWebhookBed('webhooks');
  receiver = bed.receiver;
  // retries come due after their delay: a 1 s backstop poll picks them up (5 s by default)
  server = await startTestServer({ databaseUrl: bed.db.url, runJobs: true, env: bed.env, jobBackstopPollSeconds: 1 });
});
afterAll(async () => {
  await server?.close();
  await bed?.close();
});

interface Scenario {
  team: TeamFixture;
  people: CollectionFixture;
  places: CollectionFixture;
}

/** A team of its own with two collections, so no other test's subscriptions hear its events. */
async function scenario(): Promise<Scenario> {
  const team = await createTeam(server);
  const people = await createCollection(server, team, { name: 'People', formula: '{name}', fields: { name: 'PLAIN_TEXT' } });
  const places = await createLabelCollection(server, team, 'Places', '{label}');
  return { team, people, places };
}

/** Subscribes `path` on the receiver; the receiver then verifies signatures there with the secret. */
async function subscribe(s: Scenario, body: Record<string, unknown>): Promise<{ id: string; path: string; secret: string }> {
  const p = `/hooks/${randomBytes(4).toString('hex')}`;
  const created = expectOk(await server.request('POST', '/v1/webhooks', { token: s.team.apiKey, body: { eventType: 'DATA_RECORD_CREATED', targetUrl: `${receiver.origin}${p}`, ...body } }), 201);
  receiver.secret(p, created.secret);
  return { id: created.id, path: p, secret: created.secret };
}

async function createRecord(s: Scenario, collection: CollectionFixture, value: string) {
  const field = Object.values(collection.fields)[0]!;
  return expectOk(await server.request('POST', '/v1/data-records', { token: s.team.apiKey, body: { dataCollectionSimplyId: collection.id, fields: { [field]: value } } }), 201);
}

const deliveries = async (s: Scenario, webhookId: string, query = '') => {
  const response = await server.request('GET', `/v1/webhooks/${webhookId}/deliveries${query}`, { token: s.team.apiKey });
  return { list: expectOk(response) as any[], pagination: response.body.meta.pagination };
};
const webhook = async (s: Scenario, webhookId: string) => expectOk(await server.request('GET', `/v1/webhooks/${webhookId}`, { token: s.team.apiKey }));
const settled = (s: Scenario, webhookId: string, count = 1) =>
  until(`${count} finished deliveries`, async () => {
    const { list } = await deliveries(s, webhookId);
    return list.length >= count && list.every((d) => d.deliveryStatus === 'SUCCEEDED' || d.deliveryStatus === 'FAILED') && list;
  });

describe('a delivery', () => {
  it('POSTs the signed body with the documented headers, once, and logs the attempt', async () => {
    const s = await scenario();
    const hook = await subscribe(s, {});
    receiver.reply(hook.path, { status: 204, body: '' });
    const record = await createRecord(s, s.people, 'Ada');
    const [entry] = await settled(s, hook.id);
    const [got, ...more] = receiver.on(hook.path);
    expect(more).toEqual([]);
    expect(got!.signatureValid).toBe(true);
    expect(got!.headers['content-type']).toBe('application/json');
    expect(got!.headers['x-service-event-type']).toBe('DATA_RECORD_CREATED');
    expect(got!.headers['x-service-event-id']).toMatch(/^[0-9a-z]{14}$/);
    expect(got!.headers['x-service-timestamp']).toMatch(ISO);
    expect(got!.headers['x-svc-signature']).toMatch(/^[0-9a-f]{64}$/);
    expect(Object.keys(got!.body)).toEqual(['eventType', 'data', 'eventId']);
    expect(got!.body).toEqual({
      eventType: 'DATA_RECORD_CREATED',
      eventId: got!.headers['x-service-event-id'],
      data: expect.objectContaining({ id: record.id, dataRecordSimplyId: record.id, dataCollectionSimplyId: s.people.id, name: 'Ada', fields: record.fields }),
    });

    expect(entry).toMatchObject({
      eventId: got!.body.eventId,
      eventType: 'DATA_RECORD_CREATED',
      deliveryStatus: 'SUCCEEDED',
      attemptNumber: 1,
      responseStatus: 204,
      responseBody: '',
      errorMessage: null,
      nextAttemptAt: null,
    });
    expect(entry.id).toMatch(/^dlv-/);
    expect(entry.responseTimeMs).toEqual(expect.any(Number));
    for (const key of ['eventOccurredAt', 'createdAt', 'lastAttemptAt', 'completedAt']) expect(entry[key]).toMatch(ISO);
    expect(entry.attempts).toEqual([expect.objectContaining({ attemptNumber: 1, success: true, responseStatus: 204, errorMessage: null })]);
    expect(await webhook(s, hook.id)).toMatchObject({ totalDeliveries: 1, successfulDeliveries: 1, failedDeliveries: 0, lastDeliveryStatus: 'SUCCEEDED', lastDeliveryAt: expect.stringMatching(ISO) });
  });

  it('retries failures on the subscription schedule with the same body, event id and signature', async () => {
    const s = await scenario();
    const hook = await subscribe(s, { retryCount: 3, retryDelaySeconds: 1 });
    receiver.reply(hook.path, (n) => (n < 3 ? { status: 500, body: `down ${n}` } : { status: 200, body: 'finally' }));
    await createRecord(s, s.people, 'Grace');
    const [entry] = await settled(s, hook.id);
    const got = receiver.on(hook.path);
    expect(got).toHaveLength(3);
    expect(new Set(got.map((g) => g.rawBody)).size).toBe(1);
    expect(new Set(got.map((g) => g.headers['x-service-event-id'])).size).toBe(1);
    expect(new Set(got.map((g) => g.headers['x-svc-signature'])).size).toBe(1);
    expect(got.every((g) => g.signatureValid)).toBe(true);
    // about retryDelaySeconds apart
    expect(got[1]!.receivedAt - got[0]!.receivedAt).toBeGreaterThanOrEqual(900);
    expect(got[2]!.receivedAt - got[1]!.receivedAt).toBeGreaterThanOrEqual(900);
    expect(entry).toMatchObject({ deliveryStatus: 'SUCCEEDED', attemptNumber: 3, responseStatus: 200, responseBody: 'finally', errorMessage: null });
    expect(entry.attempts.map((a: any) => [a.attemptNumber, a.success, a.responseStatus, a.responseBody, a.errorMessage])).toEqual([
      [1, false, 500, 'down 1', 'HTTP 500'],
      [2, false, 500, 'down 2', 'HTTP 500'],
      [3, true, 200, 'finally', null],
    ]);
    expect(await webhook(s, hook.id)).toMatchObject({ totalDeliveries: 1, successfulDeliveries: 1, failedDeliveries: 0, lastDeliveryStatus: 'SUCCEEDED' });
  });

  it('fails for good after retryCount retries; response bodies are kept to 4 096 characters', async () => {
    const s = await scenario();
    const hook = await subscribe(s, { retryCount: 1, retryDelaySeconds: 1 });
    receiver.reply(hook.path, { status: 503, body: 'é'.repeat(10_000) });
    await createRecord(s, s.people, 'Linus');
    // while retrying, the log says so and names the next attempt
    const retrying = await until('the first failure', async () => (await deliveries(s, hook.id)).list.find((d) => d.deliveryStatus === 'RETRYING'));
    expect(retrying).toMatchObject({ attemptNumber: 1, responseStatus: 503, completedAt: null });
    expect(retrying.nextAttemptAt).toMatch(ISO);
    const [entry] = await settled(s, hook.id);
    expect(receiver.on(hook.path)).toHaveLength(2);
    expect(entry).toMatchObject({ deliveryStatus: 'FAILED', attemptNumber: 2, responseStatus: 503, errorMessage: 'HTTP 503', nextAttemptAt: null });
    expect(entry.responseBody).toBe('é'.repeat(4096));
    expect(entry.attempts.map((a: any) => a.responseBody.length)).toEqual([4096, 4096]);
    expect(await webhook(s, hook.id)).toMatchObject({ totalDeliveries: 1, successfulDeliveries: 0, failedDeliveries: 1, lastDeliveryStatus: 'FAILED' });
  });

  it('never follows a redirect: a 3xx is a failure', async () => {
    const s = await scenario();
    const hook = await subscribe(s, { retryCount: 0 });
    const elsewhere = `/hooks/elsewhere-${randomBytes(3).toString('hex')}`;
    receiver.reply(hook.path, { status: 307, headers: { location: `${receiver.origin}${elsewhere}` }, body: 'moved' });
    await createRecord(s, s.people, 'Moved');
    const [entry] = await settled(s, hook.id);
    expect(entry).toMatchObject({ deliveryStatus: 'FAILED', attemptNumber: 1, responseStatus: 307, errorMessage: 'redirect (307) not followed' });
    expect(receiver.on(elsewhere)).toEqual([]);
  });

  it('a receiver slower than timeoutSeconds is a failed attempt', async () => {
    const s = await scenario();
    const hook = await subscribe(s, { retryCount: 0, timeoutSeconds: 1 });
    receiver.reply(hook.path, { status: 200, delayMs: 2500 });
    await createRecord(s, s.people, 'Slow');
    const [entry] = await settled(s, hook.id);
    expect(entry).toMatchObject({ deliveryStatus: 'FAILED', attemptNumber: 1, responseStatus: null, errorMessage: 'timed out after 1 s' });
    expect(entry.responseTimeMs).toBeGreaterThanOrEqual(900);
  });

  it('a target that is no longer public at delivery time is refused without a connection, and logged', async () => {
    const s = await scenario();
    const hook = await subscribe(s, { retryCount: 0 });
    // as if its DNS had changed since creation: the stored URL now points at a private address
    await server.app.services.prisma.webhookSubscription.update({ where: { teamId_simplyId: { teamId: s.team.teamId, simplyId: hook.id } }, data: { targetUrl: 'https://10.255.255.1/hook' } });
    await createRecord(s, s.people, 'Refused');
    const [entry] = await settled(s, hook.id);
    expect(entry).toMatchObject({ deliveryStatus: 'FAILED', responseStatus: null, errorMessage: 'refused target: address 10.255.255.1 is not a public address (private)' });
    expect(receiver.on(hook.path)).toEqual([]);
  });
});

describe('which events become deliveries', () => {
  it('event type and filterCriteria decide; one delivery per event and subscription', async () => {
    const s = await scenario();
    const all = await subscribe(s, {});
    const placesOnly = await subscribe(s, { filterCriteria: { dataCollectionIds: [s.places.id] } });
    const deletes = await subscribe(s, { eventType: 'DATA_RECORD_DELETED', filterCriteria: { dataCollectionIds: [s.people.id] } });
    const updates = await subscribe(s, { eventType: 'DATA_RECORD_UPDATED' });
    const person = await createRecord(s, s.people, 'P1');
    const place = await createRecord(s, s.places, 'L1');
    const field = Object.values(s.people.fields)[0]!;
    expectOk(await server.request('PATCH', `/v1/data-records/${person.id}`, { token: s.team.apiKey, body: { fields: { [field]: 'P1b' } } }));
    expectOk(await server.request('DELETE', `/v1/data-records/${person.id}`, { token: s.team.apiKey }));
    await settled(s, all.id, 2);
    await settled(s, deletes.id, 1);
    await settled(s, updates.id, 1);
    await settled(s, placesOnly.id, 1);
    const ids = (p: string) => receiver.on(p).map((r) => [r.body.eventType, r.body.data.id]);
    expect(ids(all.path).sort()).toEqual([['DATA_RECORD_CREATED', person.id], ['DATA_RECORD_CREATED', place.id]].sort());
    expect(ids(placesOnly.path)).toEqual([['DATA_RECORD_CREATED', place.id]]);
    expect(ids(deletes.path)).toEqual([['DATA_RECORD_DELETED', person.id]]);
    expect(ids(updates.path)).toEqual([['DATA_RECORD_UPDATED', person.id]]);
    expect(receiver.on(updates.path)[0]!.body.data).toMatchObject({ changedFieldSimplyIds: [field], name: 'P1b' });
  });

  it('DATA_RECORDS_BULK_SYNCED: one delivery per batch; a filtered subscription sees only its records of a cross-collection batch', async () => {
    const s = await scenario();
    const bulk = await subscribe(s, { eventType: 'DATA_RECORDS_BULK_SYNCED' });
    const peopleBulk = await subscribe(s, { eventType: 'DATA_RECORDS_BULK_SYNCED', filterCriteria: { dataCollectionIds: [s.people.id] } });
    const [pf, lf] = [Object.values(s.people.fields)[0]!, Object.values(s.places.fields)[0]!];
    const batch = expectOk(
      await server.request('POST', '/v1/data-records/batch', { token: s.team.apiKey, body: { dataCollectionSimplyId: s.people.id, records: [1, 2, 3].map((i) => ({ fields: { [pf]: `B${i}` } })) } }),
    );
    const created = batch.results.map((r: any) => r.dataRecordSimplyId);
    const place = await createRecord(s, s.places, 'L');
    await settled(s, bulk.id, 1);
    await settled(s, peopleBulk.id, 1);
    const update = expectOk(
      await server.request('PATCH', '/v1/data-records/batch', {
        token: s.team.apiKey,
        body: { records: [{ dataRecordSimplyId: created[0], fields: { [pf]: 'B1x' } }, { dataRecordSimplyId: place.id, fields: { [lf]: 'Lx' } }] },
      }),
    );
    expect(update.updated).toBe(2);
    await settled(s, bulk.id, 2);
    await settled(s, peopleBulk.id, 2);
    const all = receiver.on(bulk.path).map((r) => r.body);
    expect(all).toHaveLength(2);
    expect(all[0]).toMatchObject({ eventType: 'DATA_RECORDS_BULK_SYNCED', data: { operation: 'CREATE', dataCollectionSimplyId: s.people.id, succeeded: 3, failed: 0 } });
    expect([...all[0].data.dataRecordSimplyIds].sort()).toEqual([...created].sort());
    expect(all[1].data).toMatchObject({ operation: 'UPDATE', dataCollectionSimplyId: null, succeeded: 2 });
    expect([...all[1].data.dataRecordSimplyIds].sort()).toEqual([created[0], place.id].sort());
    const filtered = receiver.on(peopleBulk.path).map((r) => r.body);
    expect(filtered[1].data).toMatchObject({ operation: 'UPDATE', dataRecordSimplyIds: [created[0]] });
    expect(filtered.every((b, i) => b.eventId === all[i].eventId)).toBe(true);
    expect(receiver.on(peopleBulk.path).every((r) => r.signatureValid)).toBe(true);
  });

  it('paused or inactive subscriptions get nothing; events during the pause are not delivered later', async () => {
    const s = await scenario();
    const hook = await subscribe(s, {});
    const witness = await subscribe(s, {});
    expectOk(await server.request('PUT', `/v1/webhooks/${hook.id}`, { token: s.team.apiKey, body: { isPaused: true } }));
    const during = await createRecord(s, s.people, 'during pause');
    await settled(s, witness.id, 1);
    expectOk(await server.request('PUT', `/v1/webhooks/${hook.id}`, { token: s.team.apiKey, body: { isPaused: false, isActive: false } }));
    await createRecord(s, s.people, 'while inactive');
    await settled(s, witness.id, 2);
    expectOk(await server.request('PUT', `/v1/webhooks/${hook.id}`, { token: s.team.apiKey, body: { isActive: true } }));
    const after = await createRecord(s, s.people, 'after');
    await settled(s, witness.id, 3);
    await settled(s, hook.id, 1);
    expect(receiver.on(hook.path).map((r) => r.body.data.id)).toEqual([after.id]);
    expect(receiver.on(hook.path).map((r) => r.body.data.id)).not.toContain(during.id);
    expect((await webhook(s, hook.id)).totalDeliveries).toBe(1);
  });

  it('a delivery queued before a pause is not sent: it ends FAILED with the reason logged', async () => {
    const s = await scenario();
    const hook = await subscribe(s, { retryCount: 2, retryDelaySeconds: 2 });
    receiver.reply(hook.path, { status: 500 });
    await createRecord(s, s.people, 'then paused');
    await until('the first failure', async () => (await deliveries(s, hook.id)).list[0]?.deliveryStatus === 'RETRYING');
    expectOk(await server.request('PUT', `/v1/webhooks/${hook.id}`, { token: s.team.apiKey, body: { isPaused: true } }));
    const [entry] = await settled(s, hook.id);
    expect(receiver.on(hook.path)).toHaveLength(1);
    expect(entry).toMatchObject({ deliveryStatus: 'FAILED', attemptNumber: 2, responseStatus: null, errorMessage: 'not sent: the subscription is paused' });
  });

  it('dispatching the same event twice makes one delivery (and one job)', async () => {
    const s = await scenario();
    const hook = await subscribe(s, {});
    const subscription = await server.app.services.prisma.webhookSubscription.findUniqueOrThrow({ where: { teamId_simplyId: { teamId: s.team.teamId, simplyId: hook.id } } });
    // the consumer called directly, twice, with one event (as after a crash before the dispatched mark)
    const eventId = randomBytes(7).toString('hex');
    const event = {
      id: 0n,
      teamId: s.team.teamId,
      eventId,
      eventType: 'DATA_RECORD_CREATED',
      collectionId: s.people.internalId,
      payload: { eventType: 'DATA_RECORD_CREATED', eventId, occurredAt: new Date().toISOString(), data: { id: 'X', dataCollectionSimplyId: s.people.id }, actor: null },
      occurredAt: new Date(),
      trace: { traceparent: null, tracestate: null },
    };
    const consume = webhookFanOut(server.app.services);
    await inTransaction(server.app.services.pool, (c) => consume([event], c));
    await inTransaction(server.app.services.pool, (c) => consume([event], c));
    await settled(s, hook.id, 1);
    const { list } = await deliveries(s, hook.id);
    expect(list.map((d) => d.eventId)).toEqual([eventId]);
    const jobs = await server.app.services.pool.query(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'webhooks.deliver' AND data->>'deliveryId' = $1`, [
      String((await server.app.services.prisma.webhookDelivery.findFirstOrThrow({ where: { subscriptionId: subscription.id } })).id),
    ]);
    expect(jobs.rows[0].n).toBe(1);
    expect(receiver.on(hook.path)).toHaveLength(1);
    expect((await webhook(s, hook.id)).totalDeliveries).toBe(1);
  });

  it('the delivery log is newest first and pages', async () => {
    const s = await scenario();
    const hook = await subscribe(s, {});
    for (const name of ['first', 'second', 'third']) await createRecord(s, s.people, name);
    await settled(s, hook.id, 3);
    const byEvent = new Map(receiver.on(hook.path).map((r) => [r.body.eventId, r.body.data.name]));
    const { list, pagination } = await deliveries(s, hook.id, '?limit=2');
    expect(pagination).toEqual({ total: 3, limit: 2, offset: 0, hasMore: true });
    const rest = await deliveries(s, hook.id, '?limit=2&offset=2');
    expect(rest.pagination).toEqual({ total: 3, limit: 2, offset: 2, hasMore: false });
    expect([...list, ...rest.list].map((d) => byEvent.get(d.eventId))).toEqual(['third', 'second', 'first']);
  });
});

describe('sendWebhook (one attempt, no job)', () => {
  const base = { body: '{}', headers: { 'content-type': 'application/json' }, timeoutMs: 5000 };

  it('connects only to the addresses it checked: one resolution per attempt, pinned for the socket', async () => {
    const p = `/hooks/pinned-${randomBytes(3).toString('hex')}`;
    let lookups = 0;
    const lookup = async () => {
      lookups += 1;
      return [{ address: '127.0.0.1', family: 4 as const }];
    };
    const port = new URL(receiver.origin).port;
    const outcome = await sendWebhook({ ...base, targetUrl: `https://localhost:${port}${p}`, policy: { allowLoopback: true, lookup }, extraCa: (await import('node:fs')).readFileSync(receiver.certFile, 'utf8') });
    expect(outcome).toMatchObject({ success: true, responseStatus: 200, responseBody: 'ok', errorMessage: null });
    expect(lookups).toBe(1);
    expect(receiver.on(p)).toHaveLength(1);
  });

  it('refuses hostnames resolving to loopback without the opt-in, plain http always, and untrusted certificates', async () => {
    const port = new URL(receiver.origin).port;
    const p = `/hooks/refused-${randomBytes(3).toString('hex')}`;
    const refused = await sendWebhook({ ...base, targetUrl: `https://localhost:${port}${p}`, policy: { allowLoopback: false } });
    expect(refused).toMatchObject({ success: false, responseStatus: null, errorMessage: expect.stringMatching(/^refused target: host localhost resolves to (127\.0\.0\.1|::1), which is not a public address \(loopback\)$/) });
    const plain = await sendWebhook({ ...base, targetUrl: `http://127.0.0.1:${port}${p}`, policy: { allowLoopback: true } });
    expect(plain.errorMessage).toMatch(/^refused target: must use https/);
    const untrusted = await sendWebhook({ ...base, targetUrl: `${receiver.origin}${p}`, policy: { allowLoopback: true } });
    expect(untrusted).toMatchObject({ success: false, responseStatus: null });
    expect(untrusted.errorMessage).toMatch(/certificate/i);
    expect(receiver.on(p)).toEqual([]);
  });
});

describe('webhookDeliveryAttempts subscription', () => {
  it('streams each attempt of the team over graphql-ws; TEAM_SETTINGS view is needed', async () => {
    const s = await scenario();
    const hook = await subscribe(s, { retryCount: 1, retryDelaySeconds: 1 });
    const other = await subscribe(s, {});
    receiver.reply(hook.path, (n) => (n === 1 ? { status: 502 } : { status: 200 }));
    const seen: any[] = [];
    const client = serverGraphqlWsClient(server, { connectionParams: { authorization: `Bearer ${s.team.apiKey}` } });
    const stop = client.subscribe(
      { query: `subscription($id: String) { webhookDeliveryAttempts(webhookSimplyId: $id) { webhookSimplyId deliverySimplyId eventId eventType attemptNumber deliveryStatus success responseStatus responseTimeMs errorMessage attemptedAt } }`, variables: { id: hook.id } },
      { next: (r) => seen.push(r), error: (e) => seen.push({ error: e }), complete: () => {} },
    );
    const denied: any[] = [];
    const noSettings = (await createApiKey(server, s.team, { name: 'no settings', featurePermissions: [] })).key;
    const deniedClient = serverGraphqlWsClient(server, { connectionParams: { authorization: `Bearer ${noSettings}` } });
    deniedClient.subscribe({ query: 'subscription { webhookDeliveryAttempts { eventId } }' }, { next: (r) => denied.push(r), error: (e) => denied.push(e), complete: () => {} });
    try {
      // the protocol does not say when a subscription is live: write until the first attempt shows
      await until('the first attempt event', async () => {
        if (seen.length === 0) await createRecord(s, s.people, 'watched');
        return until('an event', () => seen.length > 0, 3000).catch(() => false);
      }, 20_000, 0);
      await until('the retry event', () => seen.some((r) => r.data?.webhookDeliveryAttempts?.deliveryStatus === 'SUCCEEDED'));
      const events = seen.map((r) => r.data.webhookDeliveryAttempts);
      const first = events.find((e) => e.attemptNumber === 1)!;
      expect(first).toMatchObject({ webhookSimplyId: hook.id, eventType: 'DATA_RECORD_CREATED', deliveryStatus: 'RETRYING', success: false, responseStatus: 502, errorMessage: 'HTTP 502' });
      expect(first.attemptedAt).toMatch(ISO);
      expect(first.deliverySimplyId).toMatch(/^dlv-/);
      const second = events.find((e) => e.eventId === first.eventId && e.attemptNumber === 2);
      expect(second).toMatchObject({ deliveryStatus: 'SUCCEEDED', success: true, responseStatus: 200, errorMessage: null });
      // filtered to one webhook: the other subscription's attempts are not streamed
      await settled(s, other.id, 1);
      expect(events.every((e) => e.webhookSimplyId === hook.id)).toBe(true);
      await until('the denial', () => denied.length > 0);
      expect(JSON.stringify(denied)).toMatch(/PERMISSION_DENIED/);
    } finally {
      stop();
      await client.dispose();
      await deniedClient.dispose();
    }
  });
});
