// Push-token registration over REST (POST/DELETE /v1/notifications/device-token) and GraphQL
// (registerDeviceToken, deactivateDeviceToken, webPushPublicKey): 201 for a new token, 200 for a
// known one, one active token per installation, tokens that change hands, validation per platform
// and the signed-in-member tier.
import { createECDH, randomBytes, randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { mintSessionToken } from '../support/credentials-fixtures.ts';
import { expectError, expectGqlError, expectOk, gqlData } from '../support/expect-envelope.ts';
import { addMember } from '../support/fixtures.ts';
import { useServer } from '../support/use-server.ts';

const TOKEN_ID = /^dtk-[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}$/;
const PATH = '/v1/notifications/device-token';
const REGISTER = `mutation ($input: RegisterDeviceTokenInput!) { registerDeviceToken(input: $input) { deviceTokenSimplyId created refreshed } }`;
const DEACTIVATE = `mutation ($token: String!) { deactivateDeviceToken(token: $token) { deactivated } }`;

type Person = { userSimplyId: string; token: string };

const apnsToken = () => randomBytes(32).toString('hex');
const fcmToken = () => `${randomBytes(8).toString('base64url')}:APA91b${randomBytes(90).toString('base64url')}`;
function subscription(endpoint = `https://push.example.com/send/${randomUUID()}`) {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return { endpoint, expirationTime: null, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') } };
}

describe('device tokens', () => {
  const { server, teams: [team, other] } = useServer({ teams: 2 });
  let me: Person;
  let stranger: Person;
  const post = (person: Person | string, body: unknown, teamId = team.teamSimplyId) =>
    server.request('POST', PATH, { token: typeof person === 'string' ? person : person.token, body, teamId });
  const del = (person: Person | string, body: unknown, teamId = team.teamSimplyId) =>
    server.request('DELETE', PATH, { token: typeof person === 'string' ? person : person.token, body, teamId });
  const gql = (person: Person, query: string, variables: Record<string, unknown>) => server.graphql(query, variables, { token: person.token, teamId: team.teamSimplyId });
  const row = (simplyId: string) => server.app.services.prisma.devicePushToken.findUniqueOrThrow({ where: { simplyId }, include: { device: true } });

  beforeAll(async () => {
    me = await addMember(server, team);
    stranger = await addMember(server, team);
  });

  it('REST: a new token is 201 { created: true }, the same token again 200 { refreshed: true }; the installation is registered with it', async () => {
    const installationId = randomUUID();
    const token = apnsToken();
    const created = expectOk(await post(me, { token, platform: 'ios', installationId }), 201);
    expect(created).toEqual({ deviceTokenSimplyId: expect.stringMatching(TOKEN_ID), created: true });
    const first = await row(created.deviceTokenSimplyId);
    expect(first).toMatchObject({ platform: 'ios', token, isActive: true, device: { installationId, platform: 'ios' } });

    // APNs tokens are hex: the same token in capitals is the same token
    const refreshed = expectOk(await post(me, { token: token.toUpperCase(), platform: 'ios', installationId }), 200);
    expect(refreshed).toEqual({ deviceTokenSimplyId: created.deviceTokenSimplyId, refreshed: true });
    const again = await row(created.deviceTokenSimplyId);
    expect(again.lastRefreshedAt.getTime()).toBeGreaterThanOrEqual(first.lastRefreshedAt.getTime());
    expect(await server.app.services.prisma.devicePushToken.count({ where: { userId: first.userId, deviceId: first.deviceId } })).toBe(1);
  });

  it('GraphQL: registerDeviceToken says created, then refreshed; a deactivated token registered again is active again', async () => {
    const input = { token: fcmToken(), platform: 'android', installationId: randomUUID() };
    const created = gqlData(await gql(me, REGISTER, { input })).registerDeviceToken;
    expect(created).toEqual({ deviceTokenSimplyId: expect.stringMatching(TOKEN_ID), created: true, refreshed: false });
    expect(gqlData(await gql(me, DEACTIVATE, { token: input.token })).deactivateDeviceToken).toEqual({ deactivated: true });
    expect(await row(created.deviceTokenSimplyId)).toMatchObject({ isActive: false, deactivationReason: 'USER', deactivatedAt: expect.any(Date) });
    const refreshed = gqlData(await gql(me, REGISTER, { input })).registerDeviceToken;
    expect(refreshed).toEqual({ deviceTokenSimplyId: created.deviceTokenSimplyId, created: false, refreshed: true });
    expect(await row(created.deviceTokenSimplyId)).toMatchObject({ isActive: true, deactivationReason: null, deactivatedAt: null });
  });

  it('web: a subscription is known by its endpoint; new keys for the same endpoint refresh it', async () => {
    const installationId = randomUUID();
    const sub = subscription();
    const created = expectOk(await post(me, { token: JSON.stringify(sub), platform: 'web', installationId }), 201);
    const renewed = { ...subscription(sub.endpoint) };
    expect(expectOk(await post(me, { token: JSON.stringify(renewed), platform: 'web', installationId }), 200)).toEqual({ deviceTokenSimplyId: created.deviceTokenSimplyId, refreshed: true });
    const stored = JSON.parse((await row(created.deviceTokenSimplyId)).token);
    // stored without the extras the browser sends (expirationTime)
    expect(stored).toEqual({ endpoint: sub.endpoint, keys: renewed.keys });
    // deactivated by the endpoint alone, as well as by the whole subscription
    expect(expectOk(await del(me, { token: sub.endpoint }))).toEqual({ deactivated: true });
    expect((await row(created.deviceTokenSimplyId)).isActive).toBe(false);
  });

  it('an installation has one active token: a new one replaces the old (REPLACED)', async () => {
    const installationId = randomUUID();
    const old = expectOk(await post(me, { token: apnsToken(), platform: 'ios', installationId }), 201);
    const next = expectOk(await post(me, { token: apnsToken(), platform: 'ios', installationId }), 201);
    expect(next.deviceTokenSimplyId).not.toBe(old.deviceTokenSimplyId);
    expect(await row(old.deviceTokenSimplyId)).toMatchObject({ isActive: false, deactivationReason: 'REPLACED' });
    expect(await row(next.deviceTokenSimplyId)).toMatchObject({ isActive: true });
    // another installation's token is not touched
    const elsewhere = expectOk(await post(me, { token: apnsToken(), platform: 'ios', installationId: randomUUID() }), 201);
    expect((await row(next.deviceTokenSimplyId)).isActive).toBe(true);
    expect((await row(elsewhere.deviceTokenSimplyId)).isActive).toBe(true);
  });

  it('a token another person registered moves to the caller as a new registration (the device changed hands)', async () => {
    const token = apnsToken();
    const theirs = expectOk(await post(stranger, { token, platform: 'ios', installationId: randomUUID() }), 201);
    const mine = expectOk(await post(me, { token, platform: 'ios', installationId: randomUUID() }), 201);
    expect(mine).toEqual({ deviceTokenSimplyId: expect.stringMatching(TOKEN_ID), created: true });
    expect(mine.deviceTokenSimplyId).not.toBe(theirs.deviceTokenSimplyId);
    const moved = await row(mine.deviceTokenSimplyId);
    const meRow = await server.app.services.prisma.user.findUniqueOrThrow({ where: { simplyId: me.userSimplyId } });
    expect(moved.userId).toBe(meRow.id);
    expect(await server.app.services.prisma.devicePushToken.count({ where: { simplyId: theirs.deviceTokenSimplyId } })).toBe(0);
    // the previous holder cannot deactivate it any more
    expectError(await del(stranger, { token }), 404, 'TOKEN_NOT_FOUND');
    expect((await row(mine.deviceTokenSimplyId)).isActive).toBe(true);
  });

  it('DELETE deactivates; an unknown token or another person’s is 404 TOKEN_NOT_FOUND (REST and GraphQL)', async () => {
    const token = fcmToken();
    const created = expectOk(await post(me, { token, platform: 'android', installationId: randomUUID() }), 201);
    expectError(await del(stranger, { token }), 404, 'TOKEN_NOT_FOUND');
    expectGqlError(await gql(stranger, DEACTIVATE, { token }), 'TOKEN_NOT_FOUND', 404);
    expect((await row(created.deviceTokenSimplyId)).isActive).toBe(true);
    expect(expectOk(await del(me, { token }))).toEqual({ deactivated: true });
    expect(await row(created.deviceTokenSimplyId)).toMatchObject({ isActive: false, deactivationReason: 'USER' });
    // deactivating again is harmless
    expect(expectOk(await del(me, { token }))).toEqual({ deactivated: true });
    expectError(await del(me, { token: fcmToken() }), 404, 'TOKEN_NOT_FOUND');
    expectGqlError(await gql(me, DEACTIVATE, { token: apnsToken() }), 'TOKEN_NOT_FOUND', 404);
  });

  it('malformed input is 400 VALIDATION_ERROR naming the field', async () => {
    const installationId = randomUUID();
    const good = subscription();
    const cases: [unknown, string][] = [
      [{ token: apnsToken(), platform: 'symbian', installationId }, 'platform'],
      [{ token: apnsToken(), platform: 'ios' }, 'installationId'],
      [{ token: apnsToken(), platform: 'ios', installationId: 'has spaces' }, 'installationId'],
      [{ token: '', platform: 'ios', installationId }, 'token'],
      [{ token: 'x'.repeat(4097), platform: 'android', installationId }, 'token'],
      [{ token: apnsToken(), platform: 'ios', installationId, extra: 1 }, 'extra'],
      [{ token: 'not-hex-at-all-'.repeat(4), platform: 'ios', installationId }, 'token'],
      [{ token: 'short', platform: 'android', installationId }, 'token'],
      [{ token: 'has spaces in it and more than twenty', platform: 'android', installationId }, 'token'],
      [{ token: 'not json', platform: 'web', installationId }, 'token'],
      [{ token: JSON.stringify({ ...good, endpoint: 'http://push.example.com/x' }), platform: 'web', installationId }, 'token.endpoint'],
      [{ token: JSON.stringify({ ...good, keys: { ...good.keys, p256dh: randomBytes(65).toString('base64url') } }), platform: 'web', installationId }, 'token.keys.p256dh'],
      [{ token: JSON.stringify({ ...good, keys: { ...good.keys, auth: randomBytes(8).toString('base64url') } }), platform: 'web', installationId }, 'token.keys.auth'],
      [{ token: JSON.stringify({ endpoint: good.endpoint }), platform: 'web', installationId }, 'token.keys'],
      [{ token: JSON.stringify({ ...good, surprise: true }), platform: 'web', installationId }, 'token.surprise'],
      // the endpoint is where the platform will connect: private and loopback addresses are refused
      [{ token: JSON.stringify(subscription('https://10.1.2.3/push/1')), platform: 'web', installationId }, 'token.endpoint'],
      [{ token: JSON.stringify(subscription('https://127.0.0.1:9/push/1')), platform: 'web', installationId }, 'token.endpoint'],
      [{ token: JSON.stringify(subscription('https://[fe80::1]/push/1')), platform: 'web', installationId }, 'token.endpoint'],
      [{ token: JSON.stringify(subscription('https://push.internal/push/1')), platform: 'web', installationId }, 'token.endpoint'],
    ];
    for (const [body, field] of cases) {
      const error = expectError(await post(me, body), 400, 'VALIDATION_ERROR', JSON.stringify(body).slice(0, 120));
      expect(error.details?.map((d) => d.field), JSON.stringify(error)).toContain(field);
    }
    const graphqlInvalid = await gql(me, REGISTER, { input: { token: 'nope', platform: 'ios', installationId } });
    expectGqlError(graphqlInvalid, 'VALIDATION_ERROR', 400);
    expectError(await del(me, {}), 400, 'VALIDATION_ERROR');
    expectError(await del(me, { token: 'x', more: 1 }), 400, 'VALIDATION_ERROR');
    // nothing of it was stored, not even the installation
    expect(await server.app.services.prisma.userDevice.count({ where: { installationId } })).toBe(0);
  });

  it('API keys and session tokens get 403 IDP_REQUIRED; a team the user is not in 403; no team selected 400', async () => {
    const session = await mintSessionToken(server, team.apiKey);
    const body = { token: apnsToken(), platform: 'ios', installationId: randomUUID() };
    for (const token of [team.apiKey, session.token]) {
      expectError(await post(token, body), 403, 'IDP_REQUIRED');
      expectError(await del(token, { token: body.token }), 403, 'IDP_REQUIRED');
      expectGqlError(await server.graphql(REGISTER, { input: body }, { token }), 'IDP_REQUIRED', 403);
      expectGqlError(await server.graphql(DEACTIVATE, { token: body.token }, { token }), 'IDP_REQUIRED', 403);
      expectGqlError(await server.graphql(`{ webPushPublicKey }`, {}, { token }), 'IDP_REQUIRED', 403);
    }
    expectError(await post('', body), 401, 'UNAUTHENTICATED');
    expectError(await post(me, body, other.teamSimplyId), 403, 'PERMISSION_DENIED');
    expect(await server.app.services.prisma.devicePushToken.count({ where: { tokenHash: { not: '' }, token: body.token } })).toBe(0);
  });

  it('webPushPublicKey: the VAPID public key browsers subscribe with, stable, for any signed-in user', async () => {
    const first = gqlData(await server.graphql(`{ webPushPublicKey }`, {}, { token: me.token })).webPushPublicKey;
    expect(first).toMatch(/^[A-Za-z0-9_-]{87}$/);
    const point = Buffer.from(first, 'base64url');
    expect(point).toHaveLength(65);
    expect(point[0]).toBe(4);
    expect(gqlData(await server.graphql(`{ webPushPublicKey }`, {}, { token: stranger.token })).webPushPublicKey).toBe(first);
  });
});
