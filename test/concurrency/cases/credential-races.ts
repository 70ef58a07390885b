// Races on sign-in, API keys, session tokens and users.
import { addMember, uniqueEmail } from '../../support/fixtures.ts';
import { freshApiKey, readAll, unique } from '../fresh-resources.ts';
import { distinct, expectOneDeletion, expectOneOf, expectSame, expectSuccesses } from '../race-checks.ts';
import { N, succeeded, type RaceKit, type RaceTable } from '../race-kit.ts';

const PASSWORD = 'correct horse battery staple';

async function signIn(kit: RaceKit): Promise<string> {
  const member = await addMember(kit.server, kit.team);
  const response = await kit.server.request('POST', '/v1/auth/login', { body: { email: member.email, password: PASSWORD } });
  if (response.status !== 200) throw new Error(`sign-in: ${response.status} ${response.text}`);
  return response.body.data.refreshToken;
}

const refreshStatus = async (kit: RaceKit, refreshToken: string) => (await kit.server.request('POST', '/v1/auth/refresh', { body: { refreshToken } })).status;

/** whether `key` authenticates (a standard-tier read any key may make) */
const keyWorks = async (kit: RaceKit, key: string) => (await kit.server.request('GET', '/v1/data-collections', { token: key })).status === 200;

export const credentialRaces: RaceTable = {
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
  'POST /v1/api-keys': [
    {
      what: 'N keys with one name at once (names need not be unique)',
      async run(kit) {
        const name = unique('key');
        const xs = await kit.race({ method: 'POST', path: '/v1/api-keys', body: { name } });
        kit.expectAnswers(xs, ['201', '409 CONFLICT']);
        const keys = (await readAll(kit, '/v1/api-keys')).filter((k) => k.name === name);
        expectSame(kit, 'keys with the name', keys.length, succeeded(xs).length, xs);
        if (!distinct(succeeded(xs).map((x) => x.response.body.data.fullApiKey))) kit.problem('two keys got the same secret', xs);
      },
    },
  ],
  'PATCH /v1/api-keys/{apiKeySimplyId}': [
    {
      what: 'N identical renames',
      async run(kit) {
        const { id } = await freshApiKey(kit);
        const name = unique('renamed');
        const xs = await kit.race({ method: 'PATCH', path: `/v1/api-keys/${id}`, body: { name } });
        kit.expectAnswers(xs, ['200']);
        expectSame(kit, 'name', (await kit.admin('GET', `/v1/api-keys/${id}`)).name, name, xs);
      },
    },
    {
      what: 'N different renames',
      async run(kit) {
        const { id } = await freshApiKey(kit);
        const names = Array.from({ length: N }, (_, i) => unique(`renamed ${i}`));
        const xs = await kit.race(names.map((name) => ({ method: 'PATCH', path: `/v1/api-keys/${id}`, body: { name } })));
        kit.expectAnswers(xs, ['200']);
        expectOneOf(kit, 'name', (await kit.admin('GET', `/v1/api-keys/${id}`)).name, names, xs);
      },
    },
  ],
  'DELETE /v1/api-keys/{apiKeySimplyId}': [
    {
      what: 'N revocations of one key',
      async run(kit) {
        const { id, key } = await freshApiKey(kit);
        const xs = await kit.race({ method: 'DELETE', path: `/v1/api-keys/${id}` });
        kit.expectAnswers(xs, ['200', '404 NOT_FOUND']);
        await expectOneDeletion(kit, xs, { method: 'DELETE', path: `/v1/api-keys/${id}` }, `/v1/api-keys/${id}`);
        if (await keyWorks(kit, key)) kit.problem('the revoked key still authenticates', xs);
      },
    },
  ],
  'POST /v1/api-keys/{apiKeySimplyId}/rotate': [
    {
      what: 'N rotations of one key',
      async run(kit) {
        const { id, key } = await freshApiKey(kit);
        const xs = await kit.race({ method: 'POST', path: `/v1/api-keys/${id}/rotate` });
        kit.expectAnswers(xs, ['200', '404 NOT_FOUND', '409 CONFLICT']);
        if (await keyWorks(kit, key)) kit.problem('the secret before the rotations still authenticates', xs);
        const issued = succeeded(xs).map((x) => x.response.body.data.fullApiKey as string);
        const working = (await Promise.all(issued.map((k) => keyWorks(kit, k)))).filter(Boolean).length;
        // the key has one secret: the one written last
        if (working !== 1) kit.problem(`${working} of the ${issued.length} secrets handed out authenticate; exactly one should`, xs);
      },
    },
  ],
  'POST /v1/session-tokens': [
    {
      what: 'N tokens minted at once',
      callers: ['API key'],
      async run(kit) {
        const xs = await kit.race({ method: 'POST', path: '/v1/session-tokens', body: { expiresInMinutes: 5 } });
        kit.expectAnswers(xs, ['201']);
        if (!distinct(succeeded(xs).map((x) => x.response.body.data.id))) kit.problem('two tokens got the same id', xs);
      },
    },
  ],
  'DELETE /v1/session-tokens/{sessionTokenId}': [
    {
      what: 'N revocations of one token',
      async run(kit) {
        const minted = await kit.admin('POST', '/v1/session-tokens', {});
        const xs = await kit.race({ method: 'DELETE', path: `/v1/session-tokens/${minted.id}` });
        kit.expectAnswers(xs, ['200', '404 NOT_FOUND']);
        await expectOneDeletion(kit, xs, { method: 'DELETE', path: `/v1/session-tokens/${minted.id}` });
        if (await keyWorks(kit, minted.token)) kit.problem('the revoked session token still authenticates', xs);
      },
    },
  ],
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
};
