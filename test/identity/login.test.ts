// The first-party identity provider: POST /v1/auth/login, /refresh, /logout and their GraphQL
// twins (login, refreshAccessToken, logout), and how user JWTs are checked on every request.
import { randomUUID } from 'node:crypto';
import { userSessionId } from '../../src/modules/identity/identity.ids.ts';
import { SignJWT, generateKeyPair } from 'jose';
import { Agent, fetch as undiciFetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken, newRefreshToken } from '../../src/app/auth/tokens.ts';
import { operation } from '../../src/app/graphql/fragments.ts';
import { AUTH_SESSION } from '../../src/modules/identity/identity.fragments.ts';
import { loadOrCreateSigningKey, type SigningKey } from '../../src/app/auth/signing-key.ts';
import { expectError, expectGqlError, expectOk, gqlData } from '../support/expect-envelope.ts';
import { addMember } from '../support/fixtures.ts';
import { useServer } from '../support/use-server.ts';
import { getMe } from '../support/users-fixtures.ts';

const JWT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;
const REFRESH = /^svc_refresh_[A-Za-z0-9_-]{43}$/;
const PASSWORD = 'correct horse battery staple';

// Sign-in attempts are throttled per address (20 burst) and per account (10 burst) in this
// process: this file stays well under the address budget from 127.0.0.1, and the throttling
// test uses its own source address.
describe('first-party sign-in', () => {
  const { server, teams: [team, other] } = useServer({ teams: 2 });
  let signingKey: SigningKey;

  const login = (body: unknown) => server.request('POST', '/v1/auth/login', { body });
  const refresh = (refreshToken: unknown) => server.request('POST', '/v1/auth/refresh', { body: { refreshToken } });
  const me = (token: string, teamId?: string) => getMe(server, token, { teamId });

  /** a refresh token written straight to the database (saves sign-in attempts) */
  async function storedRefreshToken(userSimplyId: string, expiresAt = new Date(Date.now() + 86_400_000)) {
    const user = await server.app.services.prisma.user.findUniqueOrThrow({ where: { simplyId: userSimplyId } });
    const token = newRefreshToken();
    const familyId = randomUUID();
    // a sign-in session as login starts one: its refresh-token family
    await server.app.services.prisma.userSession.create({ data: { simplyId: userSessionId.create(), userId: user.id, familyId } });
    await server.app.services.prisma.refreshToken.create({ data: { userId: user.id, tokenHash: hashToken(token), familyId, expiresAt } });
    return token;
  }

  /** a JWT with our issuer and audience, signed by the server's own key unless told otherwise */
  async function ownJwt(claims: { sub?: string; iss?: string; aud?: string; exp?: number }, key: { privateKey: SigningKey['privateKey']; kid: string } = signingKey) {
    const now = Math.floor(Date.now() / 1000);
    let jwt = new SignJWT({}).setProtectedHeader({ alg: 'EdDSA', kid: key.kid, typ: 'JWT' }).setIssuedAt(now - 10);
    jwt = jwt.setIssuer(claims.iss ?? 'svc-platform').setAudience(claims.aud ?? 'svc-api').setExpirationTime(claims.exp ?? now + 600);
    if (claims.sub !== undefined) jwt = jwt.setSubject(claims.sub);
    return jwt.sign(key.privateKey);
  }

  beforeAll(async () => {
    signingKey = await loadOrCreateSigningKey(server.app.services.config.jwtSigningKeyFile);
  });

  describe('login', () => {
    it('REST: email (any case) + password give a 1-hour JWT and a refresh token; the JWT works with X-Team-Id', async () => {
      const res = await login({ email: `  ${team.email.toUpperCase()} `, password: PASSWORD });
      const data = expectOk(res);
      expect(data.accessToken).toMatch(JWT);
      expect(data.tokenType).toBe('Bearer');
      expect(data.expiresIn).toBeGreaterThan(3590);
      expect(data.expiresIn).toBeLessThanOrEqual(3600);
      expect(new Date(data.expiresAt).getTime() - Date.now()).toBeGreaterThan(3_590_000);
      expect(data.refreshToken).toMatch(REFRESH);
      expect(new Date(data.refreshTokenExpiresAt).getTime() - Date.now()).toBeGreaterThan(29 * 86_400_000);
      expect(data.user).toMatchObject({ userSimplyId: team.userSimplyId, email: team.email, isSystemAdmin: false, teams: [{ teamSimplyId: team.teamSimplyId, isTeamAdmin: true }] });
      expect(res.text).not.toContain(PASSWORD);

      const self = expectOk(await me(data.accessToken, team.teamSimplyId));
      expect(self).toMatchObject({ userSimplyId: team.userSimplyId, selectedTeam: { teamSimplyId: team.teamSimplyId } });
      expect(new Date(self.lastLoggedIn).getTime()).toBeGreaterThan(Date.now() - 60_000);
      expectOk(await server.request('GET', '/v1/team-roles', { token: data.accessToken, teamId: team.teamSimplyId }));
      // a user route on a team resource without a team: 400 VALIDATION_ERROR
      const noTeam = expectError(await server.request('GET', '/v1/team-roles', { token: data.accessToken }), 400, 'VALIDATION_ERROR');
      expect(noTeam.details).toEqual([{ field: 'X-Team-Id', message: 'required for user credentials' }]);
      // not a member of that team: 403
      expectError(await server.request('GET', '/v1/team-roles', { token: data.accessToken, teamId: other.teamSimplyId }), 403, 'PERMISSION_DENIED');

      // only the hash of the refresh token is stored
      const stored = await server.app.services.prisma.refreshToken.findUnique({ where: { tokenHash: hashToken(data.refreshToken) } });
      expect(stored?.usedAt).toBeNull();
      expect(await server.app.services.prisma.refreshToken.count({ where: { tokenHash: data.refreshToken } })).toBe(0);
    });

    it('a wrong password and an unknown email get the same 401; malformed bodies are 400', async () => {
      const wrong = expectError(await login({ email: team.email, password: 'not the password' }), 401, 'UNAUTHENTICATED');
      const unknown = expectError(await login({ email: `nobody-${randomUUID()}@example.test`, password: PASSWORD }), 401, 'UNAUTHENTICATED');
      expect(unknown.message).toBe(wrong.message);
      expect(wrong).not.toHaveProperty('details');

      expectError(await login({ email: 'not-an-email', password: PASSWORD }), 400, 'VALIDATION_ERROR');
      expectError(await login({ email: team.email, password: '' }), 400, 'VALIDATION_ERROR');
      expectError(await login({ email: team.email }), 400, 'VALIDATION_ERROR');
      expectError(await login([team.email, PASSWORD]), 400, 'VALIDATION_ERROR');
      expectError(await server.request('POST', '/v1/auth/login'), 400, 'VALIDATION_ERROR');
      expectError(await server.request('POST', '/v1/auth/login', { rawBody: `email=${team.email}`, headers: { 'content-type': 'application/x-www-form-urlencoded' } }), 415, 'UNSUPPORTED_MEDIA_TYPE');
      expectError(await server.request('GET', '/v1/auth/login'), 405, 'METHOD_NOT_ALLOWED');

      const gqlWrong = await server.graphql(`mutation($e: String!, $p: String!) { login(email: $e, password: $p) { accessToken } }`, { e: team.email, p: 'nope' });
      expectGqlError(gqlWrong, 'UNAUTHENTICATED', 401);
      expect(gqlWrong.errors?.[0]?.message).toBe(wrong.message);
    });

    it('GraphQL login is the same operation', async () => {
      const member = await addMember(server, team);
      const res = gqlData(await server.graphql(operation`mutation($e: String!, $p: String!) { login(email: $e, password: $p) { ${AUTH_SESSION} } }`, { e: member.email, p: PASSWORD }));
      expect(res.login).toMatchObject({ tokenType: 'Bearer', user: { userSimplyId: member.userSimplyId, email: member.email } });
      expect(res.login.refreshToken).toMatch(REFRESH);
      const viewer = gqlData(await server.graphql(`{ viewer { credentialKind credentialId teamSimplyId isTeamAdmin } }`, {}, { token: res.login.accessToken, teamId: team.teamSimplyId }));
      expect(viewer.viewer).toEqual({ credentialKind: 'USER', credentialId: member.userSimplyId, teamSimplyId: team.teamSimplyId, isTeamAdmin: false });
    });
  });

  describe('refresh and logout', () => {
    it('refresh rotates; reusing a used refresh token is 401 and ends the whole family (the newest one too)', async () => {
      const member = await addMember(server, team);
      const first = expectOk(await login({ email: member.email, password: PASSWORD }));

      const second = expectOk(await refresh(first.refreshToken));
      expect(second.refreshToken).toMatch(REFRESH);
      expect(second.refreshToken).not.toBe(first.refreshToken);
      expect(second.accessToken).toMatch(JWT);
      expect(second.user.userSimplyId).toBe(member.userSimplyId);
      expect(expectOk(await me(second.accessToken, team.teamSimplyId)).userSimplyId).toBe(member.userSimplyId);

      // GraphQL twin, continuing the chain
      const third = gqlData(await server.graphql(operation`mutation($r: String!) { refreshAccessToken(refreshToken: $r) { ${AUTH_SESSION} } }`, { r: second.refreshToken })).refreshAccessToken;
      expect(third.refreshToken).not.toBe(second.refreshToken);
      expect(third.user.userSimplyId).toBe(member.userSimplyId);

      // the first token, already used, is presented again: theft is assumed
      const reuse = expectError(await refresh(first.refreshToken), 401, 'UNAUTHENTICATED');
      expect(reuse.message).toMatch(/already used/);
      // ... so even the newest token of that family is dead now
      expectError(await refresh(third.refreshToken), 401, 'UNAUTHENTICATED');
      expectGqlError(await server.graphql(`mutation($r: String!) { refreshAccessToken(refreshToken: $r) { accessToken } }`, { r: second.refreshToken }), 'UNAUTHENTICATED', 401);
      const family = await server.app.services.prisma.refreshToken.findMany({ where: { user: { simplyId: member.userSimplyId } } });
      expect(family).toHaveLength(3);
      expect(family.every((t) => t.revokedAt !== null)).toBe(true);

      // other sign-in sessions of the same user are not affected
      const separate = await storedRefreshToken(member.userSimplyId);
      expectOk(await refresh(separate));
    });

    it('two concurrent uses of one refresh token: one wins, the other is reuse, and the winner\'s new token dies with the family', async () => {
      for (let round = 0; round < 5; round++) {
        const member = await addMember(server, team);
        const shared = await storedRefreshToken(member.userSimplyId);
        const results = await Promise.all([refresh(shared), refresh(shared)]);
        const statuses = results.map((r) => r.status).sort();
        expect(statuses, `round ${round}`).toEqual([200, 401]);
        const winner = results.find((r) => r.status === 200)!;
        expectError(await refresh(winner.body.data.refreshToken), 401, 'UNAUTHENTICATED');
        const family = await server.app.services.prisma.refreshToken.findMany({ where: { user: { simplyId: member.userSimplyId } } });
        expect(family.map((t) => t.revokedAt !== null), `round ${round}`).toEqual([true, true]);
      }
    });

    it('unknown, malformed, expired and missing refresh tokens', async () => {
      expectError(await refresh(newRefreshToken()), 401, 'UNAUTHENTICATED');
      expectError(await refresh('svc_live_not_a_refresh_token'), 401, 'UNAUTHENTICATED');
      expectError(await refresh(''), 401, 'UNAUTHENTICATED');
      expectError(await server.request('POST', '/v1/auth/refresh', { body: {} }), 400, 'VALIDATION_ERROR');
      expectError(await server.request('POST', '/v1/auth/refresh', { body: { refreshToken: 42 } }), 400, 'VALIDATION_ERROR');
      const expired = await storedRefreshToken(team.userSimplyId, new Date(Date.now() - 1000));
      expectError(await refresh(expired), 401, 'UNAUTHENTICATED');
      // a refresh token is not an access token
      const valid = await storedRefreshToken(team.userSimplyId);
      expectError(await me(valid), 401, 'UNAUTHENTICATED');
    });

    it('logout ends the sign-in session of a refresh token (REST and GraphQL)', async () => {
      const member = await addMember(server, team);
      const session = expectOk(await login({ email: member.email, password: PASSWORD }));
      const rotated = expectOk(await refresh(session.refreshToken));
      const res = await server.request('POST', '/v1/auth/logout', { body: { refreshToken: session.refreshToken } });
      expect(expectOk(res)).toEqual({ loggedOut: true });
      // the whole chain is gone
      expectError(await refresh(rotated.refreshToken), 401, 'UNAUTHENTICATED');
      // unknown tokens log out quietly
      expect(expectOk(await server.request('POST', '/v1/auth/logout', { body: { refreshToken: newRefreshToken() } }))).toEqual({ loggedOut: true });
      expectError(await server.request('POST', '/v1/auth/logout', { body: {} }), 400, 'VALIDATION_ERROR');

      const other = await storedRefreshToken(member.userSimplyId);
      expect(gqlData(await server.graphql(`mutation($r: String!) { logout(refreshToken: $r) }`, { r: other }))).toEqual({ logout: true });
      expectGqlError(await server.graphql(`mutation($r: String!) { refreshAccessToken(refreshToken: $r) { accessToken } }`, { r: other }), 'UNAUTHENTICATED', 401);
    });
  });

  describe('deactivated users', () => {
    it('cannot use their access token, sign in, or refresh (all 401)', async () => {
      const member = await addMember(server, team);
      const refreshToken = await storedRefreshToken(member.userSimplyId);
      expectOk(await me(member.token, team.teamSimplyId)); // cached now
      await server.app.services.prisma.user.update({ where: { simplyId: member.userSimplyId }, data: { isActive: false } });
      server.app.services.authenticator.cache.clear();

      const denied = expectError(await me(member.token, team.teamSimplyId), 401, 'UNAUTHENTICATED');
      expect(denied.message).toMatch(/deactivated/);
      expectError(await me(member.token), 401, 'UNAUTHENTICATED');
      expect((await server.graphql(`{ viewer { credentialKind } }`, {}, { token: member.token })).status).toBe(401);
      const signIn = expectError(await login({ email: member.email, password: PASSWORD }), 401, 'UNAUTHENTICATED');
      expect(signIn.message).toMatch(/email or password is wrong/);
      expectError(await refresh(refreshToken), 401, 'UNAUTHENTICATED');
      // the profile is kept, and a team admin still sees it
      const kept = expectOk(await server.request('GET', `/v1/users/${member.userSimplyId}`, { token: team.userToken, teamId: team.teamSimplyId }));
      expect(kept.email).toBe(member.email);
    });
  });

  describe('JWT checks', () => {
    it('a JWT with a wrong signature, a tampered payload, an expired one or the wrong audience is 401', async () => {
      const stranger = await generateKeyPair('EdDSA', { crv: 'Ed25519' });
      const now = Math.floor(Date.now() / 1000);
      const valid = await ownJwt({ sub: team.userSimplyId });
      expectOk(await me(valid, team.teamSimplyId));

      const [header, , signature] = team.userToken.split('.');
      const tamperedPayload = Buffer.from(JSON.stringify({ sub: other.userSimplyId, iss: 'svc-platform', aud: 'svc-api', exp: now + 600 })).toString('base64url');
      const cases: [string, string, RegExp][] = [
        ['signed by another key', await ownJwt({ sub: team.userSimplyId }, { privateKey: stranger.privateKey, kid: signingKey.kid }), /not valid/],
        ['tampered payload', `${header}.${tamperedPayload}.${signature}`, /not valid/],
        ['expired', await ownJwt({ sub: team.userSimplyId, exp: now - 60 }), /expired/],
        ['wrong audience', await ownJwt({ sub: team.userSimplyId, aud: 'someone-else' }), /not valid/],
        ['unknown issuer', await ownJwt({ sub: team.userSimplyId, iss: 'https://evil.example.test' }), /trusted identity provider/],
        ['no subject', await ownJwt({}), /no subject/],
        ['unknown user', await ownJwt({ sub: 'usr-ZZZZ-ZZZZ-ZZZZ' }), /does not exist/],
        ['subject is not a user id', await ownJwt({ sub: '1' }), /does not exist/],
        [
          'alg none',
          `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${Buffer.from(JSON.stringify({ sub: team.userSimplyId, iss: 'svc-platform', aud: 'svc-api', exp: now + 600 })).toString('base64url')}.`,
          /not valid/,
        ],
      ];
      for (const [label, token, message] of cases) {
        const res = await me(token, team.teamSimplyId);
        expect(res.status, `${label}: ${res.text}`).toBe(401);
        expect(res.body.error.code, label).toBe('UNAUTHENTICATED');
        expect(res.body.error.message, label).toMatch(message);
        const gql = await server.graphql(`{ viewer { credentialKind } }`, {}, { token, teamId: team.teamSimplyId });
        expect(gql.status, label).toBe(401);
        expect(gql.errors?.[0]?.extensions?.code, label).toBe('UNAUTHENTICATED');
      }
    });

    it('user JWTs need a selected team on team routes (400 VALIDATION_ERROR), REST and GraphQL alike', async () => {
      for (const path of ['/v1/team-roles', '/v1/api-keys', '/v1/users', `/v1/users/${team.userSimplyId}`]) {
        expectError(await server.request('GET', path, { token: team.userToken }), 400, 'VALIDATION_ERROR');
      }
      expectGqlError(await server.graphql(`{ teamRoles { nodes { id } } }`, {}, { token: team.userToken }), 'VALIDATION_ERROR', 400);
      expectGqlError(await server.graphql(`{ users { nodes { id } } }`, {}, { token: team.userToken }), 'VALIDATION_ERROR', 400);
      // the credential itself is fine: routes that need no team work
      expectOk(await me(team.userToken));
    });
    // Document 1 §5 rule 4 (user-only surfaces answer API keys and session tokens with 403
    // IDP_REQUIRED) is tested where such a surface exists: the wizard run-access route
    // (test/wizards/wizard-routes.test.ts).
  });

  describe('throttling', () => {
    let agent: Agent;
    beforeAll(() => {
      agent = new Agent({ localAddress: '127.0.0.2', connect: { ca: server.ca } });
    });
    afterAll(() => agent.close());

    it('after 10 failed attempts on one account the next is 429 RATE_LIMIT_EXCEEDED with Retry-After, even with the right password', async () => {
      const member = await addMember(server, team);
      const attempt = async (password: string) => {
        const response = await undiciFetch(`${server.baseUrl}/v1/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: member.email, password }),
          dispatcher: agent,
        });
        return { status: response.status, retryAfter: response.headers.get('retry-after'), body: (await response.json()) as any };
      };
      for (let i = 0; i < 10; i++) {
        const res = await attempt(`wrong password ${i}`);
        expect(res.status, `attempt ${i + 1}`).toBe(401);
      }
      const limited = await attempt(PASSWORD);
      expect(limited.status).toBe(429);
      expect(limited.body.error.code).toBe('RATE_LIMIT_EXCEEDED');
      expect(Number(limited.retryAfter)).toBeGreaterThanOrEqual(1);
      // other accounts are not locked out by it
      expectOk(await login({ email: team.email, password: PASSWORD }));
    });
  });
});
