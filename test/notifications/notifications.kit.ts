// Notifications in the route-table suites (test/support/area-kit.ts): the races of their write
// routes, and a notification of the team's admin in the route world.
//
// Races on a person's notification feed, preferences and push tokens.
import { randomBytes } from 'node:crypto';
import { notifyMany, notifyMember, registerDevice } from '../support/notification-fixtures.ts';
import { expectOneOf, expectSame, expectSuccesses } from '../concurrency/race-checks.ts';
import { N, type RaceKit, type RaceTable } from '../concurrency/race-kit.ts';
import { PERSON_ONLY, installation, racePerson, type RacePerson } from '../concurrency/race-person.ts';
import type { AreaTestKit } from '../support/area-kit.ts';

async function counts(kit: RaceKit, person: RacePerson): Promise<{ live: number; unread: number; counted: { live: number; unread: number } }> {
  const { prisma } = kit.server.app.services;
  const rows = await prisma.userNotification.findMany({ where: { teamId: kit.team.teamId, userId: person.userId, deletedAt: null }, select: { readAt: true } });
  const counters = await prisma.userNotificationCount.findMany({ where: { teamId: kit.team.teamId, userId: person.userId } });
  return {
    live: rows.length,
    unread: rows.filter((r) => r.readAt === null).length,
    counted: { live: counters.reduce((n, c) => n + c.live, 0), unread: counters.reduce((n, c) => n + c.unread, 0) },
  };
}

/** the counters behind totals and unread counts must agree with the rows after any race */
async function expectCountersAgree(kit: RaceKit, person: RacePerson): Promise<{ live: number; unread: number }> {
  const c = await counts(kit, person);
  expectSame(kit, 'the feed counters', c.counted, { live: c.live, unread: c.unread });
  return { live: c.live, unread: c.unread };
}

const notificationRaces: RaceTable = {
  'PUT /v1/notifications/{notificationSimplyId}/read': [
    {
      what: 'N reads of one notification',
      callers: PERSON_ONLY,
      async run(kit) {
        const person = await racePerson(kit);
        const id = await notifyMember(kit.server, kit.team, person);
        const xs = await kit.race({ method: 'PUT', path: `/v1/notifications/${id}/read` }, person);
        kit.expectAnswers(xs, ['200']);
        const readAts = new Set(xs.map((x) => x.response.body?.data?.readAt));
        expectSame(kit, 'distinct readAt answered', readAts.size, 1, xs);
        expectSame(kit, 'feed after the reads', await expectCountersAgree(kit, person), { live: 1, unread: 0 }, xs);
      },
    },
  ],
  'PUT /v1/notifications/read-all': [
    {
      what: 'N read-alls racing new notifications',
      callers: PERSON_ONLY,
      async run(kit) {
        const person = await racePerson(kit);
        await notifyMany(kit.server, kit.team, person, Array.from({ length: 20 }, (_, i) => ({ type: i % 2 ? 'MENTION' : 'SYSTEM' })));
        const [xs] = await Promise.all([
          kit.race({ method: 'PUT', path: '/v1/notifications/read-all' }, person),
          notifyMany(kit.server, kit.team, person, [{}, {}]),
        ]);
        kit.expectAnswers(xs, ['200']);
        const updated = xs.reduce((n, x) => n + (x.response.body?.data?.updatedCount ?? 0), 0);
        const after = await expectCountersAgree(kit, person);
        // every notification was marked read by exactly one read-all, or is still unread
        expectSame(kit, 'marked read once each', updated + after.unread, 22, xs);
      },
    },
  ],
  'DELETE /v1/notifications/{notificationSimplyId}': [
    {
      what: 'N deletes of one notification',
      callers: PERSON_ONLY,
      async run(kit) {
        const person = await racePerson(kit);
        const [id] = await notifyMany(kit.server, kit.team, person, [{}, {}]);
        const xs = await kit.race({ method: 'DELETE', path: `/v1/notifications/${id}` }, person);
        kit.expectAnswers(xs, ['200', '404 NOT_FOUND']);
        expectSuccesses(kit, xs, 1, 'a notification is deleted once');
        expectSame(kit, 'feed after the deletes', await expectCountersAgree(kit, person), { live: 1, unread: 1 }, xs);
      },
    },
  ],
  'PUT /v1/notifications/preferences': [
    {
      what: 'N different preference changes of one installation',
      callers: PERSON_ONLY,
      async run(kit) {
        const person = await racePerson(kit);
        const { installationId } = await registerDevice(kit.server, person);
        const keys = ['newConversation', 'newMessage', 'assignment', 'mention', 'system', 'workflow'];
        const bodies = Array.from({ length: N }, (_, i) => Object.fromEntries(keys.map((k, j) => [k, (i >> j) % 2 === 0])));
        const xs = await kit.race(bodies.map((b) => ({ method: 'PUT', path: '/v1/notifications/preferences', body: { installationId, ...b } })), person);
        kit.expectAnswers(xs, ['200']);
        const now = (await kit.server.request('GET', `/v1/notifications/preferences?installationId=${installationId}`, { token: person.token, teamId: person.teamId })).body.data;
        expectOneOf(kit, 'preferences', now, bodies, xs);
      },
    },
  ],
  'POST /v1/notifications/device-token': [
    {
      what: 'N registrations of one new push token',
      callers: PERSON_ONLY,
      async run(kit) {
        const person = await racePerson(kit);
        const body = { token: `race-token-${installation()}`, platform: 'android', installationId: installation() };
        const xs = await kit.race({ method: 'POST', path: '/v1/notifications/device-token', body }, person);
        kit.expectAnswers(xs, ['200', '201']);
        expectSame(kit, '201 answers', xs.filter((x) => x.response.status === 201).length, 1, xs);
        expectSame(kit, 'token ids answered', new Set(xs.map((x) => x.response.body?.data?.deviceTokenSimplyId)).size, 1, xs);
        const { prisma } = kit.server.app.services;
        expectSame(kit, 'devices of the installation', await prisma.userDevice.count({ where: { userId: person.userId, installationId: body.installationId } }), 1, xs);
        expectSame(kit, 'active tokens', await prisma.devicePushToken.count({ where: { userId: person.userId, isActive: true } }), 1, xs);
      },
    },
  ],
  'DELETE /v1/notifications/device-token': [
    {
      what: 'N deactivations of one push token',
      callers: PERSON_ONLY,
      async run(kit) {
        const person = await racePerson(kit);
        const token = randomBytes(32).toString('hex');
        const made = await kit.server.request('POST', '/v1/notifications/device-token', { token: person.token, teamId: person.teamId, body: { token, platform: 'ios', installationId: installation() } });
        if (made.status !== 201) throw new Error(`register answered ${made.status} ${made.text}`);
        const xs = await kit.race({ method: 'DELETE', path: '/v1/notifications/device-token', body: { token } }, person);
        kit.expectAnswers(xs, ['200']);
        const row = await kit.server.app.services.prisma.devicePushToken.findFirstOrThrow({ where: { userId: person.userId } });
        expectSame(kit, 'the token after the deactivations', { isActive: row.isActive, reason: row.deactivationReason }, { isActive: false, reason: 'USER' }, xs);
      },
    },
  ],
};

export const kit: AreaTestKit = {
  races: notificationRaces,
  // written by the platform's notify service: there is no create route
  async world({ server, team, name }) {
    const notificationSimplyId = await notifyMember(server, team, { userSimplyId: team.userSimplyId }, { title: name('Notification') });
    return { ids: { notificationSimplyId }, names: ['Notification'] };
  },
};
