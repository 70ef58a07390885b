// OAuth for the tests, with a real client library (oauth4webapi) against a test server: discovery,
// a registered client, a user's decision through the first-party consent route, and the code
// exchange. The tests of the OAuth area use the steps; others just need a token (oauthToken).
import * as oauth from 'oauth4webapi';
import { Agent, fetch as undiciFetch } from 'undici';
import type { TeamFixture } from './fixtures.ts';
import type { TestResponse, TestServer } from './server.ts';

export const OAUTH_TEST_REDIRECT = 'http://127.0.0.1:4999/callback';

export interface OAuthBed {
  as: oauth.AuthorizationServer;
  /** oauth4webapi's options: its requests trust the test server's certificate */
  options: { [oauth.customFetch]: typeof fetch };
  /** registers a public client (dynamic registration) */
  registerClient(name?: string): Promise<oauth.Client>;
  /** the user's decision posted to the authorization endpoint (their token, their team); answers the redirect */
  decide(fields: Record<string, string>, who: { token: string; teamId: string }): Promise<TestResponse>;
  /** approve, then exchange the code: the token response */
  tokensFor(client: oauth.Client, scope: string, who: { token: string; teamId: string }, resource?: string): Promise<oauth.TokenEndpointResponse>;
}

export async function oauthBed(server: TestServer): Promise<OAuthBed> {
  const dispatcher = new Agent({ connect: { ca: server.ca } });
  const options = { [oauth.customFetch]: ((url: string, init: object) => undiciFetch(url, { ...init, dispatcher })) as unknown as typeof fetch };
  const issuer = new URL(server.baseUrl);
  const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...options }));
  const decide = (fields: Record<string, string>, who: { token: string; teamId: string }) =>
    server.request('POST', '/oauth/authorize', {
      token: who.token,
      teamId: who.teamId,
      rawBody: new URLSearchParams(fields).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      redirect: 'manual',
    });
  return {
    as,
    options,
    decide,
    registerClient: async (name = 'Test app') =>
      oauth.processDynamicClientRegistrationResponse(
        await oauth.dynamicClientRegistrationRequest(as, { redirect_uris: [OAUTH_TEST_REDIRECT], token_endpoint_auth_method: 'none', client_name: name }, options),
      ),
    tokensFor: async (client, scope, who, resource = `${server.baseUrl}/v1`) => {
      const verifier = oauth.generateRandomCodeVerifier();
      const state = oauth.generateRandomState();
      const response = await decide(
        { response_type: 'code', client_id: client.client_id, redirect_uri: OAUTH_TEST_REDIRECT, scope, state, resource, code_challenge: await oauth.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256', decision: 'approve' },
        who,
      );
      if (response.status !== 302) throw new Error(`the consent answered ${response.status}: ${response.text}`);
      const params = oauth.validateAuthResponse(as, client, new URL(response.headers.get('location')!), state);
      const exchange = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, OAUTH_TEST_REDIRECT, verifier, { ...options, additionalParameters: { resource } });
      return oauth.processAuthorizationCodeResponse(as, client, exchange);
    },
  };
}

/** An access token of a newly registered client, approved by the team's admin user in their team. */
export async function oauthToken(server: TestServer, team: TeamFixture, scope: string, resource = `${server.baseUrl}/v1`): Promise<string> {
  const bed = await oauthBed(server);
  return (await bed.tokensFor(await bed.registerClient(), scope, { token: team.userToken, teamId: team.teamSimplyId }, resource)).access_token;
}
