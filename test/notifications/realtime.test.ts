// The notificationEvents subscription across two server instances on one database: a change made
// through instance A (a new notification through notify, a read, a read-all, a delete) reaches a
// graphql-ws client on instance B with the unread count after it; other people and the same person
// in another team hear nothing of it; a subscription as one installation skips what it turned off
// and counts its own unread; who may subscribe follows the feed's rules.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintSessionToken } from '../support/credentials-fixtures.ts';
import { expectOk } from '../support/expect-envelope.ts';
import { createTeam, type TeamFixture } from '../support/fixtures.ts';
import { joinTeam, newMember, notifyMember, registerDevice, subscribeFeed, type FeedSubscriber, type Person } from '../support/notification-fixtures.ts';
import { serverGraphqlWsClient } from '../support/realtime.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { countSql } from '../support/sql-counter.ts';
import { untilWith } from '../support/until.ts';

const until = untilWith({ timeoutMs: 10_000, everyMs: 20 });

let a: TestServer;
let b: TestServer;
let team: TeamFixture;
let other: TeamFixture;
const open: FeedSubscriber[] = [];

beforeAll(async () => {
  a = await startTestServer();
  b = await startTestServer({ dataDir: a.dataDir });
  [team, other] = await Promise.all([createTeam(a), createTeam(a)]);
});
afterAll(async () => {
  await Promise.all(open.map((s) => s.close()));
  await b?.close();
  await a?.close();
});

const as = (p: Person) => (method: string, path: string, body?: unknown) => a.request(method, path, { token: p.token, teamId: p.teamSimplyId, body });

function subscribe(person: Person, installationId?: string): FeedSubscriber {
  const sub = subscribeFeed(b, person, installationId);
  open.push(sub);
  return sub;
}

/** The protocol does not say when a subscription is live: notify `person` (through A) until `sub` heard one. */
async function warmUp(sub: FeedSubscriber, t: TeamFixture, person: Person): Promise<string[]> {
  const sent: string[] = [];
  await until('the subscription to go live', async () => {
    if (sub.state.errors.length) throw new Error(JSON.stringify(sub.state.errors));
    if (sent.some((id) => sub.about(id).length > 0)) return true;
    sent.push(await notifyMember(a, t, person, { type: 'SYSTEM', title: 'Warm-up' }));
    return until('an event', () => sent.some((id) => sub.about(id).length > 0), 500).catch(() => false);
  });
  return sent;
}

describe('notificationEvents across two instances', () => {
  it('delivers CREATED, READ, READ_ALL and DELETED made on A to a client on B, with the unread count; nobody else hears them', async () => {
    const alice = await newMember(a, team);
    const bob = await newMember(a, team);
    const aliceElsewhere = await joinTeam(a, alice, other);

    const mine = subscribe(alice);
    const bobs = subscribe(bob);
    const elsewhere = subscribe(aliceElsewhere);
    const warm = await warmUp(mine, team, alice);
    await warmUp(bobs, team, bob);
    await warmUp(elsewhere, other, aliceElsewhere);
    // clean slate: the warm-up notifications are read through A
    expectOk(await as(alice)('PUT', '/v1/notifications/read-all'));
    await until('the warm-up read-all', () => mine.state.events.some((e) => e.type === 'READ_ALL' && e.unreadCount === 0));

    // CREATED through notify: the notification itself rides along
    const first = await notifyMember(a, team, alice, { type: 'MENTION', title: { en: 'You were mentioned', fr: 'On vous a mentionné' } });
    const second = await notifyMember(a, team, alice, { type: 'NEW_MESSAGE', title: 'A message' });
    const third = await notifyMember(a, team, alice, { type: 'ASSIGNMENT', title: 'Yours now' });
    await until('the three CREATED events', () => [first, second, third].every((id) => mine.about(id).length === 1));
    const created = mine.about(first)[0]!;
    expect(created).toMatchObject({ type: 'CREATED', notificationSimplyIds: [first], unreadCount: 1 });
    expect(created.notification).toEqual({ simplyId: first, notificationType: 'MENTION', title: { en: 'You were mentioned', fr: 'On vous a mentionné' }, isRead: false });
    expect(new Date(created.occurredAt).getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(mine.about(third)[0]!.unreadCount).toBe(3);

    // READ through REST on A
    expectOk(await as(alice)('PUT', `/v1/notifications/${first}/read`));
    await until('the READ event', () => mine.about(first).some((e) => e.type === 'READ'));
    expect(mine.about(first).find((e) => e.type === 'READ')).toMatchObject({ notificationSimplyIds: [first], unreadCount: 2, notification: null });
    // a second read changes nothing and publishes nothing
    expectOk(await as(alice)('PUT', `/v1/notifications/${first}/read`));

    // DELETED (of an unread one: the count drops)
    expectOk(await as(alice)('DELETE', `/v1/notifications/${second}`));
    await until('the DELETED event', () => mine.about(second).some((e) => e.type === 'DELETED'));
    expect(mine.about(second).find((e) => e.type === 'DELETED')).toMatchObject({ notificationSimplyIds: [second], unreadCount: 1 });

    // READ_ALL through GraphQL on A: the ids it touched
    const fourth = await notifyMember(a, team, alice);
    await until('the fourth', () => mine.about(fourth).length === 1);
    const readAll = await a.graphql('mutation { markAllNotificationsRead { updatedCount } }', {}, { token: alice.token, teamId: alice.teamSimplyId });
    expect(readAll.data?.markAllNotificationsRead).toEqual({ updatedCount: 2 });
    await until('the READ_ALL event', () => mine.about(fourth).some((e) => e.type === 'READ_ALL'));
    const all = mine.about(fourth).find((e) => e.type === 'READ_ALL')!;
    expect([...all.notificationSimplyIds].sort()).toEqual([third, fourth].sort());
    expect(all.unreadCount).toBe(0);

    // in order, exactly once each, and nothing about the repeated read
    expect(mine.about(first).map((e) => e.type)).toEqual(['CREATED', 'READ']);
    expect(mine.state.errors).toEqual([]);

    // bob, and alice in the other team, heard none of it (they were live: they heard their own warm-ups)
    const alices = [...warm, first, second, third, fourth];
    for (const sub of [bobs, elsewhere]) {
      expect(alices.flatMap((id) => sub.about(id))).toEqual([]);
      expect(sub.state.events.every((e) => e.type === 'CREATED')).toBe(true);
    }
  });

  it('a CREATED too large for one NOTIFY message brings its notification by id', async () => {
    const person = await newMember(a, team);
    const sub = subscribe(person);
    await warmUp(sub, team, person);
    const title = Object.fromEntries(['en', 'de', 'fr', 'es', 'it', 'nl', 'pt', 'sv', 'da', 'fi', 'pl', 'cs', 'hu', 'ro', 'el', 'tr', 'ja', 'ko'].map((l) => [l, `${l} `.repeat(200)]));
    const id = await notifyMember(a, team, person, { type: 'WORKFLOW', title });
    await until('the large CREATED', () => sub.about(id).length === 1);
    expect(sub.about(id)[0]!.notification).toEqual({ simplyId: id, notificationType: 'WORKFLOW', title, isRead: false });
  });

  it('as one installation: events only about turned-off categories are skipped, and unreadCount is its own', async () => {
    const person = await newMember(a, team);
    const { installationId } = await registerDevice(a, person, { mention: false });
    // several of the person's apps on B with the same installation: one device lookup per event, not one each
    const subs = Array.from({ length: 5 }, () => subscribe(person, installationId));
    const plain = subscribe(person);
    for (const sub of subs) await warmUp(sub, team, person);
    await warmUp(plain, team, person);
    expectOk(await as(person)('PUT', '/v1/notifications/read-all'));
    await until('the clean slate', () => subs.every((s) => s.state.events.some((e) => e.type === 'READ_ALL' && e.unreadCount === 0)));

    const sql = countSql(b.app.services.pool);
    const mention = await notifyMember(a, team, person, { type: 'MENTION' });
    const system = await notifyMember(a, team, person, { type: 'SYSTEM' });
    await until('the SYSTEM event everywhere', () => [...subs, plain].every((s) => s.about(system).length === 1));
    for (const sub of subs) {
      expect(sub.about(mention)).toEqual([]);
      expect(sub.about(system)[0]).toMatchObject({ type: 'CREATED', unreadCount: 1 });
    }
    expect(plain.about(mention)).toHaveLength(1);
    expect(plain.about(system)[0]!.unreadCount).toBe(2);
    const deviceReads = sql.statements.filter((s) => s.includes('"UserDevice"'));
    // two events on B, each looked up once for the five subscribers
    expect(deviceReads.length).toBe(2);

    // reading the hidden one is not news for the device; reading the shown one is
    expectOk(await as(person)('PUT', `/v1/notifications/${mention}/read`));
    expectOk(await as(person)('PUT', `/v1/notifications/${system}/read`));
    await until('the READ of the shown one', () => subs.every((s) => s.about(system).some((e) => e.type === 'READ')));
    await until('the plain subscriber', () => plain.about(mention).some((e) => e.type === 'READ'));
    for (const sub of subs) {
      expect(sub.about(mention)).toEqual([]);
      expect(sub.about(system).find((e) => e.type === 'READ')!.unreadCount).toBe(0);
    }
  });

  it('after a possible loss both kinds of subscriber get one RESYNC_REQUIRED and stay open', async () => {
    const person = await newMember(a, team);
    const { installationId } = await registerDevice(a, person, { workflow: false });
    const device = subscribe(person, installationId);
    const plain = subscribe(person);
    await warmUp(device, team, person);
    await warmUp(plain, team, person);
    // what an instance does when its LISTEN connection was lost and it cannot tell what was missed
    b.app.services.events.hub.resync((key) => key.startsWith('notificationEvents:'));
    await until('the signals', () => [device, plain].every((s) => s.state.errors.some((e) => e.extensions?.code === 'RESYNC_REQUIRED')));
    const after = await notifyMember(a, team, person, { type: 'ASSIGNMENT' });
    await until('an event after the signal', () => [device, plain].every((s) => s.about(after).length === 1));
    for (const sub of [device, plain]) {
      expect(sub.state.errors.map((e) => e.extensions?.code)).toEqual(['RESYNC_REQUIRED']);
      expect(sub.state.done).toBe(false);
    }
  });

  it('follows the feed’s rules: user credentials of a member only, and the caller’s own installation', async () => {
    const person = await newMember(a, team);
    const stranger = await newMember(a, other);
    const bobs = await registerDevice(a, await newMember(a, team));
    const session = (await mintSessionToken(a, team.apiKey)).token as string;
    const refusal = async (connectionParams: Record<string, string>, variables: Record<string, unknown> = {}) => {
      const client = serverGraphqlWsClient(b, { connectionParams });
      try {
        return await new Promise<string | undefined>((resolve) => {
          client.subscribe(
            { query: 'subscription($i: String) { notificationEvents(installationId: $i) { type } }', variables },
            {
              next: (r) => resolve((r.errors?.[0]?.extensions as { code?: string } | undefined)?.code ?? 'NEXT'),
              error: (e) => resolve(Array.isArray(e) ? (e[0]?.extensions?.code as string) : String((e as { code?: number }).code)),
              complete: () => resolve('COMPLETE'),
            },
          );
        });
      } finally {
        await client.dispose();
      }
    };
    expect(await refusal({ authorization: `Bearer ${team.apiKey}` })).toBe('IDP_REQUIRED');
    expect(await refusal({ authorization: `Bearer ${session}` })).toBe('IDP_REQUIRED');
    expect(await refusal({ authorization: `Bearer ${person.token}` })).toBe('VALIDATION_ERROR');
    expect(await refusal({ authorization: `Bearer ${stranger.token}`, 'X-Team-Id': team.teamSimplyId })).toBe('PERMISSION_DENIED');
    const auth = { authorization: `Bearer ${person.token}`, 'X-Team-Id': team.teamSimplyId };
    expect(await refusal(auth, { i: bobs.installationId })).toBe('DEVICE_NOT_FOUND');
    expect(await refusal(auth, { i: 'not registered' })).toBe('VALIDATION_ERROR');
  });
});
