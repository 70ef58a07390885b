// notifications-push: a person with three devices (a browser, an iPhone, an Android phone), each
// registered with a push token of the local push endpoints the tests use (a Web Push service that
// decrypts the payload, an APNs and an FCM server over HTTP/2, all TLS). An automation notifies
// the person of each new record; for every notification the time from its creation to the last
// of its three deliveries being accepted by its endpoint (PushDelivery.sentAt) is measured.
import path from 'node:path';
import { startPushServers } from '../../../test/support/push-servers.ts';
import { ApiClient } from '../events/api-client.ts';
import { queryDatabase } from '../events/databases.ts';
import { startPlatform, svcEnvironment } from '../events/platform-process.ts';
import { judged } from '../events/results.ts';
import { summarizeLatencies } from '../events/stats.ts';
import { signIn, type NotificationsBed } from './notifications-bed.ts';

const WARM_UP = 5;
const MEASURED = 50;
const INTERVAL_MS = 200;

export async function runPushScenario(bed: NotificationsBed): Promise<void> {
  const { lines, targets, summary } = bed;
  const servers = await startPushServers(path.join(bed.root, 'push-endpoints'));
  const pushEnv = Object.fromEntries(Object.entries(servers.env).map(([k, v]) => [k, String(v)]));
  const platform = await startPlatform(svcEnvironment({ ...bed.env, ...pushEnv, PORT: '0' })).catch(async (error: unknown) => {
    await servers.close();
    throw error;
  });
  try {
    const token = await signIn(platform, bed.person);
    const team = `teamSimplyId=${bed.person.teamSimplyId}`;
    const user = new ApiClient({ baseUrl: platform.baseUrl, ca: platform.ca, apiKey: token, sockets: 2 });
    const devices = [
      { platform: 'web', token: servers.webPush.subscribe().token },
      { platform: 'ios', token: servers.apns.newToken() },
      { platform: 'android', token: servers.fcm.newToken() },
    ];
    for (const [i, device] of devices.entries()) {
      await user.expect(201, 'POST', `/v1/notifications/device-token?${team}`, { ...device, installationId: `bench-device-${i}` });
    }
    const api = new ApiClient({ baseUrl: platform.baseUrl, ca: platform.ca, apiKey: bed.person.apiKey, sockets: 2 });
    const collection = await api.expect(201, 'POST', '/v1/data-collections', { name: 'Bench push', fields: [{ title: 'Name', dataType: 'PLAIN_TEXT', isRequired: true }] });
    const nameField = (collection.fields as { id: string }[])[0]!.id;
    await api.expect(201, 'POST', '/v1/automations', {
      name: 'Notify the owner',
      dataCollectionSimplyId: collection.id,
      triggerType: 'RECORD_CREATED',
      actions: [{ actionType: 'SEND_USER_NOTIFICATION', actionConfig: { userSimplyId: bed.person.userSimplyId, title: 'New record {{record.name}}' } }],
    });
    bed.progress(`notifications: ${WARM_UP + MEASURED} notifications to three devices`);
    for (let i = 0; i < WARM_UP + MEASURED; i++) {
      const started = Date.now();
      await api.expect(201, 'POST', '/v1/data-records', { dataCollectionSimplyId: collection.id, fields: { [nameField]: `Record ${i}` } });
      const wait = started + INTERVAL_MS - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    }
    const expected = (WARM_UP + MEASURED) * devices.length;
    const deadline = Date.now() + 60_000;
    let sent = 0;
    while (Date.now() < deadline) {
      const [row] = await queryDatabase<{ sent: string }>(bed.database.url, `SELECT count(*) AS sent FROM "PushDelivery" WHERE status = 'SENT'`);
      sent = Number(row!.sent);
      if (sent >= expected) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    if (sent < expected) throw new Error(`only ${sent} of ${expected} pushes were accepted within 60 s`);
    const rows = await queryDatabase<{ ms: number }>(
      bed.database.url,
      `SELECT extract(epoch FROM max(d."sentAt") - n."createdAt") * 1000 AS ms
         FROM "UserNotification" n JOIN "PushDelivery" d ON d."notificationId" = n.id
        WHERE n.source = 'AUTOMATION'
        GROUP BY n.id ORDER BY n.id OFFSET ${WARM_UP}`,
    );
    const latencies = rows.map((r) => Number(r.ms));
    const s = summarizeLatencies(latencies);
    const p95 = [...latencies].sort((a, b) => a - b)[Math.ceil(0.95 * latencies.length) - 1]!;
    const received = { webPush: servers.webPush.received.length, apns: servers.apns.received.length, fcm: servers.fcm.received.length };
    summary.push = { notifications: MEASURED, devices: devices.length, ...s, p95, received };
    lines.push(
      '',
      `notifications-push: ${MEASURED} notifications (by automation, ${INTERVAL_MS} ms apart) to a person with three devices (Web Push, APNs, FCM; local TLS endpoints)`,
      `  creation → last of the three deliveries accepted: p50 ${s.p50.toFixed(0)} ms, p95 ${p95.toFixed(0)} ms, max ${s.max.toFixed(0)} ms`,
      `  received: Web Push ${received.webPush} (decrypted), APNs ${received.apns}, FCM ${received.fcm}`,
    );
    targets.push(judged('notification to three devices handed to the push endpoints, p95 < 1 s', `${p95.toFixed(0)} ms`, p95 < 1000));
  } finally {
    await platform.stop();
    await servers.close();
  }
}
