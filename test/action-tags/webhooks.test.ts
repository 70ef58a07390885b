// Action-tag lifecycle webhooks (/v1/action-tags/webhooks, GraphQL actionTagWebhooks…): the only
// place to subscribe to action-tag events, /v1/webhooks refusing and hiding them; the secret shown
// once; the band gate; the SSRF guard; and real signed deliveries to an HTTPS receiver for tag
// created, updated, status changed, deleted and scanned (in aggregate), with their delivery log.
// A database of this file's own (the outbox and the delivery queue are global to a database).
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setActionTagPlan } from '../../src/modules/action-tags/action-tag-plan.service.ts';
import { expectError, expectGqlError, expectOk, gqlData } from '../support/expect-envelope.ts';
import { createTeam, type TeamFixture } from '../support/fixtures.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { untilWith } from '../support/until.ts';
import { type Receiver, startWebhookBed, type WebhookBed } from '../support/webhook-receiver.ts';

const until = untilWith({ timeoutMs: 15_000, everyMs: 50 });
const PATH = '/v1/action-tags/webhooks';

let bed: WebhookBed;
let receiver: Receiver;
let server: TestServer;
let team: TeamFixture;
let other: TeamFixture;

beforeAll(async () => {
  bed = await startWebhookBed('action-tag-webhooks');
  receiver = bed.receiver;
  server = await startTestServer({ databaseUrl: bed.db.url, runJobs: true, env: bed.env, jobBackstopPollSeconds: 1 });
  [team, other] = await Promise.all([createTeam(server), createTeam(server)]);
});
afterAll(async () => {
  await server?.close();
  await bed?.close();
});

const call = (method: string, path: string, body?: unknown, token = team.apiKey) => server.request(method, path, { token, body });

/** Subscribes a fresh receiver path to `eventType`; the receiver then checks signatures there. */
async function subscribe(eventType: string, token = team.apiKey): Promise<{ id: string; path: string; secret: string }> {
  const p = `/tags/${randomBytes(4).toString('hex')}`;
  const created = expectOk(await call('POST', PATH, { eventType, targetUrl: `${receiver.origin}${p}`, retryDelaySeconds: 1 }, token), 201);
  receiver.secret(p, created.secret);
  return { id: created.id, path: p, secret: created.secret };
}

describe('the subscription surface', () => {
  it('creates with the secret once; reads, lists, updates and deletes without it', async () => {
    const targetUrl = `${receiver.origin}/tags/crud`;
    const created = expectOk(await call('POST', PATH, { eventType: 'ACTION_TAG_CREATED', targetUrl }), 201);
    expect(created).toMatchObject({ eventType: 'ACTION_TAG_CREATED', targetUrl, signatureHeader: 'X-SVC-Signature', isActive: true, isPaused: false, retryCount: 3, retryDelaySeconds: 60, timeoutSeconds: 30 });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const read = expectOk(await call('GET', `${PATH}/${created.id}`));
    expect(read).not.toHaveProperty('secret');
    expect(read.id).toBe(created.id);
    expect(expectOk(await call('GET', PATH)).map((w: { id: string }) => w.id)).toContain(created.id);
    expect(expectOk(await call('PUT', `${PATH}/${created.id}`, { isPaused: true, timeoutSeconds: 5 }))).toMatchObject({ isPaused: true, timeoutSeconds: 5, eventType: 'ACTION_TAG_CREATED' });
    expect(JSON.stringify(expectOk(await call('GET', `${PATH}/${created.id}`)))).not.toContain(created.secret);
    expect(expectOk(await call('DELETE', `${PATH}/${created.id}`))).toEqual({ id: created.id, deleted: true });
    expectError(await call('GET', `${PATH}/${created.id}`), 404, 'NOT_FOUND');
  });

  it('keeps the generic /v1/webhooks apart: it refuses action-tag events and neither surface sees the other’s subscriptions', async () => {
    const refused = expectError(await call('POST', '/v1/webhooks', { eventType: 'ACTION_TAG_CREATED', targetUrl: `${receiver.origin}/x` }), 400, 'VALIDATION_ERROR');
    expect(refused.details).toEqual([expect.objectContaining({ field: 'eventType', message: expect.stringContaining('/v1/action-tags/webhooks') })]);
    const tagHook = await subscribe('ACTION_TAG_DELETED');
    const recordHook = expectOk(await call('POST', '/v1/webhooks', { eventType: 'DATA_RECORD_CREATED', targetUrl: `${receiver.origin}/records` }), 201);
    expect(expectOk(await call('GET', '/v1/webhooks')).map((w: { id: string }) => w.id)).not.toContain(tagHook.id);
    expectError(await call('GET', `/v1/webhooks/${tagHook.id}`), 404, 'NOT_FOUND');
    expectError(await call('DELETE', `/v1/webhooks/${tagHook.id}`), 404, 'NOT_FOUND');
    expect(expectOk(await call('GET', PATH)).map((w: { id: string }) => w.id)).not.toContain(recordHook.id);
    expectError(await call('GET', `${PATH}/${recordHook.id}`), 404, 'NOT_FOUND');
    expectError(await call('PUT', `${PATH}/${recordHook.id}`, { isPaused: true }), 404, 'NOT_FOUND');
    // and another team's subscription is as unknown
    expectError(await call('GET', `${PATH}/${tagHook.id}`, undefined, other.apiKey), 404, 'NOT_FOUND');
    await call('DELETE', `${PATH}/${tagHook.id}`);
    await call('DELETE', `/v1/webhooks/${recordHook.id}`);
  });

  it('refuses bad input with 400 naming the field, and unsafe targets through the SSRF guard', async () => {
    const cases: [unknown, string][] = [
      [{ eventType: 'DATA_RECORD_CREATED', targetUrl: 'https://hooks.example.org/x' }, 'eventType'],
      [{ eventType: 'ACTION_TAG_CREATED' }, 'targetUrl'],
      [{ eventType: 'ACTION_TAG_CREATED', targetUrl: 'http://hooks.example.org/x' }, 'targetUrl'],
      [{ eventType: 'ACTION_TAG_CREATED', targetUrl: 'https://10.1.2.3/x' }, 'targetUrl'],
      [{ eventType: 'ACTION_TAG_CREATED', targetUrl: 'https://hooks.example.org/x', retryCount: 11 }, 'retryCount'],
      [{ eventType: 'ACTION_TAG_CREATED', targetUrl: 'https://hooks.example.org/x', filterCriteria: null }, 'filterCriteria'],
    ];
    for (const [body, field] of cases) {
      const error = expectError(await call('POST', PATH, body), 400, 'VALIDATION_ERROR', JSON.stringify(body));
      expect(error.details?.map((d) => d.field), JSON.stringify(body)).toContain(field);
    }
    expectError(await call('GET', `${PATH}/nope`), 400, 'VALIDATION_ERROR');
  });

  it('needs the 500 band', async () => {
    const small = await createTeam(server);
    await setActionTagPlan(server.app.services, small.teamSimplyId, { preset: 'standalone-100' }, null);
    expectError(await call('GET', PATH, undefined, small.apiKey), 403, 'ACTION_TAG_BAND_REQUIRED');
    // a signed-in Team Admin too: the band gates the feature, not only API-key use
    const asAdmin = await server.request('POST', PATH, { token: small.userToken, teamId: small.teamSimplyId, body: { eventType: 'ACTION_TAG_CREATED', targetUrl: `${receiver.origin}/x` } });
    expectError(asAdmin, 403, 'ACTION_TAG_BAND_REQUIRED');
  });

  it('has the same operations in GraphQL', async () => {
    const gql = (query: string, variables: Record<string, unknown> = {}) => server.graphql(query, variables, { token: team.apiKey });
    const created = gqlData(
      await gql('mutation($input: CreateActionTagWebhookInput!) { createActionTagWebhook(input: $input) { actionTagWebhookSimplyId eventType secret } }', {
        input: { eventType: 'ACTION_TAG_UPDATED', targetUrl: `${receiver.origin}/gql` },
      }),
    ).createActionTagWebhook;
    expect(created).toMatchObject({ eventType: 'ACTION_TAG_UPDATED', secret: expect.stringMatching(/^whsec_/) });
    const list = gqlData(await gql('{ actionTagWebhooks { nodes { actionTagWebhookSimplyId } pagination { total } } }')).actionTagWebhooks;
    expect(list.nodes.map((n: { actionTagWebhookSimplyId: string }) => n.actionTagWebhookSimplyId)).toContain(created.actionTagWebhookSimplyId);
    expectGqlError(await server.graphql('query($id: String!) { actionTagWebhook(actionTagWebhookSimplyId: $id) { eventType } }', { id: created.actionTagWebhookSimplyId }, { token: other.apiKey }), 'NOT_FOUND', 404);
    expect(gqlData(await gql('mutation($id: String!) { deleteActionTagWebhook(actionTagWebhookSimplyId: $id) }', { id: created.actionTagWebhookSimplyId })).deleteActionTagWebhook).toBe(true);
  });
});

describe('deliveries', () => {
  it('signs and delivers created, updated, status changed and deleted, each to its own subscription, and logs them', async () => {
    const hooks = Object.fromEntries(
      await Promise.all(['ACTION_TAG_CREATED', 'ACTION_TAG_UPDATED', 'ACTION_TAG_STATUS_CHANGED', 'ACTION_TAG_DELETED'].map(async (t) => [t, await subscribe(t)] as const)),
    );
    // another team's tag reaches none of them
    expectOk(await call('POST', '/v1/action-tags', { name: 'Theirs', actionUrl: 'https://example.org/theirs' }, other.apiKey), 201);
    const tag = expectOk(await call('POST', '/v1/action-tags', { name: 'Poster', actionUrl: 'https://example.org/a' }), 201);
    expectOk(await call('PUT', `/v1/action-tags/${tag.id}`, { name: 'Poster 2' }));
    expectOk(await call('PUT', `/v1/action-tags/${tag.id}`, { status: 'ACTIVE' }));
    expectOk(await call('DELETE', `/v1/action-tags/${tag.id}`));

    const seen = await until('the deliveries', () => {
      const got = Object.fromEntries(Object.entries(hooks).map(([t, h]) => [t, receiver.on(h.path)]));
      return got.ACTION_TAG_CREATED!.length >= 1 && got.ACTION_TAG_UPDATED!.length >= 2 && got.ACTION_TAG_STATUS_CHANGED!.length >= 1 && got.ACTION_TAG_DELETED!.length >= 1 && got;
    });
    for (const [eventType, received] of Object.entries(seen)) {
      for (const d of received) {
        expect(d.signatureValid, eventType).toBe(true);
        expect(d.headers['x-service-event-type']).toBe(eventType);
        expect(d.headers['x-service-event-id']).toBe(d.body.eventId);
        expect(d.body.eventId).toMatch(/^[0-9a-z]{14}$/);
        expect(d.body.eventType).toBe(eventType);
        expect(d.body.data.simplyActionTagSimplyId).toBe(tag.id);
      }
    }
    expect(seen.ACTION_TAG_CREATED![0]!.body.data).toMatchObject({ name: 'Poster', status: 'DRAFT', actionType: 'URL', actionUrl: 'https://example.org/a', publicUrl: tag.publicUrl });
    expect(seen.ACTION_TAG_UPDATED!.map((d) => d.body.data.changedFields).sort()).toEqual([['name'], ['status']]);
    expect(seen.ACTION_TAG_STATUS_CHANGED![0]!.body.data).toMatchObject({ previousStatus: 'DRAFT', status: 'ACTIVE' });
    expect(seen.ACTION_TAG_DELETED![0]!.body.data).toMatchObject({ name: 'Poster 2' });
    expect(Object.values(seen).flat()).toHaveLength(5);

    const log = await until('the delivery log', async () => {
      const list = expectOk(await call('GET', `${PATH}/${hooks.ACTION_TAG_CREATED!.id}/deliveries`));
      return list.length === 1 && list[0].deliveryStatus === 'SUCCEEDED' && list;
    });
    expect(log[0]).toMatchObject({ eventType: 'ACTION_TAG_CREATED', attemptNumber: 1, responseStatus: 200 });
    expect(log[0].attempts).toHaveLength(1);
  });

  it('announces scans in aggregate: one ACTION_TAG_SCANNED per tag per recorded batch', async () => {
    const hook = await subscribe('ACTION_TAG_SCANNED');
    const tag = expectOk(await call('POST', '/v1/action-tags', { name: 'Scanned', actionUrl: 'https://example.org/s', status: 'ACTIVE' }), 201);
    const path = new URL(tag.publicUrl).pathname;
    const browser = { 'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1' };
    for (const source of ['QR', 'NFC', 'LINK']) expect((await server.request('GET', `${path}?source=${source}`, { headers: browser, redirect: 'manual' })).status).toBe(302);
    await server.app.services.actionTagScans!.flush();
    await server.app.services.outbox.dispatchPending();
    const [delivery] = await until('the scanned event', () => receiver.on(hook.path).length > 0 && receiver.on(hook.path));
    expect(delivery!.signatureValid).toBe(true);
    expect(delivery!.body).toMatchObject({ eventType: 'ACTION_TAG_SCANNED', data: { simplyActionTagSimplyId: tag.id, scans: 3 } });
    expect(delivery!.body.data.interactions).toBeLessThanOrEqual(3);
    expect(Date.parse(delivery!.body.data.lastScannedAt)).not.toBeNaN();
    // nothing about the people who scanned
    expect(delivery!.rawBody).not.toMatch(/127\.0\.0\.1|::1|Mozilla/);
  });
});
