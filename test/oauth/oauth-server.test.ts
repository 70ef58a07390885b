// The authorization server on the platform's own HTTPS port, driven by a real OAuth client library
// (oauth4webapi): discovery at /.well-known/oauth-authorization-server, dynamic registration, the
// first-party consent (POST to the authorization endpoint with the user's token), the code
// exchange, and the access token as a credential: its scopes, its resource, its team, and
// revocation taking effect at once.
import * as oauth from 'oauth4webapi';
import { beforeAll, describe, expect, it } from 'vitest';
import { createCollection, type CollectionFixture } from '../support/data-fixtures.ts';
import { publishCredentialInvalidation } from '../../src/app/auth/credential-invalidation.ts';
import { hashToken } from '../../src/app/auth/tokens.ts';
import { addMember } from '../support/fixtures.ts';
import { oauthClientsFor } from '../../src/modules/oauth/index.ts';
import { OAUTH_TEST_REDIRECT as REDIRECT, oauthBed, type OAuthBed } from '../support/oauth-fixtures.ts';
import { createRecord } from '../support/record-fixtures.ts';
import { startTestServer } from '../support/server.ts';
import { useServer } from '../support/use-server.ts';

const { server, teams } = useServer({ teams: 2 });
const [team, other] = teams;

let bed: OAuthBed;
let as: oauth.AuthorizationServer;
let options: OAuthBed['options'];
let people: CollectionFixture;
let theirs: CollectionFixture;

beforeAll(async () => {
  bed = await oauthBed(server);
  ({ as, options } = bed);
  people = await createCollection(server, team, { name: 'People', fields: { name: 'PLAIN_TEXT' } });
  theirs = await createCollection(server, other, { name: 'Theirs', fields: { name: 'PLAIN_TEXT' } });
  await createRecord(server, team.apiKey, people.id, { [people.fields.name!]: 'Ann' });
});

const registerClient = () => bed.registerClient();

/** The user's decision, posted by a first-party consent screen; by default the team's admin in their team. */
const decide = (fields: Record<string, string>, who: { token?: string; teamId?: string } = {}) =>
  bed.decide(fields, { token: who.token ?? team.userToken, teamId: who.teamId ?? team.teamSimplyId });

const tokensFor = (client: oauth.Client, scope: string, resource = `${server.baseUrl}/v1`, who: { token?: string; teamId?: string } = {}) =>
  bed.tokensFor(client, scope, { token: who.token ?? team.userToken, teamId: who.teamId ?? team.teamSimplyId }, resource);

describe('the authorization server on the platform', () => {
  it('publishes its metadata at /.well-known/oauth-authorization-server, the issuer being the public base URL', () => {
    expect(as).toMatchObject({
      issuer: server.baseUrl,
      authorization_endpoint: `${server.baseUrl}/oauth/authorize`,
      token_endpoint: `${server.baseUrl}/oauth/token`,
      registration_endpoint: `${server.baseUrl}/oauth/register`,
      revocation_endpoint: `${server.baseUrl}/oauth/revoke`,
      code_challenge_methods_supported: ['S256'],
      authorization_response_iss_parameter_supported: true,
    });
  });

  it('approves through a first-party consent screen: a code for the redirect URI, redeemed for tokens of the platform', async () => {
    const client = await registerClient();
    const tokens = await tokensFor(client, 'schema:read records:read');
    expect(tokens.access_token.startsWith('svc_oat_')).toBe(true);
    expect(tokens.refresh_token?.startsWith('svc_ort_')).toBe(true);
    expect(tokens.scope).toBe('schema:read records:read');
  });

  it('answers a denial, and a bad request, at the redirect URI with the state and the issuer', async () => {
    const client = await registerClient();
    const base = { response_type: 'code', client_id: client.client_id, redirect_uri: REDIRECT, scope: 'records:read', state: 'st-1', code_challenge: 'a'.repeat(43), code_challenge_method: 'S256' };
    const cases: [Record<string, string>, string][] = [
      [{ decision: 'deny' }, 'access_denied'],
      [{ decision: 'approve', code_challenge_method: 'plain' }, 'invalid_request'],
      [{ decision: 'approve', scope: 'records:read everything' }, 'invalid_scope'],
      [{ decision: 'approve', resource: 'https://elsewhere.example/v1' }, 'invalid_target'],
      [{ decision: 'approve', response_type: 'token' }, 'unsupported_response_type'],
      [{ decision: 'maybe' }, 'invalid_request'],
    ];
    for (const [extra, error] of cases) {
      const response = await decide({ ...base, ...extra });
      expect(response.status, JSON.stringify(extra)).toBe(302);
      const location = new URL(response.headers.get('location')!);
      expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
      expect(Object.fromEntries(location.searchParams), JSON.stringify(extra)).toMatchObject({ error, state: 'st-1', iss: server.baseUrl });
      expect(location.searchParams.get('code')).toBeNull();
    }
  });

  it('never redirects to a URI the client did not register, and wants a signed-in user of the team', async () => {
    const client = await registerClient();
    const base = { response_type: 'code', client_id: client.client_id, redirect_uri: REDIRECT, scope: 'records:read', code_challenge: 'a'.repeat(43), code_challenge_method: 'S256', decision: 'approve' };
    const elsewhere = await decide({ ...base, redirect_uri: 'http://127.0.0.1:4999/other' });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.headers.get('location')).toBeNull();
    expect(elsewhere.body).toMatchObject({ error: 'invalid_redirect_uri' });
    expect((await decide({ ...base, client_id: 'oc_nobody' })).body).toMatchObject({ error: 'invalid_client' });

    const byKey = await decide(base, { token: team.apiKey });
    expect(byKey.status).toBe(403);
    expect(byKey.body.error.code).toBe('IDP_REQUIRED');
    const otherTeam = await decide(base, { teamId: other.teamSimplyId });
    expect(otherTeam.status).toBe(403);
    const noUser = await server.request('POST', '/oauth/authorize', { rawBody: 'decision=approve', headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: 'Bearer nonsense' } });
    expect(noUser.status).toBe(401);
  });
});

describe('the token endpoint refuses', () => {
  async function codeFor(client: oauth.Client) {
    const verifier = oauth.generateRandomCodeVerifier();
    const response = await decide({
      response_type: 'code',
      client_id: client.client_id,
      redirect_uri: REDIRECT,
      scope: 'records:read',
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      decision: 'approve',
    });
    return { verifier, params: oauth.validateAuthResponse(as, client, new URL(response.headers.get('location')!), oauth.skipStateCheck) };
  }
  const exchange = (client: oauth.Client, params: URLSearchParams, verifier: string) =>
    oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, REDIRECT, verifier, options).then((r) => oauth.processAuthorizationCodeResponse(as, client, r));

  it('a wrong code_verifier, an expired code, a code sent several times at once, and scopes beyond the grant on refresh', async () => {
    const client = await registerClient();
    const wrong = await codeFor(client);
    await expect(exchange(client, wrong.params, oauth.generateRandomCodeVerifier())).rejects.toMatchObject({ error: 'invalid_grant' });

    // a code is good for 60 seconds: this one's time is made to have passed
    const late = await codeFor(client);
    await server.app.services.prisma.oAuthState.updateMany({ where: { model: 'AuthorizationCode', key: hashToken(late.params.get('code')!) }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await expect(exchange(client, late.params, late.verifier)).rejects.toMatchObject({ error: 'invalid_grant' });

    const good = await codeFor(client);
    const tokens = await exchange(client, good.params, good.verifier);
    // one code sent five times at once: one exchange wins, the others are a second use (invalid_grant)
    // and take the grant, the winner's tokens included, with them
    const raced = await codeFor(client);
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => exchange(client, raced.params, raced.verifier)));
    const won = results.filter((r): r is PromiseFulfilledResult<oauth.TokenEndpointResponse> => r.status === 'fulfilled');
    expect(won.length).toBeLessThanOrEqual(1);
    for (const r of results.filter((r): r is PromiseRejectedResult => r.status === 'rejected')) expect(r.reason).toMatchObject({ error: 'invalid_grant' });
    if (won[0]) expect((await server.request('GET', '/v1/data-collections', { token: won[0].value.access_token })).status).toBe(401);

    const escalate = await oauth.refreshTokenGrantRequest(as, client, oauth.None(), tokens.refresh_token!, { ...options, additionalParameters: { scope: 'records:read records:write' } });
    await expect(oauth.processRefreshTokenResponse(as, client, escalate)).rejects.toMatchObject({ error: 'invalid_scope' });
  });
});

describe('an OAuth access token as a credential', () => {
  let client: oauth.Client;
  beforeAll(async () => {
    client = await registerClient();
  });

  it('reads within its scopes, as the consenting user in the team they chose, and is refused beyond them', async () => {
    const { access_token: token } = await tokensFor(client, 'schema:read records:read');
    const collections = await server.request('GET', '/v1/data-collections', { token });
    expect(collections.status, collections.text).toBe(200);
    expect(collections.body.data.map((c: { id: string }) => c.id)).toContain(people.id);
    const records = await server.request('GET', `/v1/data-records?dataCollectionSimplyId=${people.id}`, { token });
    expect(records.status, records.text).toBe(200);
    expect(records.body.data).toHaveLength(1);

    // no records:write: creating is refused; an operation naming no scope is refused to OAuth tokens
    const create = await server.request('POST', '/v1/data-records', { token, body: { dataCollectionSimplyId: people.id, fields: { [people.fields.name!]: 'Bo' } } });
    expect(create.status).toBe(403);
    expect((await server.request('GET', '/v1/files', { token })).status).toBe(403);
    // privileged operations never take a scoped token
    expect((await server.request('GET', '/v1/api-keys', { token })).status).toBe(403);

    // another team's ids: not found, as everywhere
    expect((await server.request('GET', `/v1/data-records?dataCollectionSimplyId=${theirs.id}`, { token })).status).toBe(404);
  });

  it('writes with records:write', async () => {
    const { access_token: token } = await tokensFor(client, 'records:write records:read');
    const create = await server.request('POST', '/v1/data-records', { token, body: { dataCollectionSimplyId: people.id, fields: { [people.fields.name!]: 'Cy' } } });
    expect(create.status, create.text).toBe(201);
  });

  it('serves only the resource it was issued for', async () => {
    const { access_token: token } = await tokensFor(client, 'schema:read', `${server.baseUrl}/mcp`);
    const refused = await server.request('GET', '/v1/data-collections', { token });
    expect(refused.status).toBe(401);
    expect(refused.body.error.message).toContain('/mcp');
  });

  it('stops working at once when revoked, and when its user leaves the team', async () => {
    const first = await tokensFor(client, 'schema:read');
    expect((await server.request('GET', '/v1/data-collections', { token: first.access_token })).status).toBe(200);
    await oauth.processRevocationResponse(await oauth.revocationRequest(as, client, oauth.None(), first.access_token, options));
    expect((await server.request('GET', '/v1/data-collections', { token: first.access_token })).status).toBe(401);

    // a member of the team consents; their membership ends (as the users service ends it: the row, then the notice)
    const member = await addMember(server, team, { isTeamAdmin: true });
    const { access_token: token } = await tokensFor(client, 'schema:read', undefined, { token: member.token, teamId: team.teamSimplyId });
    expect((await server.request('GET', '/v1/data-collections', { token })).status).toBe(200);
    const { prisma, notifier, authenticator } = server.app.services;
    const user = await prisma.user.findUniqueOrThrow({ where: { simplyId: member.userSimplyId } });
    await prisma.teamMembership.updateMany({ where: { teamId: team.teamId, userId: user.id }, data: { isActive: false } });
    await publishCredentialInvalidation(notifier, authenticator, { userId: user.id });
    expect((await server.request('GET', '/v1/data-collections', { token })).status).toBe(401);
  });
});

describe('tokens of first-party applications', () => {
  let firstParty: oauth.Client;
  let thirdParty: oauth.Client;
  beforeAll(async () => {
    const registered = await oauthClientsFor(server.app.services).registerClient({ name: 'Our app', redirectUris: [REDIRECT], firstParty: true });
    firstParty = { client_id: registered.clientId, token_endpoint_auth_method: 'none' };
    thirdParty = await registerClient();
  });

  it('read the user (with identity:read), their notifications and background tasks; other clients cannot', async () => {
    const { access_token: token } = await tokensFor(firstParty, 'identity:read');
    const me = await server.request('GET', '/v1/users/me', { token });
    expect(me.status, me.text).toBe(200);
    expect(me.body.data.email).toBe(team.email);
    expect((await server.request('GET', '/v1/notifications', { token })).status).toBe(200);
    expect((await server.request('GET', '/v1/notifications/unread-count', { token })).status).toBe(200);
    expect((await server.request('GET', '/v1/background-tasks', { token })).status).toBe(200);

    const { access_token: noIdentity } = await tokensFor(firstParty, 'records:read');
    expect((await server.request('GET', '/v1/users/me', { token: noIdentity })).body.error.code).toBe('OAUTH_SCOPE_REQUIRED');

    const { access_token: foreign } = await tokensFor(thirdParty, 'identity:read records:read');
    for (const path of ['/v1/users/me', '/v1/notifications', '/v1/background-tasks']) {
      const refused = await server.request('GET', path, { token: foreign });
      expect(refused.status, path).toBe(403);
      expect(refused.body.error.code, path).toBe('OAUTH_CLIENT_FORBIDDEN');
    }
    // API keys keep their answers there
    expect((await server.request('GET', '/v1/notifications', { token: team.apiKey })).body.error.code).toBe('IDP_REQUIRED');
  });
});

describe('connected apps', () => {
  const LIST = 'query { oauthConnectedApps { grantId clientId clientName teamSimplyId teamName scopes resources createdAt lastUsedAt } }';
  const REVOKE = 'mutation($grantId: String!) { revokeOAuthConnectedApp(grantId: $grantId) }';

  it('lists what the user allowed, with its last use, and revokes it at once; nobody else can', async () => {
    const client = await registerClient();
    const { access_token: token } = await tokensFor(client, 'schema:read records:read');
    expect((await server.request('GET', '/v1/data-collections', { token })).status).toBe(200);

    const listed = await server.graphql(LIST, {}, { token: team.userToken });
    const app = listed.data.oauthConnectedApps.find((a: { clientId: string }) => a.clientId === client.client_id);
    expect(app).toMatchObject({ clientName: 'Test app', teamSimplyId: team.teamSimplyId, scopes: ['schema:read', 'records:read'], resources: ['v1'] });
    expect(app.lastUsedAt).not.toBeNull();

    // another person's grant is not theirs to see or revoke
    const stranger = await addMember(server, other);
    expect((await server.graphql(LIST, {}, { token: stranger.token })).data.oauthConnectedApps).toEqual([]);
    const refused = await server.graphql(REVOKE, { grantId: app.grantId }, { token: stranger.token });
    expect(refused.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    expect((await server.graphql(LIST, {}, { token: team.apiKey })).errors?.[0]?.extensions?.code).toBe('IDP_REQUIRED');

    expect((await server.graphql(REVOKE, { grantId: app.grantId }, { token: team.userToken })).data).toEqual({ revokeOAuthConnectedApp: true });
    expect((await server.request('GET', '/v1/data-collections', { token })).status).toBe(401);
    const after = await server.graphql(LIST, {}, { token: team.userToken });
    expect(after.data.oauthConnectedApps.map((a: { grantId: string }) => a.grantId)).not.toContain(app.grantId);
  });
});

describe('dynamic registration', () => {
  it('is limited per client address (OAUTH_REGISTRATIONS_PER_HOUR)', async () => {
    const limited = await startTestServer({ env: { OAUTH_REGISTRATIONS_PER_HOUR: 2 } });
    try {
      const register = () =>
        limited.request('POST', '/oauth/register', { body: { redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' } });
      expect((await register()).status).toBe(201);
      expect((await register()).status).toBe(201);
      const third = await register();
      expect(third.status).toBe(429);
      expect(third.body).toMatchObject({ error: 'temporarily_unavailable' });
      expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  });
});
