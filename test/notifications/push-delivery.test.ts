// Push delivery end to end through real local endpoints (test/support/push-servers.ts): a
// notification written by `notify` is fanned out by pg-boss jobs to the person's active tokens
// and sent to a Web Push service (VAPID-checked, payload decrypted with the subscription's keys),
// an APNs HTTP/2 server and an FCM HTTP/2 server (OAuth2 token exchange included). Token-gone
// answers deactivate tokens, transient failures are retried, disabled categories get nothing, and
// an outage never holds up the write that created the notification.
import path from 'node:path';
import { createECDH, randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { gqlData } from '../support/expect-envelope.ts';
import { newMember, notifyMember, type Person } from '../support/notification-fixtures.ts';
import { FCM_UNAVAILABLE, FCM_UNREGISTERED, startPushServers, type PushServers } from '../support/push-servers.ts';
import { createTeam, type TeamFixture } from '../support/fixtures.ts';
import { createMigratedDatabase } from '../support/migrated-database.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { useServer } from '../support/use-server.ts';
import { untilWith } from '../support/until.ts';
import { deviceTokenId } from '../../src/modules/notifications/notifications.ids.ts';
import { PUSH_FANOUT, PUSH_SEND } from '../../src/modules/notifications/push/push-jobs.names.ts';
import { tokenHash } from '../../src/modules/notifications/push/push-tokens.ts';

const until = untilWith({ timeoutMs: 15_000, everyMs: 50 });
const REGISTER = `mutation ($input: RegisterDeviceTokenInput!) { registerDeviceToken(input: $input) { deviceTokenSimplyId created } }`;

async function register(server: TestServer, person: Person, platform: 'web' | 'ios' | 'android', token: string, installationId = randomUUID()) {
  const data = gqlData(await server.graphql(REGISTER, { input: { token, platform, installationId } }, { token: person.token, teamId: person.teamSimplyId }));
  return { deviceTokenSimplyId: data.registerDeviceToken.deviceTokenSimplyId as string, installationId };
}

function deliveriesOf(server: TestServer, notificationSimplyId: string) {
  return server.app.services.prisma.pushDelivery.findMany({
    where: { notification: { simplyId: notificationSimplyId } },
    include: { token: { select: { simplyId: true, platform: true, isActive: true, deactivationReason: true } } },
    orderBy: { id: 'asc' },
  });
}

/** waits until every delivery of the notification is final, then returns them */
async function settled(server: TestServer, notificationSimplyId: string, expected: number) {
  return until(`${expected} final deliveries of ${notificationSimplyId}`, async () => {
    const rows = await deliveriesOf(server, notificationSimplyId);
    return rows.length === expected && rows.every((r) => r.status !== 'PENDING') && rows;
  });
}

/** no push job waiting or running: what was going to be pushed has been */
async function queuesIdle(server: TestServer) {
  await until('the push queues to be idle', async () => {
    const [row] = await server.app.services.prisma.$queryRaw<{ n: bigint }[]>`
      SELECT count(*) AS n FROM pgboss.job WHERE name IN (${PUSH_FANOUT}, ${PUSH_SEND}) AND state IN ('created', 'retry', 'active')`;
    return row!.n === 0n;
  });
}

describe('push delivery through local Web Push, APNs and FCM endpoints', () => {
  let push: PushServers;
  let server: TestServer;
  let team: TeamFixture;
  let database: Awaited<ReturnType<typeof createMigratedDatabase>>;

  beforeAll(async () => {
    // the push queues are global to a database: this file's jobs must reach these endpoints only
    database = await createMigratedDatabase('push-delivery');
    push = await startPushServers(path.join(inject('testDataDir'), `push-${randomUUID().slice(0, 8)}`));
    server = await startTestServer({
      databaseUrl: database.url,
      runJobs: true,
      env: { ...push.env, PUSH_SEND_ATTEMPTS: 3, PUSH_RETRY_DELAY_SECONDS: 0 },
    });
    team = await createTeam(server);
  });

  afterAll(async () => {
    await server?.close();
    await push?.close();
    await database?.drop();
  });

  it('a person with a browser, an iPhone and an Android phone gets the notification on all three, in their language', async () => {
    const person = await newMember(server, team);
    await server.app.services.prisma.user.update({ where: { simplyId: person.userSimplyId }, data: { defaultInterfaceLanguageId: 'de' } });
    const browser = push.webPush.subscribe();
    const iphone = push.apns.newToken();
    const android = push.fcm.newToken();
    await register(server, person, 'web', browser.token);
    await register(server, person, 'ios', iphone);
    await register(server, person, 'android', android);

    const id = await notifyMember(server, team, person, {
      type: 'ASSIGNMENT',
      title: { en: 'New assignment', de: 'Neue Zuweisung' },
      body: { en: 'Ada assigned you a case', de: 'Ada hat Ihnen einen Fall zugewiesen' },
      actionUrl: '/inbox/cases/42',
    });
    const rows = await settled(server, id, 3);
    expect(rows.map((r) => [r.token.platform, r.status, r.attempts])).toEqual(expect.arrayContaining([['web', 'SENT', 1], ['ios', 'SENT', 1], ['android', 'SENT', 1]]));
    for (const r of rows) expect(r.sentAt).toBeInstanceOf(Date);

    const data = { notificationSimplyId: id, notificationType: 'ASSIGNMENT', actionUrl: '/inbox/cases/42', teamSimplyId: team.teamSimplyId };
    const web = push.webPush.received.find((r) => r.subscriptionId === browser.id);
    // decrypted with the subscription's private key and auth secret: what the service worker reads
    expect(web?.payload).toEqual({ title: 'Neue Zuweisung', body: 'Ada hat Ihnen einen Fall zugewiesen', data });
    const vapidKey = gqlData(await server.graphql(`{ webPushPublicKey }`, {}, { token: person.token })).webPushPublicKey;
    expect(web?.vapid).toEqual({ subject: 'mailto:push@svc.invalid', audience: push.webPush.origin, publicKey: vapidKey });

    const ios = push.apns.received.find((r) => r.deviceToken === iphone);
    expect(ios?.payload).toEqual({ aps: { alert: { title: 'Neue Zuweisung', body: 'Ada hat Ihnen einen Fall zugewiesen' }, sound: 'default', 'thread-id': team.teamSimplyId }, ...data });
    expect(ios?.headers).toMatchObject({ 'apns-topic': push.apns.topic, 'apns-push-type': 'alert', 'apns-priority': '10', 'apns-collapse-id': id });

    const fcm = push.fcm.received.find((r) => r.message.token === android);
    expect(fcm?.message).toMatchObject({ token: android, notification: { title: 'Neue Zuweisung', body: 'Ada hat Ihnen einen Fall zugewiesen' }, data, android: { priority: 'high' } });
    expect(push.fcm.issued.length).toBeGreaterThan(0);
    expect([...push.webPush.refused, ...push.apns.refused, ...push.fcm.refused]).toEqual([]);
  });

  it('English, then the first language, when the person has no language the text has; a long body is cut to fit', async () => {
    const person = await newMember(server, team);
    const iphone = push.apns.newToken();
    const browser = push.webPush.subscribe();
    await register(server, person, 'ios', iphone);
    await register(server, person, 'web', browser.token);
    const long = 'Lorem ipsum dolor sit amet. '.repeat(300);
    const id = await notifyMember(server, team, person, { title: { fr: 'Bonjour', en: 'Hello' }, body: { fr: long } });
    await settled(server, id, 2);
    const ios = push.apns.received.find((r) => r.deviceToken === iphone)!;
    expect(ios.payload.aps.alert.title).toBe('Hello');
    expect(ios.payload.aps.alert.body.endsWith('…')).toBe(true);
    expect(long.startsWith(ios.payload.aps.alert.body.slice(0, -1))).toBe(true);
    expect(Buffer.byteLength(JSON.stringify(ios.payload))).toBeLessThanOrEqual(4096);
    const web = push.webPush.received.find((r) => r.subscriptionId === browser.id)!;
    expect(web.payload.title).toBe('Hello');
    expect(web.payload.body.endsWith('…')).toBe(true);
  });

  it("a provider's token-gone answer deactivates the token (410 Web Push, 410 Unregistered and 400 BadDeviceToken APNs, 404 UNREGISTERED FCM)", async () => {
    const person = await newMember(server, team);
    const browser = push.webPush.subscribe();
    const unregistered = push.apns.newToken();
    const badToken = push.apns.newToken();
    const android = push.fcm.newToken();
    push.webPush.answer(browser.id, () => ({ status: 410, body: 'subscription expired' }));
    push.apns.answer(unregistered, () => ({ status: 410, body: { reason: 'Unregistered', timestamp: Date.now() } }));
    push.apns.answer(badToken, () => ({ status: 400, body: { reason: 'BadDeviceToken' } }));
    push.fcm.answer(android, () => FCM_UNREGISTERED);
    const tokens = [
      await register(server, person, 'web', browser.token),
      await register(server, person, 'ios', unregistered),
      await register(server, person, 'ios', badToken),
      await register(server, person, 'android', android),
    ];
    const id = await notifyMember(server, team, person);
    const rows = await settled(server, id, 4);
    expect(rows.map((r) => r.status)).toEqual(['TOKEN_GONE', 'TOKEN_GONE', 'TOKEN_GONE', 'TOKEN_GONE']);
    expect(rows.map((r) => r.lastError)).toEqual([
      expect.stringContaining('410'),
      expect.stringContaining('Unregistered'),
      expect.stringContaining('BadDeviceToken'),
      expect.stringContaining('UNREGISTERED'),
    ]);
    const stored = await server.app.services.prisma.devicePushToken.findMany({ where: { simplyId: { in: tokens.map((t) => t.deviceTokenSimplyId) } } });
    expect(stored.map((t) => [t.isActive, t.deactivationReason])).toEqual(stored.map(() => [false, 'TOKEN_GONE']));

    // the next notification is not even handed to them
    const next = await notifyMember(server, team, person);
    await queuesIdle(server);
    expect(await deliveriesOf(server, next)).toEqual([]);
  });

  it('a transient failure (503, 500) is retried and then delivered; attempts are counted', async () => {
    const person = await newMember(server, team);
    const browser = push.webPush.subscribe();
    const iphone = push.apns.newToken();
    const android = push.fcm.newToken();
    push.webPush.answer(browser.id, (n) => (n === 1 ? { status: 500 } : null));
    push.apns.answer(iphone, (n) => (n === 1 ? { status: 503, body: { reason: 'ServiceUnavailable' } } : null));
    push.fcm.answer(android, (n) => (n <= 2 ? FCM_UNAVAILABLE : null));
    await register(server, person, 'web', browser.token);
    await register(server, person, 'ios', iphone);
    await register(server, person, 'android', android);
    const id = await notifyMember(server, team, person);
    const rows = await settled(server, id, 3);
    expect(Object.fromEntries(rows.map((r) => [r.token.platform, [r.status, r.attempts]]))).toEqual({ web: ['SENT', 2], ios: ['SENT', 2], android: ['SENT', 3] });
    expect(push.webPush.received.filter((r) => r.subscriptionId === browser.id)).toHaveLength(1);
    expect(push.apns.received.filter((r) => r.deviceToken === iphone)).toHaveLength(1);
    expect(push.fcm.received.filter((r) => r.message.token === android)).toHaveLength(1);
  });

  it('a provider outage never holds up the write: the notification commits at once, the delivery ends FAILED after its last attempt', async () => {
    const person = await newMember(server, team);
    const android = push.fcm.newToken();
    push.fcm.answer(android, () => FCM_UNAVAILABLE);
    await register(server, person, 'android', android);
    const started = performance.now();
    const id = await notifyMember(server, team, person, { title: 'During the outage' });
    expect(performance.now() - started).toBeLessThan(1000);
    const feed = await server.app.services.prisma.userNotification.findFirst({ where: { simplyId: id } });
    expect(feed?.title).toBe('During the outage');
    const [row] = await settled(server, id, 1);
    expect(row).toMatchObject({ status: 'FAILED', attempts: 3, lastError: expect.stringContaining('FCM 503'), sentAt: null });
    expect(push.fcm.attempts(android)).toBe(3);
    // a failed delivery leaves the token alone: the next notification tries again
    expect(row!.token.isActive).toBe(true);
  });

  it('nothing is pushed for a category the device turned off, nor to a device with push off', async () => {
    const person = await newMember(server, team);
    const quiet = push.apns.newToken();
    const muted = push.fcm.newToken();
    const listening = push.webPush.subscribe();
    const q = await register(server, person, 'ios', quiet);
    const m = await register(server, person, 'android', muted);
    await register(server, person, 'web', listening.token);
    const { prisma } = server.app.services;
    await prisma.userDevice.updateMany({ where: { installationId: q.installationId }, data: { preferences: { mention: false } } });
    await prisma.userDevice.updateMany({ where: { installationId: m.installationId }, data: { pushEnabled: false } });

    const mention = await notifyMember(server, team, person, { type: 'MENTION', title: 'You were mentioned' });
    const system = await notifyMember(server, team, person, { type: 'SYSTEM', title: 'Maintenance tonight' });
    await settled(server, system, 2);
    await settled(server, mention, 1);
    await queuesIdle(server);
    expect(push.apns.received.filter((r) => r.deviceToken === quiet).map((r) => r.payload.aps.alert.title)).toEqual(['Maintenance tonight']);
    expect(push.fcm.attempts(muted)).toBe(0);
    expect(push.webPush.received.filter((r) => r.subscriptionId === listening.id).map((r) => r.payload.title).sort()).toEqual(['Maintenance tonight', 'You were mentioned']);
  });

  it('the send looks again: a device that turned the category off, push off, or a token that moved to another person since the fan-out gets nothing (SKIPPED)', async () => {
    const person = await newMember(server, team);
    const other = await newMember(server, team);
    // the notification first (no tokens yet, so no fan-out deliveries), then the tokens and the
    // changes, then the send jobs the fan-out would have queued: the state a send finds when
    // things changed between fan-out and send
    const id = await notifyMember(server, team, person, { type: 'MENTION' });
    await queuesIdle(server);
    const categoryOff = push.apns.newToken();
    const pushOff = push.webPush.subscribe();
    const moved = push.fcm.newToken();
    const stillOn = push.apns.newToken();
    const c = await register(server, person, 'ios', categoryOff);
    const p = await register(server, person, 'web', pushOff.token);
    const m = await register(server, person, 'android', moved);
    const s = await register(server, person, 'ios', stillOn);
    const { prisma, jobs } = server.app.services;
    const notification = await prisma.userNotification.findFirstOrThrow({ where: { simplyId: id } });
    const tokenRows = await prisma.devicePushToken.findMany({ where: { simplyId: { in: [c, p, m, s].map((t) => t.deviceTokenSimplyId) } } });
    const deliveries = await prisma.pushDelivery.createManyAndReturn({
      data: tokenRows.map((t) => ({ teamId: notification.teamId, notificationId: notification.id, tokenId: t.id })),
    });
    await prisma.userDevice.updateMany({ where: { installationId: c.installationId }, data: { preferences: { mention: false } } });
    await prisma.userDevice.updateMany({ where: { installationId: p.installationId }, data: { pushEnabled: false } });
    await register(server, other, 'android', moved);
    for (const d of deliveries) await jobs.send(PUSH_SEND, { teamId: String(d.teamId), deliveryId: String(d.id) });

    const rows = await settled(server, id, 4);
    expect(Object.fromEntries(rows.map((r) => [r.tokenId === tokenRows.find((t) => t.token === stillOn)!.id ? 'stillOn' : r.token.platform, [r.status, r.lastError]]))).toEqual({
      ios: ['SKIPPED', 'the category mention is turned off on the device'],
      web: ['SKIPPED', 'push is turned off on the device'],
      android: ['SKIPPED', 'the token now belongs to another person'],
      stillOn: ['SENT', null],
    });
    expect(push.apns.received.filter((r) => r.deviceToken === categoryOff)).toEqual([]);
    expect(push.webPush.received.filter((r) => r.subscriptionId === pushOff.id)).toEqual([]);
    expect(push.fcm.attempts(moved)).toBe(0);
    expect(push.apns.received.filter((r) => r.deviceToken === stillOn)).toHaveLength(1);
  });
});

describe('push without APNs and FCM settings', () => {
  const { server, teams: [team] } = useServer({ teams: 1, ownDatabase: 'push-unconfigured', runJobs: true });

  it('ios and android deliveries are SKIPPED with the reason; a web endpoint on a loopback address is refused at send time', async () => {
    const person = await newMember(server, team);
    await register(server, person, 'ios', randomBytes(32).toString('hex'));
    await register(server, person, 'android', `${randomBytes(8).toString('base64url')}:APA91b${randomBytes(90).toString('base64url')}`);
    // registered while it pointed elsewhere: the send resolves and checks the endpoint again
    const user = await server.app.services.prisma.user.findUniqueOrThrow({ where: { simplyId: person.userSimplyId } });
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    const keys = { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') };
    const endpoint = 'https://127.0.0.1:9/push/x';
    await server.app.services.prisma.devicePushToken.create({
      data: { simplyId: deviceTokenId.create(), userId: user.id, platform: 'web', token: JSON.stringify({ endpoint, keys }), tokenHash: tokenHash(endpoint) },
    });
    const id = await notifyMember(server, team, person);
    const rows = await settled(server, id, 3);
    expect(Object.fromEntries(rows.map((r) => [r.token.platform, [r.status, r.lastError]]))).toEqual({
      ios: ['SKIPPED', expect.stringContaining('APNs is not configured')],
      android: ['SKIPPED', expect.stringContaining('FCM is not configured')],
      web: ['FAILED', expect.stringMatching(/refused.*loopback/)],
    });
    // skipped deliveries cost no attempt and leave the tokens active
    expect(rows.filter((r) => r.status === 'SKIPPED').map((r) => [r.attempts, r.token.isActive])).toEqual([[0, true], [0, true]]);
  });
});

