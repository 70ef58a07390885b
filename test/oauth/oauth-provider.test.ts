// The authorization server's configuration (src/modules/oauth/oauth-provider.ts) over the real
// database, driven by a real OAuth client library (oauth4webapi) on a bare HTTP server: discovery
// metadata, dynamic registration of public clients only, PKCE S256 and nothing else, the code flow
// with the `iss` parameter and a resource-bound token, refresh rotation with reuse detection, and
// revocation. The sign-in and consent page is not part of this server yet: the test's own
// interaction handler stands in for it, granting what the client asked for.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import * as oauth from 'oauth4webapi';
import type Provider from 'oidc-provider';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecretBox } from '../../src/app/secret-box.ts';
import { createPool, createPrisma } from '../../src/db/prisma.ts';
import type { PrismaClient } from '../../src/generated/prisma/client.ts';
import { createOAuthProvider, oauthStorage } from '../../src/modules/oauth/index.ts';
import type { ThrowawayDatabase } from '../db/helpers.ts';
import { createMigratedDatabase } from '../support/migrated-database.ts';

const ACCOUNT = 'usr-TEST-OAUT-H001';
const REDIRECT = 'http://127.0.0.1/callback';
const insecure = { [oauth.allowInsecureRequests]: true };

let database: ThrowawayDatabase;
let pool: pg.Pool;
let prisma: PrismaClient;
let server: http.Server;
let provider: Provider;
let issuer: string;
let as: oauth.AuthorizationServer;

beforeAll(async () => {
  database = await createMigratedDatabase('oauth_provider');
  pool = createPool(database.url, 4, 'oauth-provider-test');
  prisma = createPrisma(pool);
  server = http.createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const signingKey = generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' });
  provider = createOAuthProvider({
    issuer,
    storage: oauthStorage({ prisma, secretBox: new SecretBox(randomBytes(32)) }),
    jwks: { keys: [{ ...signingKey, alg: 'EdDSA', use: 'sig' }] },
    cookieKeys: [randomBytes(32).toString('base64url')],
    interactionPath: (uid) => `/oauth/interaction/${uid}`,
  });
  const callback = provider.callback();
  handle = async (req, res) => {
    const uid = /^\/oauth\/interaction\/([^/?]+)/.exec(req.url ?? '')?.[1];
    if (!uid) return callback(req, res);
    // stands in for the sign-in and consent page: the user approves exactly what was asked
    const { params } = await provider.interactionDetails(req, res);
    const grant = new provider.Grant({ accountId: ACCOUNT, clientId: String(params.client_id) });
    // consent covers the scopes as asked (the server lists them) and for the resource asked for
    // (RFC 8707): the token's scope is what both grant, within what the resource accepts
    grant.addOIDCScope(String(params.scope));
    grant.addResourceScope(String(params.resource), String(params.scope));
    await provider.interactionFinished(req, res, { login: { accountId: ACCOUNT }, consent: { grantId: await grant.save() } }, { mergeWithLastSubmission: false });
  };
  as = await oauth.processDiscoveryResponse(new URL(issuer), await oauth.discoveryRequest(new URL(issuer), { algorithm: 'oauth2', ...insecure }));
});
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await prisma?.$disconnect();
  await pool?.end();
  await database?.drop();
});

let handle: (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void> | void = (_req, res) => void res.end();

async function register(metadata: Record<string, unknown> = {}): Promise<Response> {
  return oauth.dynamicClientRegistrationRequest(as, { redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none', ...metadata }, insecure);
}

/** Follows the authorization request's redirects with the browser's cookies, up to the client's redirect URI. */
async function authorize(params: Record<string, string>): Promise<URL> {
  const cookies = new Map<string, string>();
  let url = new URL(`${as.authorization_endpoint}?${new URLSearchParams(params)}`);
  for (let hops = 0; hops < 10; hops++) {
    if (url.href.startsWith(REDIRECT)) return url;
    const response = await fetch(url, { redirect: 'manual', headers: { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') } });
    for (const set of response.headers.getSetCookie()) {
      const [pair] = set.split(';');
      const [name, value] = pair!.split('=');
      cookies.set(name!, value ?? '');
    }
    const location = response.headers.get('location');
    if (!location) throw new Error(`no redirect from ${url.pathname}: ${response.status} ${await response.text()}`);
    url = new URL(location, url);
  }
  throw new Error('too many redirects');
}

async function codeFlow(client: oauth.Client, scope: string, resource = `${issuer}/v1`) {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const callback = await authorize({
    response_type: 'code',
    client_id: client.client_id,
    redirect_uri: REDIRECT,
    scope,
    state,
    resource,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  });
  // checks the `iss` parameter (RFC 9207) and the state
  const params = oauth.validateAuthResponse(as, client, callback, state);
  const response = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, REDIRECT, verifier, {
    ...insecure,
    additionalParameters: { resource },
  });
  return { tokens: await oauth.processAuthorizationCodeResponse(as, client, response), params, verifier };
}

describe('the authorization server', () => {
  it('publishes OAuth 2.1 metadata: code with PKCE S256 only, its endpoints and the platform scopes', () => {
    expect(as).toMatchObject({
      issuer,
      authorization_endpoint: `${issuer}/oauth/authorize`,
      token_endpoint: `${issuer}/oauth/token`,
      registration_endpoint: `${issuer}/oauth/register`,
      revocation_endpoint: `${issuer}/oauth/revoke`,
      code_challenge_methods_supported: ['S256'],
      response_types_supported: ['code'],
      authorization_response_iss_parameter_supported: true,
    });
    expect(as.scopes_supported).toEqual(expect.arrayContaining(['schema:read', 'records:read', 'records:write', 'identity:read']));
    expect(as.grant_types_supported).not.toContain('password');
    expect(as.grant_types_supported).not.toContain('implicit');
  });

  it('registers public clients only, and never with the marks operators give', async () => {
    const client = await oauth.processDynamicClientRegistrationResponse(await register({ client_name: 'Inspector' }));
    expect(client).toMatchObject({ token_endpoint_auth_method: 'none', redirect_uris: [REDIRECT] });
    expect(client.client_secret).toBeUndefined();
    for (const refused of [{ token_endpoint_auth_method: 'client_secret_basic' }, { first_party: true }, { allowances: ['svc-spaces'] }]) {
      const response = await register(refused);
      expect(response.status, JSON.stringify(refused)).toBe(400);
      expect((await response.json()).error).toBe('invalid_client_metadata');
    }
  });

  it('runs the code flow: a code once, a token bound to its resource, refresh rotation, reuse revoking the grant', async () => {
    const client = await oauth.processDynamicClientRegistrationResponse(await register());
    const { tokens, params, verifier } = await codeFlow(client, 'records:read schema:read');
    expect(tokens).toMatchObject({ token_type: 'bearer', scope: 'records:read schema:read' });
    expect(tokens.refresh_token).toBeTruthy();
    const access = await provider.AccessToken.find(tokens.access_token);
    expect(access).toMatchObject({ accountId: ACCOUNT, clientId: client.client_id, aud: `${issuer}/v1` });

    // the same code again: refused, and the tokens it gave are revoked with its grant
    const again = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, REDIRECT, verifier, insecure);
    await expect(oauth.processAuthorizationCodeResponse(as, client, again)).rejects.toMatchObject({ error: 'invalid_grant' });

    const fresh = (await codeFlow(client, 'records:read')).tokens;
    const rotated = await oauth.processRefreshTokenResponse(as, client, await oauth.refreshTokenGrantRequest(as, client, oauth.None(), fresh.refresh_token!, insecure));
    expect(rotated.refresh_token).toBeTruthy();
    expect(rotated.refresh_token).not.toBe(fresh.refresh_token);
    // the rotated-out token used again: invalid_grant, and the newest one dies with the grant
    const reused = await oauth.refreshTokenGrantRequest(as, client, oauth.None(), fresh.refresh_token!, insecure);
    await expect(oauth.processRefreshTokenResponse(as, client, reused)).rejects.toMatchObject({ error: 'invalid_grant' });
    const afterReuse = await oauth.refreshTokenGrantRequest(as, client, oauth.None(), rotated.refresh_token!, insecure);
    await expect(oauth.processRefreshTokenResponse(as, client, afterReuse)).rejects.toMatchObject({ error: 'invalid_grant' });
    expect(await provider.AccessToken.find(rotated.access_token)).toBeUndefined();
  });

  it('revokes a token (RFC 7009)', async () => {
    const client = await oauth.processDynamicClientRegistrationResponse(await register());
    const { tokens } = await codeFlow(client, 'records:read', `${issuer}/mcp`);
    expect(await provider.AccessToken.find(tokens.access_token)).toMatchObject({ aud: `${issuer}/mcp` });
    await oauth.processRevocationResponse(await oauth.revocationRequest(as, client, oauth.None(), tokens.access_token, insecure));
    expect(await provider.AccessToken.find(tokens.access_token)).toBeUndefined();
  });

  it('refuses plain PKCE, a missing challenge, an unknown resource and a redirect URI it does not know', async () => {
    const client = await oauth.processDynamicClientRegistrationResponse(await register());
    const base = { response_type: 'code', client_id: client.client_id, redirect_uri: REDIRECT, scope: 'records:read', state: 's' };
    for (const [extra, error] of [
      [{ code_challenge: 'x'.repeat(43), code_challenge_method: 'plain' }, 'invalid_request'],
      [{}, 'invalid_request'],
      [{ code_challenge: 'x'.repeat(43), code_challenge_method: 'S256', resource: 'https://elsewhere.example/api' }, 'invalid_target'],
    ] as const) {
      const callback = await authorize({ ...base, ...extra });
      expect(callback.searchParams.get('error'), JSON.stringify(extra)).toBe(error);
      expect(callback.searchParams.get('iss')).toBe(issuer);
    }
    // an unregistered redirect URI is never redirected to: the server answers itself
    const response = await fetch(`${as.authorization_endpoint}?${new URLSearchParams({ ...base, redirect_uri: 'http://127.0.0.1/elsewhere', code_challenge: 'x'.repeat(43), code_challenge_method: 'S256' })}`, { redirect: 'manual' });
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(await response.text()).toContain('redirect_uri did not match any of the client&#39;s registered redirect_uris');
  });
});
