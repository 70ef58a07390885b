// Text PostgreSQL cannot hold (NUL, unpaired UTF-16 surrogates) is refused at the edge with 400
// VALIDATION_ERROR naming the field, on every REST part and GraphQL input, by one check
// (src/app/storable-text.ts). Each of these used to be a 500 from the database.
import { expect, it } from 'vitest';
import { findUnstorableText } from '../../src/app/storable-text.ts';
import { expectError } from '../support/expect-envelope.ts';
import { serverGraphqlWsClient } from '../support/realtime.ts';
import { buildRouteWorld, routeWorldServer, type RouteWorld } from '../support/route-world.ts';
import { useServer } from '../support/use-server.ts';

const suite = useServer({ teams: 1, ...routeWorldServer('storable_text') });
const NUL = 'a\u0000b';
const LONE = 'a\ud800b';
let world: RouteWorld;

it('finds NUL and lone surrogates in strings, nested values and keys, at any depth, and passes real text', () => {
  expect(findUnstorableText({ a: ['ok', { b: NUL }] })).toEqual({ field: 'a.1.b', message: expect.stringMatching(/NUL/) });
  expect(findUnstorableText({ a: { [`k${'\u0000'}`]: 1 } })).toEqual({ field: 'a', message: expect.stringMatching(/key .*NUL/) });
  expect(findUnstorableText(['\udfff'])).toEqual({ field: '0', message: expect.stringMatching(/surrogate/) });
  let deep: unknown = LONE;
  for (let i = 0; i < 100_000; i++) deep = [deep];
  expect(findUnstorableText(deep)?.message).toMatch(/surrogate/);
  expect(findUnstorableText({ text: 'naïve café 😀 \u200f שלום', n: 1, b: null })).toBeUndefined();
});

// [method, path (world ids filled in), body, the field the error must name]
function cases(ids: Record<string, string>): [string, string, unknown, string][] {
  const [col, fld, aut, wiz, rec] = ['dataCollectionSimplyId', 'dataFieldSimplyId', 'automationSimplyId', 'dataWizardSimplyId', 'dataRecordSimplyId'].map((p) => ids[p]!) as [string, string, string, string, string];
  return [
    ['POST', '/v1/api-keys', { name: NUL }, 'name'],
    ['PATCH', `/v1/api-keys/${ids.apiKeySimplyId}`, { name: NUL }, 'name'],
    ['POST', '/v1/team-roles', { name: NUL }, 'name'],
    ['PUT', `/v1/team-roles/${ids.teamRoleSimplyId}`, { name: NUL }, 'name'],
    ['POST', '/v1/data-views', { dataCollectionSimplyId: col, name: { en: LONE }, enumDataViewTypeId: 'LIST' }, 'name.en'],
    ['POST', '/v1/data-collections', { name: NUL }, 'name'],
    ['POST', '/v1/data-collections', { name: { en: LONE } }, 'name.en'],
    ['POST', `/v1/data-collections/${col}/rename`, { name: NUL }, 'name'],
    ['POST', `/v1/data-collections/${col}/fields`, { title: { fr: LONE }, dataType: 'PLAIN_TEXT' }, 'title.fr'],
    ['PATCH', `/v1/data-collections/${col}/fields/${fld}`, { title: NUL }, 'title'],
    ['POST', '/v1/automations', { name: NUL, triggerType: 'RECORD_CREATED', dataCollectionSimplyId: col }, 'name'],
    ['POST', `/v1/automations/${aut}/actions`, { actionType: 'UPDATE_FIELDS', actionConfig: { fields: { [fld]: LONE } } }, `actionConfig.fields.${fld}`],
    ['POST', '/v1/session-tokens', { metadata: { note: NUL } }, 'metadata.note'],
    ['POST', '/v1/session-tokens', { metadata: { note: [LONE] } }, 'metadata.note.0'],
    ['POST', '/v1/data-records/search', { dataCollectionSimplyId: col, query: NUL }, 'query'],
    ['POST', `/v1/data-wizards/${wiz}/execute`, { dataRecordSimplyId: rec, formData: { [fld]: LONE } }, `formData.${fld}`],
    ['GET', `/v1/automations/${aut}/executions?triggerEventId=a%00b`, undefined, 'triggerEventId'],
    ['GET', '/v1/team-roles/a%00b', undefined, 'teamRoleSimplyId'],
  ];
}

it('REST: every such property is 400 VALIDATION_ERROR naming the field, and nothing is stored', async () => {
  const { server, teams: [team] } = suite;
  world = await buildRouteWorld(server, team!);
  const rolesBefore = (await server.request('GET', '/v1/team-roles', { token: team!.apiKey })).body.data.length;
  for (const [method, path, body, field] of cases(world.ids)) {
    const error = expectError(await server.request(method, path, { token: team!.apiKey, body }), 400, 'VALIDATION_ERROR', `${method} ${path}`);
    expect(error.details, `${method} ${path}`).toEqual([{ field, message: expect.stringMatching(/NUL|surrogate/) }]);
  }
  expect((await server.request('GET', '/v1/team-roles', { token: team!.apiKey })).body.data.length).toBe(rolesBefore);
});

it('REST: users/me names, for a signed-in user', async () => {
  const { server, teams: [team] } = suite;
  const error = expectError(await server.request('PATCH', '/v1/users/me', { token: team!.userToken, body: { firstName: NUL } }), 400, 'VALIDATION_ERROR');
  expect(error.details?.[0]?.field).toBe('firstName');
});

const CREATE_ROLE = 'mutation($input: TeamRoleInput!) { createTeamRole(input: $input) { name } }';

it('GraphQL: variables and string literals are refused the same way', async () => {
  const { server, teams: [team] } = suite;
  const byVariable = await server.request('POST', '/graphql', { token: team!.apiKey, body: { query: CREATE_ROLE, variables: { input: { name: NUL } } } });
  expect(byVariable.body.errors[0].extensions).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ field: 'input.name' }] });
  const byLiteral = await server.request('POST', '/graphql', { token: team!.apiKey, body: { query: 'mutation { createTeamRole(input: { name: "a\\u0000" }) { name } }' } });
  expect(byLiteral.body.errors[0].extensions).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ field: 'input.name' }] });
  const fine = await server.request('POST', '/graphql', { token: team!.apiKey, body: { query: CREATE_ROLE, variables: { input: { name: 'Rôle ✓' } } } });
  expect(fine.body.data.createTeamRole.name).toBe('Rôle ✓');
});

it('graphql-ws: subscription variables are refused the same way', async () => {
  const { server, teams: [team] } = suite;
  const client = serverGraphqlWsClient(server, { connectionParams: { authorization: `Bearer ${team!.apiKey}` } });
  try {
    const errors = await new Promise<readonly { extensions?: Record<string, unknown> }[]>((resolve, reject) => {
      client.subscribe(
        { query: 'subscription($id: String!) { dataRecordChanges(dataCollectionSimplyId: $id) { __typename } }', variables: { id: NUL } },
        { next: (result) => (result.errors ? resolve(result.errors as never) : reject(new Error('expected an error'))), error: (e) => resolve(e as never), complete: () => {} },
      );
    });
    expect(errors[0]?.extensions).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ field: 'id' }] });
  } finally {
    await client.dispose();
  }
});
