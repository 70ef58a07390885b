// Password sign-in with a second factor: the challenge instead of tokens, the second step with a code
// or a recovery code (REST and GraphQL), single use of codes, the challenge's lifetime and attempts,
// the shared failure limit, and password-only users signing in as before.
// Sign-in attempts are throttled per address (20) and account (10) in this process: this file stays under both.
import { describe, expect, it } from 'vitest';
import { hashToken } from '../../src/app/auth/tokens.ts';
import { operation } from '../../src/app/graphql/fragments.ts';
import { AUTH_SESSION } from '../../src/modules/identity/identity.fragments.ts';
import { expectError, expectGqlError, expectOk, gqlData } from '../support/expect-envelope.ts';
import { addMember } from '../support/fixtures.ts';
import { useServer } from '../support/use-server.ts';
import { getMe } from '../support/users-fixtures.ts';
import { enableMfa, mfaStatusOf, totp, wrongCode } from './mfa-fixtures.ts';

const PASSWORD = 'correct horse battery staple';
const JWT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;
const CHALLENGE = /^svc_mfa_[A-Za-z0-9_-]{43}$/;

describe('multi-factor sign-in: signing in', () => {
  const { server, teams: [team] } = useServer({ teams: 1 });
  const login = (email: string, extra: Record<string, unknown> = {}) => server.request('POST', '/v1/auth/login', { body: { email, password: PASSWORD, ...extra } });
  const second = (body: unknown) => server.request('POST', '/v1/auth/login/mfa', { body });
  const db = () => server.app.services.prisma;
  const userId = async (userSimplyId: string) => (await db().user.findUniqueOrThrow({ where: { simplyId: userSimplyId } })).id;

  /** a member with multi-factor sign-in enabled, and the challenge of a password sign-in */
  async function challenged(extra: Record<string, unknown> = {}) {
    const member = await addMember(server, team);
    const mfa = await enableMfa(server, member.token);
    const data = expectOk(await login(member.email, extra));
    return { member, ...mfa, challenge: data.mfaChallengeToken as string, data };
  }

  it('password-only users get their tokens directly, as before (REST and GraphQL)', async () => {
    const member = await addMember(server, team);
    const data = expectOk(await login(member.email));
    expect(data).toMatchObject({ tokenType: 'Bearer', mfaRequired: false, mfaChallengeToken: null, mfaChallengeExpiresAt: null, user: { userSimplyId: member.userSimplyId } });
    expect(data.accessToken).toMatch(JWT);
    const gql = gqlData(await server.graphql(`mutation($e: String!, $p: String!) { login(email: $e, password: $p) { accessToken mfaRequired } }`, { e: member.email, p: PASSWORD }));
    expect(gql.login.accessToken).toMatch(JWT);
    expect(gql.login.mfaRequired).toBe(false);
  });

  it('REST: the password step answers a challenge and no tokens; the code completes it with a session of the login\'s device', async () => {
    const { member, secret, challenge, data } = await challenged({ platform: 'ios', deviceName: 'Ada\'s phone' });
    expect(data).toEqual({
      accessToken: null,
      tokenType: null,
      expiresAt: null,
      expiresIn: null,
      refreshToken: null,
      refreshTokenExpiresAt: null,
      user: null,
      mfaRequired: true,
      mfaChallengeToken: expect.stringMatching(CHALLENGE),
      mfaChallengeExpiresAt: expect.any(String),
    });
    const lifetime = new Date(data.mfaChallengeExpiresAt).getTime() - Date.now();
    expect(lifetime).toBeGreaterThan(290_000);
    expect(lifetime).toBeLessThanOrEqual(300_000);
    const id = await userId(member.userSimplyId);
    // stored hashed; no session or refresh token exists yet
    expect(await db().mfaChallenge.count({ where: { tokenHash: hashToken(challenge) } })).toBe(1);
    expect(await db().mfaChallenge.count({ where: { tokenHash: challenge } })).toBe(0);
    expect(await db().userSession.count({ where: { userId: id } })).toBe(0);
    expect(await db().refreshToken.count({ where: { userId: id } })).toBe(0);

    const wrong = expectError(await second({ mfaChallengeToken: challenge, code: await wrongCode(secret) }), 400, 'INVALID_MFA_CODE');
    expect(wrong.details).toEqual([{ field: 'code', message: 'not accepted' }]);

    const session = expectOk(await second({ mfaChallengeToken: challenge, code: await totp(secret, 1) }));
    expect(session).toMatchObject({ tokenType: 'Bearer', mfaRequired: false, mfaChallengeToken: null, user: { userSimplyId: member.userSimplyId, email: member.email } });
    expect(session.accessToken).toMatch(JWT);
    expect(expectOk(await getMe(server, session.accessToken, { teamId: team.teamSimplyId })).userSimplyId).toBe(member.userSimplyId);
    expectOk(await server.request('POST', '/v1/auth/refresh', { body: { refreshToken: session.refreshToken } }));
    const sessions = await db().userSession.findMany({ where: { userId: id } });
    expect(sessions.map((s) => [s.platform, s.deviceName])).toEqual([['ios', 'Ada\'s phone']]);

    // the challenge is single use
    expectError(await second({ mfaChallengeToken: challenge, code: await totp(secret, 1) }), 401, 'UNAUTHENTICATED');
  });

  it('a code is single use within its window: the same code on the next sign-in is refused like a wrong one', async () => {
    const { member, secret, challenge } = await challenged();
    const code = await totp(secret, 1);
    expectOk(await second({ mfaChallengeToken: challenge, code }));
    const next = expectOk(await login(member.email)).mfaChallengeToken;
    const replay = expectError(await second({ mfaChallengeToken: next, code }), 400, 'INVALID_MFA_CODE');
    expect(replay.message).toBe('The code is wrong, expired or already used');
    // and the code the person already used to enable it cannot sign in either
    expectError(await second({ mfaChallengeToken: next, code: await totp(secret, 0) }), 400, 'INVALID_MFA_CODE');
  });

  it('recovery codes sign in once each; a used one is refused', async () => {
    const { member, recoveryCodes, challenge } = await challenged();
    // case, spaces and hyphens do not matter
    const typed = ` ${recoveryCodes[0]!.toLowerCase().replace(/-/g, ' ')} `;
    expectOk(await second({ mfaChallengeToken: challenge, recoveryCode: typed }));
    expect((await mfaStatusOf(server, member.token)).recoveryCodesRemaining).toBe(9);

    const next = expectOk(await login(member.email)).mfaChallengeToken;
    const reused = expectError(await second({ mfaChallengeToken: next, recoveryCode: recoveryCodes[0] }), 400, 'INVALID_MFA_CODE');
    expect(reused.details).toEqual([{ field: 'recoveryCode', message: 'not accepted' }]);
    // another one, given as `code`
    expectOk(await second({ mfaChallengeToken: next, code: recoveryCodes[1] }));
    expect((await mfaStatusOf(server, member.token)).recoveryCodesRemaining).toBe(8);
  });

  it('one code sent with two challenges at the same time signs in once', async () => {
    const { member, secret, challenge } = await challenged();
    const otherChallenge = expectOk(await login(member.email)).mfaChallengeToken;
    const code = await totp(secret, 1);
    const [a, b] = await Promise.all([second({ mfaChallengeToken: challenge, code }), second({ mfaChallengeToken: otherChallenge, code })]);
    expect([a.status, b.status].sort()).toEqual([200, 400]);
    expect((a.status === 400 ? a : b).body.error.code).toBe('INVALID_MFA_CODE');
  });

  it('GraphQL: login answers mfaRequired with null tokens, completeMfaLogin gives the session', async () => {
    const member = await addMember(server, team);
    const { secret } = await enableMfa(server, member.token);
    const first = gqlData(await server.graphql(operation`mutation($e: String!, $p: String!) { login(email: $e, password: $p) { ${AUTH_SESSION} } }`, { e: member.email, p: PASSWORD })).login;
    expect(first).toMatchObject({ mfaRequired: true, accessToken: null, refreshToken: null, user: null });
    expect(first.mfaChallengeToken).toMatch(CHALLENGE);
    const complete = operation`mutation($t: String!, $c: String, $r: String) { completeMfaLogin(mfaChallengeToken: $t, code: $c, recoveryCode: $r) { ${AUTH_SESSION} } }`;
    expectGqlError(await server.graphql(complete, { t: first.mfaChallengeToken, c: await wrongCode(secret) }), 'INVALID_MFA_CODE', 400);
    expectGqlError(await server.graphql(complete, { t: first.mfaChallengeToken }), 'VALIDATION_ERROR', 400);
    const done = gqlData(await server.graphql(complete, { t: first.mfaChallengeToken, c: await totp(secret, 1) })).completeMfaLogin;
    expect(done).toMatchObject({ mfaRequired: false, tokenType: 'Bearer', user: { userSimplyId: member.userSimplyId } });
    expect(done.accessToken).toMatch(JWT);
    expectGqlError(await server.graphql(complete, { t: first.mfaChallengeToken, c: await totp(secret, 1) }), 'UNAUTHENTICATED', 401);
  });

  it('a challenge dies after 5 wrong codes, and after 5 minutes', async () => {
    const { member, secret, challenge } = await challenged();
    for (let i = 0; i < 5; i++) expectError(await second({ mfaChallengeToken: challenge, code: await wrongCode(secret, i) }), 400, 'INVALID_MFA_CODE', `attempt ${i + 1}`);
    const dead = expectError(await second({ mfaChallengeToken: challenge, code: await totp(secret, 1) }), 401, 'UNAUTHENTICATED');
    expect(dead.message).toMatch(/sign in again/);

    const late = expectOk(await login(member.email)).mfaChallengeToken;
    await db().mfaChallenge.update({ where: { tokenHash: hashToken(late) }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expectError(await second({ mfaChallengeToken: late, code: await totp(secret, 1) }), 401, 'UNAUTHENTICATED');
    // the code was not used up by the refused attempts
    const fresh = expectOk(await login(member.email)).mfaChallengeToken;
    expectOk(await second({ mfaChallengeToken: fresh, code: await totp(secret, 1) }));
  });

  it('malformed second steps are 400; unknown challenges 401', async () => {
    const valid = { mfaChallengeToken: `svc_mfa_${'a'.repeat(43)}`, code: '123456' };
    expectError(await second({ mfaChallengeToken: valid.mfaChallengeToken }), 400, 'VALIDATION_ERROR');
    expectError(await second({ ...valid, recoveryCode: 'AAAA-BBBB-CCCC' }), 400, 'VALIDATION_ERROR');
    expectError(await second({ ...valid, extra: true }), 400, 'VALIDATION_ERROR');
    expectError(await second({ code: '123456' }), 400, 'VALIDATION_ERROR');
    expectError(await second(undefined), 400, 'VALIDATION_ERROR');
    expectError(await second(valid), 401, 'UNAUTHENTICATED');
    expectError(await second({ ...valid, mfaChallengeToken: 'not-a-challenge' }), 401, 'UNAUTHENTICATED');
    expectError(await server.request('GET', '/v1/auth/login/mfa'), 405, 'METHOD_NOT_ALLOWED');
  });

  it('failed codes are limited per person across routes: after 10, the second step is 429 with Retry-After and the challenge keeps its attempts', async () => {
    const { member, secret, challenge } = await challenged();
    for (let i = 0; i < 4; i++) expectError(await second({ mfaChallengeToken: challenge, code: await wrongCode(secret, i) }), 400, 'INVALID_MFA_CODE');
    for (let i = 0; i < 6; i++) expect(expectOk(await server.request('POST', '/v1/users/me/mfa/verify', { token: member.token, body: { code: await wrongCode(secret, 10 + i) } })).valid).toBe(false);
    const limited = await second({ mfaChallengeToken: challenge, code: await totp(secret, 1) });
    expectError(limited, 429, 'RATE_LIMIT_EXCEEDED');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(800);
    const stored = await db().mfaChallenge.findUniqueOrThrow({ where: { tokenHash: hashToken(challenge) } });
    expect(stored.attempts).toBe(4);
    expect(stored.consumedAt).toBeNull();
  });

  it('a challenge issued before the second factor was reset no longer works; the next sign-in needs the password only', async () => {
    const { member, secret, challenge } = await challenged();
    const link = await db().teamMembership.findFirstOrThrow({ where: { teamId: team.teamId, user: { simplyId: member.userSimplyId } } });
    expectOk(await server.request('POST', `/v1/users/mfa/reset/${link.simplyId}`, { token: team.userToken, teamId: team.teamSimplyId }));
    expectError(await second({ mfaChallengeToken: challenge, code: await totp(secret, 1) }), 401, 'UNAUTHENTICATED');
    const data = expectOk(await login(member.email));
    expect(data.mfaRequired).toBe(false);
    expect(data.accessToken).toMatch(JWT);
  });
});
