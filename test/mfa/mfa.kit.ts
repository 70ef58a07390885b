// The second factor in the route-table suites (test/support/area-kit.ts): the races of its write
// routes, and the team admin's membership (whose second factor an admin resets) in the route world.
//
// Races on the second factor: a code is used once however many requests carry it at the same moment.
import type { AreaTestKit } from '../support/area-kit.ts';
import { enableMfa, totp } from './mfa-fixtures.ts';
import { expectSame, expectSuccesses } from '../concurrency/race-checks.ts';
import type { RaceTable } from '../concurrency/race-kit.ts';
import { PERSON_ONLY, racePerson } from '../concurrency/race-person.ts';

const CODE_REFUSED = ['400 INVALID_MFA_CODE', '409 CONFLICT'];

const mfaRaces: RaceTable = {
  'POST /v1/users/me/mfa/setup': [
    {
      what: 'N setups: one pending secret is left, and only its codes complete the setup',
      callers: PERSON_ONLY,
      async run(kit) {
        const person = await racePerson(kit);
        const xs = await kit.race({ method: 'POST', path: '/v1/users/me/mfa/setup' }, person);
        kit.expectAnswers(xs, ['200']);
        const secrets = xs.map((x) => x.response.body?.data?.secret as string);
        const completions = await Promise.all(
          secrets.map(async (secret) => (await kit.server.request('POST', '/v1/users/me/mfa/complete-setup', { token: person.token, body: { code: await totp(secret) } })).status),
        );
        // the codes of the secrets that were replaced are refused; the kept one completes once
        expectSame(kit, 'completions that succeeded', completions.filter((s) => s === 200).length, 1, xs);
      },
    },
  ],
  'POST /v1/users/me/mfa/verify': [
    {
      what: 'N checks of one code (nothing changes)',
      callers: PERSON_ONLY,
      async run(kit) {
        const person = await racePerson(kit);
        const { secret } = await enableMfa(kit.server, person.token);
        const code = await totp(secret, 1);
        const xs = await kit.race({ method: 'POST', path: '/v1/users/me/mfa/verify', body: { code } }, person);
        kit.expectAnswers(xs, ['200']);
        // a check does not use the code up: every racer is told it is valid
        expectSame(kit, 'answers saying valid', xs.filter((x) => x.response.body?.data?.valid === true).length, xs.length, xs);
        const status = (await kit.server.request('GET', '/v1/users/me/mfa/status', { token: person.token })).body.data;
        expectSame(kit, 'still enabled', status.enabled, true, xs);
      },
    },
  ],
  'POST /v1/users/me/mfa/complete-setup': [
    {
      what: 'N confirmations with one code: one enables, the replays are refused',
      callers: PERSON_ONLY,
      async run(kit) {
        const person = await racePerson(kit);
        const { secret } = (await kit.server.request('POST', '/v1/users/me/mfa/setup', { token: person.token })).body.data;
        const code = await totp(secret);
        const xs = await kit.race({ method: 'POST', path: '/v1/users/me/mfa/complete-setup', body: { code } }, person);
        kit.expectAnswers(xs, ['200', ...CODE_REFUSED]);
        expectSuccesses(kit, xs, 1, 'one code enables the second factor once');
        expectSame(kit, 'recovery codes stored', await kit.server.app.services.prisma.mfaRecoveryCode.count({ where: { userId: person.userId } }), 10, xs);
      },
    },
  ],
  'DELETE /v1/users/me/mfa': [
    {
      what: 'N disables with one code',
      callers: PERSON_ONLY,
      async run(kit) {
        const person = await racePerson(kit);
        const { secret } = await enableMfa(kit.server, person.token);
        const code = await totp(secret, 1);
        const xs = await kit.race({ method: 'DELETE', path: '/v1/users/me/mfa', body: { code } }, person);
        kit.expectAnswers(xs, ['200', ...CODE_REFUSED]);
        expectSuccesses(kit, xs, 1, 'a code disables once');
        expectSame(kit, 'second factor left', await kit.server.app.services.prisma.userMfa.count({ where: { userId: person.userId } }), 0, xs);
      },
    },
  ],
  'POST /v1/users/mfa/reset/{teamUserLinkSimplyId}': [
    {
      what: "N resets of one member's second factor",
      callers: PERSON_ONLY,
      async run(kit) {
        const person = await racePerson(kit);
        await enableMfa(kit.server, person.token);
        const { prisma } = kit.server.app.services;
        const link = await prisma.teamMembership.findFirstOrThrow({ where: { teamId: kit.team.teamId, userId: person.userId }, select: { simplyId: true } });
        const xs = await kit.race({ method: 'POST', path: `/v1/users/mfa/reset/${link.simplyId}` });
        kit.expectAnswers(xs, ['200']);
        expectSame(kit, 'resets that removed a second factor', xs.filter((x) => x.response.body?.data?.mfaRemoved === true).length, 1, xs);
        expectSame(kit, 'second factor left', await prisma.userMfa.count({ where: { userId: person.userId } }), 0, xs);
      },
    },
  ],
};

export const kit: AreaTestKit = {
  races: mfaRaces,
  async world({ server, team }) {
    const membership = await server.app.services.prisma.teamMembership.findFirstOrThrow({ where: { teamId: team.teamId, userId: team.userId }, select: { simplyId: true } });
    return { ids: { teamUserLinkSimplyId: membership.simplyId } };
  },
};
