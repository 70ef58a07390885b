// Sign-in in the route-table suites (test/support/area-kit.ts): the races of its routes.
//
// Races on sign-in: a password sign-in, the second factor's challenge (a code is used once however
// many requests carry it at the same moment), refresh and sign-out.
import { addMember } from '../support/fixtures.ts';
import type { AreaTestKit } from '../support/area-kit.ts';
import { enableMfa, totp } from '../mfa/mfa-fixtures.ts';
import { distinct, expectSame, expectSuccesses } from '../concurrency/race-checks.ts';
import { succeeded, type RaceKit, type RaceTable } from '../concurrency/race-kit.ts';
import { MEMBER_PASSWORD, PERSON_ONLY, racePerson } from '../concurrency/race-person.ts';

const PASSWORD = 'correct horse battery staple';

const CODE_REFUSED = ['400 INVALID_MFA_CODE', '409 CONFLICT'];

async function signIn(kit: RaceKit): Promise<string> {
  const member = await addMember(kit.server, kit.team);
  const response = await kit.server.request('POST', '/v1/auth/login', { body: { email: member.email, password: PASSWORD } });
  if (response.status !== 200) throw new Error(`sign-in: ${response.status} ${response.text}`);
  return response.body.data.refreshToken;
}

const refreshStatus = async (kit: RaceKit, refreshToken: string) => (await kit.server.request('POST', '/v1/auth/refresh', { body: { refreshToken } })).status;

const identityRaces: RaceTable = {
  'POST /v1/auth/login': [
    {
      what: 'one account signs in N times at once',
      callers: ['anonymous'],
      async run(kit) {
        const member = await addMember(kit.server, kit.team);
        const xs = await kit.race({ method: 'POST', path: '/v1/auth/login', body: { email: member.email, password: PASSWORD } });
        kit.expectAnswers(xs, ['200']);
        if (!distinct(succeeded(xs).map((x) => x.response.body.data.refreshToken))) kit.problem('two sign-ins got the same refresh token', xs);
      },
    },
  ],
  'POST /v1/auth/login/mfa': [
    {
      what: 'N completions of one challenge with one code: one sign-in',
      callers: PERSON_ONLY,
      async run(kit) {
        const person = await racePerson(kit);
        const { secret } = await enableMfa(kit.server, person.token);
        const login = await kit.server.request('POST', '/v1/auth/login', { body: { email: person.email, password: MEMBER_PASSWORD } });
        const challenge = login.body.data.mfaChallengeToken as string;
        const code = await totp(secret, 1);
        const xs = await kit.race({ method: 'POST', path: '/v1/auth/login/mfa', body: { mfaChallengeToken: challenge, code } }, {});
        kit.expectAnswers(xs, ['200', '401 UNAUTHENTICATED', ...CODE_REFUSED]);
        expectSuccesses(kit, xs, 1, 'a challenge signs in once');
        expectSame(kit, 'sessions started', await kit.server.app.services.prisma.userSession.count({ where: { userId: person.userId } }), 1, xs);
      },
    },
  ],
  'POST /v1/auth/refresh': [
    {
      what: 'one refresh token presented N times at once',
      callers: ['anonymous'],
      async run(kit) {
        const refreshToken = await signIn(kit);
        const xs = await kit.race({ method: 'POST', path: '/v1/auth/refresh', body: { refreshToken } });
        kit.expectAnswers(xs, ['200', '401 UNAUTHENTICATED']);
        expectSuccesses(kit, xs, 1, 'a refresh token works once');
        // the others presented a used token: the documented reuse detection ends the whole session
        for (const x of succeeded(xs)) {
          const status = await refreshStatus(kit, x.response.body.data.refreshToken);
          if (status !== 401) kit.problem(`the winner's new refresh token still works (${status}) after the used one was presented again`, xs);
        }
      },
    },
  ],
  'POST /v1/auth/logout': [
    {
      what: 'one refresh token signed out N times at once',
      callers: ['anonymous'],
      async run(kit) {
        const refreshToken = await signIn(kit);
        const xs = await kit.race({ method: 'POST', path: '/v1/auth/logout', body: { refreshToken } });
        kit.expectAnswers(xs, ['200']);
        expectSame(kit, 'refresh after sign-out: status', await refreshStatus(kit, refreshToken), 401, xs);
      },
    },
  ],
};

export const kit: AreaTestKit = {
  races: identityRaces,
};
