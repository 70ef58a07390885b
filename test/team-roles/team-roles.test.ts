// Team roles over REST (/v1/team-roles) and GraphQL (teamRoles, teamRole, createTeamRole,
// replaceTeamRole, deleteTeamRole): privileged tier, TEAM_ADMIN_USER_ROLES.
import { describe, expect, it } from 'vitest';
import { expectError, expectGqlError, expectOk, gqlData } from '../support/expect-envelope.ts';
import { addMember, createApiKey, createRole, createTeam } from '../support/fixtures.ts';
import { useServer } from '../support/use-server.ts';

const ROLE_ID = /^role-[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}$/;
const ROLE = `id teamRoleSimplyId name dataFullAccess dataPermissions { dataCollectionSimplyId level } featurePermissions { name level } fieldPermissions { dataFieldSimplyId level } createdAt updatedAt`;
const VIEWER = `{ viewer { credentialKind teamRoleSimplyId dataFullAccess hasDataAccess featurePermissions { name level } dataPermissions { dataCollectionSimplyId levels } } }`;

let counter = 0;
const roleName = (label: string) => `${label} ${++counter}`;

describe('team roles', () => {
  const { server, teams: [team, other] } = useServer({ teams: 2 });

  const viewer = async (token: string, teamId?: string) => gqlData(await server.graphql(VIEWER, {}, { token, teamId })).viewer;

  describe('CRUD over REST', () => {
    it('POST, GET, list, PUT (replaces the whole role), DELETE', async () => {
      // different levels on one collection are separate grants: all are kept, in order
      const dataPermissions = [
        { dataCollectionSimplyId: 'ABCD-EFGH-JKMN', level: 'EDIT' },
        { dataCollectionSimplyId: '*', level: 'READ' },
        { dataCollectionSimplyId: 'ABCD-EFGH-JKMN', level: 'RUN' },
      ];
      const body = {
        name: '  Case workers  ',
        dataFullAccess: 'READ',
        dataPermissions,
        featurePermissions: [
          { name: 'TEAM_SETTINGS', level: 'VIEW' },
          { name: 'OUTGOING_MESSAGES_SEND', level: 'EDIT' },
        ],
      };
      const created = expectOk(await server.request('POST', '/v1/team-roles', { token: team.apiKey, body }), 201);
      expect(created.id).toMatch(ROLE_ID);
      expect(created).toMatchObject({
        teamRoleSimplyId: created.id,
        name: 'Case workers',
        dataFullAccess: 'READ',
        dataPermissions: body.dataPermissions,
        featurePermissions: body.featurePermissions,
      });
      expect(created.createdAt).toEqual(expect.any(String));

      expect(expectOk(await server.request('GET', `/v1/team-roles/${created.id}`, { token: team.apiKey }))).toEqual(created);

      const list = await server.request('GET', '/v1/team-roles?limit=100', { token: team.apiKey });
      const roles = expectOk(list);
      expect(roles.map((r: { id: string }) => r.id)).toContain(created.id);
      expect(roles.map((r: { id: string }) => r.id)).toContain(team.teamRoleSimplyId);
      expect(list.body.meta.pagination).toMatchObject({ limit: 100, offset: 0, hasMore: false });
      expect(list.body.meta.pagination.total).toBe(roles.length);

      // PUT replaces: omitted lists become empty, omitted dataFullAccess becomes null
      const replaced = expectOk(
        await server.request('PUT', `/v1/team-roles/${created.id}`, {
          token: team.apiKey,
          body: { name: 'Case workers (renamed)', featurePermissions: [{ name: 'DATA_EXPORT', level: 'EDIT' }] },
        }),
      );
      expect(replaced).toMatchObject({
        id: created.id,
        name: 'Case workers (renamed)',
        dataFullAccess: null,
        dataPermissions: [],
        featurePermissions: [{ name: 'DATA_EXPORT', level: 'EDIT' }],
        createdAt: created.createdAt,
      });
      expect(new Date(replaced.updatedAt).getTime()).toBeGreaterThanOrEqual(new Date(created.updatedAt).getTime());
      expect(await server.app.services.prisma.teamRoleDataPermission.count({ where: { teamId: team.teamId, role: { simplyId: created.id } } })).toBe(0);

      const deleted = await server.request('DELETE', `/v1/team-roles/${created.id}`, { token: team.apiKey });
      expect(expectOk(deleted)).toEqual({ id: created.id, deleted: true });
      expectError(await server.request('GET', `/v1/team-roles/${created.id}`, { token: team.apiKey }), 404, 'NOT_FOUND');
      expectError(await server.request('DELETE', `/v1/team-roles/${created.id}`, { token: team.apiKey }), 404, 'NOT_FOUND');
      expectError(await server.request('PUT', `/v1/team-roles/${created.id}`, { token: team.apiKey, body: { name: 'ghost' } }), 404, 'NOT_FOUND');
    });

    it('pages the list (limit/offset; limit 0 and 101 and offset -1 are 400)', async () => {
      const pagingTeam = await createTeam(server);
      const a = await createRole(server, pagingTeam, { name: 'A' });
      const b = await createRole(server, pagingTeam, { name: 'B' });
      const page = await server.request('GET', '/v1/team-roles?limit=2', { token: pagingTeam.apiKey });
      expect(expectOk(page).map((r: { id: string }) => r.id)).toEqual([b, a]);
      expect(page.body.meta.pagination).toEqual({ total: 3, limit: 2, offset: 0, hasMore: true });
      const rest = await server.request('GET', '/v1/team-roles?limit=2&offset=2', { token: pagingTeam.apiKey });
      expect(expectOk(rest).map((r: { id: string }) => r.id)).toEqual([pagingTeam.teamRoleSimplyId]);
      expect(rest.body.meta.pagination).toEqual({ total: 3, limit: 2, offset: 2, hasMore: false });
      for (const q of ['limit=0', 'limit=101', 'offset=-1', 'limit=ten']) {
        expectError(await server.request('GET', `/v1/team-roles?${q}`, { token: pagingTeam.apiKey }), 400, 'VALIDATION_ERROR');
      }
      expectGqlError(await server.graphql(`{ teamRoles(limit: 101) { nodes { id } } }`, {}, { token: pagingTeam.apiKey }), 'VALIDATION_ERROR', 400);
    });

    it('collapses repeated grants (a feature repeated at VIEW and EDIT keeps EDIT)', async () => {
      const created = expectOk(
        await server.request('POST', '/v1/team-roles', {
          token: team.apiKey,
          body: {
            name: roleName('Repeats'),
            dataPermissions: [
              { dataCollectionSimplyId: '*', level: 'READ' },
              { dataCollectionSimplyId: '*', level: 'READ' },
            ],
            featurePermissions: [
              { name: 'TEAM_SETTINGS', level: 'VIEW' },
              { name: 'TEAM_SETTINGS', level: 'EDIT' },
              { name: 'TEAM_SETTINGS', level: 'VIEW' },
            ],
          },
        }),
        201,
      );
      expect(created.dataPermissions).toEqual([{ dataCollectionSimplyId: '*', level: 'READ' }]);
      expect(created.featurePermissions).toEqual([{ name: 'TEAM_SETTINGS', level: 'EDIT' }]);
    });
  });

  describe('CRUD over GraphQL', () => {
    it('createTeamRole, teamRole, teamRoles, replaceTeamRole, deleteTeamRole', async () => {
      const name = roleName('GraphQL role');
      const created = gqlData(
        await server.graphql(
          `mutation($input: TeamRoleInput!) { createTeamRole(input: $input) { ${ROLE} } }`,
          { input: { name, dataFullAccess: 'EDIT', featurePermissions: [{ name: 'TEAM_ADMIN_USERS', level: 'VIEW' }] } },
          { token: team.apiKey },
        ),
      ).createTeamRole;
      expect(created).toMatchObject({ name, dataFullAccess: 'EDIT', dataPermissions: [], featurePermissions: [{ name: 'TEAM_ADMIN_USERS', level: 'VIEW' }] });
      expect(created.id).toMatch(ROLE_ID);

      const one = gqlData(await server.graphql(`query($id: String!) { teamRole(teamRoleSimplyId: $id) { ${ROLE} } }`, { id: created.id }, { token: team.apiKey }));
      expect(one.teamRole).toEqual(created);
      // the REST face agrees
      expect(expectOk(await server.request('GET', `/v1/team-roles/${created.id}`, { token: team.apiKey }))).toEqual(created);

      const list = gqlData(await server.graphql(`{ teamRoles(limit: 100) { nodes { id name } pagination { total hasMore } } }`, {}, { token: team.apiKey }));
      expect(list.teamRoles.nodes).toContainEqual({ id: created.id, name });
      expect(list.teamRoles.pagination.total).toBe(list.teamRoles.nodes.length);

      const replaced = gqlData(
        await server.graphql(
          `mutation($id: String!, $input: TeamRoleInput!) { replaceTeamRole(teamRoleSimplyId: $id, input: $input) { ${ROLE} } }`,
          { id: created.id, input: { name: `${name} v2`, dataPermissions: [{ dataCollectionSimplyId: '*', level: 'RUN' }], dataFullAccess: null } },
          { token: team.apiKey },
        ),
      ).replaceTeamRole;
      expect(replaced).toMatchObject({ id: created.id, name: `${name} v2`, dataFullAccess: null, dataPermissions: [{ dataCollectionSimplyId: '*', level: 'RUN' }], featurePermissions: [] });

      expect(gqlData(await server.graphql(`mutation($id: String!) { deleteTeamRole(teamRoleSimplyId: $id) }`, { id: created.id }, { token: team.apiKey }))).toEqual({
        deleteTeamRole: true,
      });
      expectGqlError(await server.graphql(`query($id: String!) { teamRole(teamRoleSimplyId: $id) { id } }`, { id: created.id }, { token: team.apiKey }), 'NOT_FOUND', 404);
    });
  });

  describe('validation', () => {
    const post = (body: unknown) => server.request('POST', '/v1/team-roles', { token: team.apiKey, body });

    it('rejects bad levels, unknown feature names, malformed collection ids, bad names and unknown fields with 400', async () => {
      const cases: [string, unknown][] = [
        ['data level', { name: roleName('x'), dataPermissions: [{ dataCollectionSimplyId: '*', level: 'WRITE' }] }],
        ['feature level', { name: roleName('x'), featurePermissions: [{ name: 'TEAM_SETTINGS', level: 'ADMIN' }] }],
        ['full access level', { name: roleName('x'), dataFullAccess: 'RUN' }],
        ['unknown feature', { name: roleName('x'), featurePermissions: [{ name: 'TEAM_OWNER', level: 'EDIT' }] }],
        ['DATA_FULL_ACCESS is not a role feature', { name: roleName('x'), featurePermissions: [{ name: 'DATA_FULL_ACCESS', level: 'EDIT' }] }],
        ['lowercase collection id', { name: roleName('x'), dataPermissions: [{ dataCollectionSimplyId: 'abcd-efgh-jkmn', level: 'READ' }] }],
        ['numeric collection id', { name: roleName('x'), dataPermissions: [{ dataCollectionSimplyId: '42', level: 'READ' }] }],
        ['ambiguous characters', { name: roleName('x'), dataPermissions: [{ dataCollectionSimplyId: 'ABCD-EFGH-IJKL', level: 'READ' }] }],
        ['prefixed id', { name: roleName('x'), dataPermissions: [{ dataCollectionSimplyId: 'role-ABCD-EFGH-JKMN', level: 'READ' }] }],
        ['empty name', { name: '   ' }],
        ['name too long', { name: 'n'.repeat(101) }],
        ['missing name', { dataFullAccess: 'READ' }],
        ['unknown field', { name: roleName('x'), isDefault: true }],
        ['missing data level', { name: roleName('x'), dataPermissions: [{ dataCollectionSimplyId: '*' }] }],
      ];
      for (const [label, body] of cases) {
        const res = await post(body);
        expect(res.status, `${label}: ${res.text}`).toBe(400);
        expect(res.body.error.code, label).toBe('VALIDATION_ERROR');
      }
      // zod-level failures name the field
      const feature = expectError(await post({ name: roleName('x'), featurePermissions: [{ name: 'TEAM_OWNER', level: 'EDIT' }] }), 400, 'VALIDATION_ERROR');
      expect(feature.details?.[0]?.field).toBe('featurePermissions.0.name');
      const collection = expectError(await post({ name: roleName('x'), dataPermissions: [{ dataCollectionSimplyId: 'nope', level: 'READ' }] }), 400, 'VALIDATION_ERROR');
      expect(collection.details?.[0]?.field).toBe('dataPermissions.0.dataCollectionSimplyId');
      // 100 characters is fine
      expect(expectOk(await post({ name: `${counter}`.padEnd(100, 'n') }), 201).name).toHaveLength(100);
      expectError(await server.request('POST', '/v1/team-roles', { token: team.apiKey }), 400, 'VALIDATION_ERROR');

      expectGqlError(
        await server.graphql(`mutation { createTeamRole(input: { name: "x", featurePermissions: [{ name: "NOPE", level: VIEW }] }) { id } }`, {}, { token: team.apiKey }),
        'VALIDATION_ERROR',
        400,
      );
      // an enum value outside the schema is refused by GraphQL validation itself
      const badEnum = await server.graphql(`mutation { createTeamRole(input: { name: "x", dataFullAccess: ALL }) { id } }`, {}, { token: team.apiKey });
      expect(badEnum.data).toBeNull();
      expect(badEnum.errors?.[0]?.message).toMatch(/Value "ALL" does not exist in "FullAccessLevel" enum/);
    });

    it('duplicate names are 409 CONFLICT on create and on PUT; the team is left unchanged', async () => {
      const name = roleName('Unique');
      const first = await createRole(server, team, { name });
      const before = await server.app.services.prisma.teamRole.count({ where: { teamId: team.teamId } });
      const dup = expectError(await post({ name }), 409, 'CONFLICT');
      expect(dup.message).toEqual(expect.any(String));
      expectError(await post({ name: `  ${name} ` }), 409, 'CONFLICT');
      const second = await createRole(server, team, { name: roleName('Unique') });
      expectError(await server.request('PUT', `/v1/team-roles/${second}`, { token: team.apiKey, body: { name } }), 409, 'CONFLICT');
      expectGqlError(
        await server.graphql(`mutation($input: TeamRoleInput!) { createTeamRole(input: $input) { id } }`, { input: { name } }, { token: team.apiKey }),
        'CONFLICT',
        409,
      );
      expect(await server.app.services.prisma.teamRole.count({ where: { teamId: team.teamId } })).toBe(before + 1);
      // PUT keeping its own name is fine; another team may use the same name
      expectOk(await server.request('PUT', `/v1/team-roles/${first}`, { token: team.apiKey, body: { name } }));
      expectOk(await server.request('POST', '/v1/team-roles', { token: other.apiKey, body: { name } }), 201);
    });

    it('role ids: malformed or numeric → 400; another team\'s role → 404 (and it is not changed)', async () => {
      for (const bad of ['1', 'role-1', 'ROLE-ABCD-EFGH-JKMN', 'key-ABCD-EFGH-JKMN']) {
        const error = expectError(await server.request('GET', `/v1/team-roles/${bad}`, { token: team.apiKey }), 400, 'VALIDATION_ERROR');
        expect(error.details?.[0]?.field).toBe('teamRoleSimplyId');
        expectError(await server.request('PUT', `/v1/team-roles/${bad}`, { token: team.apiKey, body: { name: roleName('x') } }), 400, 'VALIDATION_ERROR');
        expectError(await server.request('DELETE', `/v1/team-roles/${bad}`, { token: team.apiKey }), 400, 'VALIDATION_ERROR');
      }
      const foreign = await createRole(server, other, { name: roleName('Foreign') });
      expectError(await server.request('GET', `/v1/team-roles/${foreign}`, { token: team.apiKey }), 404, 'NOT_FOUND');
      expectError(await server.request('PUT', `/v1/team-roles/${foreign}`, { token: team.apiKey, body: { name: 'Taken over', dataFullAccess: 'EDIT' } }), 404, 'NOT_FOUND');
      expectError(await server.request('DELETE', `/v1/team-roles/${foreign}`, { token: team.apiKey }), 404, 'NOT_FOUND');
      expectGqlError(await server.graphql(`mutation($id: String!) { deleteTeamRole(teamRoleSimplyId: $id) }`, { id: foreign }, { token: team.apiKey }), 'NOT_FOUND', 404);
      const still = expectOk(await server.request('GET', `/v1/team-roles/${foreign}`, { token: other.apiKey }));
      expect(still).toMatchObject({ id: foreign, dataFullAccess: null });
      expect(still.name).toMatch(/^Foreign/);
      expectGqlError(await server.graphql(`{ teamRole(teamRoleSimplyId: "12") { id } }`, {}, { token: team.apiKey }), 'VALIDATION_ERROR', 400);
    });
  });

  describe('deleting an assigned role', () => {
    it('is 409 while a member or an active API key uses it; a revoked key does not block', async () => {
      const memberRole = await createRole(server, team, { name: roleName('Members') });
      await addMember(server, team, { teamRoleSimplyId: memberRole });
      const conflict = expectError(await server.request('DELETE', `/v1/team-roles/${memberRole}`, { token: team.apiKey }), 409, 'CONFLICT');
      expect(conflict.message).toMatch(/1 member/);
      expectGqlError(await server.graphql(`mutation($id: String!) { deleteTeamRole(teamRoleSimplyId: $id) }`, { id: memberRole }, { token: team.apiKey }), 'CONFLICT', 409);

      const keyRole = await createRole(server, team, { name: roleName('Keys') });
      const key = await createApiKey(server, team, { name: 'role user', teamRoleSimplyId: keyRole });
      expectError(await server.request('DELETE', `/v1/team-roles/${keyRole}`, { token: team.apiKey }), 409, 'CONFLICT');
      expectOk(await server.request('GET', `/v1/team-roles/${keyRole}`, { token: team.apiKey }));

      expectOk(await server.request('DELETE', `/v1/api-keys/${key.id}`, { token: team.apiKey }));
      expect(expectOk(await server.request('DELETE', `/v1/team-roles/${keyRole}`, { token: team.apiKey }))).toEqual({ id: keyRole, deleted: true });
      const revoked = await server.app.services.prisma.apiKey.findFirstOrThrow({ where: { simplyId: key.id } });
      expect(revoked.teamRoleId).toBeNull();
    });
  });

  describe('who may manage roles', () => {
    it('an API key with TEAM_ADMIN_USER_ROLES:VIEW lists and reads but cannot create, replace or delete (403)', async () => {
      const viewKey = await createApiKey(server, team, { name: 'role viewer', featurePermissions: ['TEAM_ADMIN_USER_ROLES:VIEW'] });
      const target = await createRole(server, team, { name: roleName('Target') });
      expectOk(await server.request('GET', '/v1/team-roles', { token: viewKey.key }));
      expectOk(await server.request('GET', `/v1/team-roles/${target}`, { token: viewKey.key }));
      expectError(await server.request('POST', '/v1/team-roles', { token: viewKey.key, body: { name: roleName('Nope') } }), 403, 'PERMISSION_DENIED');
      expectError(await server.request('PUT', `/v1/team-roles/${target}`, { token: viewKey.key, body: { name: roleName('Nope') } }), 403, 'PERMISSION_DENIED');
      expectError(await server.request('DELETE', `/v1/team-roles/${target}`, { token: viewKey.key }), 403, 'PERMISSION_DENIED');
      expectGqlError(await server.graphql(`mutation { createTeamRole(input: { name: "Nope" }) { id } }`, {}, { token: viewKey.key }), 'PERMISSION_DENIED', 403);
      expect(gqlData(await server.graphql(`{ teamRoles { pagination { total } } }`, {}, { token: viewKey.key })).teamRoles.pagination.total).toBeGreaterThan(0);

      const editKey = await createApiKey(server, team, { name: 'role editor', featurePermissions: ['TEAM_ADMIN_USER_ROLES'] });
      expectOk(await server.request('PUT', `/v1/team-roles/${target}`, { token: editKey.key, body: { name: roleName('Edited') } }));

      const noKey = await createApiKey(server, team, { name: 'no roles', featurePermissions: ['TEAM_SETTINGS'] });
      expectError(await server.request('GET', '/v1/team-roles', { token: noKey.key }), 403, 'PERMISSION_DENIED');
      expectGqlError(await server.graphql(`{ teamRoles { nodes { id } } }`, {}, { token: noKey.key }), 'PERMISSION_DENIED', 403);
    });

    it('session tokens are refused (privileged tier) even when they carry the feature', async () => {
      const session = expectOk(await server.request('POST', '/v1/session-tokens', { token: team.apiKey, body: { featurePermissions: ['TEAM_ADMIN_USER_ROLES'] } }), 201);
      expect(session.featurePermissions).toEqual(['TEAM_ADMIN_USER_ROLES']);
      expectError(await server.request('GET', '/v1/team-roles', { token: session.token }), 403, 'PERMISSION_DENIED');
      expectError(await server.request('GET', `/v1/team-roles/${team.teamRoleSimplyId}`, { token: session.token }), 403, 'PERMISSION_DENIED');
      expectError(await server.request('POST', '/v1/team-roles', { token: session.token, body: { name: roleName('From token') } }), 403, 'PERMISSION_DENIED');
      expectError(await server.request('DELETE', `/v1/team-roles/${team.teamRoleSimplyId}`, { token: session.token }), 403, 'PERMISSION_DENIED');
      expectGqlError(await server.graphql(`{ teamRoles { nodes { id } } }`, {}, { token: session.token }), 'PERMISSION_DENIED', 403);
    });

    it('users: team admins manage; a member needs the role feature; no team is 400; not a member 403; anonymous 401', async () => {
      expectOk(await server.request('POST', '/v1/team-roles', { token: team.userToken, teamId: team.teamSimplyId, body: { name: roleName('By admin') } }), 201);

      const rolesViewRole = await createRole(server, team, { name: roleName('Role viewers'), featurePermissions: [{ name: 'TEAM_ADMIN_USER_ROLES', level: 'VIEW' }] });
      const viewerMember = await addMember(server, team, { teamRoleSimplyId: rolesViewRole });
      expectOk(await server.request('GET', '/v1/team-roles', { token: viewerMember.token, teamId: team.teamSimplyId }));
      expectError(
        await server.request('POST', '/v1/team-roles', { token: viewerMember.token, teamId: team.teamSimplyId, body: { name: roleName('x') } }),
        403,
        'PERMISSION_DENIED',
      );
      const plain = await addMember(server, team);
      expectError(await server.request('GET', '/v1/team-roles', { token: plain.token, teamId: team.teamSimplyId }), 403, 'PERMISSION_DENIED');

      expectError(await server.request('GET', '/v1/team-roles', { token: team.userToken }), 400, 'VALIDATION_ERROR');
      expectGqlError(await server.graphql(`{ teamRoles { nodes { id } } }`, {}, { token: team.userToken }), 'VALIDATION_ERROR', 400);
      expectError(await server.request('GET', '/v1/team-roles', { token: team.userToken, teamId: other.teamSimplyId }), 403, 'PERMISSION_DENIED');
      expectGqlError(await server.graphql(`{ teamRoles { nodes { id } } }`, {}, { token: team.userToken, teamId: other.teamSimplyId }), 'PERMISSION_DENIED', 403);
      expectError(await server.request('GET', '/v1/team-roles'), 401, 'UNAUTHENTICATED');
      expectError(await server.request('POST', '/v1/team-roles', { body: { name: 'anon' } }), 401, 'UNAUTHENTICATED');
      expectGqlError(await server.graphql(`{ teamRoles { nodes { id } } }`), 'UNAUTHENTICATED', 401);
    });
  });

  describe('changes take effect immediately', () => {
    it('for an API key using the role (no cache wait)', async () => {
      const role = await createRole(server, team, { name: roleName('Evolving'), dataPermissions: [{ dataCollectionSimplyId: '*', level: 'READ' }] });
      const key = await createApiKey(server, team, { name: 'evolving key', teamRoleSimplyId: role });
      expect(await viewer(key.key)).toMatchObject({ teamRoleSimplyId: role, dataFullAccess: null, dataPermissions: [{ dataCollectionSimplyId: '*', levels: ['READ'] }] });

      expectOk(
        await server.request('PUT', `/v1/team-roles/${role}`, {
          token: team.apiKey,
          body: { name: roleName('Evolving'), dataFullAccess: 'EDIT', dataPermissions: [{ dataCollectionSimplyId: 'ABCD-EFGH-JKMN', level: 'RUN' }] },
        }),
      );
      expect(await viewer(key.key)).toMatchObject({ dataFullAccess: 'EDIT', dataPermissions: [{ dataCollectionSimplyId: 'ABCD-EFGH-JKMN', levels: ['RUN'] }] });
      // the key's minted session tokens see it too (they inherit the role)
      const session = expectOk(await server.request('POST', '/v1/session-tokens', { token: key.key, body: {} }), 201);
      expect(session.oauthScopes).toEqual(['schema:read', 'records:read']);
      expect((await viewer(session.token)).dataFullAccess).toBe('EDIT');

      gqlData(
        await server.graphql(`mutation($id: String!, $input: TeamRoleInput!) { replaceTeamRole(teamRoleSimplyId: $id, input: $input) { id } }`, { id: role, input: { name: roleName('Evolving') } }, { token: team.apiKey }),
      );
      expect(await viewer(key.key)).toMatchObject({ dataFullAccess: null, dataPermissions: [], hasDataAccess: true });
      expect(await viewer(session.token)).toMatchObject({ dataFullAccess: null, dataPermissions: [] });
    });

    it('for a member using the role: feature permissions granted or withdrawn apply to the next request', async () => {
      const role = await createRole(server, team, { name: roleName('Member role') });
      const member = await addMember(server, team, { teamRoleSimplyId: role });
      expectError(await server.request('GET', '/v1/team-roles', { token: member.token, teamId: team.teamSimplyId }), 403, 'PERMISSION_DENIED');
      expectOk(
        await server.request('PUT', `/v1/team-roles/${role}`, {
          token: team.apiKey,
          body: { name: roleName('Member role'), featurePermissions: [{ name: 'TEAM_ADMIN_USER_ROLES', level: 'VIEW' }] },
        }),
      );
      expectOk(await server.request('GET', '/v1/team-roles', { token: member.token, teamId: team.teamSimplyId }));
      expect(await viewer(member.token, team.teamSimplyId)).toMatchObject({ credentialKind: 'USER', featurePermissions: [{ name: 'TEAM_ADMIN_USER_ROLES', level: 'VIEW' }] });
      expectOk(await server.request('PUT', `/v1/team-roles/${role}`, { token: team.apiKey, body: { name: roleName('Member role') } }));
      expectError(await server.request('GET', '/v1/team-roles', { token: member.token, teamId: team.teamSimplyId }), 403, 'PERMISSION_DENIED');
    });
  });

  describe('field permissions', () => {
    it('stores, returns and replaces per-field levels', async () => {
      const created = await server.request('POST', '/v1/team-roles', {
        token: team.apiKey,
        body: {
          name: 'Field narrowed',
          fieldPermissions: [
            { dataFieldSimplyId: 'fld-AB23-CD45-EF67', level: 'EDIT' },
            { dataFieldSimplyId: 'fld-AB23-CD45-EF67', level: 'READ' },
            { dataFieldSimplyId: 'fld-GH89-JK23-MN45', level: 'NONE' },
          ],
        },
      });
      expect(created.status, created.text).toBe(201);
      expect(created.body.data.fieldPermissions).toEqual([
        { dataFieldSimplyId: 'fld-AB23-CD45-EF67', level: 'READ' },
        { dataFieldSimplyId: 'fld-GH89-JK23-MN45', level: 'NONE' },
      ]);
      const replaced = await server.request('PUT', `/v1/team-roles/${created.body.data.id}`, {
        token: team.apiKey,
        body: { name: 'Field narrowed', fieldPermissions: [{ dataFieldSimplyId: 'fld-GH89-JK23-MN45', level: 'EDIT' }] },
      });
      expect(replaced.status, replaced.text).toBe(200);
      expect(replaced.body.data.fieldPermissions).toEqual([{ dataFieldSimplyId: 'fld-GH89-JK23-MN45', level: 'EDIT' }]);
      const bad = await server.request('POST', '/v1/team-roles', { token: team.apiKey, body: { name: 'Bad', fieldPermissions: [{ dataFieldSimplyId: '12', level: 'READ' }] } });
      expect(bad.status).toBe(400);
    });
  });
});
