// Webhook subscriptions over REST (Document 1 §4.8) and GraphQL: create (secret once, stored
// sealed), list, get, update (pause, deactivate, re-point, re-filter), delete; input limits;
// TEAM_SETTINGS, tier and data permissions; other teams' ids are 404. Deliveries: webhook-delivery.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCollection, type CollectionFixture, createLabelCollection } from '../support/data-fixtures.ts';
import { expectError, expectGqlError, expectOk, gqlData } from '../support/expect-envelope.ts';
import { addMember, createApiKey, createRole, createTeam, startServerWithTeam, type TeamFixture } from '../support/fixtures.ts';
import type { TestServer } from '../support/server.ts';

let server: TestServer;
let team: TeamFixture;
let people: CollectionFixture;
let places: CollectionFixture;
const TARGET = 'https://127.0.0.1:9/hooks/in';

beforeAll(async () => {
  ({ server, team } = await startServerWithTeam({ env: { WEBHOOK_ALLOW_LOOPBACK: true } }));
  people = await createCollection(server, team, { name: 'People', fields: { name: 'PLAIN_TEXT' } });
  places = await createLabelCollection(server, team, 'Places');
});
afterAll(() => server?.close());

const call = (method: string, path: string, body?: unknown, token = team.apiKey, teamId?: string) =>
  server.request(method, path, { token, body, teamId });

async function create(body: Record<string, unknown>, token = team.apiKey) {
  return expectOk(await call('POST', '/v1/webhooks', body, token), 201);
}

describe('create, read, update, delete', () => {
  it('creates with defaults and returns the secret once; reads never show it', async () => {
    const created = await create({ eventType: 'DATA_RECORD_CREATED', targetUrl: TARGET });
    expect(created).toMatchObject({
      eventType: 'DATA_RECORD_CREATED',
      targetUrl: TARGET,
      filterCriteria: null,
      signatureHeader: 'X-SVC-Signature',
      isActive: true,
      isPaused: false,
      retryCount: 3,
      retryDelaySeconds: 60,
      timeoutSeconds: 30,
      totalDeliveries: 0,
      successfulDeliveries: 0,
      failedDeliveries: 0,
      lastDeliveryStatus: null,
      lastDeliveryAt: null,
    });
    expect(created.id).toMatch(/^whk-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}$/);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);

    const got = expectOk(await call('GET', `/v1/webhooks/${created.id}`));
    expect(got).not.toHaveProperty('secret');
    expect(got).toEqual(Object.fromEntries(Object.entries(created).filter(([k]) => k !== 'secret')));
    const list = await call('GET', '/v1/webhooks');
    expect(expectOk(list).map((w: any) => w.id)).toContain(created.id);
    expect(list.body.meta.pagination).toMatchObject({ limit: 25, offset: 0 });
    expect(JSON.stringify(list.body)).not.toContain(created.secret);

    // stored sealed: neither the row nor any column holds the secret's text
    const row = await server.app.services.prisma.webhookSubscription.findUniqueOrThrow({ where: { teamId_simplyId: { teamId: team.teamId, simplyId: created.id } } });
    expect(Buffer.from(row.secretCiphertext).includes(Buffer.from(created.secret))).toBe(false);
    expect(JSON.stringify(row, (_k, v) => (typeof v === 'bigint' ? String(v) : v))).not.toContain(created.secret);

    // GraphQL has no field that reads it back either
    const gql = await server.graphql(`query($id: String!) { webhook(webhookSimplyId: $id) { secret } }`, { id: created.id }, { token: team.apiKey });
    expect(gql.errors?.[0]?.message).toMatch(/Cannot query field "secret"/);
  });

  it('takes filter and retry settings, and updates them (fields left out stay)', async () => {
    const created = await create({
      eventType: 'DATA_RECORD_UPDATED',
      targetUrl: TARGET,
      filterCriteria: { dataCollectionIds: [people.id, places.id] },
      retryCount: 0,
      retryDelaySeconds: 1,
      timeoutSeconds: 5,
    });
    expect(created).toMatchObject({ filterCriteria: { dataCollectionIds: [people.id, places.id] }, retryCount: 0, retryDelaySeconds: 1, timeoutSeconds: 5 });

    const paused = expectOk(await call('PUT', `/v1/webhooks/${created.id}`, { isPaused: true }));
    expect(paused).toMatchObject({ isPaused: true, isActive: true, retryCount: 0, filterCriteria: { dataCollectionIds: [people.id, places.id] } });
    const changed = expectOk(
      await call('PUT', `/v1/webhooks/${created.id}`, {
        isPaused: false,
        isActive: false,
        retryCount: 10,
        retryDelaySeconds: 3600,
        timeoutSeconds: 60,
        targetUrl: 'https://[::1]:9/other',
        filterCriteria: { dataCollectionIds: [places.id] },
      }),
    );
    expect(changed).toMatchObject({ isPaused: false, isActive: false, retryCount: 10, retryDelaySeconds: 3600, timeoutSeconds: 60, targetUrl: 'https://[::1]:9/other', filterCriteria: { dataCollectionIds: [places.id] } });
    const unfiltered = expectOk(await call('PUT', `/v1/webhooks/${created.id}`, { filterCriteria: null }));
    expect(unfiltered.filterCriteria).toBeNull();
    expect(expectOk(await call('GET', `/v1/webhooks/${created.id}`))).toEqual(unfiltered);
  });

  it('deletes; the id is then 404 everywhere', async () => {
    const { id } = await create({ eventType: 'DATA_RECORD_DELETED', targetUrl: TARGET });
    expect(expectOk(await call('DELETE', `/v1/webhooks/${id}`))).toEqual({ id, deleted: true });
    for (const [method, path, body] of [
      ['GET', `/v1/webhooks/${id}`],
      ['PUT', `/v1/webhooks/${id}`, { isPaused: true }],
      ['DELETE', `/v1/webhooks/${id}`],
      ['GET', `/v1/webhooks/${id}/deliveries`],
    ] as const) {
      expectError(await call(method, path, body), 404, 'NOT_FOUND', `${method} ${path}`);
    }
  });

  it('an empty delivery log pages like every list', async () => {
    const { id } = await create({ eventType: 'DATA_RECORDS_BULK_SYNCED', targetUrl: TARGET });
    const response = await call('GET', `/v1/webhooks/${id}/deliveries?limit=5&offset=0`);
    expect(expectOk(response)).toEqual([]);
    expect(response.body.meta.pagination).toEqual({ total: 0, limit: 5, offset: 0, hasMore: false });
    expectError(await call('GET', `/v1/webhooks/${id}/deliveries?limit=101`), 400, 'VALIDATION_ERROR');
    expectError(await call('GET', `/v1/webhooks/${id}/deliveries?offset=-1`), 400, 'VALIDATION_ERROR');
  });
});

describe('validation', () => {
  const base = { eventType: 'DATA_RECORD_CREATED', targetUrl: TARGET };

  it.each([
    [{ ...base, eventType: 'RECORD_CREATED' }, 'eventType'],
    [{ ...base, eventType: 'ACTION_TAG_CREATED' }, 'eventType'],
    [{ eventType: 'DATA_RECORD_CREATED' }, undefined],
    [{ ...base, retryCount: -1 }, 'retryCount'],
    [{ ...base, retryCount: 11 }, 'retryCount'],
    [{ ...base, retryDelaySeconds: 0 }, 'retryDelaySeconds'],
    [{ ...base, retryDelaySeconds: 3601 }, 'retryDelaySeconds'],
    [{ ...base, timeoutSeconds: 0 }, 'timeoutSeconds'],
    [{ ...base, timeoutSeconds: 61 }, 'timeoutSeconds'],
    [{ ...base, filterCriteria: { dataCollectionIds: [] } }, 'filterCriteria.dataCollectionIds'],
    [{ ...base, filterCriteria: { dataCollectionIds: 'ABCD-EFGH-JKMN' } }, 'filterCriteria.dataCollectionIds'],
    [{ ...base, filterCriteria: { collections: [] } }, 'filterCriteria.collections'],
    [{ ...base, filterCriteria: ['x'] }, 'filterCriteria'],
    [{ ...base, filterCriteria: { dataCollectionIds: ['12'] } }, 'filterCriteria.dataCollectionIds[0]'],
  ])('%j → 400 naming %s', async (body, field) => {
    const error = expectError(await call('POST', '/v1/webhooks', body), 400, 'VALIDATION_ERROR');
    if (field) expect(error.details?.map((d) => d.field)).toContain(field);
  });

  it('a repeated or unknown collection is a 400 naming its index (another team\'s collection too)', async () => {
    const other = await createTeam(server);
    const theirs = await createCollection(server, other, { name: 'Theirs', fields: [] });
    let error = expectError(await call('POST', '/v1/webhooks', { ...base, filterCriteria: { dataCollectionIds: [people.id, people.id] } }), 400, 'VALIDATION_ERROR');
    expect(error.details).toEqual([{ field: 'filterCriteria.dataCollectionIds[1]', message: `${people.id} is listed more than once` }]);
    error = expectError(await call('POST', '/v1/webhooks', { ...base, filterCriteria: { dataCollectionIds: [people.id, 'ABCD-EFGH-JKMN', theirs.id] } }), 400, 'VALIDATION_ERROR');
    expect(error.details).toEqual([
      { field: 'filterCriteria.dataCollectionIds[1]', message: 'no collection ABCD-EFGH-JKMN in this team' },
      { field: 'filterCriteria.dataCollectionIds[2]', message: `no collection ${theirs.id} in this team` },
    ]);
  });

  /** what the message names → targets refused for it */
  const refusedTargets: Record<string, string[]> = {
    https: ['http://127.0.0.1:9/hook'],
    private: ['https://10.0.0.1/hook', 'https://192.168.0.10/hook', 'https://[::ffff:10.0.0.1]/'],
    linkLocal: ['https://169.254.169.254/latest/meta-data', 'https://[fe80::1]/'],
    carrierGradeNat: ['https://100.64.1.1/'],
    unspecified: ['https://0.0.0.0/'],
    multicast: ['https://224.0.0.1/'],
    reserved: ['https://192.0.2.1/', 'https://[2001:db8::1]/'],
    uniqueLocal: ['https://[fd00::1]/'],
    'never public': ['https://nothing.invalid/', 'https://hooks.internal/', 'https://printer.local/'],
    'fully qualified': ['https://intranet/hook'],
    credentials: ['https://user:pw@127.0.0.1/'],
    absolute: ['not a url'],
  };

  it.each(Object.entries(refusedTargets).flatMap(([reason, targets]) => targets.map((target) => [target, reason])))('targetUrl %s → 400 (%s)', async (targetUrl, reason) => {
    const error = expectError(await call('POST', '/v1/webhooks', { ...base, targetUrl }), 400, 'VALIDATION_ERROR');
    expect(error.details?.[0]).toMatchObject({ field: 'targetUrl', message: expect.stringContaining(reason) });
  });

  it('a public name that does not resolve yet is accepted with meta.warnings, on create and on update; GraphQL shows the same warnings', async () => {
    const unresolved = `https://hooks-${Date.now().toString(36)}.not-registered-yet-svc.com/in`;
    const created = await call('POST', '/v1/webhooks', { ...base, targetUrl: unresolved });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ targetUrl: unresolved, secret: expect.any(String) });
    expect(created.body.data).not.toHaveProperty('warnings');
    expect(created.body.meta.warnings).toEqual([expect.stringMatching(/^targetUrl: host .* could not be resolved .*the subscription is kept/)]);
    const repointed = await call('PUT', `/v1/webhooks/${created.body.data.id}`, { targetUrl: unresolved.replace('/in', '/other') });
    expect(repointed.body.meta.warnings).toHaveLength(1);
    // nothing to warn about: no warnings in meta
    const paused = await call('PUT', `/v1/webhooks/${created.body.data.id}`, { isPaused: true });
    expect(paused.body.meta).not.toHaveProperty('warnings');
    expect(paused.body.data).not.toHaveProperty('warnings');
    const viaGraphql = gqlData(await server.graphql(`mutation($input: CreateWebhookInput!) { createWebhook(input: $input) { id warnings } }`, { input: { ...base, targetUrl: unresolved } }, { token: team.apiKey }));
    expect(viaGraphql.createWebhook.warnings).toHaveLength(1);
    for (const id of [created.body.data.id, viaGraphql.createWebhook.id]) expectOk(await call('DELETE', `/v1/webhooks/${id}`));
  });

  it('updates are checked the same way; eventType cannot be changed', async () => {
    const { id } = await create(base);
    expectError(await call('PUT', `/v1/webhooks/${id}`, { targetUrl: 'https://10.1.1.1/' }), 400, 'VALIDATION_ERROR');
    expectError(await call('PUT', `/v1/webhooks/${id}`, { retryCount: 99 }), 400, 'VALIDATION_ERROR');
    expectError(await call('PUT', `/v1/webhooks/${id}`, { eventType: 'DATA_RECORD_DELETED' }), 400, 'VALIDATION_ERROR');
    expectError(await call('PUT', `/v1/webhooks/${id}`, { filterCriteria: { dataCollectionIds: ['ABCD-EFGH-JKMN'] } }), 400, 'VALIDATION_ERROR');
    expectError(await call('PUT', `/v1/webhooks/${id}`, { isPaused: 'yes' }), 400, 'VALIDATION_ERROR');
    expect(expectOk(await call('GET', `/v1/webhooks/${id}`))).toMatchObject({ targetUrl: TARGET, retryCount: 3, eventType: 'DATA_RECORD_CREATED', filterCriteria: null, isPaused: false });
  });

  it('a filtered collection deleted since does not block other updates', async () => {
    const gone = await createCollection(server, team, { name: 'Gone', fields: [] });
    const { id } = await create({ ...base, filterCriteria: { dataCollectionIds: [gone.id, people.id] } });
    await server.app.services.prisma.dataCollection.delete({ where: { id: gone.internalId } });
    server.app.services.schemas.invalidate(team.teamId);
    expect(expectOk(await call('PUT', `/v1/webhooks/${id}`, { isPaused: true })).isPaused).toBe(true);
    // naming it again is a 400, like any unknown collection
    const error = expectError(await call('PUT', `/v1/webhooks/${id}`, { filterCriteria: { dataCollectionIds: [gone.id] } }), 400, 'VALIDATION_ERROR');
    expect(error.details).toEqual([{ field: 'filterCriteria.dataCollectionIds[0]', message: `no collection ${gone.id} in this team` }]);
  });

  it('a team holds at most 100 subscriptions', async () => {
    const crowded = await createTeam(server);
    const { prisma } = server.app.services;
    const existing = await prisma.webhookSubscription.count({ where: { teamId: crowded.teamId } });
    for (let i = existing; i < 100; i++) expectOk(await call('POST', '/v1/webhooks', base, crowded.apiKey), 201);
    expectError(await call('POST', '/v1/webhooks', base, crowded.apiKey), 409, 'CONFLICT');
  });

  it('malformed ids are 400, other teams\' ids 404', async () => {
    expectError(await call('GET', '/v1/webhooks/12'), 400, 'VALIDATION_ERROR');
    expectError(await call('GET', '/v1/webhooks/dlv-ABCD-EFGH-JKMN'), 400, 'VALIDATION_ERROR');
    const other = await createTeam(server);
    const theirs = expectOk(await call('POST', '/v1/webhooks', base, other.apiKey), 201);
    for (const [method, path, body] of [
      ['GET', `/v1/webhooks/${theirs.id}`],
      ['PUT', `/v1/webhooks/${theirs.id}`, { isPaused: true }],
      ['DELETE', `/v1/webhooks/${theirs.id}`],
      ['GET', `/v1/webhooks/${theirs.id}/deliveries`],
    ] as const) {
      expectError(await call(method, path, body), 404, 'NOT_FOUND', `${method} ${path}`);
    }
    expect(expectOk(await call('GET', '/v1/webhooks')).map((w: any) => w.id)).not.toContain(theirs.id);
    expect(expectOk(await call('GET', `/v1/webhooks/${theirs.id}`, undefined, other.apiKey)).isPaused).toBe(false);
  });
});

describe('permissions', () => {
  const base = { eventType: 'DATA_RECORD_CREATED', targetUrl: TARGET };
  let peopleReader: string; // TEAM_SETTINGS edit, READ on people only
  let viewer: string; // TEAM_SETTINGS view, full data access
  let noSettings: string; // full data access, no TEAM_SETTINGS
  let existing: string;
  let peopleHook: string;

  beforeAll(async () => {
    const readsPeople = await createRole(server, team, { name: 'Reads people', dataPermissions: [{ dataCollectionSimplyId: people.id, level: 'READ' }] });
    const readsAll = await createRole(server, team, { name: 'Reads all', dataFullAccess: 'READ' });
    peopleReader = (await createApiKey(server, team, { name: 'people', teamRoleSimplyId: readsPeople, featurePermissions: ['TEAM_SETTINGS'] })).key;
    viewer = (await createApiKey(server, team, { name: 'viewer', teamRoleSimplyId: readsAll, featurePermissions: ['TEAM_SETTINGS:VIEW'] })).key;
    noSettings = (await createApiKey(server, team, { name: 'no settings', teamRoleSimplyId: readsAll, featurePermissions: [] })).key;
    existing = (await create(base)).id;
    peopleHook = (await create({ ...base, filterCriteria: { dataCollectionIds: [people.id] } })).id;
  });

  it('TEAM_SETTINGS view reads; edit is needed to write', async () => {
    expectOk(await call('GET', '/v1/webhooks', undefined, viewer));
    expectOk(await call('GET', `/v1/webhooks/${existing}`, undefined, viewer));
    expectOk(await call('GET', `/v1/webhooks/${existing}/deliveries`, undefined, viewer));
    expectError(await call('POST', '/v1/webhooks', base, viewer), 403, 'PERMISSION_DENIED');
    expectError(await call('PUT', `/v1/webhooks/${existing}`, { isPaused: true }, viewer), 403, 'PERMISSION_DENIED');
    expectError(await call('DELETE', `/v1/webhooks/${existing}`, undefined, viewer), 403, 'PERMISSION_DENIED');
    for (const [method, path, body] of [
      ['GET', '/v1/webhooks'],
      ['GET', `/v1/webhooks/${existing}`],
      ['GET', `/v1/webhooks/${existing}/deliveries`],
      ['POST', '/v1/webhooks', base],
    ] as const) {
      expectError(await call(method, path, body, noSettings), 403, 'PERMISSION_DENIED', `${method} ${path}`);
    }
    expectError(await call('GET', '/v1/webhooks', undefined, 'svc_live_nope'), 401, 'UNAUTHENTICATED');
  });

  it('without full data access: only filtered subscriptions, on collections the credential reads', async () => {
    expectError(await call('POST', '/v1/webhooks', base, peopleReader), 403, 'PERMISSION_DENIED');
    expectError(await call('POST', '/v1/webhooks', { ...base, filterCriteria: { dataCollectionIds: [people.id, places.id] } }, peopleReader), 403, 'PERMISSION_DENIED');
    const mine = expectOk(await call('POST', '/v1/webhooks', { ...base, filterCriteria: { dataCollectionIds: [people.id] } }, peopleReader), 201);
    // it may not widen one, nor re-point or pause one that carries what it cannot read
    expectError(await call('PUT', `/v1/webhooks/${mine.id}`, { filterCriteria: null }, peopleReader), 403, 'PERMISSION_DENIED');
    expectError(await call('PUT', `/v1/webhooks/${mine.id}`, { filterCriteria: { dataCollectionIds: [places.id] } }, peopleReader), 403, 'PERMISSION_DENIED');
    expectError(await call('PUT', `/v1/webhooks/${existing}`, { targetUrl: 'https://127.0.0.2/steal' }, peopleReader), 403, 'PERMISSION_DENIED');
    expect(expectOk(await call('PUT', `/v1/webhooks/${peopleHook}`, { isPaused: true }, peopleReader)).isPaused).toBe(true);
    expect(expectOk(await call('PUT', `/v1/webhooks/${mine.id}`, { retryCount: 1 }, peopleReader)).retryCount).toBe(1);
    // deleting needs only TEAM_SETTINGS edit
    expectOk(await call('DELETE', `/v1/webhooks/${mine.id}`, undefined, peopleReader));
  });

  it('team admins pass; members need the feature; scoped session tokens never reach the routes', async () => {
    expectOk(await call('GET', '/v1/webhooks', undefined, team.userToken, team.teamSimplyId));
    expectOk(await call('POST', '/v1/webhooks', base, team.userToken, team.teamSimplyId), 201);
    const plain = await addMember(server, team);
    expectError(await call('GET', '/v1/webhooks', undefined, plain.token, team.teamSimplyId), 403, 'PERMISSION_DENIED');
    expectError(await call('GET', '/v1/webhooks', undefined, team.userToken), 400, 'VALIDATION_ERROR');
    const minted = expectOk(await call('POST', '/v1/session-tokens', { expiresInMinutes: 5 }), 201);
    expect(minted.token).toMatch(/^svc_sess_/);
    expectError(await call('GET', '/v1/webhooks', undefined, minted.token), 403, 'PERMISSION_DENIED');
  });
});

describe('the GraphQL face (the same service as the REST routes)', () => {
  const FIELDS = 'id eventType targetUrl filterCriteria isActive isPaused retryCount retryDelaySeconds timeoutSeconds totalDeliveries lastDeliveryStatus';
  const gql = (query: string, variables: Record<string, unknown> = {}, token = team.apiKey) => server.graphql(query, variables, { token });

  it('createWebhook, webhooks, webhook, updateWebhook, webhookDeliveries, deleteWebhook', async () => {
    const created = gqlData(
      await gql(`mutation($input: CreateWebhookInput!) { createWebhook(input: $input) { ${FIELDS} secret } }`, {
        input: { eventType: 'DATA_RECORD_UPDATED', targetUrl: TARGET, filterCriteria: { dataCollectionIds: [people.id] }, retryCount: 1 },
      }),
    ).createWebhook;
    expect(created).toMatchObject({ eventType: 'DATA_RECORD_UPDATED', targetUrl: TARGET, filterCriteria: { dataCollectionIds: [people.id] }, isActive: true, isPaused: false, retryCount: 1, retryDelaySeconds: 60, timeoutSeconds: 30, totalDeliveries: 0, lastDeliveryStatus: null });
    expect(created.secret).toMatch(/^whsec_/);
    // the REST face sees the same subscription, without the secret
    const rest = expectOk(await call('GET', `/v1/webhooks/${created.id}`));
    expect(rest.id).toBe(created.id);
    expect(rest.secret).toBeUndefined();

    const list = gqlData(await gql(`{ webhooks(limit: 100) { nodes { id } pagination { total limit offset hasMore } } }`)).webhooks;
    expect(list.nodes.map((w: { id: string }) => w.id)).toContain(created.id);
    expect(list.pagination).toMatchObject({ limit: 100, offset: 0, hasMore: false });
    expect(gqlData(await gql(`query($id: String!) { webhook(webhookSimplyId: $id) { ${FIELDS} } }`, { id: created.id })).webhook).toEqual(
      Object.fromEntries(Object.entries(created).filter(([k]) => k !== 'secret')),
    );

    const paused = gqlData(
      await gql(`mutation($id: String!, $input: UpdateWebhookInput!) { updateWebhook(webhookSimplyId: $id, input: $input) { ${FIELDS} } }`, { id: created.id, input: { isPaused: true, filterCriteria: null } }),
    ).updateWebhook;
    expect(paused).toMatchObject({ isPaused: true, filterCriteria: null, retryCount: 1 });
    const deliveries = gqlData(await gql(`query($id: String!) { webhookDeliveries(webhookSimplyId: $id) { nodes { id } pagination { total } } }`, { id: created.id })).webhookDeliveries;
    expect(deliveries).toEqual({ nodes: [], pagination: { total: 0 } });

    expect(gqlData(await gql(`mutation($id: String!) { deleteWebhook(webhookSimplyId: $id) }`, { id: created.id })).deleteWebhook).toBe(true);
    expectGqlError(await gql(`query($id: String!) { webhook(webhookSimplyId: $id) { id } }`, { id: created.id }), 'NOT_FOUND', 404);
    expectError(await call('GET', `/v1/webhooks/${created.id}`), 404, 'NOT_FOUND');
  });

  it('the documented errors: 400 naming the field, 403 without TEAM_SETTINGS, another team’s ids not found', async () => {
    const bad = await gql(`mutation($input: CreateWebhookInput!) { createWebhook(input: $input) { id } }`, { input: { eventType: 'DATA_RECORD_CREATED', targetUrl: 'http://example.com/hook' } });
    expectGqlError(bad, 'VALIDATION_ERROR', 400);
    expect(JSON.stringify(bad.errors?.[0]?.extensions?.details)).toContain('targetUrl');
    const plain = (await createApiKey(server, team, { name: 'gql no settings', featurePermissions: [] })).key;
    expectGqlError(await gql(`{ webhooks { nodes { id } } }`, {}, plain), 'PERMISSION_DENIED', 403);

    const mine = await create({ eventType: 'DATA_RECORD_CREATED', targetUrl: TARGET, filterCriteria: { dataCollectionIds: [people.id] } });
    const other = await createTeam(server);
    for (const [query, variables] of [
      [`query($id: String!) { webhook(webhookSimplyId: $id) { id } }`, { id: mine.id }],
      [`query($id: String!) { webhookDeliveries(webhookSimplyId: $id) { nodes { id } } }`, { id: mine.id }],
      [`mutation($id: String!) { updateWebhook(webhookSimplyId: $id, input: { isPaused: true }) { id } }`, { id: mine.id }],
      [`mutation($id: String!) { deleteWebhook(webhookSimplyId: $id) }`, { id: mine.id }],
    ] as const) {
      expectGqlError(await gql(query, variables, other.apiKey), 'NOT_FOUND', 404);
    }
    expect(gqlData(await gql(`{ webhooks { nodes { id } } }`, {}, other.apiKey)).webhooks.nodes).toEqual([]);
    expect(expectOk(await call('GET', `/v1/webhooks/${mine.id}`)).isPaused).toBe(false);
  });
});
