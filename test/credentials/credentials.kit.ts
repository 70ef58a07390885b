// API keys and session tokens in the route-table suites (test/support/area-kit.ts): the races of
// their write routes, the bodies of their id routes, and a key and a session token in the route
// world.
//
// Races on API keys and session tokens.
import { freshApiKey, readAll, unique } from '../concurrency/fresh-resources.ts';
import { distinct, expectOneDeletion, expectOneOf, expectSame } from '../concurrency/race-checks.ts';
import { N, succeeded, type RaceKit, type RaceTable } from '../concurrency/race-kit.ts';
import { NO_BODY, fresh, ok, type AreaTestKit } from '../support/area-kit.ts';
import { createApiKey } from '../support/fixtures.ts';

/** whether `key` authenticates (a standard-tier read any key may make) */
const keyWorks = async (kit: RaceKit, key: string) => (await kit.server.request('GET', '/v1/data-collections', { token: key })).status === 200;

const credentialRaces: RaceTable = {
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
};

export const kit: AreaTestKit = {
  races: credentialRaces,
  idRouteBodies: {
    'PATCH /v1/api-keys/{apiKeySimplyId}': () => ({ name: fresh('renamed key') }),
    'POST /v1/api-keys/{apiKeySimplyId}/rotate': () => NO_BODY,
  },
  async world({ server, team, call, name }) {
    const session = await ok(await call('POST', '/v1/session-tokens', {}), 'mint session token');
    const apiKey = await createApiKey(server, team, { name: name('Key') });
    return { ids: { sessionTokenId: session.id, apiKeySimplyId: apiKey.id }, names: ['Key'] };
  },
};
