// An external identity provider's JWTs (IDP_JWKS_URL / IDP_ISSUER / IDP_AUDIENCE): verified
// against a real JWKS served over HTTP; a first sign-in links an existing user by verified email.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { SignJWT, exportJWK, generateKeyPair, type CryptoKey } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectOk } from '../support/expect-envelope.ts';
import { addMember, createTeam, uniqueEmail, type TeamFixture } from '../support/fixtures.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { getMe } from '../support/users-fixtures.ts';

const ISSUER = 'https://idp.example.test/';
const AUDIENCE = 'svc-external-audience';
const KID = 'idp-key-1';

interface Claims {
  sub?: string;
  email?: string;
  email_verified?: unknown;
  iss?: string;
  aud?: string;
  exp?: number;
}

describe('external identity provider', () => {
  let jwks: http.Server;
  let jwksRequests = 0;
  let idpKey: CryptoKey;
  let server: TestServer;
  let team: TeamFixture;

  async function idpToken(claims: Claims, options: { key?: CryptoKey; kid?: string } = {}) {
    const now = Math.floor(Date.now() / 1000);
    const { sub, iss, aud, exp, ...rest } = claims;
    let jwt = new SignJWT(rest as Record<string, unknown>)
      .setProtectedHeader({ alg: 'ES256', kid: options.kid ?? KID, typ: 'JWT' })
      .setIssuer(iss ?? ISSUER)
      .setAudience(aud ?? AUDIENCE)
      .setIssuedAt(now - 5)
      .setExpirationTime(exp ?? now + 300);
    if (sub !== undefined) jwt = jwt.setSubject(sub);
    return jwt.sign(options.key ?? idpKey);
  }

  const me = (token: string, teamId?: string) => getMe(server, token, { teamId });
  const linkedSubject = async (userSimplyId: string) =>
    (await server.app.services.prisma.user.findUniqueOrThrow({ where: { simplyId: userSimplyId } })).externalSubject;

  beforeAll(async () => {
    const pair = await generateKeyPair('ES256');
    idpKey = pair.privateKey;
    const publicJwk = { ...(await exportJWK(pair.publicKey)), kid: KID, alg: 'ES256', use: 'sig' };
    jwks = http.createServer((req, res) => {
      jwksRequests++;
      if (req.url !== '/.well-known/jwks.json') {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [publicJwk] }));
    });
    await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
    const { port } = jwks.address() as AddressInfo;
    server = await startTestServer({
      env: { IDP_JWKS_URL: `http://127.0.0.1:${port}/.well-known/jwks.json`, IDP_ISSUER: ISSUER, IDP_AUDIENCE: AUDIENCE },
    });
    team = await createTeam(server);
  });
  afterAll(async () => {
    await server.close();
    await new Promise((resolve) => jwks.close(resolve));
  });

  it('a verified email matching an existing user links that user (externalSubject) and the token works', async () => {
    const member = await addMember(server, team);
    const sub = `ext-${randomUUID()}`;
    expect(await linkedSubject(member.userSimplyId)).toBeNull();

    const token = await idpToken({ sub, email: member.email.toUpperCase(), email_verified: true });
    const data = expectOk(await me(token, team.teamSimplyId));
    expect(data).toMatchObject({ userSimplyId: member.userSimplyId, email: member.email, selectedTeam: { teamSimplyId: team.teamSimplyId } });
    expect(await linkedSubject(member.userSimplyId)).toBe(`${ISSUER}|${sub}`);
    expect(jwksRequests).toBeGreaterThan(0);

    // once linked, the subject alone identifies the user (no email claim needed)
    const bare = await idpToken({ sub });
    expect(expectOk(await me(bare)).userSimplyId).toBe(member.userSimplyId);
    const viewer = await server.graphql(`{ viewer { credentialKind credentialId teamSimplyId } }`, {}, { token: bare, teamId: team.teamSimplyId });
    expect(viewer.status).toBe(200);
    expect(viewer.data).toEqual({ viewer: { credentialKind: 'USER', credentialId: member.userSimplyId, teamSimplyId: team.teamSimplyId } });
    // team rules are the same as for first-party tokens
    expectError(await server.request('GET', '/v1/team-roles', { token: bare }), 400, 'VALIDATION_ERROR');
    expectError(await server.request('GET', '/v1/team-roles', { token: bare, teamId: team.teamSimplyId }), 403, 'PERMISSION_DENIED');
  });

  it('a linked team admin can use team routes', async () => {
    const token = await idpToken({ sub: `admin-${randomUUID()}`, email: team.email, email_verified: true });
    expectOk(await server.request('GET', '/v1/team-roles', { token, teamId: team.teamSimplyId }));
    expect(expectOk(await me(token, team.teamSimplyId)).permissions.isTeamAdmin).toBe(true);
  });

  it('an unverified (or not strictly true) email is 401 and links nobody', async () => {
    const member = await addMember(server, team);
    for (const verified of [false, undefined, 'true', 1]) {
      const claims: Claims = { sub: `unverified-${randomUUID()}`, email: member.email };
      if (verified !== undefined) claims.email_verified = verified;
      const error = expectError(await me(await idpToken(claims), team.teamSimplyId), 401, 'UNAUTHENTICATED');
      expect(error.message).toMatch(/does not exist/);
    }
    expect(await linkedSubject(member.userSimplyId)).toBeNull();
  });

  it('an unknown email is 401 and no user is created implicitly', async () => {
    const email = uniqueEmail('stranger');
    expectError(await me(await idpToken({ sub: `stranger-${randomUUID()}`, email, email_verified: true })), 401, 'UNAUTHENTICATED');
    expect(await server.app.services.prisma.user.count({ where: { email } })).toBe(0);
  });

  it('a user already linked to another subject is not re-linked', async () => {
    const member = await addMember(server, team);
    const first = `first-${randomUUID()}`;
    expectOk(await me(await idpToken({ sub: first, email: member.email, email_verified: true })));
    expectError(await me(await idpToken({ sub: `second-${randomUUID()}`, email: member.email, email_verified: true })), 401, 'UNAUTHENTICATED');
    expect(await linkedSubject(member.userSimplyId)).toBe(`${ISSUER}|${first}`);
    expectOk(await me(await idpToken({ sub: first })));
  });

  it('wrong audience, wrong issuer, expiry, an unknown key, a forged key and a missing subject are all 401', async () => {
    const member = await addMember(server, team);
    const sub = `checks-${randomUUID()}`;
    const base = { sub, email: member.email, email_verified: true };
    const forger = await generateKeyPair('ES256');
    const cases: [string, string][] = [
      ['wrong audience', await idpToken({ ...base, aud: 'svc-api' })],
      ['wrong issuer', await idpToken({ ...base, iss: 'https://other-idp.example.test/' })],
      ['expired', await idpToken({ ...base, exp: Math.floor(Date.now() / 1000) - 120 })],
      ['unknown key id', await idpToken(base, { key: forger.privateKey, kid: 'not-published' })],
      ['forged with the published key id', await idpToken(base, { key: forger.privateKey })],
      ['no subject', await idpToken({ email: member.email, email_verified: true })],
    ];
    for (const [label, token] of cases) {
      const res = await me(token, team.teamSimplyId);
      expect(res.status, `${label}: ${res.text}`).toBe(401);
      expect(res.body.error.code, label).toBe('UNAUTHENTICATED');
      const gql = await server.graphql(`{ viewer { credentialKind } }`, {}, { token, teamId: team.teamSimplyId });
      expect(gql.status, label).toBe(401);
    }
    // none of them linked the user
    expect(await linkedSubject(member.userSimplyId)).toBeNull();
    // the genuine token does
    expectOk(await me(await idpToken(base), team.teamSimplyId));
    expect(await linkedSubject(member.userSimplyId)).toBe(`${ISSUER}|${sub}`);
  });

  it('first-party tokens keep working next to the external provider; a deactivated linked user is 401', async () => {
    expectOk(await me(team.userToken, team.teamSimplyId));
    const member = await addMember(server, team);
    const sub = `deactivated-${randomUUID()}`;
    const token = await idpToken({ sub, email: member.email, email_verified: true });
    expectOk(await me(token, team.teamSimplyId));
    await server.app.services.prisma.user.update({ where: { simplyId: member.userSimplyId }, data: { isActive: false } });
    server.app.services.authenticator.cache.clear();
    expectError(await me(token, team.teamSimplyId), 401, 'UNAUTHENTICATED');
    expectError(await me(await idpToken({ sub })), 401, 'UNAUTHENTICATED');
  });
});
