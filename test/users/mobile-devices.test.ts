// The current user's mobile devices and per-device settings over REST (/v1/users/me/mobile-devices)
// and GraphQL (myMobileDevices, registerCurrentMobileDevice, updateMyMobileDevice,
// updateCurrentMobileDeviceSettings, mobileDeviceSettings).
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { mintSessionToken } from '../support/credentials-fixtures.ts';
import { expectError, expectGqlError, expectOk, gqlData } from '../support/expect-envelope.ts';
import { addMember } from '../support/fixtures.ts';
import type { TestServer } from '../support/server.ts';
import { useServer } from '../support/use-server.ts';

const DEVICE_ID = /^dev-[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}$/;
const ALL_ON = { newConversation: true, newMessage: true, assignment: true, mention: true, system: true, workflow: true };
const DEVICES = '/v1/users/me/mobile-devices';

type Person = { userSimplyId: string; token: string };

function caller(server: () => TestServer) {
  return (person: Person | string, method: string, path: string, body?: unknown, teamId?: string) =>
    server().request(method, path, { token: typeof person === 'string' ? person : person.token, body, teamId });
}

describe('mobile devices', () => {
  const { server, teams: [team, other] } = useServer({ teams: 2 });
  const call = caller(() => server);
  let me: Person;
  let stranger: Person;

  const register = (person: Person, body: Record<string, unknown>) => call(person, 'POST', `${DEVICES}/current`, body);

  beforeAll(async () => {
    me = await addMember(server, team);
    stranger = await addMember(server, other);
  });

  it('POST current registers an installation (201) and refreshes it afterwards (200); GET lists the devices', async () => {
    const installationId = randomUUID();
    const created = expectOk(await register(me, { installationId, platform: 'ios', deviceName: ' Ada’s iPhone ', appVersion: '3.1.0', osVersion: '18.2' }), 201);
    expect(created).toEqual({
      id: created.deviceSimplyId,
      deviceSimplyId: expect.stringMatching(DEVICE_ID),
      installationId,
      platform: 'ios',
      deviceName: 'Ada’s iPhone',
      appVersion: '3.1.0',
      osVersion: '18.2',
      pushEnabled: true,
      activePushTokens: 0,
      lastActiveAt: expect.any(String),
      createdAt: expect.any(String),
      created: true,
    });

    // the same installation again: same device, facts refreshed, untouched ones kept
    const refreshed = expectOk(await register(me, { installationId, platform: 'ios', appVersion: '3.2.0' }), 200);
    expect(refreshed).toMatchObject({ deviceSimplyId: created.deviceSimplyId, appVersion: '3.2.0', deviceName: 'Ada’s iPhone', osVersion: '18.2', created: false });
    expect(Date.parse(refreshed.lastActiveAt)).toBeGreaterThanOrEqual(Date.parse(created.lastActiveAt));

    // a second installation (the web app), registered through GraphQL
    const web = randomUUID();
    const gql = gqlData(
      await server.graphql(
        `mutation($input: RegisterMobileDeviceInput!) { registerCurrentMobileDevice(input: $input) { created device { deviceSimplyId platform deviceName } } }`,
        { input: { installationId: web, platform: 'web' } },
        { token: me.token },
      ),
    );
    expect(gql.registerCurrentMobileDevice).toEqual({ created: true, device: { deviceSimplyId: expect.stringMatching(DEVICE_ID), platform: 'web', deviceName: null } });
    const again = gqlData(
      await server.graphql(`mutation($input: RegisterMobileDeviceInput!) { registerCurrentMobileDevice(input: $input) { created } }`, { input: { installationId: web, platform: 'web' } }, { token: me.token }),
    );
    expect(again.registerCurrentMobileDevice.created).toBe(false);

    // most recently active first; another person's devices never show
    await register(stranger, { installationId, platform: 'android' });
    const list = expectOk(await call(me, 'GET', DEVICES));
    expect(list.map((d: { installationId: string }) => d.installationId)).toEqual([web, installationId]);
    const { created: _created, ...refreshedDevice } = refreshed;
    expect(list[1]).toEqual(refreshedDevice);
    const viaGql = gqlData(await server.graphql(`{ myMobileDevices { deviceSimplyId installationId } }`, {}, { token: me.token }));
    expect(viaGql.myMobileDevices.map((d: { installationId: string }) => d.installationId)).toEqual([web, installationId]);
    // the same installation id of another person is their own device
    const strangers = expectOk(await call(stranger, 'GET', DEVICES));
    expect(strangers).toHaveLength(1);
    expect(strangers[0].deviceSimplyId).not.toBe(created.deviceSimplyId);
  });

  it('counts the active push tokens of each device', async () => {
    const self = await addMember(server, team);
    const device = expectOk(await register(self, { installationId: randomUUID(), platform: 'android' }), 201);
    const { prisma } = server.app.services;
    const row = await prisma.userDevice.findUniqueOrThrow({ where: { simplyId: device.deviceSimplyId } });
    const token = (n: number, isActive: boolean) => ({
      simplyId: `dtk-test-${randomUUID()}`,
      userId: row.userId,
      deviceId: row.id,
      platform: 'android',
      token: `fcm-${n}-${randomUUID()}`,
      tokenHash: randomUUID(),
      isActive,
    });
    await prisma.devicePushToken.createMany({ data: [token(1, true), token(2, true), token(3, false)] });
    expect(expectOk(await call(self, 'GET', DEVICES))[0].activePushTokens).toBe(2);
  });

  it('PUT {deviceSimplyId} renames a device and switches its pushes; strict; malformed 400; another person\'s 404', async () => {
    const device = expectOk(await register(me, { installationId: randomUUID(), platform: 'android', deviceName: 'Pixel' }), 201);
    const path = `${DEVICES}/${device.deviceSimplyId}`;
    const updated = expectOk(await call(me, 'PUT', path, { deviceName: 'Work phone', pushEnabled: false }));
    expect(updated).toMatchObject({ deviceSimplyId: device.deviceSimplyId, deviceName: 'Work phone', pushEnabled: false, platform: 'android' });
    expect(expectOk(await call(me, 'PUT', path, { deviceName: null }))).toMatchObject({ deviceName: null, pushEnabled: false });
    const gql = gqlData(
      await server.graphql(
        `mutation($id: String!, $input: UpdateMobileDeviceInput!) { updateMyMobileDevice(deviceSimplyId: $id, input: $input) { deviceName pushEnabled } }`,
        { id: device.deviceSimplyId, input: { pushEnabled: true, deviceName: 'Pixel 9' } },
        { token: me.token },
      ),
    );
    expect(gql.updateMyMobileDevice).toEqual({ deviceName: 'Pixel 9', pushEnabled: true });

    for (const body of [{ platform: 'ios' }, { installationId: 'x' }, { pushEnabled: 'yes' }, { deviceName: 'x'.repeat(101) }, { deviceName: '' }]) {
      expectError(await call(me, 'PUT', path, body), 400, 'VALIDATION_ERROR', JSON.stringify(body));
    }
    expectError(await call(me, 'PUT', `${DEVICES}/dev-1`, { pushEnabled: false }), 400, 'VALIDATION_ERROR');

    // another person's device is answered as unknown, and stays as it was
    const foreign = expectError(await call(stranger, 'PUT', path, { deviceName: 'Mine now' }), 404, 'DEVICE_NOT_FOUND');
    const missing = expectError(await call(stranger, 'PUT', `${DEVICES}/dev-ZZZZ-ZZZZ-ZZZZ`, { deviceName: 'Mine now' }), 404, 'DEVICE_NOT_FOUND');
    expect(foreign.message.replace(device.deviceSimplyId, '<id>')).toBe(missing.message.replace('dev-ZZZZ-ZZZZ-ZZZZ', '<id>'));
    expectGqlError(
      await server.graphql(`mutation($id: String!) { updateMyMobileDevice(deviceSimplyId: $id, input: { pushEnabled: false }) { id } }`, { id: device.deviceSimplyId }, { token: stranger.token }),
      'DEVICE_NOT_FOUND',
      404,
    );
    const row = await server.app.services.prisma.userDevice.findUniqueOrThrow({ where: { simplyId: device.deviceSimplyId } });
    expect(row).toMatchObject({ deviceName: 'Pixel 9', pushEnabled: true });
  });

  it('settings: PUT current/settings merges the given keys and answers all six; GET {id}/settings reads them', async () => {
    const installationId = randomUUID();
    const device = expectOk(await register(me, { installationId, platform: 'ios' }), 201);
    const settingsPath = `${DEVICES}/${device.deviceSimplyId}/settings`;
    expect(expectOk(await call(me, 'GET', settingsPath))).toEqual({ deviceSimplyId: device.deviceSimplyId, installationId, pushEnabled: true, preferences: ALL_ON });

    const put = (body: unknown, person: Person = me) => call(person, 'PUT', `${DEVICES}/current/settings`, body);
    expect(expectOk(await put({ installationId, preferences: { newMessage: false, mention: false } }))).toEqual({
      deviceSimplyId: device.deviceSimplyId,
      installationId,
      pushEnabled: true,
      preferences: { ...ALL_ON, newMessage: false, mention: false },
    });
    // only the keys given change
    expect(expectOk(await put({ installationId, pushEnabled: false, preferences: { mention: true } }))).toEqual({
      deviceSimplyId: device.deviceSimplyId,
      installationId,
      pushEnabled: false,
      preferences: { ...ALL_ON, newMessage: false },
    });
    expect(expectOk(await put({ installationId }))).toMatchObject({ pushEnabled: false, preferences: { ...ALL_ON, newMessage: false } });

    const gql = gqlData(
      await server.graphql(
        `mutation($input: MobileDeviceSettingsInput!) { updateCurrentMobileDeviceSettings(input: $input) { pushEnabled preferences { newMessage workflow } } }`,
        { input: { installationId, pushEnabled: true, preferences: { workflow: false } } },
        { token: me.token },
      ),
    );
    expect(gql.updateCurrentMobileDeviceSettings).toEqual({ pushEnabled: true, preferences: { newMessage: false, workflow: false } });
    const read = gqlData(
      await server.graphql(`query($id: String!) { mobileDeviceSettings(deviceSimplyId: $id) { deviceSimplyId pushEnabled preferences { newMessage workflow system } } }`, { id: device.deviceSimplyId }, { token: me.token }),
    );
    expect(read.mobileDeviceSettings).toEqual({ deviceSimplyId: device.deviceSimplyId, pushEnabled: true, preferences: { newMessage: false, workflow: false, system: true } });
    expect(expectOk(await call(me, 'GET', settingsPath)).preferences).toEqual({ ...ALL_ON, newMessage: false, workflow: false });

    // the store is the device row's (the one /v1/notifications/preferences uses)
    const row = await server.app.services.prisma.userDevice.findUniqueOrThrow({ where: { simplyId: device.deviceSimplyId } });
    expect(row).toMatchObject({ pushEnabled: true, preferences: { newMessage: false, mention: true, workflow: false } });
  });

  it('settings: strict bodies, unknown keys refused; an unregistered installation or another person\'s device is 404', async () => {
    const installationId = randomUUID();
    const device = expectOk(await register(me, { installationId, platform: 'web' }), 201);
    const put = (body: unknown, person: Person = me) => call(person, 'PUT', `${DEVICES}/current/settings`, body);
    const unknownKey = expectError(await put({ installationId, preferences: { newMessage: false, marketing: false } }), 400, 'VALIDATION_ERROR');
    expect(unknownKey.details).toContainEqual({ field: 'preferences.marketing', message: expect.any(String) });
    expectError(await put({ installationId, sound: true }), 400, 'VALIDATION_ERROR');
    expectError(await put({ installationId, preferences: { newMessage: 'no' } }), 400, 'VALIDATION_ERROR');
    expectError(await put({ preferences: { newMessage: false } }), 400, 'VALIDATION_ERROR');
    expectError(await put({ installationId: 'has spaces', preferences: {} }), 400, 'VALIDATION_ERROR');
    expectError(await put({ deviceSimplyId: device.deviceSimplyId, preferences: {} }), 400, 'VALIDATION_ERROR');
    expectGqlError(
      await server.graphql(`mutation($input: MobileDeviceSettingsInput!) { updateCurrentMobileDeviceSettings(input: $input) { pushEnabled } }`, { input: { installationId, preferences: { marketing: false } } }, { token: me.token }),
      'VALIDATION_ERROR',
      400,
      400, // an unknown input field is a GraphQL variable error
    );
    // nothing of the refused bodies was written
    expect(expectOk(await call(me, 'GET', `${DEVICES}/${device.deviceSimplyId}/settings`)).preferences).toEqual(ALL_ON);

    // the installation must have been registered by this person
    expectError(await put({ installationId: randomUUID(), pushEnabled: false }), 404, 'DEVICE_NOT_FOUND');
    expectError(await put({ installationId, pushEnabled: false }, stranger), 404, 'DEVICE_NOT_FOUND');
    expectError(await call(stranger, 'GET', `${DEVICES}/${device.deviceSimplyId}/settings`), 404, 'DEVICE_NOT_FOUND');
    expectGqlError(await server.graphql(`query($id: String!) { mobileDeviceSettings(deviceSimplyId: $id) { pushEnabled } }`, { id: device.deviceSimplyId }, { token: stranger.token }), 'DEVICE_NOT_FOUND', 404);
    expectError(await call(me, 'GET', `${DEVICES}/not-a-device/settings`), 400, 'VALIDATION_ERROR');
    expect((await server.app.services.prisma.userDevice.findUniqueOrThrow({ where: { simplyId: device.deviceSimplyId } })).pushEnabled).toBe(true);
  });

  it('registration: strict body, platform ios/android/web, installation id format', async () => {
    const bad = [
      {},
      { installationId: randomUUID() },
      { installationId: randomUUID(), platform: 'windows' },
      { installationId: 'with space', platform: 'ios' },
      { installationId: 'x'.repeat(201), platform: 'ios' },
      { installationId: randomUUID(), platform: 'ios', pushToken: 'abc' },
      { installationId: randomUUID(), platform: 'ios', appVersion: 'x'.repeat(51) },
    ];
    for (const body of bad) expectError(await register(me, body), 400, 'VALIDATION_ERROR', JSON.stringify(body));
    expectGqlError(
      await server.graphql(`mutation { registerCurrentMobileDevice(input: { installationId: "abc", platform: "symbian" }) { created } }`, {}, { token: me.token }),
      'VALIDATION_ERROR',
      400,
    );
  });

  it('API keys and session tokens get 403 IDP_REQUIRED; no credential 401; a team the user is not in 403', async () => {
    const session = await mintSessionToken(server, team.apiKey);
    const installationId = randomUUID();
    const device = expectOk(await register(me, { installationId, platform: 'ios' }), 201);
    const routes: [string, string, unknown?][] = [
      ['GET', DEVICES],
      ['POST', `${DEVICES}/current`, { installationId, platform: 'ios' }],
      ['PUT', `${DEVICES}/${device.deviceSimplyId}`, { pushEnabled: false }],
      ['PUT', `${DEVICES}/current/settings`, { installationId, pushEnabled: false }],
      ['GET', `${DEVICES}/${device.deviceSimplyId}/settings`],
    ];
    for (const [method, path, body] of routes) {
      for (const token of [team.apiKey, session.token]) expectError(await call(token, method, path, body), 403, 'IDP_REQUIRED', `${method} ${path}`);
      expectError(await call('', method, path, body), 401, 'UNAUTHENTICATED', `${method} ${path}`);
      expectError(await call(me, method, path, body, other.teamSimplyId), 403, 'PERMISSION_DENIED', `${method} ${path}`);
    }
    for (const token of [team.apiKey, session.token]) {
      expectGqlError(await server.graphql(`{ myMobileDevices { id } }`, {}, { token }), 'IDP_REQUIRED', 403);
      expectGqlError(await server.graphql(`mutation { registerCurrentMobileDevice(input: { installationId: "abc", platform: "ios" }) { created } }`, {}, { token }), 'IDP_REQUIRED', 403);
    }
    expect((await server.app.services.prisma.userDevice.findUniqueOrThrow({ where: { simplyId: device.deviceSimplyId } })).pushEnabled).toBe(true);
    expect(await server.app.services.prisma.userDevice.count({ where: { installationId: 'abc' } })).toBe(0);
    // a team of the user's, or none, is fine
    for (const [method, path, body] of routes) expect((await call(me, method, path, body, team.teamSimplyId)).status, `${method} ${path}`).toBeLessThan(300);
  });
});
