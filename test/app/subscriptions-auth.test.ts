// graphql-ws authentication and authorization: credentials are checked on connection_init with
// the same rules as HTTP, and Subscription.teamEvents (privileged, TEAM_SETTINGS view) only ever
// delivers the caller's own team's events.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createApiKey, createRole, createTeam, unique, type TeamFixture } from '../support/fixtures.ts';
import { subscribeTeamEvents, warmUp, type TeamEventSubscriber } from '../support/realtime.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { untilWith } from '../support/until.ts';

const until = untilWith({ timeoutMs: 3000, everyMs: 20 });

describe('subscription authentication and authorization', () => {
  let server: TestServer;
  let teamX: TeamFixture;
  let teamY: TeamFixture;
  const open: TeamEventSubscriber[] = [];
  const track = (sub: TeamEventSubscriber) => (open.push(sub), sub);

  beforeAll(async () => {
    server = await startTestServer();
    [teamX, teamY] = await Promise.all([createTeam(server, { name: 'Team X' }), createTeam(server, { name: 'Team Y' })]);
  });
  afterAll(async () => {
    await Promise.all(open.map((s) => s.close()));
    await server?.close();
  });

  it.each([
    ['an unknown API key', 'Bearer svc_0000000000000000000000000000000000000000'],
    ['a malformed token', 'Bearer not-a-token'],
    ['a JWT with a bad signature', 'Bearer eyJhbGciOiJFZERTQSJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl'],
    ['a non-bearer scheme', 'Basic dXNlcjpwYXNz'],
  ])('connection_init with %s is refused (4403) before any operation', async (_label, authorization) => {
    const sub = track(subscribeTeamEvents(server, { authorization }));
    await until('the refusal', () => sub.state.closeCode !== undefined);
    expect(sub.state.closeCode).toBe(4403);
    expect(sub.state.connected).toBe(false);
    expect(sub.state.events).toEqual([]);
  });

  it('a revoked key is refused at connection_init', async () => {
    const key = await createApiKey(server, teamX, { name: 'soon revoked', featurePermissions: ['TEAM_SETTINGS:VIEW'] });
    expect((await server.request('DELETE', `/v1/api-keys/${key.id}`, { token: teamX.apiKey })).status).toBe(200);
    const sub = track(subscribeTeamEvents(server, { authorization: `Bearer ${key.key}` }));
    await until('the refusal', () => sub.state.closeCode !== undefined);
    expect(sub.state.closeCode).toBe(4403);
  });

  it('revoking a key closes its live subscription (4403) before anything more is delivered', async () => {
    const key = await createApiKey(server, teamX, { name: 'live then revoked', featurePermissions: ['TEAM_SETTINGS:VIEW'] });
    const doomed = track(subscribeTeamEvents(server, { authorization: `Bearer ${key.key}` }));
    const control = track(subscribeTeamEvents(server, { authorization: `Bearer ${teamX.apiKey}` }));
    await Promise.all([warmUp(server, teamX, doomed), warmUp(server, teamX, control)]);
    const deliveredBefore = doomed.state.events.length;

    expect((await server.request('DELETE', `/v1/api-keys/${key.id}`, { token: teamX.apiKey })).status).toBe(200);
    const roleId = await createRole(server, teamX, { name: `After revocation ${unique()}` });
    await until('the control subscriber to see the new role', () => control.state.events.find((e) => e.resourceId === roleId));
    await until('the revoked subscription to be closed', () => doomed.state.closeCode !== undefined);
    expect(doomed.state.closeCode).toBe(4403);
    // neither the revocation event nor anything after it reached the revoked key
    expect(doomed.state.events.length).toBe(deliveredBefore);
    expect(control.state.events.find((e) => e.type === 'API_KEY_REVOKED' && e.resourceId === key.id)).toBeDefined();
  });

  it('without a credential the subscription fails UNAUTHENTICATED', async () => {
    const sub = track(subscribeTeamEvents(server, {}));
    await until('the error', () => sub.state.graphqlErrors.length > 0);
    expect(sub.state.graphqlErrors[0]!.extensions?.code).toBe('UNAUTHENTICATED');
    expect(sub.state.events).toEqual([]);
  });

  it('a user JWT without a team gets VALIDATION_ERROR as the subscription error', async () => {
    const sub = track(subscribeTeamEvents(server, { authorization: `Bearer ${teamX.userToken}` }));
    await until('the error', () => sub.state.graphqlErrors.length > 0);
    expect(sub.state.connected).toBe(true); // the credential itself is fine
    expect(sub.state.graphqlErrors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'VALIDATION_ERROR' }) })]);
    expect(sub.state.events).toEqual([]);
  });

  it("a user JWT selecting a team they do not belong to gets PERMISSION_DENIED", async () => {
    const sub = track(subscribeTeamEvents(server, { authorization: `Bearer ${teamX.userToken}`, 'X-Team-Id': teamY.teamSimplyId }));
    await until('the error', () => sub.state.graphqlErrors.length > 0);
    expect(sub.state.graphqlErrors[0]!.extensions?.code).toBe('PERMISSION_DENIED');
    expect(sub.state.events).toEqual([]);
  });

  it('a session token (scoped) is refused teamEvents with PERMISSION_DENIED', async () => {
    const minted = await server.request('POST', '/v1/session-tokens', { token: teamX.apiKey, body: {} });
    expect(minted.status).toBe(201);
    expect(minted.body.data.featurePermissions).toContain('TEAM_SETTINGS'); // it has the feature; the tier is what fails
    const sub = track(subscribeTeamEvents(server, { authorization: `Bearer ${minted.body.data.token}` }));
    await until('the error', () => sub.state.graphqlErrors.length > 0);
    expect(sub.state.connected).toBe(true);
    expect(sub.state.graphqlErrors[0]!.extensions?.code).toBe('PERMISSION_DENIED');
    expect(sub.state.events).toEqual([]);
  });

  it('a key without TEAM_SETTINGS is refused with PERMISSION_DENIED', async () => {
    const key = await createApiKey(server, teamX, { name: 'no settings', featurePermissions: ['TEAM_ADMIN_USER_ROLES:VIEW'] });
    const sub = track(subscribeTeamEvents(server, { authorization: `Bearer ${key.key}` }));
    await until('the error', () => sub.state.graphqlErrors.length > 0);
    expect(sub.state.graphqlErrors[0]!.extensions?.code).toBe('PERMISSION_DENIED');
  });

  it("a team admin's JWT with X-Team-Id subscribes to its team's events", async () => {
    const sub = track(subscribeTeamEvents(server, { authorization: `Bearer ${teamX.userToken}`, 'X-Team-Id': teamX.teamSimplyId }));
    await warmUp(server, teamX, sub);
    expect(sub.state.graphqlErrors).toEqual([]);
    const roleId = await createRole(server, teamX, { name: `Seen by the admin ${unique()}` });
    const event = await until('the event', () => sub.state.events.find((e) => e.resourceId === roleId));
    expect(event).toEqual({ type: 'TEAM_ROLE_CREATED', resourceType: 'TeamRole', resourceId: roleId, actor: { kind: 'API_KEY', id: teamX.apiKeySimplyId } });
  });

  it("a key of team X never receives team Y's events", async () => {
    const member = await addMember(server, teamY, { isTeamAdmin: true });
    const keyX = await createApiKey(server, teamX, { name: 'x listener', featurePermissions: ['TEAM_SETTINGS:VIEW'] });
    const subX = track(subscribeTeamEvents(server, { authorization: `Bearer ${keyX.key}` }));
    const subY = track(subscribeTeamEvents(server, { authorization: `Bearer ${teamY.apiKey}` }));
    await Promise.all([warmUp(server, teamX, subX), warmUp(server, teamY, subY)]);
    const seenByX = subX.state.events.length;

    // Y changes things (through an API key and through a signed-in user); Y's listener sees each change
    const yRole = await createRole(server, teamY, { name: `Y only ${unique()}` });
    const yKey = await createApiKey(server, teamY, { name: 'y key' });
    const yUserRole = await server.request('POST', '/v1/team-roles', { token: member.token, teamId: teamY.teamSimplyId, body: { name: `Y user ${unique()}` } });
    expect(yUserRole.status).toBe(201);
    for (const id of [yRole, yKey.id, yUserRole.body.data.id]) await until(`Y's event ${id}`, () => subY.state.events.find((e) => e.resourceId === id));

    // then X changes something: events are delivered in order, so once X's own event is in,
    // anything of Y's addressed to X would have arrived before it
    const xRole = await createRole(server, teamX, { name: `X after Y ${unique()}` });
    await until("X's own event", () => subX.state.events.find((e) => e.resourceId === xRole));
    const newForX = subX.state.events.slice(seenByX);
    expect(newForX.map((e) => e.resourceId)).toEqual([xRole]);
    const yIds = new Set(subY.state.events.map((e) => e.resourceId));
    expect(subX.state.events.filter((e) => yIds.has(e.resourceId))).toEqual([]);
    expect(subY.state.events.find((e) => e.resourceId === yUserRole.body.data.id)?.actor).toEqual({ kind: 'USER', id: member.userSimplyId });
  });
});
