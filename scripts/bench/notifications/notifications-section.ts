// The notifications section of `npm run bench` (docs/benchmark.md "Notifications"), judged against
// its targets, on platform servers of their own (`svc start`) over a fresh database:
//   notifications-feed      GET /v1/notifications (limit 50) and /unread-count for a person with
//                           10,000 notifications, 10 connections (p95 < 15 ms each)
//   notifications-realtime  1,000 graphql-ws subscribers of that person's feed, split over two
//                           server instances; a read on the first instance reaches every
//                           subscriber (p99 < 200 ms from sending the write)
//   notifications-push      a notification to a person with three devices (web, ios, android)
//                           handed to the local push endpoints (p95 < 1 s from its creation)
import { ApiClient } from '../events/api-client.ts';
import { queryDatabase, type ScenarioDatabase } from '../events/databases.ts';
import { startPlatform, svcEnvironment, type PlatformProcess } from '../events/platform-process.ts';
import { judged } from '../events/results.ts';
import { summarizeLatencies } from '../events/stats.ts';
import { SubscriberClients } from '../events/subscriber-clients.ts';
import { runPushScenario } from './push-scenario.ts';
import { signIn, type BenchPerson, type NotificationsBed } from './notifications-bed.ts';
import { defineBenchSection } from '../bench-section.ts';
import { runSection } from '../section-bed.ts';

export const NOTIFICATION_SCENARIOS = ['notifications-feed', 'notifications-realtime', 'notifications-push'] as const;
export type NotificationScenario = (typeof NOTIFICATION_SCENARIOS)[number];


const FEED_SIZE = 10_000;
const FEED_CONNECTIONS = 10;
const FEED_REQUESTS_PER_CONNECTION = 100;
const SUBSCRIBERS = 1_000;
const CLIENT_PROCESSES = 4;
const READS = 100;
const READ_INTERVAL_MS = 50;

const p95 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.ceil(0.95 * values.length) - 1]!;

/** `count` notifications for the person (every fourth unread), oldest first, as the platform writes them. */
export async function seedNotifications(database: ScenarioDatabase, person: BenchPerson, count: number): Promise<void> {
  await queryDatabase(
    database.url,
    `INSERT INTO "UserNotification" ("simplyId", "teamId", "userId", "notificationType", category, title, body, "actionUrl",
                                     "referenceEntityType", "referenceEntityId", source, "sourceId", "readAt", "createdAt", "updatedAt")
     -- ids in the platform's alphabet (no 0 or 1): md5 hex with those two swapped for G and H
     SELECT 'ntf-' || regexp_replace(translate(upper(substr(md5('seed' || g), 1, 12)), '01', 'GH'), '(.{4})(.{4})(.{4})', '\\1-\\2-\\3'),
            t.id, u.id, (ARRAY['NEW_MESSAGE','ASSIGNMENT','MENTION','SYSTEM','WORKFLOW'])[1 + g % 5],
            (ARRAY['newMessage','assignment','mention','system','workflow'])[1 + g % 5],
            jsonb_build_object('en', 'Notification ' || g), to_jsonb('Body of notification ' || g), '/data-records/' || g,
            'DATA_RECORD', 'rec-' || g, 'BENCH', 'seed-' || g,
            CASE WHEN g % 4 = 0 THEN NULL ELSE now() END, now() - ((${count} - g) || ' seconds')::interval, now()
       FROM "Team" t, "User" u, generate_series(1, $3::int) AS g
      WHERE t."simplyId" = $1 AND u."simplyId" = $2`,
    [person.teamSimplyId, person.userSimplyId, count],
  );
  // the steady state autovacuum reaches: statistics, and a visibility map for index-only counts
  await queryDatabase(database.url, 'VACUUM ANALYZE "UserNotification"');
}

async function feedScenario(bed: NotificationsBed): Promise<void> {
  const { lines, targets, summary } = bed;
  // one person sends 1,250 requests within a minute: the per-credential limit would answer many with 429
  const platform = await startPlatform(svcEnvironment({ ...bed.env, PORT: '0', RATE_LIMIT_PER_MINUTE: '1000000' }));
  try {
    const token = await signIn(platform, bed.person);
    const api = new ApiClient({ baseUrl: platform.baseUrl, ca: platform.ca, apiKey: token, sockets: FEED_CONNECTIONS });
    const team = `teamSimplyId=${bed.person.teamSimplyId}`;
    const list = `/v1/notifications?${team}`;
    const count = `/v1/notifications/unread-count?${team}`;
    for (let i = 0; i < 50; i++) await api.request('GET', i % 2 ? list : count);
    // unloaded: one request at a time (informational, shows the cost of one request)
    const alone = { list: [] as number[], count: [] as number[] };
    for (let i = 0; i < 200; i++) {
      const which = i % 2 === 0 ? 'list' : 'count';
      const response = await api.request('GET', which === 'list' ? `${list}&limit=50&offset=${(i % 40) * 50}` : count);
      alone[which].push(response.doneAt - response.sentAt);
    }
    const measured = { list: [] as number[], count: [] as number[] };
    const lane = async (laneIndex: number) => {
      for (let i = 0; i < FEED_REQUESTS_PER_CONNECTION; i++) {
        const which = (i + laneIndex) % 2 === 0 ? 'list' : 'count';
        // later pages too: offsets up to 2,000 of the 10,000
        const url = which === 'list' ? `${list}&limit=50&offset=${(i % 40) * 50}` : count;
        const response = await api.request('GET', url);
        if (response.status !== 200) throw new Error(`${url} answered ${response.status}: ${JSON.stringify(response.body).slice(0, 300)}`);
        measured[which].push(response.doneAt - response.sentAt);
      }
    };
    await Promise.all(Array.from({ length: FEED_CONNECTIONS }, (_, i) => lane(i)));
    const listP95 = p95(measured.list);
    const countP95 = p95(measured.count);
    summary.feed = { notifications: FEED_SIZE, connections: FEED_CONNECTIONS, alone: { listP95: p95(alone.list), countP95: p95(alone.count) }, list: { ...summarizeLatencies(measured.list), p95: listP95 }, count: { ...summarizeLatencies(measured.count), p95: countP95 } };
    lines.push(
      '',
      `notifications-feed: one person with ${FEED_SIZE.toLocaleString('en')} notifications, ${FEED_CONNECTIONS} connections, ${FEED_CONNECTIONS * FEED_REQUESTS_PER_CONNECTION} requests (half list, half count)`,
      `  list (limit 50, offsets 0-1,950): p50 ${summarizeLatencies(measured.list).p50.toFixed(1)} ms, p95 ${listP95.toFixed(1)} ms`,
      `  unread-count: p50 ${summarizeLatencies(measured.count).p50.toFixed(1)} ms, p95 ${countP95.toFixed(1)} ms`,
      `  one request at a time (informational): list p50 ${summarizeLatencies(alone.list).p50.toFixed(1)} ms, p95 ${p95(alone.list).toFixed(1)} ms; count p50 ${summarizeLatencies(alone.count).p50.toFixed(1)} ms, p95 ${p95(alone.count).toFixed(1)} ms`,
    );
    targets.push(judged('notification list at 10,000, 10 connections, p95 < 15 ms', `${listP95.toFixed(1)} ms`, listP95 < 15));
    targets.push(judged('unread count at 10,000, 10 connections, p95 < 15 ms', `${countP95.toFixed(1)} ms`, countP95 < 15));
  } finally {
    await platform.stop();
  }
}

const SUBSCRIPTION = `subscription Feed { notificationEvents { type notificationSimplyIds unreadCount occurredAt } }`;

async function realtimeScenario(bed: NotificationsBed): Promise<void> {
  const { lines, targets, summary } = bed;
  const first = await startPlatform(svcEnvironment({ ...bed.env, PORT: '0' }));
  const second = await startPlatform(svcEnvironment({ ...bed.env, PORT: '0' })).catch(async (error: unknown) => {
    await first.stop();
    throw error;
  });
  const clients = new SubscriberClients(CLIENT_PROCESSES);
  try {
    await clients.ready;
    const token = await signIn(first, bed.person);
    const api = new ApiClient({ baseUrl: first.baseUrl, ca: first.ca, apiKey: token, sockets: 2 });
    const connectionParams = { authorization: `Bearer ${token}`, 'X-Team-Id': bed.person.teamSimplyId };
    const order = (platform: PlatformProcess) => ({
      url: platform.baseUrl.replace(/^https/, 'wss') + '/graphql',
      ca: platform.ca,
      connectionParams,
      query: SUBSCRIPTION,
      variables: {},
      field: 'notificationEvents',
      idField: 'notificationSimplyIds',
      payloadField: 'unreadCount',
      count: SUBSCRIBERS / 2,
      concurrency: 25,
    });
    bed.progress(`notifications: connecting ${SUBSCRIBERS} subscribers over two instances`);
    const onFirst = await clients.connect({ ...order(first), ca: first.ca });
    const onBoth = await clients.connect({ ...order(second), ca: second.ca });
    if (onBoth.failed > 0) throw new Error(`${onBoth.failed} subscribers failed to connect: ${onBoth.firstError}`);
    const unread = await queryDatabase<{ simplyId: string }>(
      bed.database.url,
      `SELECT n."simplyId" FROM "UserNotification" n JOIN "User" u ON u.id = n."userId"
        WHERE u."simplyId" = $1 AND n."readAt" IS NULL AND n."deletedAt" IS NULL ORDER BY n.id DESC LIMIT $2`,
      [bed.person.userSimplyId, READS + 40],
    );
    const read = async (simplyId: string) => {
      const response = await api.request('PUT', `/v1/notifications/${simplyId}/read?teamSimplyId=${bed.person.teamSimplyId}`);
      if (response.status !== 200) throw new Error(`read answered ${response.status}: ${JSON.stringify(response.body).slice(0, 300)}`);
      return response;
    };
    // the protocol does not say when a subscription is live: read until every client has heard one
    let warm = READS;
    const liveBy = Date.now() + 60_000;
    for (;;) {
      await read(unread[warm++]!.simplyId);
      await new Promise((r) => setTimeout(r, 100));
      const status = await clients.status();
      if (status.live >= SUBSCRIBERS) break;
      if (Date.now() > liveBy || warm >= unread.length) throw new Error(`only ${status.live} of ${SUBSCRIBERS} subscribers heard a read (${status.firstError ?? 'no error'})`);
    }
    await clients.reset();
    const sentAt: Record<string, number> = {};
    const writeMs: number[] = [];
    for (let i = 0; i < READS; i++) {
      const started = Date.now();
      const response = await read(unread[i]!.simplyId);
      sentAt[unread[i]!.simplyId] = response.sentAt;
      writeMs.push(response.doneAt - response.sentAt);
      const wait = started + READ_INTERVAL_MS - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    }
    await new Promise((r) => setTimeout(r, 3_000));
    const collected = await clients.collect(sentAt);
    const s = summarizeLatencies(collected.latencies, collected.missing);
    summary.realtime = { subscribers: SUBSCRIBERS, instances: 2, reads: READS, firstInstanceConnected: onFirst.connected, ...s, duplicates: collected.duplicates, writeP50: summarizeLatencies(writeMs).p50 };
    lines.push(
      '',
      `notifications-realtime: ${SUBSCRIBERS} graphql-ws subscribers of one person's feed, half on each of two instances; ${READS} reads on the first, ${READ_INTERVAL_MS} ms apart`,
      `  receipt after the read was sent: p50 ${s.p50.toFixed(0)} ms, p90 ${s.p90.toFixed(0)} ms, p99 ${s.p99.toFixed(0)} ms, max ${s.max.toFixed(0)} ms; missing ${collected.missing}, duplicates ${collected.duplicates}`,
      `  the read itself: p50 ${summarizeLatencies(writeMs).p50.toFixed(1)} ms`,
    );
    targets.push(judged('read-state change to 1,000 subscribers on two instances, p99 < 200 ms', `${s.p99.toFixed(0)} ms`, s.p99 < 200));
  } finally {
    await clients.disconnect().catch(() => {});
    await clients.close();
    await Promise.all([first.stop(), second.stop()]);
  }
}

export const runNotificationsSection = (scenarios: readonly NotificationScenario[], progress: (line: string) => void) =>
  runSection('notifications', scenarios, progress, async (sectionBed) => {
    const bed: NotificationsBed<NotificationScenario> = { ...sectionBed, person: await sectionBed.bootstrap('Bench notifications') };
    progress(`notifications: seeding ${FEED_SIZE.toLocaleString('en')} notifications`);
    await seedNotifications(bed.database, bed.person, FEED_SIZE);
    await bed.scenario('notifications-feed', () => feedScenario(bed));
    await bed.scenario('notifications-realtime', () => realtimeScenario(bed));
    await bed.scenario('notifications-push', () => runPushScenario(bed));
  });

export const benchSection = defineBenchSection('notifications', NOTIFICATION_SCENARIOS, runNotificationsSection);
