// The GraphQL face of the authorization server's clients (src/modules/oauth/oauth-clients.schema.ts):
// a system administrator creates, lists and revokes them; nobody else sees them at all.
import { expect, it } from 'vitest';
import { expectGqlError, gqlData } from '../support/expect-envelope.ts';
import { createTeam } from '../support/fixtures.ts';
import { useServer } from '../support/use-server.ts';

const suite = useServer({ teams: 1 });

const CLIENT = 'clientId name redirectUris firstParty allowances confidential createdAt';
const CREATE = `mutation ($input: CreateOAuthClientInput!) { createOAuthClient(input: $input) { client { ${CLIENT} } clientSecret } }`;
const LIST = `{ oauthClients { ${CLIENT} } }`;
const REVOKE = 'mutation ($id: String!) { revokeOAuthClient(clientId: $id) }';

it('a system administrator creates a client (its secret once), lists it without the secret and revokes it', async () => {
  const { server } = suite;
  const admin = await createTeam(server, { isSystemAdmin: true });
  const as = { token: admin.userToken };
  const input = { name: 'Assistant', redirectUris: ['https://assistant.example.com/cb'], firstParty: true, allowances: ['team-assistant'], confidential: true };
  const created = gqlData(await server.graphql(CREATE, { input }, as)).createOAuthClient;
  expect(created.client).toMatchObject({ name: 'Assistant', redirectUris: input.redirectUris, firstParty: true, allowances: ['team-assistant'], confidential: true });
  expect(created.clientSecret).toMatch(/^[\w-]{43}$/);

  const publicClient = gqlData(await server.graphql(CREATE, { input: { name: 'Desktop', redirectUris: ['http://127.0.0.1/cb'] } }, as)).createOAuthClient;
  expect(publicClient).toMatchObject({ client: { confidential: false, firstParty: false, allowances: [] }, clientSecret: null });

  const listed = await server.request('POST', '/graphql', { ...as, body: { query: LIST } });
  expect(listed.text).not.toContain(created.clientSecret);
  expect(listed.body.data.oauthClients.map((c: { clientId: string }) => c.clientId)).toEqual(expect.arrayContaining([created.client.clientId, publicClient.client.clientId]));

  expect(gqlData(await server.graphql(REVOKE, { id: created.client.clientId }, as)).revokeOAuthClient).toBe(true);
  expectGqlError(await server.graphql(REVOKE, { id: created.client.clientId }, as), 'NOT_FOUND', 404);
  const after = gqlData(await server.graphql(LIST, {}, as)).oauthClients.map((c: { clientId: string }) => c.clientId);
  expect(after).not.toContain(created.client.clientId);
  expect(after).toContain(publicClient.client.clientId);
});

it('refuses bad input with VALIDATION_ERROR, and everyone but a system administrator with 403', async () => {
  const { server, teams: [team] } = suite;
  const admin = await createTeam(server, { isSystemAdmin: true });
  for (const input of [
    { name: '', redirectUris: ['https://a.example/cb'] },
    { name: 'x', redirectUris: ['http://a.example/cb'] },
    { name: 'x', redirectUris: ['https://a.example/cb#frag'] },
    { name: 'x', redirectUris: ['https://a.example/cb'], allowances: ['everything'] },
    { name: 'x', redirectUris: [] },
  ]) {
    expectGqlError(await server.graphql(CREATE, { input }, { token: admin.userToken }), 'VALIDATION_ERROR', 400);
  }
  for (const token of [team!.apiKey, team!.userToken]) {
    expectGqlError(await server.graphql(LIST, {}, { token }), 'PERMISSION_DENIED', 403);
    expectGqlError(await server.graphql(CREATE, { input: { name: 'x', redirectUris: ['https://a.example/cb'] } }, { token }), 'PERMISSION_DENIED', 403);
    expectGqlError(await server.graphql(REVOKE, { id: 'oc_x' }, { token }), 'PERMISSION_DENIED', 403);
  }
});
