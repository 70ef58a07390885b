// The team's view of multi-factor sign-in: which active members have it (compliance), and a team
// admin's reset of a member's second factor.
import { beforeAll, describe, expect, it } from 'vitest';
import { createApiKey, createRole, createTeam, addMember, type TeamFixture } from '../support/fixtures.ts';
import { mintSessionToken } from '../support/credentials-fixtures.ts';
import { expectError, expectGqlError, expectOk, gqlData } from '../support/expect-envelope.ts';
import { useServer } from '../support/use-server.ts';
import { enableMfa, mfaStatusOf } from './mfa-fixtures.ts';

type Member = Awaited<ReturnType<typeof addMember>> & { link: string };

describe('multi-factor sign-in: team compliance and reset', () => {
  const { server, teams: [team, other] } = useServer({ teams: 2 });
  let withMfa: Member;
  let pending: Member;
  let without: Member;
  let departed: Member;
  let sysadminMember: Member;
  let sysadmin: TeamFixture;

  const db = () => server.app.services.prisma;
  async function member(options: Parameters<typeof addMember>[2] = {}, inTeam = team): Promise<Member> {
    const m = await addMember(server, inTeam, options);
    const link = await db().teamMembership.findFirstOrThrow({ where: { teamId: inTeam.teamId, user: { simplyId: m.userSimplyId } } });
    return { ...m, link: link.simplyId };
  }
  const compliance = (token: string, query = '') => server.request('GET', `/v1/users/mfa/compliance${query}`, { token, teamId: team.teamSimplyId });
  const reset = (token: string, link: string, teamId = team.teamSimplyId) => server.request('POST', `/v1/users/mfa/reset/${link}`, { token, teamId });

  beforeAll(async () => {
    [withMfa, pending, without, departed, sysadminMember] = await Promise.all([member(), member(), member(), member(), member()]);
    await enableMfa(server, withMfa.token);
    expectOk(await server.request('POST', '/v1/users/me/mfa/setup', { token: pending.token }));
    await db().teamMembership.updateMany({ where: { teamId: team.teamId, simplyId: departed.link }, data: { isActive: false } });
    await enableMfa(server, departed.token);
    await db().user.update({ where: { simplyId: sysadminMember.userSimplyId }, data: { isSystemAdmin: true } });
    await enableMfa(server, sysadminMember.token);
    sysadmin = await createTeam(server, { isSystemAdmin: true });
  });

  it('lists the active members with their MFA state, with totals; mfaEnabled filters; paged by limit/offset', async () => {
    const res = await compliance(team.userToken, '?limit=100');
    const data = expectOk(res);
    expect(data.totals).toEqual({ activeMembers: 5, mfaEnabled: 2, mfaNotEnabled: 3 });
    expect(res.body.meta.pagination).toEqual({ total: 5, limit: 100, offset: 0, hasMore: false });
    // oldest membership first: the team's creator leads; the inactive membership is left out
    expect(data.members[0]).toMatchObject({ userSimplyId: team.userSimplyId, isTeamAdmin: true, mfaEnabled: false, mfaEnabledAt: null });
    expect(data.members.map((m: { userSimplyId: string }) => m.userSimplyId)).not.toContain(departed.userSimplyId);
    const row = data.members.find((m: { userSimplyId: string }) => m.userSimplyId === withMfa.userSimplyId);
    expect(row).toEqual({
      userSimplyId: withMfa.userSimplyId,
      teamUserLinkSimplyId: withMfa.link,
      email: withMfa.email,
      firstName: '',
      lastName: '',
      isTeamAdmin: false,
      mfaEnabled: true,
      mfaEnabledAt: expect.any(String),
    });
    // an unconfirmed setup does not count
    expect(data.members.find((m: { userSimplyId: string }) => m.userSimplyId === pending.userSimplyId).mfaEnabled).toBe(false);

    const enabled = expectOk(await compliance(team.userToken, '?mfaEnabled=true'));
    expect(enabled.members.map((m: { userSimplyId: string }) => m.userSimplyId).sort()).toEqual([withMfa.userSimplyId, sysadminMember.userSimplyId].sort());
    expect(enabled.totals).toEqual(data.totals);
    const missing = await compliance(team.userToken, '?mfaEnabled=false&limit=2&offset=1');
    expect(expectOk(missing).members).toHaveLength(2);
    expect(missing.body.meta.pagination).toEqual({ total: 3, limit: 2, offset: 1, hasMore: false });
    expectError(await compliance(team.userToken, '?limit=0'), 400, 'VALIDATION_ERROR');
    expectError(await compliance(team.userToken, '?mfaEnabled=maybe'), 400, 'VALIDATION_ERROR');
    expectError(await compliance(team.userToken, '?unknown=1'), 400, 'VALIDATION_ERROR');

    const gql = gqlData(await server.graphql(
      `{ mfaCompliance(mfaEnabled: true) { totals { activeMembers mfaEnabled mfaNotEnabled } nodes { userSimplyId mfaEnabled } pagination { total } } }`,
      {},
      { token: team.userToken, teamId: team.teamSimplyId },
    ));
    expect(gql.mfaCompliance.totals).toEqual({ activeMembers: 5, mfaEnabled: 2, mfaNotEnabled: 3 });
    expect(gql.mfaCompliance.pagination.total).toBe(2);
  });

  it('compliance needs TEAM_ADMIN_USERS view: members without it 403, scoped tokens 403, keys and roles with it may', async () => {
    expectError(await compliance(without.token), 403, 'PERMISSION_DENIED');
    expectGqlError(await server.graphql('{ mfaCompliance { totals { activeMembers } } }', {}, { token: without.token, teamId: team.teamSimplyId }), 'PERMISSION_DENIED', 403);
    const role = await createRole(server, team, { name: `user admins ${Date.now()}`, featurePermissions: [{ name: 'TEAM_ADMIN_USERS', level: 'VIEW' }] });
    const viewer = await member({ teamRoleSimplyId: role });
    expect(expectOk(await compliance(viewer.token)).totals.activeMembers).toBe(6);
    const key = await createApiKey(server, team, { name: 'users view', featurePermissions: ['TEAM_ADMIN_USERS:VIEW'] });
    expectOk(await server.request('GET', '/v1/users/mfa/compliance', { token: key.key }));
    const session = await mintSessionToken(server, key.key);
    expectError(await server.request('GET', '/v1/users/mfa/compliance', { token: session.token }), 403, 'PERMISSION_DENIED');
    expectError(await server.request('GET', '/v1/users/mfa/compliance', { token: team.userToken }), 400, 'VALIDATION_ERROR');
    expectError(await server.request('GET', '/v1/users/mfa/compliance'), 401, 'UNAUTHENTICATED');
    // another team's admin sees their own team only
    expect(expectOk(await server.request('GET', '/v1/users/mfa/compliance', { token: other.userToken, teamId: other.teamSimplyId })).totals.activeMembers).toBe(1);
    await db().teamMembership.updateMany({ where: { teamId: team.teamId, simplyId: viewer.link }, data: { isActive: false } });
  });

  it('reset: team admins only (signed in), members of the team only', async () => {
    expectError(await reset(without.token, withMfa.link), 403, 'PERMISSION_DENIED');
    expectError(await server.request('POST', `/v1/users/mfa/reset/${withMfa.link}`, { token: team.apiKey }), 403, 'IDP_REQUIRED');
    const session = await mintSessionToken(server, team.apiKey);
    expectError(await server.request('POST', `/v1/users/mfa/reset/${withMfa.link}`, { token: session.token }), 403, 'IDP_REQUIRED');
    expectError(await reset(team.userToken, 'not-a-link'), 400, 'VALIDATION_ERROR');
    // another team's membership, or one that does not exist: 404 alike
    const stranger = await member({}, other);
    await enableMfa(server, stranger.token);
    expectError(await reset(team.userToken, stranger.link), 404, 'NOT_FOUND');
    expectError(await reset(team.userToken, 'tul-AAAA-BBBB-CCCC'), 404, 'NOT_FOUND');
    expect((await mfaStatusOf(server, stranger.token)).enabled).toBe(true);
    expect((await mfaStatusOf(server, withMfa.token)).enabled).toBe(true);
  });

  it('a team admin resets a member (REST and GraphQL); a system administrator only by a system administrator', async () => {
    expect(expectOk(await reset(team.userToken, withMfa.link))).toEqual({ teamUserLinkSimplyId: withMfa.link, userSimplyId: withMfa.userSimplyId, mfaRemoved: true });
    expect(await mfaStatusOf(server, withMfa.token)).toEqual({ enabled: false, pendingSetup: false, enabledAt: null, recoveryCodesRemaining: 0 });
    const user = await db().user.findUniqueOrThrow({ where: { simplyId: withMfa.userSimplyId } });
    expect(await db().mfaRecoveryCode.count({ where: { userId: user.id } })).toBe(0);
    // nothing left to remove; a pending setup is removed too
    expect(expectOk(await reset(team.userToken, withMfa.link)).mfaRemoved).toBe(false);
    const reply = gqlData(await server.graphql(
      'mutation($id: String!) { resetMemberMfa(teamUserLinkSimplyId: $id) { teamUserLinkSimplyId userSimplyId mfaRemoved } }',
      { id: pending.link },
      { token: team.userToken, teamId: team.teamSimplyId },
    ));
    expect(reply.resetMemberMfa).toEqual({ teamUserLinkSimplyId: pending.link, userSimplyId: pending.userSimplyId, mfaRemoved: true });
    expect((await mfaStatusOf(server, pending.token)).pendingSetup).toBe(false);

    // a member flagged as team admin is not enough for a system administrator's second factor
    const admin = await member({ isTeamAdmin: true });
    expectError(await reset(admin.token, sysadminMember.link), 403, 'PERMISSION_DENIED');
    expectError(await reset(team.userToken, sysadminMember.link), 403, 'PERMISSION_DENIED');
    expect((await mfaStatusOf(server, sysadminMember.token)).enabled).toBe(true);
    expect(expectOk(await reset(sysadmin.userToken, sysadminMember.link)).mfaRemoved).toBe(true);
    expect((await mfaStatusOf(server, sysadminMember.token)).enabled).toBe(false);
  });
});
