// The current user's sign-in sessions over REST (/v1/users/me/sessions) and GraphQL (mySessions,
// describeCurrentSession, revokeMySession): listing, describing the current one, and revoking one,
// which ends its refresh and access tokens at once on every instance. Also: deactivated users.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishCredentialInvalidation } from '../../src/app/auth/credential-invalidation.ts';
import { hashToken } from '../../src/app/auth/tokens.ts';
import { mintSessionToken } from '../support/credentials-fixtures.ts';
import { expectError, expectGqlError, expectOk, gqlData } from '../support/expect-envelope.ts';
import { addMember } from '../support/fixtures.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { untilWith } from '../support/until.ts';
import { useServer } from '../support/use-server.ts';
import { getMe } from '../support/users-fixtures.ts';

const SESSIONS = '/v1/users/me/sessions';
const SESSION_ID = /^ses-[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}$/;
const PASSWORD = 'correct horse battery staple';
const until = untilWith({ timeoutMs: 3000, everyMs: 20 });

// Sign-ins are throttled per address (20) and per account (10) in this process: this file signs in
// fewer than 20 times.
describe('sign-in sessions', () => {
  const { server, teams: [team, other] } = useServer({ teams: 2 });
  /** a second instance on the same database and data folder (same signing key), as behind a load balancer */
  let second: TestServer;

  beforeAll(async () => {
    second = await startTestServer({ dataDir: server.dataDir });
  });
  afterAll(async () => {
    await second?.close();
  });

  type SignedIn = { accessToken: string; refreshToken: string };
  async function signIn(email: string, about: { platform?: string; deviceName?: string; userAgent?: string } = {}): Promise<SignedIn> {
    const { userAgent, ...body } = about;
    const res = await server.request('POST', '/v1/auth/login', { body: { email, password: PASSWORD, ...body }, headers: userAgent ? { 'user-agent': userAgent } : {} });
    return expectOk(res);
  }
  const sessions = (token: string, on: TestServer = server) => on.request('GET', SESSIONS, { token });
  const refresh = (refreshToken: string) => server.request('POST', '/v1/auth/refresh', { body: { refreshToken } });

  it('lists the active sessions, most recently active first, with the current one flagged; GraphQL mySessions is the same', async () => {
    const person = await addMember(server, team);
    const phone = await signIn(person.email, { platform: 'ios', deviceName: 'iPhone 16', userAgent: 'SvcApp/3.1 (iOS 18.2)' });
    const laptop = await signIn(person.email, { platform: 'web', userAgent: 'Mozilla/5.0 (X11; Linux x86_64)' });

    const list = expectOk(await sessions(laptop.accessToken));
    expect(list).toHaveLength(2);
    expect(list[0]).toEqual({
      id: list[0].sessionSimplyId,
      sessionSimplyId: expect.stringMatching(SESSION_ID),
      platform: 'web',
      deviceName: null,
      userAgent: 'Mozilla/5.0 (X11; Linux x86_64)',
      createdAt: expect.any(String),
      lastActiveAt: expect.any(String),
      expiresAt: expect.any(String),
      isCurrent: true,
    });
    expect(list[1]).toMatchObject({ platform: 'ios', deviceName: 'iPhone 16', userAgent: 'SvcApp/3.1 (iOS 18.2)', isCurrent: false });
    expect(Date.parse(list[0].expiresAt)).toBeGreaterThan(Date.now() + 86_400_000);

    // from the phone, the phone's session is the current one
    const fromPhone = gqlData(await server.graphql(`{ mySessions { sessionSimplyId platform isCurrent } }`, {}, { token: phone.accessToken }));
    expect(fromPhone.mySessions).toEqual([
      { sessionSimplyId: list[0].sessionSimplyId, platform: 'web', isCurrent: false },
      { sessionSimplyId: list[1].sessionSimplyId, platform: 'ios', isCurrent: true },
    ]);

    // refreshing marks a session active: the phone moves to the top
    const rotated = expectOk(await refresh(phone.refreshToken));
    const after = expectOk(await sessions(rotated.accessToken));
    expect(after.map((s: { platform: string; isCurrent: boolean }) => [s.platform, s.isCurrent])).toEqual([['ios', true], ['web', false]]);
    expect(Date.parse(after[0].lastActiveAt)).toBeGreaterThan(Date.parse(list[1].lastActiveAt));

    // an ended session (logged out) and an expired one are not listed
    expectOk(await server.request('POST', '/v1/auth/logout', { body: { refreshToken: laptop.refreshToken } }));
    const expiring = await signIn(person.email, { platform: 'android' });
    const { prisma } = server.app.services;
    await prisma.refreshToken.updateMany({ where: { tokenHash: hashToken(expiring.refreshToken) }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(expectOk(await sessions(rotated.accessToken)).map((s: { platform: string }) => s.platform)).toEqual(['ios']);

    // nobody else's sessions show
    const stranger = await addMember(server, team);
    expect(expectOk(await sessions(stranger.token))).toEqual([]);
  });

  it('POST describes the current session (platform, device name, user agent) and marks it active; strict body', async () => {
    const person = await addMember(server, team);
    const signedIn = await signIn(person.email);
    const [before] = expectOk(await sessions(signedIn.accessToken));
    expect(before).toMatchObject({ platform: null, deviceName: null });

    const described = expectOk(
      await server.request('POST', SESSIONS, { token: signedIn.accessToken, body: { platform: 'android', deviceName: ' Pixel 9 ' }, headers: { 'user-agent': 'SvcApp/3.2 (Android 15)' } }),
    );
    expect(described).toMatchObject({ sessionSimplyId: before.sessionSimplyId, platform: 'android', deviceName: 'Pixel 9', userAgent: 'SvcApp/3.2 (Android 15)', isCurrent: true });
    expect(Date.parse(described.lastActiveAt)).toBeGreaterThan(Date.parse(before.lastActiveAt));
    // no body: only marks it active; null clears
    const touched = expectOk(await server.request('POST', SESSIONS, { token: signedIn.accessToken }));
    expect(touched).toMatchObject({ platform: 'android', deviceName: 'Pixel 9' });
    expect(Date.parse(touched.lastActiveAt)).toBeGreaterThanOrEqual(Date.parse(described.lastActiveAt));
    const gql = gqlData(
      await server.graphql(`mutation($input: DescribeSessionInput) { describeCurrentSession(input: $input) { sessionSimplyId platform deviceName isCurrent } }`, { input: { deviceName: null } }, { token: signedIn.accessToken }),
    );
    expect(gql.describeCurrentSession).toEqual({ sessionSimplyId: before.sessionSimplyId, platform: 'android', deviceName: null, isCurrent: true });

    for (const body of [{ platform: 'symbian' }, { deviceName: 'x'.repeat(101) }, { deviceName: '' }, { refreshToken: 'svc_refresh_x' }, { userAgent: 'x' }]) {
      expectError(await server.request('POST', SESSIONS, { token: signedIn.accessToken, body }), 400, 'VALIDATION_ERROR', JSON.stringify(body));
    }
    // no credentials are ever minted here
    expect(await server.app.services.prisma.userSession.count({ where: { user: { simplyId: person.userSimplyId } } })).toBe(1);
  });

  it('POST with a token that has no sign-in session (an external identity provider\'s sign-in) is 400', async () => {
    const person = await addMember(server, team); // its token carries no session
    const error = expectError(await server.request('POST', SESSIONS, { token: person.token, body: { platform: 'web' } }), 400, 'VALIDATION_ERROR');
    expect(error.message).toMatch(/external identity provider/);
    expectGqlError(await server.graphql(`mutation { describeCurrentSession { id } }`, {}, { token: person.token }), 'VALIDATION_ERROR', 400);
    expect(expectOk(await sessions(person.token))).toEqual([]);
  });

  it('DELETE revokes one session: its refresh token and its access token stop working at once, on both instances; others are unaffected', async () => {
    const person = await addMember(server, team);
    const phone = await signIn(person.email, { platform: 'ios' });
    const laptop = await signIn(person.email, { platform: 'web' });
    // both instances have checked (and cached) the phone's access token
    expectOk(await getMe(server, phone.accessToken, { teamId: team.teamSimplyId }));
    expectOk(await getMe(second, phone.accessToken, { teamId: team.teamSimplyId }));
    expectOk(await getMe(second, phone.accessToken));

    const phoneSession = expectOk(await sessions(laptop.accessToken)).find((s: { platform: string }) => s.platform === 'ios');
    const revoked = expectOk(await server.request('DELETE', `${SESSIONS}/${phoneSession.sessionSimplyId}`, { token: laptop.accessToken }));
    expect(revoked).toEqual({ id: phoneSession.sessionSimplyId, revoked: true });

    expectError(await getMe(server, phone.accessToken, { teamId: team.teamSimplyId }), 401, 'UNAUTHENTICATED');
    await until('the second instance refuses the revoked session', async () => (await getMe(second, phone.accessToken, { teamId: team.teamSimplyId })).status === 401);
    expectError(await getMe(second, phone.accessToken), 401, 'UNAUTHENTICATED');
    expectError(await refresh(phone.refreshToken), 401, 'UNAUTHENTICATED');

    // the laptop's session goes on, on both instances
    expectOk(await getMe(server, laptop.accessToken, { teamId: team.teamSimplyId }));
    expectOk(await getMe(second, laptop.accessToken, { teamId: team.teamSimplyId }));
    const renewed = expectOk(await refresh(laptop.refreshToken));
    expect(expectOk(await sessions(renewed.accessToken)).map((s: { platform: string }) => s.platform)).toEqual(['web']);

    // revoked once: gone, so a second revoke is 404
    expectError(await server.request('DELETE', `${SESSIONS}/${phoneSession.sessionSimplyId}`, { token: renewed.accessToken }), 404, 'NOT_FOUND');
  });

  it('revoking the current session signs out here (GraphQL revokeMySession); another person\'s session is 404 and stays', async () => {
    const person = await addMember(server, team);
    const stranger = await addMember(server, team);
    const mine = await signIn(person.email);
    const theirs = await signIn(stranger.email);
    const [theirSession] = expectOk(await sessions(theirs.accessToken));

    const foreign = expectError(await server.request('DELETE', `${SESSIONS}/${theirSession.sessionSimplyId}`, { token: mine.accessToken }), 404, 'NOT_FOUND');
    const missing = expectError(await server.request('DELETE', `${SESSIONS}/ses-ZZZZ-ZZZZ-ZZZZ`, { token: mine.accessToken }), 404, 'NOT_FOUND');
    expect(foreign.message.replace(theirSession.sessionSimplyId, '<id>')).toBe(missing.message.replace('ses-ZZZZ-ZZZZ-ZZZZ', '<id>'));
    expectGqlError(await server.graphql(`mutation($id: String!) { revokeMySession(sessionSimplyId: $id) }`, { id: theirSession.sessionSimplyId }, { token: mine.accessToken }), 'NOT_FOUND', 404);
    expectError(await server.request('DELETE', `${SESSIONS}/42`, { token: mine.accessToken }), 400, 'VALIDATION_ERROR');
    expectOk(await getMe(server, theirs.accessToken));
    expectOk(await refresh(theirs.refreshToken));

    const [current] = expectOk(await sessions(mine.accessToken));
    const gql = gqlData(await server.graphql(`mutation($id: String!) { revokeMySession(sessionSimplyId: $id) }`, { id: current.sessionSimplyId }, { token: mine.accessToken }));
    expect(gql.revokeMySession).toBe(true);
    expectError(await sessions(mine.accessToken), 401, 'UNAUTHENTICATED');
    expectError(await refresh(mine.refreshToken), 401, 'UNAUTHENTICATED');
  });

  it('API keys and session tokens get 403 IDP_REQUIRED; no credential 401', async () => {
    const session = await mintSessionToken(server, team.apiKey);
    const routes: [string, string][] = [['GET', SESSIONS], ['POST', SESSIONS], ['DELETE', `${SESSIONS}/ses-ZZZZ-ZZZZ-ZZZZ`]];
    for (const [method, path] of routes) {
      for (const token of [team.apiKey, session.token]) expectError(await server.request(method, path, { token }), 403, 'IDP_REQUIRED', `${method} ${path}`);
      expectError(await server.request(method, path), 401, 'UNAUTHENTICATED', `${method} ${path}`);
    }
    expectGqlError(await server.graphql(`{ mySessions { id } }`, {}, { token: team.apiKey }), 'IDP_REQUIRED', 403);
    expectGqlError(await server.graphql(`mutation { describeCurrentSession { id } }`, {}, { token: session.token }), 'IDP_REQUIRED', 403);
    expectGqlError(await server.graphql(`mutation { revokeMySession(sessionSimplyId: "ses-ZZZZ-ZZZZ-ZZZZ") }`, {}, { token: session.token }), 'IDP_REQUIRED', 403);
  });

  it('a deactivated user cannot sign in or refresh, their access tokens stop working, and their profile is kept', async () => {
    const person = await addMember(server, team);
    const signedIn = await signIn(person.email, { platform: 'ios' });
    expectOk(await getMe(server, signedIn.accessToken, { teamId: team.teamSimplyId }));
    expectOk(await getMe(second, signedIn.accessToken, { teamId: team.teamSimplyId }));

    // deactivation is an operator's write; it announces itself as every credential change does
    const { prisma, notifier, authenticator } = server.app.services;
    const user = await prisma.user.update({ where: { simplyId: person.userSimplyId }, data: { isActive: false } });
    await publishCredentialInvalidation(notifier, authenticator, { userId: user.id });

    expectError(await getMe(server, signedIn.accessToken, { teamId: team.teamSimplyId }), 401, 'UNAUTHENTICATED');
    await until('the second instance refuses the deactivated user', async () => (await getMe(second, signedIn.accessToken, { teamId: team.teamSimplyId })).status === 401);
    expectError(await getMe(server, person.token), 401, 'UNAUTHENTICATED');
    expectError(await server.request('POST', '/v1/auth/login', { body: { email: person.email, password: PASSWORD } }), 401, 'UNAUTHENTICATED');
    expectError(await refresh(signedIn.refreshToken), 401, 'UNAUTHENTICATED');

    // a team admin still sees the profile, marked inactive
    const kept = expectOk(await server.request('GET', `/v1/users/${person.userSimplyId}`, { token: team.userToken, teamId: team.teamSimplyId }));
    expect(kept).toMatchObject({ userSimplyId: person.userSimplyId, email: person.email, isActive: false, lastLoggedIn: expect.any(String) });
    const listed = expectOk(await server.request('GET', '/v1/users?limit=100', { token: team.apiKey }));
    expect(listed.find((u: { id: string }) => u.id === person.userSimplyId)).toMatchObject({ isActive: false });
    const gql = gqlData(await server.graphql(`query($id: String!) { user(userSimplyId: $id) { email isActive } }`, { id: person.userSimplyId }, { token: team.apiKey }));
    expect(gql.user).toEqual({ email: person.email, isActive: false });
    expectError(await server.request('GET', `/v1/users/${person.userSimplyId}`, { token: other.apiKey }), 404, 'NOT_FOUND');
  });
});
