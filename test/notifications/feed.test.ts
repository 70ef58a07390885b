// The notification feed over REST and GraphQL: who may call it (signed-in members of the selected
// team only), list with paging and filters, unread count, get, read (idempotent), read-all with
// updatedCount, soft delete; a person never sees another person's or another team's
// notifications, which answer 404 like missing ones.
import { beforeAll, describe, expect, it } from 'vitest';
import { mintSessionToken } from '../support/credentials-fixtures.ts';
import { expectError, expectGqlError, expectOk, gqlData } from '../support/expect-envelope.ts';
import { adminOf, newMember, notifyMany, notifyMember, registerDevice, type Person } from '../support/notification-fixtures.ts';
import { countSql } from '../support/sql-counter.ts';
import { useServer } from '../support/use-server.ts';

const { server, teams } = useServer({ teams: 2 });
const [team, other] = teams;

const as = (p: Person) => (method: string, path: string, body?: unknown) => server.request(method, path, { token: p.token, teamId: p.teamSimplyId, body });
const gql = (p: Person, query: string, variables: Record<string, unknown> = {}) => server.graphql(query, variables, { token: p.token, teamId: p.teamSimplyId });

const FIELDS = 'simplyId notificationType category title body iconType actionUrl referenceEntityType referenceEntityId isRead readAt createdAt updatedAt';

let alice: Person;
let bob: Person;
let carol: Person;

beforeAll(async () => {
  alice = await newMember(server, team);
  bob = await newMember(server, team);
  carol = await newMember(server, other);
});

describe('who may call the feed', () => {
  const routes = (id: string, installationId: string): [string, string, unknown?][] => [
    ['GET', '/v1/notifications'],
    ['GET', '/v1/notifications/unread-count'],
    ['GET', `/v1/notifications/${id}`],
    ['PUT', `/v1/notifications/${id}/read`],
    ['PUT', '/v1/notifications/read-all'],
    ['DELETE', `/v1/notifications/${id}`],
    ['GET', `/v1/notifications/preferences?installationId=${installationId}`],
    ['PUT', '/v1/notifications/preferences', { installationId, mention: false }],
  ];
  const fields = (id: string) => [
    'query { notifications { nodes { simplyId } } }',
    'query { notificationUnreadCount }',
    `query { notification(notificationSimplyId: "${id}") { simplyId } }`,
    `mutation { markNotificationRead(notificationSimplyId: "${id}") { simplyId } }`,
    'mutation { markAllNotificationsRead { updatedCount } }',
    `mutation { deleteNotification(notificationSimplyId: "${id}") }`,
    'query { notificationPreferences(installationId: "x") { mention } }',
    'mutation { updateNotificationPreferences(input: { installationId: "x", mention: false }) { mention } }',
  ];

  it('API keys and session tokens: 403 IDP_REQUIRED; no team: 400 VALIDATION_ERROR; not a member: 403 PERMISSION_DENIED', async () => {
    const id = await notifyMember(server, team, alice);
    const { installationId } = await registerDevice(server, alice);
    const session = (await mintSessionToken(server, team.apiKey)).token as string;
    for (const [method, path, body] of routes(id, installationId)) {
      const label = `${method} ${path}`;
      expectError(await server.request(method, path, { token: team.apiKey, body }), 403, 'IDP_REQUIRED', `${label} (API key)`);
      expectError(await server.request(method, path, { token: session, body }), 403, 'IDP_REQUIRED', `${label} (session token)`);
      expectError(await server.request(method, path, { token: alice.token, body }), 400, 'VALIDATION_ERROR', `${label} (no team)`);
      expectError(await server.request(method, path, { token: carol.token, teamId: team.teamSimplyId, body }), 403, 'PERMISSION_DENIED', `${label} (not a member)`);
    }
    for (const query of fields(id)) {
      expectGqlError(await server.graphql(query, {}, { token: team.apiKey }), 'IDP_REQUIRED', 403);
      expectGqlError(await server.graphql(query, {}, { token: session }), 'IDP_REQUIRED', 403);
      expectGqlError(await server.graphql(query, {}, { token: alice.token }), 'VALIDATION_ERROR', 400);
      expectGqlError(await server.graphql(query, {}, { token: carol.token, teamId: team.teamSimplyId }), 'PERMISSION_DENIED', 403);
    }
    // nothing of it happened
    expect(expectOk(await as(alice)('GET', `/v1/notifications/${id}`)).isRead).toBe(false);
  });
});

describe('list, get and count', () => {
  it('takes the team from the teamSimplyId query parameter as from X-Team-Id, on routes with strict queries too', async () => {
    await notifyMember(server, team, alice, { title: 'By query' });
    const byQuery = (path: string) => server.request('GET', `${path}${path.includes('?') ? '&' : '?'}teamSimplyId=${alice.teamSimplyId}`, { token: alice.token });
    expect(expectOk(await byQuery('/v1/notifications?limit=5')).notifications.length).toBeGreaterThan(0);
    expect(expectOk(await byQuery('/v1/notifications/unread-count')).unreadCount).toBeGreaterThan(0);
  });

  it('lists only the caller’s notifications in the selected team, newest first, with paging', async () => {
    const person = await newMember(server, team);
    const ids = await notifyMany(server, team, person, [
      { type: 'NEW_MESSAGE', title: { en: 'First', de: 'Erste' } },
      { type: 'MENTION', title: 'Second' },
      { type: 'WORKFLOW', title: 'Third', body: null },
    ]);
    await notifyMember(server, team, bob, { title: 'For Bob' });
    // the same person in another team: a feed of its own
    await notifyMember(server, other, carol, { title: 'Other team' });
    const call = as(person);

    const body = (await call('GET', '/v1/notifications')).body;
    expect(body.meta.pagination).toEqual({ total: 3, limit: 50, offset: 0, hasMore: false });
    expect(body.data.notifications.map((n: { simplyId: string }) => n.simplyId)).toEqual([...ids].reverse());
    const first = body.data.notifications[2];
    expect(first).toMatchObject({
      simplyId: ids[0],
      notificationType: 'NEW_MESSAGE',
      category: 'newMessage',
      title: { en: 'First', de: 'Erste' },
      body: 'Something happened',
      iconType: 'info',
      actionUrl: '/inbox',
      referenceEntityType: 'TEST',
      isRead: false,
      readAt: null,
    });
    expect(new Date(first.createdAt).toISOString()).toBe(first.createdAt);
    expect(body.data.notifications[0].body).toBeNull();

    const page = (await call('GET', '/v1/notifications?limit=2&offset=1')).body;
    expect(page.data.notifications.map((n: { simplyId: string }) => n.simplyId)).toEqual([ids[1], ids[0]]);
    expect(page.meta.pagination).toEqual({ total: 3, limit: 2, offset: 1, hasMore: false });
    expect((await call('GET', '/v1/notifications?limit=2')).body.meta.pagination).toEqual({ total: 3, limit: 2, offset: 0, hasMore: true });
    expect(expectOk(await call('GET', '/v1/notifications?notificationType=MENTION')).notifications.map((n: { simplyId: string }) => n.simplyId)).toEqual([ids[1]]);
    expect(expectOk(await call('GET', '/v1/notifications?notificationType=SYSTEM')).notifications).toEqual([]);
    expect(expectOk(await call('GET', '/v1/notifications/unread-count'))).toEqual({ unreadCount: 3 });

    const one = expectOk(await call('GET', `/v1/notifications/${ids[1]}`));
    expect(one).toMatchObject({ simplyId: ids[1], notificationType: 'MENTION', category: 'mention', title: 'Second' });

    // GraphQL: the same
    const data = gqlData(await gql(person, `query { notifications(limit: 2) { nodes { ${FIELDS} } pagination { total limit offset hasMore } } notificationUnreadCount }`));
    expect(data.notifications.nodes.map((n: { simplyId: string }) => n.simplyId)).toEqual([ids[2], ids[1]]);
    expect(data.notifications.pagination).toEqual({ total: 3, limit: 2, offset: 0, hasMore: true });
    expect(data.notificationUnreadCount).toBe(3);
    const typed = gqlData(await gql(person, 'query($t: NotificationType) { notifications(notificationType: $t) { nodes { simplyId } } }', { t: 'WORKFLOW' }));
    expect(typed.notifications.nodes).toEqual([{ simplyId: ids[2] }]);
    expect(gqlData(await gql(person, `query($id: String!) { notification(notificationSimplyId: $id) { ${FIELDS} } }`, { id: ids[0] })).notification).toEqual({ ...first, id: undefined });
  });

  it('refuses bad paging and filters with 400 VALIDATION_ERROR naming the parameter', async () => {
    const call = as(alice);
    const cases: [string, string][] = [
      ['limit=101', 'limit'],
      ['limit=0', 'limit'],
      ['limit=ten', 'limit'],
      ['offset=-1', 'offset'],
      ['notificationType=BOGUS', 'notificationType'],
      ['isRead=maybe', 'isRead'],
      ['colour=red', 'colour'],
    ];
    for (const [query, field] of cases) {
      const error = expectError(await call('GET', `/v1/notifications?${query}`), 400, 'VALIDATION_ERROR', query);
      expect(error.details?.map((d) => d.field), query).toContain(field);
    }
    expect(expectOk(await call('GET', '/v1/notifications?limit=100')).notifications).toEqual(expect.any(Array));
    expectGqlError(await gql(alice, 'query { notifications(limit: 101) { nodes { simplyId } } }'), 'VALIDATION_ERROR', 400);
    expectGqlError(await gql(alice, 'query($t: NotificationType) { notifications(notificationType: $t) { nodes { simplyId } } }', { t: 'BOGUS' }), 'VALIDATION_ERROR', 400, 400);
    expectError(await call('GET', '/v1/notifications/not-an-id'), 400, 'VALIDATION_ERROR');
  });

  it("another person's or another team's notification is 404 on every route, and stays untouched", async () => {
    const bobs = await notifyMember(server, team, bob);
    const carols = await notifyMember(server, other, carol);
    // alice in the other team too: ids of one team are not found in the other
    for (const id of [bobs, carols]) {
      for (const [method, path] of [['GET', `/v1/notifications/${id}`], ['PUT', `/v1/notifications/${id}/read`], ['DELETE', `/v1/notifications/${id}`]] as const) {
        expectError(await as(alice)(method, path), 404, 'NOT_FOUND', `${method} ${path}`);
      }
      expectGqlError(await gql(alice, 'query($id: String!) { notification(notificationSimplyId: $id) { simplyId } }', { id }), 'NOT_FOUND', 404);
      expectGqlError(await gql(alice, 'mutation($id: String!) { markNotificationRead(notificationSimplyId: $id) { simplyId } }', { id }), 'NOT_FOUND', 404);
      expectGqlError(await gql(alice, 'mutation($id: String!) { deleteNotification(notificationSimplyId: $id) }', { id }), 'NOT_FOUND', 404);
    }
    // carol selecting her own team still cannot reach it through team's id space, and bob's is intact
    expect(expectOk(await as(bob)('GET', `/v1/notifications/${bobs}`))).toMatchObject({ isRead: false });
    expect(expectOk(await as(carol)('GET', `/v1/notifications/${carols}`))).toMatchObject({ isRead: false });
    expectError(await as(bob)('GET', `/v1/notifications/${carols}`), 404, 'NOT_FOUND');
  });

  it('reads a page with a fixed number of statements, whatever its size', async () => {
    const person = await newMember(server, team);
    await notifyMany(server, team, person, Array.from({ length: 30 }, (_, i) => ({ type: i % 2 ? 'MENTION' : 'SYSTEM' })));
    const { installationId } = await registerDevice(server, person, { mention: false });
    const sql = countSql(server.app.services.pool);
    const measure = async (path: string) => {
      const statements = await sql.measure(async () => expectOk(await as(person)('GET', path)));
      return statements.filter((s) => /"UserNotification(Count)?"|"UserDevice"/.test(s)).length;
    };
    // the page and its total (from the counters, alongside); with a device, its lookup as well
    expect(await measure('/v1/notifications?limit=10')).toBe(2);
    expect(await measure('/v1/notifications?limit=100')).toBe(2);
    expect(await measure(`/v1/notifications?limit=10&installationId=${installationId}`)).toBe(3);
    expect(await measure('/v1/notifications/unread-count')).toBe(1);
    expect(await measure(`/v1/notifications/unread-count?installationId=${installationId}`)).toBe(2);
  });
});

describe('read, read-all and delete', () => {
  it('marks one read once (idempotent) and counts it', async () => {
    const person = await newMember(server, team);
    const [a, b] = await notifyMany(server, team, person, [{}, {}]);
    const call = as(person);
    const read = expectOk(await call('PUT', `/v1/notifications/${a}/read`));
    expect(read).toMatchObject({ simplyId: a, isRead: true });
    expect(new Date(read.readAt).getTime()).toBeGreaterThan(Date.now() - 60_000);
    await new Promise((r) => setTimeout(r, 5));
    const again = expectOk(await call('PUT', `/v1/notifications/${a}/read`));
    expect(again.readAt).toBe(read.readAt);
    expect(expectOk(await call('GET', '/v1/notifications/unread-count')).unreadCount).toBe(1);
    expect(expectOk(await call('GET', '/v1/notifications?isRead=true')).notifications.map((n: { simplyId: string }) => n.simplyId)).toEqual([a]);
    expect(expectOk(await call('GET', '/v1/notifications?isRead=false')).notifications.map((n: { simplyId: string }) => n.simplyId)).toEqual([b]);
    expectError(await call('PUT', `/v1/notifications/${a}/read`, { extra: true }), 400, 'VALIDATION_ERROR');

    const viaGql = gqlData(await gql(person, 'mutation($id: String!) { markNotificationRead(notificationSimplyId: $id) { simplyId isRead readAt } }', { id: b }));
    expect(viaGql.markNotificationRead).toMatchObject({ simplyId: b, isRead: true });
    expect(gqlData(await gql(person, '{ notificationUnreadCount }')).notificationUnreadCount).toBe(0);
  });

  it('read-all marks every unread notification of the caller and answers updatedCount', async () => {
    const person = await newMember(server, team);
    const ids = await notifyMany(server, team, person, [{}, {}, {}]);
    const bobs = await notifyMember(server, team, bob);
    const call = as(person);
    expectOk(await call('PUT', `/v1/notifications/${ids[0]}/read`));
    expect(expectOk(await call('PUT', '/v1/notifications/read-all'))).toEqual({ updatedCount: 2, unreadCount: 0 });
    expect(expectOk(await call('PUT', '/v1/notifications/read-all', {}))).toEqual({ updatedCount: 0, unreadCount: 0 });
    expect(expectOk(await call('GET', '/v1/notifications?isRead=false')).notifications).toEqual([]);
    expect(expectOk(await as(bob)('GET', `/v1/notifications/${bobs}`)).isRead).toBe(false);
    expectError(await call('PUT', '/v1/notifications/read-all', { everything: true }), 400, 'VALIDATION_ERROR');
    expectError(await call('PUT', '/v1/notifications/read-all', [1]), 400, 'VALIDATION_ERROR');

    await notifyMany(server, team, person, [{}, {}]);
    const viaGql = gqlData(await gql(person, 'mutation { markAllNotificationsRead { updatedCount unreadCount } }'));
    expect(viaGql.markAllNotificationsRead).toEqual({ updatedCount: 2, unreadCount: 0 });
  });

  it('delete is soft: gone from lists, counts and reads, 404 afterwards', async () => {
    const person = await newMember(server, team);
    const [keep, drop, viaGraphql] = await notifyMany(server, team, person, [{}, {}, {}]);
    const call = as(person);
    expect(expectOk(await call('DELETE', `/v1/notifications/${drop}`))).toEqual({ id: drop, deleted: true });
    expect(expectOk(await call('GET', '/v1/notifications')).notifications.map((n: { simplyId: string }) => n.simplyId)).toEqual([viaGraphql, keep]);
    expect(expectOk(await call('GET', '/v1/notifications/unread-count')).unreadCount).toBe(2);
    expectError(await call('GET', `/v1/notifications/${drop}`), 404, 'NOT_FOUND');
    expectError(await call('PUT', `/v1/notifications/${drop}/read`), 404, 'NOT_FOUND');
    expectError(await call('DELETE', `/v1/notifications/${drop}`), 404, 'NOT_FOUND');
    // read-all does not revive or count it
    expect(expectOk(await call('PUT', '/v1/notifications/read-all')).updatedCount).toBe(2);
    const row = await server.app.services.prisma.userNotification.findFirstOrThrow({ where: { simplyId: drop } });
    expect(row.deletedAt).not.toBeNull();
    expect(row.readAt).toBeNull();

    expect(gqlData(await gql(person, 'mutation($id: String!) { deleteNotification(notificationSimplyId: $id) }', { id: viaGraphql })).deleteNotification).toBe(true);
    expectGqlError(await gql(person, 'query($id: String!) { notification(notificationSimplyId: $id) { simplyId } }', { id: viaGraphql }), 'NOT_FOUND', 404);
    expect(expectOk(await call('GET', '/v1/notifications')).notifications.map((n: { simplyId: string }) => n.simplyId)).toEqual([keep]);
  });

  it('the counters behind totals and unread counts follow every kind of change, bulk ones included', async () => {
    const person = await newMember(server, team);
    const call = as(person);
    const ids = await notifyMany(server, team, person, [{ type: 'MENTION' }, { type: 'MENTION' }, { type: 'ASSIGNMENT' }, { type: 'SYSTEM' }, { type: 'WORKFLOW' }]);
    await call('PUT', `/v1/notifications/${ids[0]}/read`);
    await call('DELETE', `/v1/notifications/${ids[1]}`);
    await call('DELETE', `/v1/notifications/${ids[0]}`);
    const { prisma } = server.app.services;
    const user = await prisma.user.findUniqueOrThrow({ where: { simplyId: person.userSimplyId } });
    // a bulk write outside the API (and a hard delete) is counted too: the triggers see every statement
    await prisma.userNotification.updateMany({ where: { userId: user.id, notificationType: 'SYSTEM' }, data: { readAt: new Date() } });
    await prisma.userNotification.deleteMany({ where: { userId: user.id, notificationType: 'WORKFLOW' } });
    const counted = async () => {
      const rows = await prisma.userNotification.findMany({ where: { teamId: team.teamId, userId: user.id, deletedAt: null } });
      return { live: rows.length, unread: rows.filter((r) => r.readAt === null).length };
    };
    const counters = await prisma.userNotificationCount.findMany({ where: { teamId: team.teamId, userId: user.id } });
    const sum = (k: 'live' | 'unread') => counters.reduce((n, c) => n + c[k], 0);
    expect({ live: sum('live'), unread: sum('unread') }).toEqual(await counted());
    expect({ live: sum('live'), unread: sum('unread') }).toEqual({ live: 2, unread: 1 });
    expect(expectOk(await call('GET', '/v1/notifications/unread-count')).unreadCount).toBe(1);
    expect((await call('GET', '/v1/notifications?isRead=true')).body.meta.pagination.total).toBe(1);
    expect((await call('GET', '/v1/notifications?notificationType=ASSIGNMENT')).body.meta.pagination.total).toBe(1);
    expect(expectOk(await call('PUT', '/v1/notifications/read-all')).updatedCount).toBe(1);
    expect(expectOk(await call('GET', '/v1/notifications/unread-count')).unreadCount).toBe(0);
  });

  it('the team admin has a feed of their own like anyone else', async () => {
    const admin = adminOf(team);
    const id = await notifyMember(server, team, admin, { type: 'APPROVAL_REQUEST' });
    expect(expectOk(await as(admin)('GET', `/v1/notifications/${id}`))).toMatchObject({ notificationType: 'APPROVAL_REQUEST', category: 'system' });
    expectError(await as(alice)('GET', `/v1/notifications/${id}`), 404, 'NOT_FOUND');
  });
});
