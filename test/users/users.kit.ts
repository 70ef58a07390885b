// Users in the route-table suites (test/support/area-kit.ts): the races of their write routes, the
// bodies of their id routes, how the signed-in user is read, and in the route world a member and
// what belongs to the team's admin as a person (a registered device, a sign-in session).
//
// Races on users, and on a person's own things: installations and their settings, recent visits,
// sign-in sessions.
import { randomBytes } from 'node:crypto';
import { addMember, uniqueEmail } from '../support/fixtures.ts';
import { fresh, ok, type AreaTestKit } from '../support/area-kit.ts';
import { readAll } from '../concurrency/fresh-resources.ts';
import { expectOneOf, expectSame, expectSuccesses } from '../concurrency/race-checks.ts';
import { N, type RaceTable } from '../concurrency/race-kit.ts';
import { PERSON_ONLY, installation, racePerson, signedInPerson } from '../concurrency/race-person.ts';

const PASSWORD = 'correct horse battery staple';

const userRaces: RaceTable = {
  'PATCH /v1/users/me': [
    {
      what: 'N different names for the signed-in user',
      callers: ['team-admin user'],
      async run(kit) {
        const bodies = Array.from({ length: N }, (_, i) => ({ firstName: `First ${i}`, lastName: `Last ${i}` }));
        const xs = await kit.race(bodies.map((body) => ({ method: 'PATCH', path: '/v1/users/me', body })));
        kit.expectAnswers(xs, ['200']);
        const me = (await kit.server.request('GET', '/v1/users/me', { token: kit.team.userToken, teamId: kit.team.teamSimplyId })).body.data;
        expectOneOf(kit, 'first and last name', { firstName: me.firstName, lastName: me.lastName }, bodies, xs);
      },
    },
  ],
  'POST /v1/users': [
    {
      what: 'N users with one email at once',
      callers: ['system admin'],
      async run(kit) {
        const email = uniqueEmail('race');
        const xs = await kit.race({ method: 'POST', path: '/v1/users', body: { email, password: PASSWORD, teams: [{ teamSimplyId: kit.team.teamSimplyId }] } });
        kit.expectAnswers(xs, ['201', '409 CONFLICT']);
        expectSuccesses(kit, xs, 1, 'an email belongs to one user');
        const members = (await readAll(kit, '/v1/users')).filter((u) => u.email === email);
        expectSame(kit, 'members with the email', members.length, 1, xs);
      },
    },
  ],
  'POST /v1/users/me/mobile-devices/current': [
    {
      what: 'N registrations of one new installation',
      callers: PERSON_ONLY,
      async run(kit) {
        const person = await racePerson(kit);
        const body = { installationId: installation(), platform: 'ios', deviceName: 'Race phone' };
        const xs = await kit.race({ method: 'POST', path: '/v1/users/me/mobile-devices/current', body }, person);
        kit.expectAnswers(xs, ['200', '201']);
        expectSame(kit, '201 answers', xs.filter((x) => x.response.status === 201).length, 1, xs);
        expectSame(kit, 'devices of the installation', await kit.server.app.services.prisma.userDevice.count({ where: { userId: person.userId, installationId: body.installationId } }), 1, xs);
      },
    },
  ],
  'PUT /v1/users/me/mobile-devices/{deviceSimplyId}': [
    {
      what: 'N different changes of one device',
      callers: PERSON_ONLY,
      async run(kit) {
        const person = await racePerson(kit);
        const made = await kit.server.request('POST', '/v1/users/me/mobile-devices/current', { token: person.token, body: { installationId: installation(), platform: 'android' } });
        const id = made.body.data.deviceSimplyId as string;
        const bodies = Array.from({ length: N }, (_, i) => ({ deviceName: `Phone ${i}`, pushEnabled: i % 2 === 0 }));
        const xs = await kit.race(bodies.map((body) => ({ method: 'PUT', path: `/v1/users/me/mobile-devices/${id}`, body })), person);
        kit.expectAnswers(xs, ['200']);
        const row = await kit.server.app.services.prisma.userDevice.findUniqueOrThrow({ where: { simplyId: id } });
        expectOneOf(kit, 'the device', { deviceName: row.deviceName, pushEnabled: row.pushEnabled }, bodies, xs);
      },
    },
  ],
  'PUT /v1/users/me/mobile-devices/current/settings': [
    {
      what: 'N changes of different preference keys of one installation (each kept)',
      callers: PERSON_ONLY,
      async run(kit) {
        const person = await racePerson(kit);
        const installationId = installation();
        await kit.server.request('POST', '/v1/users/me/mobile-devices/current', { token: person.token, body: { installationId, platform: 'web' } });
        const keys = ['newConversation', 'newMessage', 'assignment', 'mention', 'system', 'workflow'];
        const xs = await kit.race(keys.map((key) => ({ method: 'PUT', path: '/v1/users/me/mobile-devices/current/settings', body: { installationId, preferences: { [key]: false } } })), person);
        kit.expectAnswers(xs, ['200']);
        // each request changes one key: merged, none may be lost
        const row = await kit.server.app.services.prisma.userDevice.findFirstOrThrow({ where: { userId: person.userId, installationId } });
        expectSame(kit, 'preferences after the merges', row.preferences, Object.fromEntries(keys.map((k) => [k, false])), xs);
      },
    },
  ],
  'POST /v1/users/me/recent-visits': [
    {
      what: 'N visits of one record',
      callers: PERSON_ONLY,
      async run(kit) {
        const person = await racePerson(kit);
        const body = { entityType: 'DATA_RECORD', entityId: 'RACE-VISIT-0001', title: 'Raced record' };
        const xs = await kit.race({ method: 'POST', path: '/v1/users/me/recent-visits', body }, person);
        kit.expectAnswers(xs, ['200']);
        expectSame(kit, 'visits of the record', await kit.server.app.services.prisma.recentVisit.count({ where: { userId: person.userId, teamId: kit.team.teamId } }), 1, xs);
      },
    },
    {
      what: 'N visits of different records at the 50-visit bound',
      callers: PERSON_ONLY,
      async run(kit) {
        const person = await racePerson(kit);
        for (let i = 0; i < 48; i++) {
          await kit.server.request('POST', '/v1/users/me/recent-visits', { token: person.token, teamId: person.teamId, body: { entityType: 'DATA_RECORD', entityId: `OLD-${i}` } });
        }
        const xs = await kit.race(Array.from({ length: N }, (_, i) => ({ method: 'POST', path: '/v1/users/me/recent-visits', body: { entityType: 'DATA_RECORD', entityId: `NEW-${i}` } })), person);
        kit.expectAnswers(xs, ['200']);
        expectSame(kit, 'visits kept', await kit.server.app.services.prisma.recentVisit.count({ where: { userId: person.userId, teamId: kit.team.teamId } }), 50, xs);
      },
    },
  ],
  'DELETE /v1/users/me/recent-visits': [
    {
      what: 'N clears racing new visits',
      callers: PERSON_ONLY,
      async run(kit) {
        const person = await racePerson(kit);
        for (let i = 0; i < 5; i++) await kit.server.request('POST', '/v1/users/me/recent-visits', { token: person.token, teamId: person.teamId, body: { entityType: 'DATA_VIEW', entityId: `V-${i}` } });
        const visits = Array.from({ length: 3 }, (_, i) => ({ method: 'POST', path: '/v1/users/me/recent-visits', body: { entityType: 'DATA_VIEW', entityId: `NEW-${i}` } }));
        const clears = Array.from({ length: N }, () => ({ method: 'DELETE', path: '/v1/users/me/recent-visits' }));
        const xs = await kit.race([...clears, ...visits], person);
        kit.expectAnswers(xs, ['200']);
        const cleared = xs.filter((x) => x.sent.method === 'DELETE').reduce((n, x) => n + (x.response.body?.data?.cleared ?? 0), 0);
        const left = await kit.server.app.services.prisma.recentVisit.count({ where: { userId: person.userId, teamId: kit.team.teamId } });
        // every visit was cleared by exactly one clear, or is still there
        expectSame(kit, 'visits cleared plus visits left', cleared + left, 8, xs);
      },
    },
  ],
  'POST /v1/users/me/sessions': [
    {
      what: 'N descriptions of the current sign-in',
      callers: PERSON_ONLY,
      async run(kit) {
        const person = await signedInPerson(kit);
        const bodies = Array.from({ length: N }, (_, i) => ({ platform: i % 2 ? 'ios' : 'android', deviceName: `Device ${i}` }));
        const xs = await kit.race(bodies.map((body) => ({ method: 'POST', path: '/v1/users/me/sessions', body })), { token: person.token });
        kit.expectAnswers(xs, ['200']);
        const row = await kit.server.app.services.prisma.userSession.findUniqueOrThrow({ where: { simplyId: person.sessionSimplyId } });
        expectOneOf(kit, 'the session', { platform: row.platform, deviceName: row.deviceName }, bodies, xs);
      },
    },
  ],
  'DELETE /v1/users/me/sessions/{sessionSimplyId}': [
    {
      what: 'N revocations of one session (from another session of the person)',
      callers: PERSON_ONLY,
      async run(kit) {
        const person = await signedInPerson(kit);
        const other = await kit.server.request('POST', '/v1/auth/login', { body: { email: person.email, password: 'correct horse battery staple' } });
        const xs = await kit.race({ method: 'DELETE', path: `/v1/users/me/sessions/${person.sessionSimplyId}` }, { token: other.body.data.accessToken });
        kit.expectAnswers(xs, ['200', '404 NOT_FOUND']);
        // as the same revocations one after another: where a repeat is 404, exactly one racer revoked
        const [again] = await kit.race([{ method: 'DELETE', path: `/v1/users/me/sessions/${person.sessionSimplyId}` }], { token: other.body.data.accessToken });
        if (again!.response.status === 404) expectSuccesses(kit, xs, 1, 'a repeated revocation is a 404, so exactly one racer should have revoked');
        else if (again!.response.status !== 200) kit.problem(`a revocation repeated after the race answered ${again!.response.status}`, [again!, ...xs]);
        const { prisma } = kit.server.app.services;
        const session = await prisma.userSession.findUniqueOrThrow({ where: { simplyId: person.sessionSimplyId } });
        const live = await prisma.refreshToken.count({ where: { familyId: session.familyId, revokedAt: null } });
        expectSame(kit, 'the session and its refresh tokens', { revoked: session.revokedAt !== null, liveRefreshTokens: live }, { revoked: true, liveRefreshTokens: 0 }, xs);
        const refused = await kit.server.request('GET', '/v1/users/me/sessions', { token: person.token });
        expectSame(kit, "the revoked session's access token", refused.status, 401, xs);
      },
    },
  ],
};

export const kit: AreaTestKit = {
  races: userRaces,
  idRouteBodies: {
    'PUT /v1/users/me/mobile-devices/{deviceSimplyId}': () => ({ deviceName: fresh('renamed device') }),
  },
  readQueries: {
    'GET /v1/users/me': () => 'expand=teams,rolePermissions,permissionSnapshot',
  },
  async world({ server, team, name }) {
    const token = team.userToken;
    const device = await ok(
      await server.request('POST', '/v1/users/me/mobile-devices/current', { token, body: { installationId: `world-${randomBytes(4).toString('hex')}`, platform: 'ios', deviceName: name('Device') } }),
      'register a device',
    );
    const signedIn = await ok(await server.request('POST', '/v1/auth/login', { body: { email: team.email, password: team.password, deviceName: name('Session') } }), 'sign in');
    const sessions = await ok(await server.request('GET', '/v1/users/me/sessions', { token: signedIn.accessToken }), 'list sessions');
    const session = (sessions as { sessionSimplyId: string; isCurrent: boolean }[]).find((s) => s.isCurrent);
    if (!session) throw new Error('route world: the new sign-in is not among the sessions');
    const member = await addMember(server, team);
    return { ids: { deviceSimplyId: device.deviceSimplyId, sessionSimplyId: session.sessionSimplyId, userSimplyId: member.userSimplyId }, names: ['Device', 'Session'] };
  },
};
