// Users over REST (/v1/users, /v1/users/me) and GraphQL (me, updateMe, users, user, createUser):
// Document 2 §2.6, §4.5, §5.
import { beforeAll, describe, expect, it } from 'vitest';
import { membershipId } from '../../src/app/ids.ts';
import { mintSessionToken } from '../support/credentials-fixtures.ts';
import { expectError, expectGqlError, expectOk, gqlData } from '../support/expect-envelope.ts';
import { addMember, createApiKey, createRole, createTeam, uniqueEmail, type TeamFixture } from '../support/fixtures.ts';
import { useServer } from '../support/use-server.ts';
import { getMe } from '../support/users-fixtures.ts';

const USER_ID = /^usr-[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}$/;

/** well-formed, but no such team */
const missingTeamId = () => 'tm-ABCD-EFGH-JKMN';

describe('users', () => {
  const { server, teams: [team, other] } = useServer({ teams: 2 });
  let sysadmin: TeamFixture;
  let memberRole: string;
  let member: { userSimplyId: string; token: string; email: string };

  const me = (token: string, options: { teamId?: string; query?: string } = {}) => getMe(server, token, options);

  beforeAll(async () => {
    sysadmin = await createTeam(server, { isSystemAdmin: true });
    memberRole = await createRole(server, team, {
      name: 'Members',
      dataPermissions: [{ dataCollectionSimplyId: '*', level: 'READ' }],
      featurePermissions: [{ name: 'TEAM_SETTINGS', level: 'VIEW' }],
    });
    member = await addMember(server, team, { teamRoleSimplyId: memberRole });
  });

  describe('GET /v1/users/me', () => {
    it('returns the user with the selected team and permission flags; no expansions by default', async () => {
      const data = expectOk(await me(team.userToken, { teamId: team.teamSimplyId }));
      expect(data).toMatchObject({
        id: team.userSimplyId,
        userSimplyId: team.userSimplyId,
        email: team.email,
        firstName: '',
        lastName: '',
        isTeamAdmin: true,
        isSystemAdmin: false,
        defaultInterfaceLanguageId: null,
        selectedTeam: { id: team.teamSimplyId, teamSimplyId: team.teamSimplyId, name: expect.any(String) },
        permissions: { isTeamAdmin: true, isSystemAdmin: false },
      });
      expect(data.userSimplyId).toMatch(USER_ID);
      expect(data).not.toHaveProperty('teams');
      expect(data).not.toHaveProperty('rolePermissions');
      expect(data).not.toHaveProperty('permissionSnapshot');
      expect(data).not.toHaveProperty('passwordHash');

      const gql = gqlData(await server.graphql(`{ me { userSimplyId isTeamAdmin selectedTeam { teamSimplyId } permissions { isTeamAdmin } } }`, {}, { token: team.userToken, teamId: team.teamSimplyId }));
      expect(gql.me).toEqual({ userSimplyId: team.userSimplyId, isTeamAdmin: true, selectedTeam: { teamSimplyId: team.teamSimplyId }, permissions: { isTeamAdmin: true } });
    });

    it('expand=teams lists active memberships with nullable lastOpened', async () => {
      const multi = await addMember(server, team);
      const user = await server.app.services.prisma.user.findUniqueOrThrow({ where: { simplyId: multi.userSimplyId } });
      await server.app.services.prisma.teamMembership.create({
        data: { simplyId: membershipId.create(), teamId: other.teamId, userId: user.id, isTeamAdmin: true },
      });
      const data = expectOk(await me(multi.token, { teamId: team.teamSimplyId, query: 'expand=teams' }));
      expect(data.teams).toEqual([
        { teamSimplyId: team.teamSimplyId, name: expect.any(String), isTeamAdmin: false, isActive: true, teamRoleSimplyId: null, lastOpened: null },
        { teamSimplyId: other.teamSimplyId, name: expect.any(String), isTeamAdmin: true, isActive: true, teamRoleSimplyId: null, lastOpened: null },
      ]);
      expect(data).not.toHaveProperty('rolePermissions');
      // the selected team decides isTeamAdmin
      expect(expectOk(await me(multi.token, { teamId: other.teamSimplyId })).permissions.isTeamAdmin).toBe(true);
      expect(expectOk(await me(multi.token, { teamId: team.teamSimplyId })).permissions.isTeamAdmin).toBe(false);

      // an inactive membership is not listed, and selecting that team is 403
      await server.app.services.prisma.teamMembership.updateMany({ where: { teamId: other.teamId, userId: user.id }, data: { isActive: false } });
      server.app.services.authenticator.cache.clear();
      expect(expectOk(await me(multi.token, { query: 'expand=teams' })).teams.map((t: { teamSimplyId: string }) => t.teamSimplyId)).toEqual([team.teamSimplyId]);
      expectError(await me(multi.token, { teamId: other.teamSimplyId }), 403, 'PERMISSION_DENIED');
    });

    it('expand=rolePermissions gives the selected team\'s role (null without one)', async () => {
      const data = expectOk(await me(member.token, { teamId: team.teamSimplyId, query: 'expand=rolePermissions' }));
      expect(data.rolePermissions).toEqual({
        id: memberRole,
        teamRoleSimplyId: memberRole,
        name: 'Members',
        dataFullAccess: null,
        dataPermissions: [{ dataCollectionSimplyId: '*', level: 'READ' }],
        featurePermissions: [{ name: 'TEAM_SETTINGS', level: 'VIEW' }],
      });
      expect(data).not.toHaveProperty('teams');
      expect(expectOk(await me(team.userToken, { teamId: team.teamSimplyId, query: 'expand=rolePermissions' })).rolePermissions).toBeNull();
      expect(expectOk(await me(member.token, { query: 'expand=rolePermissions' })).rolePermissions).toBeNull();
    });

    it('expand=permissionSnapshot shows the effective permissions of the credential', async () => {
      const data = expectOk(await me(member.token, { teamId: team.teamSimplyId, query: 'expand=permissionSnapshot' }));
      expect(data.permissionSnapshot).toEqual({
        credentialKind: 'USER',
        teamSimplyId: team.teamSimplyId,
        isSystemAdmin: false,
        isTeamAdmin: false,
        teamRoleSimplyId: memberRole,
        dataFullAccess: null,
        hasDataAccess: true,
        featurePermissions: [{ name: 'TEAM_SETTINGS', level: 'VIEW' }],
        dataPermissions: [{ dataCollectionSimplyId: '*', levels: ['READ'] }],
        oauthScopes: null,
      });
      const admin = expectOk(await me(team.userToken, { teamId: team.teamSimplyId, query: 'expand=permissionSnapshot' }));
      expect(admin.permissionSnapshot).toMatchObject({ isTeamAdmin: true, dataFullAccess: 'EDIT', hasDataAccess: true, teamRoleSimplyId: null });
    });

    it('several expansions at once; unsupported values are ignored', async () => {
      const all = expectOk(await me(member.token, { teamId: team.teamSimplyId, query: 'expand=teams,%20rolePermissions,permissionSnapshot,bogus,,TEAMS' }));
      expect(all.teams).toHaveLength(1);
      expect(all.rolePermissions.id).toBe(memberRole);
      expect(all.permissionSnapshot.credentialKind).toBe('USER');
      const none = expectOk(await me(member.token, { teamId: team.teamSimplyId, query: 'expand=bogus,secrets' }));
      expect(none).not.toHaveProperty('teams');
      expect(none).not.toHaveProperty('rolePermissions');
      expect(none).not.toHaveProperty('permissionSnapshot');
      expect(none.userSimplyId).toBe(member.userSimplyId);
    });

    it('API keys and session tokens get 400 VALIDATION_ERROR (REST and GraphQL)', async () => {
      const keyError = expectError(await me(team.apiKey), 400, 'VALIDATION_ERROR');
      expect(keyError.message).toMatch(/user credential/);
      const session = await mintSessionToken(server, team.apiKey);
      expectError(await me(session.token), 400, 'VALIDATION_ERROR');
      expectError(await me(team.apiKey, { teamId: team.teamSimplyId }), 400, 'VALIDATION_ERROR');
      expectGqlError(await server.graphql(`{ me { id } }`, {}, { token: team.apiKey }), 'VALIDATION_ERROR', 400);
      expectGqlError(await server.graphql(`{ me { id } }`, {}, { token: session.token }), 'VALIDATION_ERROR', 400);
      expectError(await me(''), 401, 'UNAUTHENTICATED');
      expectGqlError(await server.graphql(`{ me { id } }`), 'UNAUTHENTICATED', 401);
    });

    it('no team selected: 200 with selectedTeam null; a team the user is not in: 403 PERMISSION_DENIED', async () => {
      const data = expectOk(await me(team.userToken));
      expect(data).toMatchObject({ userSimplyId: team.userSimplyId, selectedTeam: null, isTeamAdmin: false, permissions: { isTeamAdmin: false, isSystemAdmin: false } });
      expect(expectOk(await me(team.userToken, { query: 'expand=permissionSnapshot' })).permissionSnapshot).toMatchObject({ teamSimplyId: null, hasDataAccess: false });

      const denied = expectError(await me(team.userToken, { teamId: other.teamSimplyId }), 403, 'PERMISSION_DENIED');
      expect(denied.message).toMatch(/not an active member/);
      expectError(await me(team.userToken, { teamId: missingTeamId() }), 403, 'PERMISSION_DENIED');
      expectGqlError(await server.graphql(`{ me { id } }`, {}, { token: team.userToken, teamId: other.teamSimplyId }), 'PERMISSION_DENIED', 403);
    });

    it('the teamSimplyId query parameter works like the X-Team-Id header (the header wins when both are sent)', async () => {
      const viaQuery = expectOk(await me(team.userToken, { query: `teamSimplyId=${team.teamSimplyId}` }));
      expect(viaQuery.selectedTeam.teamSimplyId).toBe(team.teamSimplyId);
      expect(viaQuery.permissions.isTeamAdmin).toBe(true);
      expectError(await me(team.userToken, { query: `teamSimplyId=${other.teamSimplyId}` }), 403, 'PERMISSION_DENIED');
      expect(expectOk(await me(team.userToken, { teamId: team.teamSimplyId, query: `teamSimplyId=${other.teamSimplyId}` })).selectedTeam.teamSimplyId).toBe(team.teamSimplyId);
      // on a team route too
      expectOk(await server.request('GET', `/v1/users?teamSimplyId=${team.teamSimplyId}`, { token: team.userToken }));
      const gql = await server.request('POST', `/graphql?teamSimplyId=${team.teamSimplyId}`, { token: team.userToken, body: { query: '{ me { selectedTeam { teamSimplyId } } }' } });
      expect(gql.body.data.me.selectedTeam.teamSimplyId).toBe(team.teamSimplyId);
    });

    it('a system administrator may select any team', async () => {
      const data = expectOk(await me(sysadmin.userToken, { teamId: other.teamSimplyId }));
      expect(data).toMatchObject({ isSystemAdmin: true, selectedTeam: { teamSimplyId: other.teamSimplyId }, permissions: { isSystemAdmin: true, isTeamAdmin: false } });
      expectError(await me(sysadmin.userToken, { teamId: missingTeamId() }), 403, 'PERMISSION_DENIED');
    });
  });

  describe('PATCH /v1/users/me', () => {
    it('updates names and defaultInterfaceLanguageId; null clears; GraphQL updateMe is the same', async () => {
      const self = await addMember(server, team);
      const patched = expectOk(
        await server.request('PATCH', '/v1/users/me', { token: self.token, teamId: team.teamSimplyId, body: { firstName: ' Ada ', lastName: 'Lovelace', defaultInterfaceLanguageId: 'pt-BR' } }),
      );
      expect(patched).toMatchObject({ userSimplyId: self.userSimplyId, firstName: 'Ada', lastName: 'Lovelace', defaultInterfaceLanguageId: 'pt-BR', selectedTeam: { teamSimplyId: team.teamSimplyId } });
      expect(expectOk(await me(self.token))).toMatchObject({ firstName: 'Ada', lastName: 'Lovelace', defaultInterfaceLanguageId: 'pt-BR' });

      // only supplied fields change; without a team is fine for the profile
      expect(expectOk(await server.request('PATCH', '/v1/users/me', { token: self.token, body: { defaultInterfaceLanguageId: null } }))).toMatchObject({
        firstName: 'Ada',
        defaultInterfaceLanguageId: null,
      });
      const withExpand = expectOk(await server.request('PATCH', '/v1/users/me?expand=teams', { token: self.token, body: { lastName: 'Byron' } }));
      expect(withExpand.lastName).toBe('Byron');
      expect(withExpand.teams).toHaveLength(1);

      const gql = gqlData(
        await server.graphql(`mutation($input: UpdateMeInput!) { updateMe(input: $input) { firstName defaultInterfaceLanguageId } }`, { input: { firstName: 'Augusta', defaultInterfaceLanguageId: 'en' } }, { token: self.token }),
      );
      expect(gql.updateMe).toEqual({ firstName: 'Augusta', defaultInterfaceLanguageId: 'en' });
      const row = await server.app.services.prisma.user.findUniqueOrThrow({ where: { simplyId: self.userSimplyId } });
      expect(row).toMatchObject({ firstName: 'Augusta', lastName: 'Byron', defaultInterfaceLanguageId: 'en' });
    });

    it('rejects bad language tags, unknown fields, long names and non-user credentials', async () => {
      const self = await addMember(server, team);
      const patch = (body: unknown, token = self.token) => server.request('PATCH', '/v1/users/me', { token, body });
      for (const tag of ['english_US', 'e', 'en-', '123', '']) {
        const error = expectError(await patch({ defaultInterfaceLanguageId: tag }), 400, 'VALIDATION_ERROR');
        expect(error.details?.[0]?.field).toBe('defaultInterfaceLanguageId');
      }
      expectError(await patch({ email: 'takeover@example.test' }), 400, 'VALIDATION_ERROR');
      expectError(await patch({ isSystemAdmin: true }), 400, 'VALIDATION_ERROR');
      expectError(await patch({ firstName: 'x'.repeat(101) }), 400, 'VALIDATION_ERROR');
      expectError(await server.request('PATCH', '/v1/users/me', { token: self.token }), 400, 'VALIDATION_ERROR');
      expectError(await patch({ firstName: 'Key' }, team.apiKey), 400, 'VALIDATION_ERROR');
      expectError(await patch({ firstName: 'Anon' }, ''), 401, 'UNAUTHENTICATED');
      expectGqlError(await server.graphql(`mutation { updateMe(input: { defaultInterfaceLanguageId: "not a tag" }) { id } }`, {}, { token: self.token }), 'VALIDATION_ERROR', 400);
      expectGqlError(await server.graphql(`mutation { updateMe(input: { firstName: "Key" }) { id } }`, {}, { token: team.apiKey }), 'VALIDATION_ERROR', 400);
      const row = await server.app.services.prisma.user.findUniqueOrThrow({ where: { simplyId: self.userSimplyId } });
      expect(row).toMatchObject({ firstName: '', isSystemAdmin: false, email: self.email, defaultInterfaceLanguageId: null });
    });
  });

  describe('PATCH /v1/users/me teamOpened', () => {
    it("teamOpened: true stamps the selected team's membership; expand=teams shows lastOpened; lastLoggedIn shows the last sign-in", async () => {
      const self = await addMember(server, team);
      const user = await server.app.services.prisma.user.findUniqueOrThrow({ where: { simplyId: self.userSimplyId } });
      await server.app.services.prisma.teamMembership.create({ data: { simplyId: membershipId.create(), teamId: other.teamId, userId: user.id } });
      const before = Date.now();

      const patched = expectOk(await server.request('PATCH', '/v1/users/me?expand=teams', { token: self.token, teamId: other.teamSimplyId, body: { teamOpened: true } }));
      const opened = (data: { teams: { teamSimplyId: string; lastOpened: string | null }[] }) => Object.fromEntries(data.teams.map((t) => [t.teamSimplyId, t.lastOpened]));
      expect(opened(patched)[team.teamSimplyId]).toBeNull();
      expect(Date.parse(opened(patched)[other.teamSimplyId]!)).toBeGreaterThanOrEqual(before - 1000);

      // together with profile fields, through GraphQL
      const gql = gqlData(
        await server.graphql(`mutation { updateMe(input: { teamOpened: true, firstName: "Opal" }) { firstName teams { teamSimplyId lastOpened } } }`, {}, { token: self.token, teamId: team.teamSimplyId }),
      );
      expect(gql.updateMe.firstName).toBe('Opal');
      expect(gql.updateMe.teams.every((t: { lastOpened: string | null }) => t.lastOpened !== null)).toBe(true);

      // needs a team; only `true`
      const noTeam = expectError(await server.request('PATCH', '/v1/users/me', { token: self.token, body: { teamOpened: true } }), 400, 'VALIDATION_ERROR');
      expect(noTeam.details?.[0]?.field).toBe('X-Team-Id');
      expectError(await server.request('PATCH', '/v1/users/me', { token: self.token, teamId: team.teamSimplyId, body: { teamOpened: false } }), 400, 'VALIDATION_ERROR');
      expectError(await server.request('PATCH', '/v1/users/me', { token: team.apiKey, body: { teamOpened: true } }), 400, 'VALIDATION_ERROR');

      // lastLoggedIn moves when the user signs in
      expect(expectOk(await me(self.token)).lastLoggedIn).toBeNull();
      expectOk(await server.request('POST', '/v1/auth/login', { body: { email: self.email, password: 'correct horse battery staple' } }));
      expect(Date.parse(expectOk(await me(self.token)).lastLoggedIn)).toBeGreaterThanOrEqual(before - 1000);
    });

    it('a system administrator looking at a team they do not belong to has nothing to stamp', async () => {
      const data = expectOk(await server.request('PATCH', '/v1/users/me?expand=teams', { token: sysadmin.userToken, teamId: other.teamSimplyId, body: { teamOpened: true } }));
      expect(data.teams.map((t: { teamSimplyId: string }) => t.teamSimplyId)).toEqual([sysadmin.teamSimplyId]);
      expect(data.teams[0].lastOpened).toBeNull();
    });
  });

  describe('GET /v1/users and /v1/users/{id}', () => {
    it('needs TEAM_ADMIN_USERS: a member without it is 403; a team admin, a key with it, and a session token with it may list', async () => {
      expectError(await server.request('GET', '/v1/users', { token: member.token, teamId: team.teamSimplyId }), 403, 'PERMISSION_DENIED');
      expectGqlError(await server.graphql(`{ users { nodes { id } } }`, {}, { token: member.token, teamId: team.teamSimplyId }), 'PERMISSION_DENIED', 403);

      const res = await server.request('GET', '/v1/users?limit=100', { token: team.userToken, teamId: team.teamSimplyId });
      const users = expectOk(res);
      const ids = users.map((u: { id: string }) => u.id);
      expect(ids).toContain(team.userSimplyId);
      expect(ids).toContain(member.userSimplyId);
      expect(ids).not.toContain(other.userSimplyId);
      expect(res.body.meta.pagination).toMatchObject({ total: users.length, limit: 100, offset: 0, hasMore: false });
      expect(users.find((u: { id: string }) => u.id === member.userSimplyId)).toEqual({
        id: member.userSimplyId,
        userSimplyId: member.userSimplyId,
        email: member.email,
        firstName: '',
        lastName: '',
        isTeamAdmin: false,
        isActive: true,
        teamRoleSimplyId: memberRole,
        lastLoggedIn: null,
        createdAt: expect.any(String),
      });
      // the first user is the admin who created the team
      const first = await server.request('GET', '/v1/users?limit=1', { token: team.userToken, teamId: team.teamSimplyId });
      expect(expectOk(first).map((u: { id: string }) => u.id)).toEqual([team.userSimplyId]);
      expect(first.body.meta.pagination).toMatchObject({ limit: 1, offset: 0, hasMore: true });
      expectError(await server.request('GET', '/v1/users?limit=0', { token: team.userToken, teamId: team.teamSimplyId }), 400, 'VALIDATION_ERROR');

      const usersKey = await createApiKey(server, team, { name: 'users', featurePermissions: ['TEAM_ADMIN_USERS:VIEW'] });
      expect(expectOk(await server.request('GET', '/v1/users?limit=100', { token: usersKey.key }))).toHaveLength(users.length);
      const noUsersKey = await createApiKey(server, team, { name: 'no users', featurePermissions: ['TEAM_SETTINGS'] });
      expectError(await server.request('GET', '/v1/users', { token: noUsersKey.key }), 403, 'PERMISSION_DENIED');
      const session = await mintSessionToken(server, usersKey.key);
      expectOk(await server.request('GET', '/v1/users', { token: session.token }));

      const gql = gqlData(await server.graphql(`{ users(limit: 100) { nodes { userSimplyId } pagination { total } } }`, {}, { token: usersKey.key }));
      expect(gql.users.pagination.total).toBe(users.length);

      expectError(await server.request('GET', '/v1/users', { token: team.userToken }), 400, 'VALIDATION_ERROR');
      expectError(await server.request('GET', '/v1/users'), 401, 'UNAUTHENTICATED');
    });

    it('GET /v1/users/{id}: a user of the team; 404 for a user of another team; 400 for a malformed id', async () => {
      const one = expectOk(await server.request('GET', `/v1/users/${member.userSimplyId}`, { token: team.userToken, teamId: team.teamSimplyId }));
      expect(one).toMatchObject({ id: member.userSimplyId, email: member.email, teamRoleSimplyId: memberRole, isTeamAdmin: false });
      const gql = gqlData(await server.graphql(`query($id: String!) { user(userSimplyId: $id) { id email } }`, { id: member.userSimplyId }, { token: team.apiKey }));
      expect(gql.user).toEqual({ id: member.userSimplyId, email: member.email });

      const foreign = expectError(await server.request('GET', `/v1/users/${other.userSimplyId}`, { token: team.userToken, teamId: team.teamSimplyId }), 404, 'NOT_FOUND');
      const missingId = 'usr-ZZZZ-ZZZZ-ZZZZ';
      const missing = expectError(await server.request('GET', `/v1/users/${missingId}`, { token: team.userToken, teamId: team.teamSimplyId }), 404, 'NOT_FOUND');
      expect(foreign.message.replace(other.userSimplyId, '<id>')).toBe(missing.message.replace(missingId, '<id>'));
      expectGqlError(await server.graphql(`query($id: String!) { user(userSimplyId: $id) { id } }`, { id: other.userSimplyId }, { token: team.apiKey }), 'NOT_FOUND', 404);

      for (const bad of ['1', 'usr-1', 'tm-ABCD-EFGH-JKMN']) {
        const error = expectError(await server.request('GET', `/v1/users/${bad}`, { token: team.apiKey }), 400, 'VALIDATION_ERROR');
        expect(error.details?.[0]?.field).toBe('userSimplyId');
      }
      expectError(await server.request('GET', `/v1/users/${member.userSimplyId}`, { token: member.token, teamId: team.teamSimplyId }), 403, 'PERMISSION_DENIED');
    });
  });

  describe('POST /v1/users', () => {
    it('system administrators create users with team associations; the new user can sign in', async () => {
      const email = uniqueEmail('created');
      const res = await server.request('POST', '/v1/users', {
        token: sysadmin.userToken,
        body: {
          email: email.toUpperCase(),
          firstName: 'Grace',
          lastName: 'Hopper',
          password: 'a long enough password',
          teams: [
            { teamSimplyId: team.teamSimplyId, teamRoleSimplyId: memberRole },
            { teamSimplyId: other.teamSimplyId, isTeamAdmin: true },
          ],
        },
      });
      const created = expectOk(res, 201);
      expect(created.id).toMatch(USER_ID);
      expect(created).toMatchObject({
        userSimplyId: created.id,
        email,
        firstName: 'Grace',
        lastName: 'Hopper',
        isSystemAdmin: false,
        isActive: true,
        lastLoggedIn: null,
        teams: [
          { teamSimplyId: team.teamSimplyId, isTeamAdmin: false, isActive: true, teamRoleSimplyId: memberRole, lastOpened: null },
          { teamSimplyId: other.teamSimplyId, isTeamAdmin: true, isActive: true, teamRoleSimplyId: null, lastOpened: null },
        ],
      });
      expect(res.text).not.toContain('a long enough password');
      const row = await server.app.services.prisma.user.findUniqueOrThrow({ where: { simplyId: created.id } });
      expect(row.passwordHash).toMatch(/^scrypt\$/);

      const login = await server.request('POST', '/v1/auth/login', { body: { email, password: 'a long enough password' } });
      const token = expectOk(login).accessToken;
      expect(expectOk(await me(token, { teamId: other.teamSimplyId })).permissions.isTeamAdmin).toBe(true);
      // visible to the team's admins
      expectOk(await server.request('GET', `/v1/users/${created.id}`, { token: team.userToken, teamId: team.teamSimplyId }));

      // GraphQL twin, without a password (external sign-in only) and without teams
      const gql = gqlData(
        await server.graphql(`mutation($input: CreateUserInput!) { createUser(input: $input) { userSimplyId email teams { teamSimplyId } } }`, { input: { email: uniqueEmail('gql') } }, { token: sysadmin.userToken }),
      );
      expect(gql.createUser.teams).toEqual([]);
      const gqlRow = await server.app.services.prisma.user.findUniqueOrThrow({ where: { simplyId: gql.createUser.userSimplyId } });
      expect(gqlRow.passwordHash).toBeNull();
    });

    it('only system administrators: team admins, members and API keys are 403', async () => {
      const email = uniqueEmail('denied');
      const body = { email, teams: [{ teamSimplyId: team.teamSimplyId }] };
      expectError(await server.request('POST', '/v1/users', { token: team.userToken, teamId: team.teamSimplyId, body }), 403, 'PERMISSION_DENIED');
      expectError(await server.request('POST', '/v1/users', { token: team.userToken, body }), 403, 'PERMISSION_DENIED');
      expectError(await server.request('POST', '/v1/users', { token: member.token, teamId: team.teamSimplyId, body }), 403, 'PERMISSION_DENIED');
      expectError(await server.request('POST', '/v1/users', { token: team.apiKey, body }), 403, 'PERMISSION_DENIED');
      expectError(await server.request('POST', '/v1/users', { body }), 401, 'UNAUTHENTICATED');
      expectGqlError(
        await server.graphql(`mutation($input: CreateUserInput!) { createUser(input: $input) { id } }`, { input: body }, { token: team.userToken, teamId: team.teamSimplyId }),
        'PERMISSION_DENIED',
        403,
      );
      expect(await server.app.services.prisma.user.count({ where: { email } })).toBe(0);
    });

    it('duplicate email is 409 CONFLICT (case-insensitive)', async () => {
      const email = uniqueEmail('dup');
      expectOk(await server.request('POST', '/v1/users', { token: sysadmin.userToken, body: { email } }), 201);
      expectError(await server.request('POST', '/v1/users', { token: sysadmin.userToken, body: { email } }), 409, 'CONFLICT');
      expectError(await server.request('POST', '/v1/users', { token: sysadmin.userToken, body: { email: email.toUpperCase() } }), 409, 'CONFLICT');
      expectError(await server.request('POST', '/v1/users', { token: sysadmin.userToken, body: { email: team.email } }), 409, 'CONFLICT');
      expectGqlError(await server.graphql(`mutation($input: CreateUserInput!) { createUser(input: $input) { id } }`, { input: { email } }, { token: sysadmin.userToken }), 'CONFLICT', 409);
      expect(await server.app.services.prisma.user.count({ where: { email } })).toBe(1);
    });

    it('an unknown team or role is 404 and nothing is half-written; malformed input is 400', async () => {
      const email = uniqueEmail('atomic');
      const unknownTeam = await server.request('POST', '/v1/users', {
        token: sysadmin.userToken,
        body: { email, password: 'a long enough password', teams: [{ teamSimplyId: team.teamSimplyId }, { teamSimplyId: missingTeamId() }] },
      });
      expectError(unknownTeam, 404, 'NOT_FOUND');
      expect(await server.app.services.prisma.user.findUnique({ where: { email } })).toBeNull();
      expect(await server.app.services.prisma.teamMembership.count({ where: { teamId: team.teamId, user: { email } } })).toBe(0);

      // a role must belong to the team it is linked with
      expectError(
        await server.request('POST', '/v1/users', { token: sysadmin.userToken, body: { email, teams: [{ teamSimplyId: other.teamSimplyId, teamRoleSimplyId: memberRole }] } }),
        404,
        'NOT_FOUND',
      );
      expect(await server.app.services.prisma.user.findUnique({ where: { email } })).toBeNull();

      const bad = (body: unknown) => server.request('POST', '/v1/users', { token: sysadmin.userToken, body });
      expectError(await bad({ email: 'not-an-email' }), 400, 'VALIDATION_ERROR');
      expectError(await bad({ email, password: 'short' }), 400, 'VALIDATION_ERROR');
      expectError(await bad({ email, teams: [{ teamSimplyId: '1' }] }), 400, 'VALIDATION_ERROR');
      expectError(await bad({ email, teams: [{ teamSimplyId: team.teamSimplyId, teamRoleSimplyId: 'role-1' }] }), 400, 'VALIDATION_ERROR');
      expectError(await bad({ email, isOwner: true }), 400, 'VALIDATION_ERROR');
      expectError(await bad({}), 400, 'VALIDATION_ERROR');
      expect(await server.app.services.prisma.user.findUnique({ where: { email } })).toBeNull();

      // and with valid links it then works
      expectOk(await bad({ email, teams: [{ teamSimplyId: other.teamSimplyId }] }), 201);
    });
  });
});
