// Notification preferences per installation over REST and GraphQL: exactly one of installationId
// and deviceSimplyId (INVALID_DEVICE otherwise), only the caller's own devices (DEVICE_NOT_FOUND),
// a strict body of six booleans; and what a device's turned-off categories do to the feed: left out
// of its list and unread count, untouched by its read-all, a filter on such a type lists nothing.
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectGqlError, expectOk, gqlData } from '../support/expect-envelope.ts';
import { newMember, notifyMany, registerDevice, type Person } from '../support/notification-fixtures.ts';
import { useServer } from '../support/use-server.ts';

const { server, teams } = useServer({ teams: 1 });
const [team] = teams;

const as = (p: Person) => (method: string, path: string, body?: unknown) => server.request(method, path, { token: p.token, teamId: p.teamSimplyId, body });
const gql = (p: Person, query: string, variables: Record<string, unknown> = {}) => server.graphql(query, variables, { token: p.token, teamId: p.teamSimplyId });
const ALL_ON = { newConversation: true, newMessage: true, assignment: true, mention: true, system: true, workflow: true };
const ids = (data: { notifications: { simplyId: string }[] }) => data.notifications.map((n) => n.simplyId);

let alice: Person;
let bob: Person;

beforeAll(async () => {
  alice = await newMember(server, team);
  bob = await newMember(server, team);
});

describe('reading and changing preferences', () => {
  it('answers all six keys (on unless turned off), by installationId or deviceSimplyId, and changes only the keys given', async () => {
    const device = await registerDevice(server, alice);
    const call = as(alice);
    expect(expectOk(await call('GET', `/v1/notifications/preferences?installationId=${device.installationId}`))).toEqual(ALL_ON);
    expect(expectOk(await call('GET', `/v1/notifications/preferences?deviceSimplyId=${device.deviceSimplyId}`))).toEqual(ALL_ON);

    const changed = expectOk(await call('PUT', '/v1/notifications/preferences', { installationId: device.installationId, mention: false, workflow: false }));
    expect(changed).toEqual({ ...ALL_ON, mention: false, workflow: false });
    const again = expectOk(await call('PUT', '/v1/notifications/preferences', { deviceSimplyId: device.deviceSimplyId, workflow: true, system: false }));
    expect(again).toEqual({ ...ALL_ON, mention: false, system: false });
    expect(expectOk(await call('GET', `/v1/notifications/preferences?installationId=${device.installationId}`))).toEqual(again);
    // naming the device alone changes nothing and answers the six keys
    expect(expectOk(await call('PUT', '/v1/notifications/preferences', { installationId: device.installationId }))).toEqual(again);

    // another installation of the same person keeps its own
    const phone = await registerDevice(server, alice, { newMessage: false });
    expect(expectOk(await call('GET', `/v1/notifications/preferences?installationId=${phone.installationId}`))).toEqual({ ...ALL_ON, newMessage: false });

    // GraphQL
    const read = gqlData(await gql(alice, 'query($d: String) { notificationPreferences(deviceSimplyId: $d) { newConversation newMessage assignment mention system workflow } }', { d: device.deviceSimplyId }));
    expect(read.notificationPreferences).toEqual(again);
    const written = gqlData(
      await gql(alice, 'mutation($i: String) { updateNotificationPreferences(input: { installationId: $i, mention: true, assignment: false }) { newConversation newMessage assignment mention system workflow } }', {
        i: device.installationId,
      }),
    );
    expect(written.updateNotificationPreferences).toEqual({ ...ALL_ON, system: false, assignment: false });
  });

  it('both or neither of installationId and deviceSimplyId: 400 INVALID_DEVICE', async () => {
    const device = await registerDevice(server, alice);
    const call = as(alice);
    const both = `installationId=${device.installationId}&deviceSimplyId=${device.deviceSimplyId}`;
    expectError(await call('GET', `/v1/notifications/preferences?${both}`), 400, 'INVALID_DEVICE');
    expectError(await call('GET', '/v1/notifications/preferences'), 400, 'INVALID_DEVICE');
    expectError(await call('PUT', '/v1/notifications/preferences', { ...device, mention: false }), 400, 'INVALID_DEVICE');
    expectError(await call('PUT', '/v1/notifications/preferences', { mention: false }), 400, 'INVALID_DEVICE');
    expectGqlError(await gql(alice, 'query { notificationPreferences { mention } }'), 'INVALID_DEVICE', 400);
    expectGqlError(await gql(alice, 'query($i: String, $d: String) { notificationPreferences(installationId: $i, deviceSimplyId: $d) { mention } }', { i: device.installationId, d: device.deviceSimplyId }), 'INVALID_DEVICE', 400);
    expectGqlError(await gql(alice, 'mutation { updateNotificationPreferences(input: { mention: false }) { mention } }'), 'INVALID_DEVICE', 400);
    // nothing was changed by the refused calls
    expect(expectOk(await call('GET', `/v1/notifications/preferences?installationId=${device.installationId}`))).toEqual(ALL_ON);
  });

  it("a device that is not the caller's: 404 DEVICE_NOT_FOUND", async () => {
    const bobs = await registerDevice(server, bob);
    const call = as(alice);
    for (const query of [`installationId=${bobs.installationId}`, `deviceSimplyId=${bobs.deviceSimplyId}`, 'installationId=never-registered', 'deviceSimplyId=dev-2222-3333-4444', 'deviceSimplyId=garbage']) {
      expectError(await call('GET', `/v1/notifications/preferences?${query}`), 404, 'DEVICE_NOT_FOUND', query);
    }
    expectError(await call('PUT', '/v1/notifications/preferences', { installationId: bobs.installationId, mention: false }), 404, 'DEVICE_NOT_FOUND');
    expectError(await call('PUT', '/v1/notifications/preferences', { deviceSimplyId: bobs.deviceSimplyId, mention: false }), 404, 'DEVICE_NOT_FOUND');
    expectGqlError(await gql(alice, 'query($d: String) { notificationPreferences(deviceSimplyId: $d) { mention } }', { d: bobs.deviceSimplyId }), 'DEVICE_NOT_FOUND', 404);
    expect(expectOk(await as(bob)('GET', `/v1/notifications/preferences?deviceSimplyId=${bobs.deviceSimplyId}`))).toEqual(ALL_ON);
  });

  it('the body is strict: unknown keys and non-booleans are 400 VALIDATION_ERROR naming the field', async () => {
    const device = await registerDevice(server, alice);
    const call = as(alice);
    const cases: [Record<string, unknown>, string][] = [
      [{ installationId: device.installationId, mentions: false }, 'mentions'],
      [{ installationId: device.installationId, mention: 'no' }, 'mention'],
      [{ installationId: device.installationId, system: null }, 'system'],
      [{ installationId: device.installationId, pushEnabled: false }, 'pushEnabled'],
    ];
    for (const [body, field] of cases) {
      const error = expectError(await call('PUT', '/v1/notifications/preferences', body), 400, 'VALIDATION_ERROR', field);
      expect(error.details?.map((d) => d.field)).toContain(field);
    }
    expectError(await call('GET', `/v1/notifications/preferences?installationId=${device.installationId}&mention=false`), 400, 'VALIDATION_ERROR');
    expectError(await call('PUT', '/v1/notifications/preferences', [device.installationId]), 400, 'VALIDATION_ERROR');
    const unknownKey = await gql(alice, 'mutation($i: String) { updateNotificationPreferences(input: { installationId: $i, mentions: false }) { mention } }', { i: device.installationId });
    expect(unknownKey.errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(unknownKey.errors?.[0]?.message).toContain('mentions');
    expectGqlError(await gql(alice, 'mutation($i: String) { updateNotificationPreferences(input: { installationId: $i, system: null }) { mention } }', { i: device.installationId }), 'VALIDATION_ERROR', 400);
    expect(expectOk(await call('GET', `/v1/notifications/preferences?installationId=${device.installationId}`))).toEqual(ALL_ON);
  });
});

describe('what a device turned off does to the feed', () => {
  it('is left out of its list and count, a filter on such a type lists nothing, and its read-all leaves them unread', async () => {
    const person = await newMember(server, team);
    const [message, mention, workflow, system, teamGenerated] = await notifyMany(server, team, person, [
      { type: 'NEW_MESSAGE' },
      { type: 'MENTION' },
      { type: 'WORKFLOW' },
      { type: 'BACKGROUND_TASK_FAILED' },
      { type: 'TEAM_GENERATED' },
    ]);
    const quiet = await registerDevice(server, person, { mention: false, workflow: false });
    const loud = await registerDevice(server, person);
    const call = as(person);
    const on = `installationId=${quiet.installationId}`;

    expect(ids(expectOk(await call('GET', `/v1/notifications?${on}`)))).toEqual([system, message]);
    expect((await call('GET', `/v1/notifications?${on}`)).body.meta.pagination).toEqual({ total: 2, limit: 50, offset: 0, hasMore: false });
    expect(ids(expectOk(await call('GET', `/v1/notifications?installationId=${loud.installationId}`)))).toEqual([teamGenerated, system, workflow, mention, message]);
    expect(ids(expectOk(await call('GET', '/v1/notifications')))).toHaveLength(5);
    expect(expectOk(await call('GET', `/v1/notifications/unread-count?${on}`))).toEqual({ unreadCount: 2 });
    expect(expectOk(await call('GET', '/v1/notifications/unread-count'))).toEqual({ unreadCount: 5 });

    // a type of a turned-off category: an empty list, not an error
    for (const type of ['MENTION', 'WORKFLOW', 'TEAM_GENERATED']) {
      const response = await call('GET', `/v1/notifications?${on}&notificationType=${type}`);
      expect(expectOk(response)).toEqual({ notifications: [] });
      expect(response.body.meta.pagination).toEqual({ total: 0, limit: 50, offset: 0, hasMore: false });
    }
    expect(ids(expectOk(await call('GET', `/v1/notifications?${on}&notificationType=BACKGROUND_TASK_FAILED`)))).toEqual([system]);

    const gqlList = gqlData(await gql(person, 'query($i: String) { notifications(installationId: $i) { nodes { simplyId } } notificationUnreadCount(installationId: $i) }', { i: quiet.installationId }));
    expect(gqlList.notifications.nodes.map((n: { simplyId: string }) => n.simplyId)).toEqual([system, message]);
    expect(gqlList.notificationUnreadCount).toBe(2);
    const none = gqlData(await gql(person, 'query($i: String) { notifications(installationId: $i, notificationType: MENTION) { nodes { simplyId } pagination { total } } }', { i: quiet.installationId }));
    expect(none.notifications).toEqual({ nodes: [], pagination: { total: 0 } });

    // read-all from the quiet device reads what it shows and leaves the rest unread
    expect(expectOk(await call('PUT', '/v1/notifications/read-all', { installationId: quiet.installationId }))).toEqual({ updatedCount: 2, unreadCount: 0 });
    expect(ids(expectOk(await call('GET', '/v1/notifications?isRead=false')))).toEqual([teamGenerated, workflow, mention]);
    expect(expectOk(await call('GET', '/v1/notifications/unread-count'))).toEqual({ unreadCount: 3 });
    expect(expectOk(await call('GET', `/v1/notifications/unread-count?installationId=${loud.installationId}`))).toEqual({ unreadCount: 3 });

    // turning a category back on shows it again
    expectOk(await call('PUT', '/v1/notifications/preferences', { installationId: quiet.installationId, mention: true }));
    expect(ids(expectOk(await call('GET', `/v1/notifications?${on}&isRead=false`)))).toEqual([mention]);
    const viaGql = gqlData(await gql(person, 'mutation($i: String) { markAllNotificationsRead(installationId: $i) { updatedCount unreadCount } }', { i: quiet.installationId }));
    expect(viaGql.markAllNotificationsRead).toEqual({ updatedCount: 1, unreadCount: 0 });
    expect(ids(expectOk(await call('GET', '/v1/notifications?isRead=false')))).toEqual([teamGenerated, workflow]);
  });

  it("an installationId that is not the caller's is 404 DEVICE_NOT_FOUND on list, count and read-all, and changes nothing", async () => {
    const person = await newMember(server, team);
    await notifyMany(server, team, person, [{}, {}]);
    const bobs = await registerDevice(server, bob);
    const call = as(person);
    for (const installationId of [bobs.installationId, 'unknown-installation']) {
      expectError(await call('GET', `/v1/notifications?installationId=${installationId}`), 404, 'DEVICE_NOT_FOUND');
      expectError(await call('GET', `/v1/notifications/unread-count?installationId=${installationId}`), 404, 'DEVICE_NOT_FOUND');
      expectError(await call('PUT', '/v1/notifications/read-all', { installationId }), 404, 'DEVICE_NOT_FOUND');
      expectGqlError(await gql(person, 'mutation($i: String) { markAllNotificationsRead(installationId: $i) { updatedCount } }', { i: installationId }), 'DEVICE_NOT_FOUND', 404);
    }
    expectError(await call('GET', '/v1/notifications?installationId=has%20spaces'), 400, 'VALIDATION_ERROR');
    expect(expectOk(await call('GET', '/v1/notifications/unread-count'))).toEqual({ unreadCount: 2 });
  });
});
