// API keys over REST (/v1/api-keys) and their GraphQL twins (apiKeys, apiKey, createApiKey,
// updateApiKey, rotateApiKey, revokeApiKey): Document 1 §2.1, §4.1, §5, §7, §8.
import { beforeAll, describe, expect, it } from 'vitest';
import { operation } from '../../src/app/graphql/fragments.ts';
import { API_KEY, ISSUED_API_KEY } from '../../src/modules/credentials/credentials.fragments.ts';
import { VIEWER, mintSessionToken, sha256, viewerOf } from '../support/credentials-fixtures.ts';
import { expectError, expectGqlError, expectOk, gqlData } from '../support/expect-envelope.ts';
import { addMember, createApiKey, createRole, createTeam, type TeamFixture } from '../support/fixtures.ts';
import { useServer } from '../support/use-server.ts';

const KEY_ID = /^key-[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}$/;
const FULL_KEY = /^svc_live_[A-Za-z0-9_-]{43}$/;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('API keys', () => {
  const { server, teams: [team, other] } = useServer({ teams: 2 });
  let readRole: string;

  const viewer = (token: string) => viewerOf(server, token);
  const newKey = (body: Record<string, unknown>) => createApiKey(server, team, { name: 'test key', ...body });
  const gqlCreateKey = (input: Record<string, unknown>, token: string) =>
    server.graphql(`mutation($input: CreateApiKeyInput!) { createApiKey(input: $input) { fullApiKey } }`, { input }, { token });

  beforeAll(async () => {
    readRole = await createRole(server, team, { name: 'Reader', dataPermissions: [{ dataCollectionSimplyId: '*', level: 'READ' }] });
  });

  describe('create', () => {
    it('POST returns the full key once (svc_live_…); GET, list and the database never hold it', async () => {
      const res = await server.request('POST', '/v1/api-keys', {
        token: team.apiKey,
        body: { name: '  Integration  ', teamRoleSimplyId: readRole, featurePermissions: ['TEAM_SETTINGS:VIEW', 'TEAM_ADMIN_USERS'] },
      });
      const data = expectOk(res, 201);
      expect(data.fullApiKey).toMatch(FULL_KEY);
      expect(data.id).toMatch(KEY_ID);
      expect(data).toMatchObject({
        apiKeySimplyId: data.id,
        name: 'Integration',
        keyHint: `svc_live_${data.fullApiKey.slice(9, 13)}…`,
        teamRoleSimplyId: readRole,
        featurePermissions: ['TEAM_SETTINGS:VIEW', 'TEAM_ADMIN_USERS'],
        allowedIpAddresses: [],
        expiresAt: null,
        expired: false,
        lastRotatedAt: null,
      });
      expect(new Date(data.createdAt).getTime()).toBeGreaterThan(Date.now() - 60_000);
      const fullKey: string = data.fullApiKey;

      // the database keeps only the SHA-256 of the key
      const row = await server.app.services.prisma.apiKey.findFirstOrThrow({ where: { simplyId: data.id } });
      expect(row.keyHash).not.toBe(fullKey);
      expect(row.keyHash).toBe(sha256(fullKey));
      expect(row.teamId).toBe(team.teamId);
      for (const value of Object.values(row)) {
        if (typeof value === 'string') expect(value.includes(fullKey.slice(9))).toBe(false);
      }

      const get = await server.request('GET', `/v1/api-keys/${data.id}`, { token: team.apiKey });
      const fetched = expectOk(get);
      expect(fetched).not.toHaveProperty('fullApiKey');
      expect(get.text.includes(fullKey.slice(9))).toBe(false);
      const { fullApiKey: _shown, ...rest } = data;
      expect(fetched).toEqual(rest);

      const list = await server.request('GET', '/v1/api-keys?limit=100', { token: team.apiKey });
      expect(expectOk(list).map((k: { id: string }) => k.id)).toContain(data.id);
      expect(list.text.includes(fullKey.slice(9))).toBe(false);

      // GraphQL has no field that could show it again
      const gql = await server.graphql(`query($id: String!) { apiKey(apiKeySimplyId: $id) { fullApiKey } }`, { id: data.id }, { token: team.apiKey });
      expect(gql.data).toBeNull();
      expect(gql.errors?.[0]?.message).toMatch(/Cannot query field "fullApiKey" on type "ApiKey"/);

      // the key works and carries exactly what was granted
      expect(await viewer(fullKey)).toMatchObject({
        credentialKind: 'API_KEY',
        credentialId: data.id,
        teamSimplyId: team.teamSimplyId,
        isTeamAdmin: false,
        teamRoleSimplyId: readRole,
        dataFullAccess: null,
        hasDataAccess: true,
        featurePermissions: [
          { name: 'TEAM_ADMIN_USERS', level: 'EDIT' },
          { name: 'TEAM_SETTINGS', level: 'VIEW' },
        ],
        oauthScopes: null,
        expiresAt: null,
      });
    });

    it('createApiKey (GraphQL) returns the secret in its payload only, and the key works', async () => {
      const res = await server.graphql(
        operation`mutation($input: CreateApiKeyInput!) { createApiKey(input: $input) { ${ISSUED_API_KEY} } }`,
        { input: { name: 'gql key', featurePermissions: ['TEAM_ADMIN_USER_ROLES:VIEW'], allowedIpAddresses: ['127.0.0.1'] } },
        { token: team.apiKey },
      );
      const issued = gqlData(res).createApiKey;
      expect(issued.fullApiKey).toMatch(FULL_KEY);
      expect(issued.apiKey).toMatchObject({ name: 'gql key', teamRoleSimplyId: null, featurePermissions: ['TEAM_ADMIN_USER_ROLES:VIEW'], allowedIpAddresses: ['127.0.0.1'] });
      expect(issued.apiKey.id).toMatch(KEY_ID);
      const row = await server.app.services.prisma.apiKey.findFirstOrThrow({ where: { simplyId: issued.apiKey.id } });
      expect(row.keyHash).toBe(sha256(issued.fullApiKey));
      expectOk(await server.request('GET', '/v1/team-roles', { token: issued.fullApiKey }));
    });

    it('a team-admin user (JWT + X-Team-Id) may create keys; without a team it is 400, without the permission 403', async () => {
      const created = expectOk(
        await server.request('POST', '/v1/api-keys', {
          token: team.userToken,
          teamId: team.teamSimplyId,
          body: { name: 'by admin', teamRoleSimplyId: team.teamRoleSimplyId, featurePermissions: ['DATA_FULL_ACCESS', 'TEAM_SETTINGS'] },
        }),
        201,
      );
      // DATA_FULL_ACCESS is a check against the role, not a stored feature
      expect(created.featurePermissions).toEqual(['TEAM_SETTINGS']);
      const row = await server.app.services.prisma.apiKey.findFirstOrThrow({ where: { simplyId: created.id } });
      expect(row.createdByUserId).toBe(team.userId);
      expect((await viewer(created.fullApiKey)).dataFullAccess).toBe('EDIT');

      expectError(await server.request('POST', '/v1/api-keys', { token: team.userToken, body: { name: 'no team' } }), 400, 'VALIDATION_ERROR');
      const member = await addMember(server, team);
      expectError(
        await server.request('POST', '/v1/api-keys', { token: member.token, teamId: team.teamSimplyId, body: { name: 'member' } }),
        403,
        'PERMISSION_DENIED',
      );
      expectError(await server.request('POST', '/v1/api-keys', { body: { name: 'anonymous' } }), 401, 'UNAUTHENTICATED');
    });

    it('validates the body: name, unknown fields, unknown feature permissions, allowlist entries, expiry', async () => {
      const post = (body: unknown) => server.request('POST', '/v1/api-keys', { token: team.apiKey, body });
      expectError(await post({}), 400, 'VALIDATION_ERROR');
      expectError(await post({ name: '   ' }), 400, 'VALIDATION_ERROR');
      expectError(await post({ name: 'x'.repeat(101) }), 400, 'VALIDATION_ERROR');
      expectError(await post({ name: 'x', surprise: true }), 400, 'VALIDATION_ERROR');
      for (const feature of ['NOT_A_PERMISSION', 'TEAM_SETTINGS:ADMIN', 'team_settings', 'TEAM_SETTINGS:VIEW:EDIT']) {
        const error = expectError(await post({ name: 'x', featurePermissions: [feature] }), 400, 'VALIDATION_ERROR');
        expect(error.details?.[0]?.field).toBe('featurePermissions.0');
      }
      const badIp = expectError(await post({ name: 'x', allowedIpAddresses: ['not-an-ip'] }), 400, 'VALIDATION_ERROR');
      expect(badIp.details?.[0]?.field).toBe('allowedIpAddresses.0');
      expectError(await post({ name: 'x', allowedIpAddresses: ['10.0.0.0/33'] }), 400, 'VALIDATION_ERROR');
      const past = expectError(await post({ name: 'x', expiresAt: new Date(Date.now() - 60_000).toISOString() }), 400, 'VALIDATION_ERROR');
      expect(past.details).toEqual([{ field: 'expiresAt', message: 'must be in the future' }]);
      expectError(await post({ name: 'x', expiresAt: 'tomorrow-ish' }), 400, 'VALIDATION_ERROR');
      // a bare number is the year 12345 to Date.parse: refused, and nothing stored that a read would choke on
      for (const expiresAt of ['12345', '+012345-01-01T00:00:00Z', '2027-01-01', '2027-01-01T00:00:00']) {
        const bad = expectError(await post({ name: `odd-expiry ${expiresAt}`, expiresAt }), 400, 'VALIDATION_ERROR');
        expect(bad.details?.[0]?.field).toBe('expiresAt');
      }
      expect((await server.request('GET', '/v1/api-keys?limit=100', { token: team.apiKey })).status).toBe(200);
      expect(await server.app.services.prisma.apiKey.count({ where: { name: { startsWith: 'odd-expiry' } } })).toBe(0);
      // and whatever writes the column, the database keeps it to four-digit years (no read can fail on it)
      const farYear = server.app.services.prisma.$executeRaw`UPDATE "ApiKey" SET "expiresAt" = TIMESTAMP '12345-01-01' WHERE "teamId" = ${team.teamId}`;
      await expect(farYear).rejects.toThrow(/ApiKey_expiresAt_range/);
      expectError(await post({ name: 'x', teamRoleSimplyId: 'role-1' }), 400, 'VALIDATION_ERROR');
      expectError(await post({ name: 'x', teamRoleSimplyId: other.teamRoleSimplyId }), 404, 'NOT_FOUND');
      expectError(await server.request('POST', '/v1/api-keys', { token: team.apiKey }), 400, 'VALIDATION_ERROR');
      expectError(await server.request('POST', '/v1/api-keys', { token: team.apiKey, rawBody: '{"name":', headers: { 'content-type': 'application/json' } }), 400, 'VALIDATION_ERROR');

      const gqlPast = await gqlCreateKey({ name: 'x', expiresAt: new Date(Date.now() - 1000).toISOString() }, team.apiKey);
      expectGqlError(gqlPast, 'VALIDATION_ERROR', 400);
      const gqlFeature = await gqlCreateKey({ name: 'x', featurePermissions: ['NOPE'] }, team.apiKey);
      expectGqlError(gqlFeature, 'VALIDATION_ERROR', 400);
    });

    it('DATA_FULL_ACCESS needs a team role granting full data access (400 otherwise)', async () => {
      const post = (body: Record<string, unknown>) => server.request('POST', '/v1/api-keys', { token: team.apiKey, body: { name: 'full?', ...body } });
      const noRole = expectError(await post({ featurePermissions: ['DATA_FULL_ACCESS'] }), 400, 'VALIDATION_ERROR');
      expect(noRole.details?.[0]?.field).toBe('featurePermissions');
      expectError(await post({ teamRoleSimplyId: readRole, featurePermissions: ['DATA_FULL_ACCESS'] }), 400, 'VALIDATION_ERROR');
      const ok = expectOk(await post({ teamRoleSimplyId: team.teamRoleSimplyId, featurePermissions: ['DATA_FULL_ACCESS'] }), 201);
      expect(ok.featurePermissions).toEqual([]);
      expect(await viewer(ok.fullApiKey)).toMatchObject({ dataFullAccess: 'EDIT', hasDataAccess: true });

      // PATCH moving a full-access key's listed DATA_FULL_ACCESS onto a reader role is refused too
      const patched = await server.request('PATCH', `/v1/api-keys/${ok.id}`, {
        token: team.apiKey,
        body: { teamRoleSimplyId: readRole, featurePermissions: ['DATA_FULL_ACCESS'] },
      });
      expectError(patched, 400, 'VALIDATION_ERROR');
      expect((await viewer(ok.fullApiKey)).dataFullAccess).toBe('EDIT');
    });

    it('a key without a team role authenticates and calls allowed non-data routes, but has no data access', async () => {
      const key = await newKey({ featurePermissions: ['TEAM_ADMIN_USER_ROLES:VIEW'] });
      expect(await viewer(key.key)).toMatchObject({
        credentialKind: 'API_KEY',
        teamRoleSimplyId: null,
        hasDataAccess: false,
        dataFullAccess: null,
      });
      expectOk(await server.request('GET', '/v1/team-roles', { token: key.key }));
      // and nothing beyond its feature permissions
      expectError(await server.request('GET', '/v1/api-keys', { token: key.key }), 403, 'PERMISSION_DENIED');
    });
  });

  describe('who may set teamRoleSimplyId, and no escalation', () => {
    it('setting teamRoleSimplyId needs Team Admin or edit-level TEAM_ADMIN_USER_ROLES (403 otherwise)', async () => {
      const keysOnly = await newKey({ featurePermissions: ['TEAM_ADMIN_API_KEYS'] });
      const rolesView = await newKey({ featurePermissions: ['TEAM_ADMIN_API_KEYS', 'TEAM_ADMIN_USER_ROLES:VIEW'] });
      const rolesEdit = await newKey({ featurePermissions: ['TEAM_ADMIN_API_KEYS', 'TEAM_ADMIN_USER_ROLES'] });
      const post = (token: string, body: Record<string, unknown>, teamId?: string) =>
        server.request('POST', '/v1/api-keys', { token, teamId, body: { name: 'child', ...body } });

      expectError(await post(keysOnly.key, { teamRoleSimplyId: readRole }), 403, 'PERMISSION_DENIED');
      expectError(await post(rolesView.key, { teamRoleSimplyId: readRole }), 403, 'PERMISSION_DENIED');
      expect(expectOk(await post(rolesEdit.key, { teamRoleSimplyId: readRole }), 201).teamRoleSimplyId).toBe(readRole);
      // without a role the same callers may create keys
      expect(expectOk(await post(keysOnly.key, {}), 201).teamRoleSimplyId).toBeNull();

      // PATCH: changing or removing the role is the same decision
      const target = await newKey({ teamRoleSimplyId: readRole });
      expectError(await server.request('PATCH', `/v1/api-keys/${target.id}`, { token: keysOnly.key, body: { teamRoleSimplyId: null } }), 403, 'PERMISSION_DENIED');
      expectError(
        await server.request('PATCH', `/v1/api-keys/${target.id}`, { token: rolesView.key, body: { teamRoleSimplyId: team.teamRoleSimplyId } }),
        403,
        'PERMISSION_DENIED',
      );
      expect((await viewer(target.key)).teamRoleSimplyId).toBe(readRole);

      // a user whose role grants TEAM_ADMIN_API_KEYS but not TEAM_ADMIN_USER_ROLES edit
      const keysAdminRole = await createRole(server, team, {
        name: 'Key admins',
        featurePermissions: [
          { name: 'TEAM_ADMIN_API_KEYS', level: 'EDIT' },
          { name: 'TEAM_ADMIN_USER_ROLES', level: 'VIEW' },
        ],
      });
      const member = await addMember(server, team, { teamRoleSimplyId: keysAdminRole });
      expectError(await post(member.token, { teamRoleSimplyId: readRole }, team.teamSimplyId), 403, 'PERMISSION_DENIED');
      expectOk(await post(member.token, { featurePermissions: ['TEAM_ADMIN_API_KEYS'] }, team.teamSimplyId), 201);
      // a team admin may
      expectOk(await post(team.userToken, { teamRoleSimplyId: readRole }, team.teamSimplyId), 201);

      // GraphQL twin
      const gql = await gqlCreateKey({ name: 'child', teamRoleSimplyId: readRole }, keysOnly.key);
      expectGqlError(gql, 'PERMISSION_DENIED', 403);
    });

    it('a caller can only grant feature permissions it holds, at most at its own level', async () => {
      const keysOnly = await newKey({ featurePermissions: ['TEAM_ADMIN_API_KEYS'] });
      const settingsView = await newKey({ featurePermissions: ['TEAM_ADMIN_API_KEYS', 'TEAM_SETTINGS:VIEW'] });
      const post = (token: string, featurePermissions: string[]) =>
        server.request('POST', '/v1/api-keys', { token, body: { name: 'child', featurePermissions } });

      const denied = expectError(await post(keysOnly.key, ['TEAM_SETTINGS']), 403, 'PERMISSION_DENIED');
      expect(denied.message).toContain('TEAM_SETTINGS');
      expectError(await post(keysOnly.key, ['TEAM_SETTINGS:VIEW']), 403, 'PERMISSION_DENIED');
      expectOk(await post(keysOnly.key, ['TEAM_ADMIN_API_KEYS']), 201);
      expectError(await post(settingsView.key, ['TEAM_SETTINGS']), 403, 'PERMISSION_DENIED');
      expect(expectOk(await post(settingsView.key, ['TEAM_SETTINGS:VIEW']), 201).featurePermissions).toEqual(['TEAM_SETTINGS:VIEW']);

      // nor by PATCHing an existing key
      const child = await newKey({ featurePermissions: [] });
      expectError(
        await server.request('PATCH', `/v1/api-keys/${child.id}`, { token: keysOnly.key, body: { featurePermissions: ['TEAM_SETTINGS'] } }),
        403,
        'PERMISSION_DENIED',
      );
      expectError(await server.request('GET', '/v1/team-roles', { token: child.key }), 403, 'PERMISSION_DENIED');

      // nor by rotating a more powerful key: that would hand over its secret
      const powerful = await newKey({ teamRoleSimplyId: team.teamRoleSimplyId, featurePermissions: ['TEAM_SETTINGS', 'TEAM_ADMIN_API_KEYS'] });
      expectError(await server.request('POST', `/v1/api-keys/${powerful.id}/rotate`, { token: keysOnly.key }), 403, 'PERMISSION_DENIED');
      expectOk(await server.request('GET', '/v1/api-keys', { token: powerful.key })); // still its old secret
      // a key it could have created itself it may rotate
      const peer = await newKey({ featurePermissions: ['TEAM_ADMIN_API_KEYS'] });
      expectOk(await server.request('POST', `/v1/api-keys/${peer.id}/rotate`, { token: keysOnly.key }));

      const gql = await gqlCreateKey({ name: 'child', featurePermissions: ['TEAM_SETTINGS'] }, keysOnly.key);
      expectGqlError(gql, 'PERMISSION_DENIED', 403);
    });

    it('session tokens cannot create, list or change API keys (privileged tier: 403)', async () => {
      const token = (await mintSessionToken(server, team.apiKey)).token;
      // the token inherited TEAM_ADMIN_API_KEYS from the bootstrap key, yet the tier refuses it
      expect((await viewer(token)).featurePermissions).toContainEqual({ name: 'TEAM_ADMIN_API_KEYS', level: 'EDIT' });
      expectError(await server.request('POST', '/v1/api-keys', { token, body: { name: 'from token' } }), 403, 'PERMISSION_DENIED');
      expectError(await server.request('GET', '/v1/api-keys', { token }), 403, 'PERMISSION_DENIED');
      expectError(await server.request('GET', `/v1/api-keys/${team.apiKeySimplyId}`, { token }), 403, 'PERMISSION_DENIED');
      expectError(await server.request('POST', `/v1/api-keys/${team.apiKeySimplyId}/rotate`, { token }), 403, 'PERMISSION_DENIED');
      expectError(await server.request('DELETE', `/v1/api-keys/${team.apiKeySimplyId}`, { token }), 403, 'PERMISSION_DENIED');
      const gql = await server.graphql(`mutation { createApiKey(input: { name: "from token" }) { fullApiKey } }`, {}, { token });
      expectGqlError(gql, 'PERMISSION_DENIED', 403);
      expect(await server.app.services.prisma.apiKey.count({ where: { teamId: team.teamId, name: 'from token' } })).toBe(0);
    });
  });

  describe('list and get', () => {
    let pagingTeam: TeamFixture;
    let ids: string[];

    beforeAll(async () => {
      pagingTeam = await createTeam(server);
      const first = await createApiKey(server, pagingTeam, { name: 'second' });
      const second = await createApiKey(server, pagingTeam, { name: 'third' });
      ids = [second.id, first.id, pagingTeam.apiKeySimplyId]; // newest first
    });

    it('pages with limit/offset and meta.pagination, newest first, revoked keys excluded', async () => {
      const all = await server.request('GET', '/v1/api-keys', { token: pagingTeam.apiKey });
      expect(expectOk(all).map((k: { id: string }) => k.id)).toEqual(ids);
      expect(all.body.meta.pagination).toEqual({ total: 3, limit: 25, offset: 0, hasMore: false });

      const page1 = await server.request('GET', '/v1/api-keys?limit=2', { token: pagingTeam.apiKey });
      expect(expectOk(page1).map((k: { id: string }) => k.id)).toEqual(ids.slice(0, 2));
      expect(page1.body.meta.pagination).toEqual({ total: 3, limit: 2, offset: 0, hasMore: true });
      const page2 = await server.request('GET', '/v1/api-keys?limit=2&offset=2', { token: pagingTeam.apiKey });
      expect(expectOk(page2).map((k: { id: string }) => k.id)).toEqual(ids.slice(2));
      expect(page2.body.meta.pagination).toEqual({ total: 3, limit: 2, offset: 2, hasMore: false });
      const beyond = await server.request('GET', '/v1/api-keys?offset=10', { token: pagingTeam.apiKey });
      expect(expectOk(beyond)).toEqual([]);
      expect(beyond.body.meta.pagination).toEqual({ total: 3, limit: 25, offset: 10, hasMore: false });
      expectOk(await server.request('GET', '/v1/api-keys?limit=100', { token: pagingTeam.apiKey }));
      expectOk(await server.request('GET', '/v1/api-keys?limit=1', { token: pagingTeam.apiKey }));

      const gql = gqlData(
        await server.graphql(`{ apiKeys(limit: 2, offset: 1) { nodes { id } pagination { total limit offset hasMore } } }`, {}, { token: pagingTeam.apiKey }),
      );
      expect(gql.apiKeys).toEqual({ nodes: ids.slice(1, 3).map((id) => ({ id })), pagination: { total: 3, limit: 2, offset: 1, hasMore: false } });

      // other teams' keys never appear
      const otherList = expectOk(await server.request('GET', '/v1/api-keys?limit=100', { token: team.apiKey }));
      expect(otherList.map((k: { id: string }) => k.id)).not.toContain(ids[0]);
    });

    it('rejects limit 0 / 101, offset -1 and non-integers with 400 VALIDATION_ERROR', async () => {
      for (const [query, field] of [
        ['limit=0', 'limit'],
        ['limit=101', 'limit'],
        ['offset=-1', 'offset'],
        ['limit=abc', 'limit'],
        ['limit=1.5', 'limit'],
        ['offset=x', 'offset'],
      ] as const) {
        const error = expectError(await server.request('GET', `/v1/api-keys?${query}`, { token: pagingTeam.apiKey }), 400, 'VALIDATION_ERROR');
        expect(error.details?.[0]?.field, query).toBe(field);
      }
      expectGqlError(await server.graphql(`{ apiKeys(limit: 0) { nodes { id } } }`, {}, { token: pagingTeam.apiKey }), 'VALIDATION_ERROR', 400);
      expectGqlError(await server.graphql(`{ apiKeys(limit: 101) { nodes { id } } }`, {}, { token: pagingTeam.apiKey }), 'VALIDATION_ERROR', 400);
      expectGqlError(await server.graphql(`{ apiKeys(offset: -1) { nodes { id } } }`, {}, { token: pagingTeam.apiKey }), 'VALIDATION_ERROR', 400);
    });

    it('GET by id (REST and GraphQL); malformed or numeric ids are 400; another team\'s key is 404', async () => {
      const one = expectOk(await server.request('GET', `/v1/api-keys/${ids[1]}`, { token: pagingTeam.apiKey }));
      expect(one).toMatchObject({ id: ids[1], name: 'second', expired: false });
      const gql = gqlData(await server.graphql(`query($id: String!) { apiKey(apiKeySimplyId: $id) { id name } }`, { id: ids[1] }, { token: pagingTeam.apiKey }));
      expect(gql.apiKey).toEqual({ id: ids[1], name: 'second' });

      for (const bad of ['1', '42', 'key-1234', 'KEY-AAAA-BBBB-CCCC', 'key-AAAA-BBBB-CCC0', 'role-AAAA-BBBB-CCCC']) {
        for (const [method, suffix] of [
          ['GET', ''],
          ['DELETE', ''],
          ['POST', '/rotate'],
        ] as const) {
          const error = expectError(await server.request(method, `/v1/api-keys/${bad}${suffix}`, { token: pagingTeam.apiKey }), 400, 'VALIDATION_ERROR');
          expect(error.details?.[0]?.field).toBe('apiKeySimplyId');
        }
        expectError(await server.request('PATCH', `/v1/api-keys/${bad}`, { token: pagingTeam.apiKey, body: { name: 'x' } }), 400, 'VALIDATION_ERROR');
      }
      expectGqlError(await server.graphql(`{ apiKey(apiKeySimplyId: "1") { id } }`, {}, { token: pagingTeam.apiKey }), 'VALIDATION_ERROR', 400);

      // another team's real key: 404, like a key that does not exist
      const foreign = team.apiKeySimplyId;
      expectError(await server.request('GET', `/v1/api-keys/${foreign}`, { token: pagingTeam.apiKey }), 404, 'NOT_FOUND');
      expectError(await server.request('PATCH', `/v1/api-keys/${foreign}`, { token: pagingTeam.apiKey, body: { name: 'hijacked' } }), 404, 'NOT_FOUND');
      expectError(await server.request('POST', `/v1/api-keys/${foreign}/rotate`, { token: pagingTeam.apiKey }), 404, 'NOT_FOUND');
      expectError(await server.request('DELETE', `/v1/api-keys/${foreign}`, { token: pagingTeam.apiKey }), 404, 'NOT_FOUND');
      expectGqlError(
        await server.graphql(`query($id: String!) { apiKey(apiKeySimplyId: $id) { id } }`, { id: foreign }, { token: pagingTeam.apiKey }),
        'NOT_FOUND',
        404,
      );
      expectGqlError(
        await server.graphql(`mutation($id: String!) { revokeApiKey(apiKeySimplyId: $id) }`, { id: foreign }, { token: pagingTeam.apiKey }),
        'NOT_FOUND',
        404,
      );
      // and nothing happened to it
      expect(expectOk(await server.request('GET', `/v1/api-keys/${foreign}`, { token: team.apiKey })).name).toBe('Bootstrap key');
      expectOk(await server.request('GET', '/v1/team-roles', { token: team.apiKey }));
    });

    it('needs TEAM_ADMIN_API_KEYS at view level to read', async () => {
      const viewOnly = await createApiKey(server, pagingTeam, { name: 'viewer', featurePermissions: ['TEAM_ADMIN_API_KEYS:VIEW'] });
      const none = await createApiKey(server, pagingTeam, { name: 'none', featurePermissions: ['TEAM_SETTINGS'] });
      expectOk(await server.request('GET', '/v1/api-keys', { token: viewOnly.key }));
      expectOk(await server.request('GET', `/v1/api-keys/${ids[0]}`, { token: viewOnly.key }));
      expectError(await server.request('GET', '/v1/api-keys', { token: none.key }), 403, 'PERMISSION_DENIED');
      // view level cannot write
      expectError(await server.request('POST', '/v1/api-keys', { token: viewOnly.key, body: { name: 'x' } }), 403, 'PERMISSION_DENIED');
      expectError(await server.request('PATCH', `/v1/api-keys/${none.id}`, { token: viewOnly.key, body: { name: 'x' } }), 403, 'PERMISSION_DENIED');
      expectError(await server.request('DELETE', `/v1/api-keys/${none.id}`, { token: viewOnly.key }), 403, 'PERMISSION_DENIED');
      expectError(await server.request('POST', `/v1/api-keys/${none.id}/rotate`, { token: viewOnly.key }), 403, 'PERMISSION_DENIED');
      expectError(await server.request('GET', '/v1/api-keys'), 401, 'UNAUTHENTICATED');
    });
  });

  describe('PATCH', () => {
    it('changes name, feature permissions, role, allowlist and expiry, effective at once for the key', async () => {
      const key = await newKey({ name: 'before', teamRoleSimplyId: readRole, featurePermissions: ['TEAM_ADMIN_USER_ROLES:VIEW'] });
      expectOk(await server.request('GET', '/v1/team-roles', { token: key.key })); // now cached

      const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
      const patched = expectOk(
        await server.request('PATCH', `/v1/api-keys/${key.id}`, {
          token: team.apiKey,
          body: { name: 'after', featurePermissions: ['TEAM_SETTINGS:VIEW'], expiresAt },
        }),
      );
      expect(patched).toMatchObject({ id: key.id, name: 'after', featurePermissions: ['TEAM_SETTINGS:VIEW'], teamRoleSimplyId: readRole, expiresAt, expired: false });
      expect(patched).not.toHaveProperty('fullApiKey');
      // the old permission is gone immediately (no cache wait)
      expectError(await server.request('GET', '/v1/team-roles', { token: key.key }), 403, 'PERMISSION_DENIED');
      expect(await viewer(key.key)).toMatchObject({ featurePermissions: [{ name: 'TEAM_SETTINGS', level: 'VIEW' }], expiresAt });

      // explicit nulls clear: the role (no data access any more) and the expiry
      const cleared = expectOk(
        await server.request('PATCH', `/v1/api-keys/${key.id}`, { token: team.apiKey, body: { teamRoleSimplyId: null, expiresAt: null } }),
      );
      expect(cleared).toMatchObject({ teamRoleSimplyId: null, expiresAt: null, featurePermissions: ['TEAM_SETTINGS:VIEW'], name: 'after' });
      expect(await viewer(key.key)).toMatchObject({ hasDataAccess: false, teamRoleSimplyId: null, expiresAt: null });

      // GraphQL twin
      const gql = gqlData(
        await server.graphql(
          operation`mutation($id: String!, $input: UpdateApiKeyInput!) { updateApiKey(apiKeySimplyId: $id, input: $input) { ${API_KEY} } }`,
          { id: key.id, input: { name: 'via graphql', teamRoleSimplyId: readRole, allowedIpAddresses: ['127.0.0.0/8'] } },
          { token: team.apiKey },
        ),
      );
      expect(gql.updateApiKey).toMatchObject({ id: key.id, name: 'via graphql', teamRoleSimplyId: readRole, allowedIpAddresses: ['127.0.0.0/8'] });
      expect((await viewer(key.key)).hasDataAccess).toBe(true);
    });

    it('rejects bad bodies with 400 and leaves the key unchanged', async () => {
      const key = await newKey({ name: 'stable' });
      const patch = (body: unknown) => server.request('PATCH', `/v1/api-keys/${key.id}`, { token: team.apiKey, body });
      expectError(await patch({ unknownField: 1 }), 400, 'VALIDATION_ERROR');
      expectError(await patch({ name: '' }), 400, 'VALIDATION_ERROR');
      expectError(await patch({ expiresAt: new Date(Date.now() - 5000).toISOString() }), 400, 'VALIDATION_ERROR');
      expectError(await patch({ featurePermissions: ['BOGUS'] }), 400, 'VALIDATION_ERROR');
      expectError(await patch({ allowedIpAddresses: ['999.1.1.1'] }), 400, 'VALIDATION_ERROR');
      expectError(await patch({ teamRoleSimplyId: 'role-ZZZZ-ZZZZ-ZZZZ' }), 404, 'NOT_FOUND');
      expectError(await server.request('PATCH', `/v1/api-keys/${key.id}`, { token: team.apiKey }), 400, 'VALIDATION_ERROR');
      expectError(await server.request('PATCH', `/v1/api-keys/key-ZZZZ-ZZZZ-ZZZZ`, { token: team.apiKey, body: { name: 'x' } }), 404, 'NOT_FOUND');
      expect(expectOk(await server.request('GET', `/v1/api-keys/${key.id}`, { token: team.apiKey }))).toMatchObject({ name: 'stable', featurePermissions: [] });
    });
  });

  describe('rotate', () => {
    it('REST: new secret for the same id; the old one is 401 at once and its session tokens are revoked', async () => {
      const key = await newKey({ name: 'to rotate', teamRoleSimplyId: readRole, featurePermissions: ['TEAM_ADMIN_USERS'] });
      const session = await mintSessionToken(server, key.key);
      // both are warm in the credential cache
      expectOk(await server.request('GET', '/v1/users', { token: key.key }));
      expectOk(await server.request('GET', '/v1/users', { token: session.token }));

      const rotated = expectOk(await server.request('POST', `/v1/api-keys/${key.id}/rotate`, { token: team.apiKey }));
      expect(rotated.fullApiKey).toMatch(FULL_KEY);
      expect(rotated.fullApiKey).not.toBe(key.key);
      expect(rotated).toMatchObject({ id: key.id, name: 'to rotate', teamRoleSimplyId: readRole, featurePermissions: ['TEAM_ADMIN_USERS'] });
      expect(rotated.keyHint).toBe(`svc_live_${rotated.fullApiKey.slice(9, 13)}…`);
      expect(new Date(rotated.lastRotatedAt).getTime()).toBeGreaterThan(Date.now() - 60_000);

      expectError(await server.request('GET', '/v1/users', { token: key.key }), 401, 'UNAUTHENTICATED');
      expectError(await server.request('GET', '/v1/users', { token: session.token }), 401, 'UNAUTHENTICATED');
      expectOk(await server.request('GET', '/v1/users', { token: rotated.fullApiKey }));
      expect((await viewer(rotated.fullApiKey)).credentialId).toBe(key.id);

      const row = await server.app.services.prisma.apiKey.findFirstOrThrow({ where: { simplyId: key.id } });
      expect(row.keyHash).toBe(sha256(rotated.fullApiKey));
      const inspected = expectOk(await server.request('GET', `/v1/session-tokens/${session.id}`, { token: rotated.fullApiKey }));
      expect(inspected).toMatchObject({ id: session.id, revoked: true });
      // GET never shows the new secret either
      expect(expectOk(await server.request('GET', `/v1/api-keys/${key.id}`, { token: team.apiKey }))).not.toHaveProperty('fullApiKey');
    });

    it('GraphQL rotateApiKey: same rules; a key may rotate itself', async () => {
      const key = await newKey({ name: 'self rotating', featurePermissions: ['TEAM_ADMIN_API_KEYS'] });
      const res = gqlData(
        await server.graphql(`mutation($id: String!) { rotateApiKey(apiKeySimplyId: $id) { fullApiKey apiKey { id name } } }`, { id: key.id }, { token: key.key }),
      );
      expect(res.rotateApiKey.apiKey).toEqual({ id: key.id, name: 'self rotating' });
      expect(res.rotateApiKey.fullApiKey).toMatch(FULL_KEY);
      expect((await server.graphql(VIEWER, {}, { token: key.key })).status).toBe(401);
      expect((await viewer(res.rotateApiKey.fullApiKey)).credentialId).toBe(key.id);
      // rotating a revoked key is 404
      expectOk(await server.request('DELETE', `/v1/api-keys/${key.id}`, { token: team.apiKey }));
      expectError(await server.request('POST', `/v1/api-keys/${key.id}/rotate`, { token: team.apiKey }), 404, 'NOT_FOUND');
    });
  });

  describe('revoke (DELETE)', () => {
    it('REST: a warm key is 401 right after DELETE; it disappears from get and list', async () => {
      const key = await newKey({ name: 'doomed', teamRoleSimplyId: readRole });
      const session = await mintSessionToken(server, key.key);
      expect((await viewer(key.key)).credentialId).toBe(key.id);
      expect((await viewer(session.token)).credentialKind).toBe('SESSION_TOKEN');

      const res = await server.request('DELETE', `/v1/api-keys/${key.id}`, { token: team.apiKey });
      expect(expectOk(res)).toEqual({ id: key.id, revoked: true });

      expectError(await server.request('GET', '/v1/team-roles', { token: key.key }), 401, 'UNAUTHENTICATED');
      expect((await server.graphql(VIEWER, {}, { token: key.key })).status).toBe(401);
      expectError(await server.request('GET', '/v1/team-roles', { token: session.token }), 401, 'UNAUTHENTICATED');
      expectError(await server.request('GET', `/v1/api-keys/${key.id}`, { token: team.apiKey }), 404, 'NOT_FOUND');
      const list = expectOk(await server.request('GET', '/v1/api-keys?limit=100', { token: team.apiKey }));
      expect(list.map((k: { id: string }) => k.id)).not.toContain(key.id);
      expectError(await server.request('DELETE', `/v1/api-keys/${key.id}`, { token: team.apiKey }), 404, 'NOT_FOUND');
      expectError(await server.request('PATCH', `/v1/api-keys/${key.id}`, { token: team.apiKey, body: { name: 'zombie' } }), 404, 'NOT_FOUND');

      const row = await server.app.services.prisma.apiKey.findFirstOrThrow({ where: { simplyId: key.id } });
      expect(row.revokedAt).toBeInstanceOf(Date);
      const sessionRow = await server.app.services.prisma.sessionToken.findUniqueOrThrow({ where: { simplyId: session.id } });
      expect(sessionRow.revokedAt).toBeInstanceOf(Date);
    });

    it('GraphQL revokeApiKey returns true and the key stops working', async () => {
      const key = await newKey({ name: 'gql doomed' });
      expect((await viewer(key.key)).credentialId).toBe(key.id);
      expect(gqlData(await server.graphql(`mutation($id: String!) { revokeApiKey(apiKeySimplyId: $id) }`, { id: key.id }, { token: team.apiKey }))).toEqual({
        revokeApiKey: true,
      });
      const after = await server.graphql(VIEWER, {}, { token: key.key });
      expect(after.status).toBe(401);
      expect(after.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    });
  });

  describe('expiry', () => {
    it('a key works until its expiresAt, then is 401 (and so are its session tokens); it shows expired', async () => {
      const expiresAt = new Date(Date.now() + 2_500);
      const key = await newKey({ name: 'short lived', teamRoleSimplyId: readRole, expiresAt: expiresAt.toISOString() });
      const session = await mintSessionToken(server, key.key, { expiresInMinutes: 60 });
      // a session token never outlives its key
      expect(session.expiresAt).toBe(expiresAt.toISOString());
      expect(await viewer(key.key)).toMatchObject({ expiresAt: expiresAt.toISOString() });
      expect(expectOk(await server.request('GET', `/v1/api-keys/${key.id}`, { token: team.apiKey })).expired).toBe(false);

      await sleep(expiresAt.getTime() - Date.now() + 100);

      const error = expectError(await server.request('GET', '/v1/team-roles', { token: key.key }), 401, 'UNAUTHENTICATED');
      expect(error.message).toMatch(/expired/);
      expectError(await server.request('GET', '/v1/team-roles', { token: session.token }), 401, 'UNAUTHENTICATED');
      expect((await server.graphql(VIEWER, {}, { token: key.key })).status).toBe(401);
      const shown = expectOk(await server.request('GET', `/v1/api-keys/${key.id}`, { token: team.apiKey }));
      expect(shown).toMatchObject({ expired: true, expiresAt: expiresAt.toISOString() });
      const inspected = expectOk(await server.request('GET', `/v1/session-tokens/${session.id}`, { token: team.apiKey }));
      expect(inspected.expired).toBe(true);
    });
  });

  describe('IP allowlist', () => {
    it('a key limited to other addresses is 403 PERMISSION_DENIED from 127.0.0.1; matching address or CIDR works', async () => {
      const elsewhere = await newKey({ name: 'elsewhere', allowedIpAddresses: ['10.1.2.3'], featurePermissions: ['TEAM_ADMIN_USER_ROLES:VIEW'] });
      const exact = await newKey({ name: 'exact', allowedIpAddresses: ['10.1.2.3', '127.0.0.1'], featurePermissions: ['TEAM_ADMIN_USER_ROLES:VIEW'] });
      const range = await newKey({ name: 'range', allowedIpAddresses: ['127.0.0.0/8'], featurePermissions: ['TEAM_ADMIN_USER_ROLES:VIEW'] });
      const v6 = await newKey({ name: 'v6 only', allowedIpAddresses: ['::1', '2001:db8::/32'], featurePermissions: ['TEAM_ADMIN_USER_ROLES:VIEW'] });

      expectError(await server.request('GET', '/v1/team-roles', { token: elsewhere.key }), 403, 'PERMISSION_DENIED');
      const gql = await server.graphql(VIEWER, {}, { token: elsewhere.key });
      expect(gql.status).toBe(403);
      expect(gql.errors?.[0]?.extensions?.code).toBe('PERMISSION_DENIED');
      // the key cannot mint a session token from here either
      expectError(await server.request('POST', '/v1/session-tokens', { token: elsewhere.key, body: {} }), 403, 'PERMISSION_DENIED');
      expectError(await server.request('GET', '/v1/team-roles', { token: v6.key }), 403, 'PERMISSION_DENIED');

      expectOk(await server.request('GET', '/v1/team-roles', { token: exact.key }));
      expectOk(await server.request('GET', '/v1/team-roles', { token: range.key }));

      // widening the allowlist takes effect at once
      expectOk(await server.request('PATCH', `/v1/api-keys/${elsewhere.id}`, { token: team.apiKey, body: { allowedIpAddresses: ['127.0.0.1'] } }));
      expectOk(await server.request('GET', '/v1/team-roles', { token: elsewhere.key }));
      // and an empty list means no restriction
      expectOk(await server.request('PATCH', `/v1/api-keys/${v6.id}`, { token: team.apiKey, body: { allowedIpAddresses: [] } }));
      expectOk(await server.request('GET', '/v1/team-roles', { token: v6.key }));
    });
  });
});
