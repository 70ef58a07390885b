// Session tokens over REST (/v1/session-tokens) and GraphQL (createSessionToken, sessionToken,
// revokeSessionToken): Document 1 §2.2, §3, §4.1, §5 rule 2, §7, §8.
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { FEATURE_PERMISSIONS } from '../../src/app/auth/feature-permissions.ts';
import { operation } from '../../src/app/graphql/fragments.ts';
import { ISSUED_SESSION_TOKEN, SESSION_TOKEN } from '../../src/modules/credentials/credentials.fragments.ts';
import { VIEWER, mintSessionToken, sha256, viewerOf } from '../support/credentials-fixtures.ts';
import { expectError, expectGqlError, expectOk, gqlData } from '../support/expect-envelope.ts';
import { createApiKey, createRole } from '../support/fixtures.ts';
import { useServer } from '../support/use-server.ts';

const TOKEN = /^svc_sess_[A-Za-z0-9_-]{43}$/;
const SESSION_ID = /^sess_[A-Za-z0-9]{24}$/;

const sorted = (values: string[]) => [...values].sort();
const minutesFromNow = (iso: string) => (new Date(iso).getTime() - Date.now()) / 60_000;

describe('session tokens', () => {
  const { server, teams: [team, other] } = useServer({ teams: 2 });
  /** role READ on every collection: no records:write for its keys */
  let readRole: string;
  /** key: TEAM_SETTINGS:VIEW, TEAM_ADMIN_USERS (edit), role readRole */
  let readKey: { key: string; id: string };

  const mint = (token: string, body?: unknown) => server.request('POST', '/v1/session-tokens', { token, body });
  const mintOk = (token: string, body?: Record<string, unknown>) => mintSessionToken(server, token, body);
  const viewer = (token: string) => viewerOf(server, token);

  beforeAll(async () => {
    readRole = await createRole(server, team, { name: 'Reader', dataPermissions: [{ dataCollectionSimplyId: '*', level: 'READ' }] });
    readKey = await createApiKey(server, team, { name: 'reader', teamRoleSimplyId: readRole, featurePermissions: ['TEAM_SETTINGS:VIEW', 'TEAM_ADMIN_USERS'] });
  });

  describe('create', () => {
    it('defaults: 60 minutes, scopes schema:read + records:read, every feature of the creator; token shown once, stored hashed', async () => {
      const res = await mint(team.apiKey, {});
      const data = expectOk(res, 201);
      expect(Object.keys(data).sort()).toEqual(['createdAt', 'expiresAt', 'featurePermissions', 'id', 'metadata', 'oauthScopes', 'token']);
      expect(data.token).toMatch(TOKEN);
      expect(data.id).toMatch(SESSION_ID);
      expect(minutesFromNow(data.expiresAt)).toBeGreaterThan(59);
      expect(minutesFromNow(data.expiresAt)).toBeLessThanOrEqual(60);
      expect(data.oauthScopes).toEqual(['schema:read', 'records:read']);
      // the bootstrap key holds every feature at edit level, and DATA_FULL_ACCESS through its role
      expect(sorted(data.featurePermissions)).toEqual(sorted([...FEATURE_PERMISSIONS, 'DATA_FULL_ACCESS']));
      expect(data.metadata).toBeNull();

      const row = await server.app.services.prisma.sessionToken.findUniqueOrThrow({ where: { simplyId: data.id } });
      expect(row.tokenHash).not.toBe(data.token);
      expect(row.tokenHash).toBe(sha256(data.token));
      expect(row.teamId).toBe(team.teamId);

      expect(await viewer(data.token)).toMatchObject({
        credentialKind: 'SESSION_TOKEN',
        credentialId: data.id,
        teamSimplyId: team.teamSimplyId,
        isTeamAdmin: false,
        isSystemAdmin: false,
        teamRoleSimplyId: team.teamRoleSimplyId,
        dataFullAccess: 'EDIT',
        hasDataAccess: true,
        oauthScopes: ['schema:read', 'records:read'],
        expiresAt: data.expiresAt,
      });

      // no body at all is the same as {}
      const bare = await mint(team.apiKey);
      expect(expectOk(bare, 201).oauthScopes).toEqual(['schema:read', 'records:read']);
    });

    it('createSessionToken (GraphQL) is the same operation', async () => {
      const res = gqlData(
        await server.graphql(
          operation`mutation($input: CreateSessionTokenInput) { createSessionToken(input: $input) { ${ISSUED_SESSION_TOKEN} } }`,
          { input: { expiresInMinutes: 5, oauthScopes: ['schema:read'], featurePermissions: ['TEAM_SETTINGS:VIEW'], metadata: { agent: 'gql' } } },
          { token: team.apiKey },
        ),
      );
      expect(res.createSessionToken).toMatchObject({ oauthScopes: ['schema:read'], featurePermissions: ['TEAM_SETTINGS:VIEW'], metadata: { agent: 'gql' } });
      expect(res.createSessionToken.token).toMatch(TOKEN);
      expect(minutesFromNow(res.createSessionToken.expiresAt)).toBeGreaterThan(4);
      expect(minutesFromNow(res.createSessionToken.expiresAt)).toBeLessThanOrEqual(5);
      // without input at all: defaults
      const bare = gqlData(await server.graphql(`mutation { createSessionToken { oauthScopes } }`, {}, { token: team.apiKey }));
      expect(bare.createSessionToken.oauthScopes).toEqual(['schema:read', 'records:read']);
    });

    it('expiresInMinutes must be an integer from 1 to 1440', async () => {
      for (const value of [0, 1441, -5, 1.5, 'abc', '60', true]) {
        const error = expectError(await mint(team.apiKey, { expiresInMinutes: value }), 400, 'VALIDATION_ERROR');
        if (typeof value === 'number' && Number.isInteger(value)) expect(error.details?.[0]?.field).toBe('expiresInMinutes');
      }
      const one = await mintOk(team.apiKey, { expiresInMinutes: 1 });
      expect(minutesFromNow(one.expiresAt)).toBeGreaterThan(0.9);
      expect(minutesFromNow(one.expiresAt)).toBeLessThanOrEqual(1);
      const max = await mintOk(team.apiKey, { expiresInMinutes: 1440 });
      expect(minutesFromNow(max.expiresAt)).toBeGreaterThan(1439);
      expect(minutesFromNow(max.expiresAt)).toBeLessThanOrEqual(1440);

      expectGqlError(
        await server.graphql(`mutation { createSessionToken(input: { expiresInMinutes: 1441 }) { id } }`, {}, { token: team.apiKey }),
        'VALIDATION_ERROR',
        400,
      );
      expectGqlError(
        await server.graphql(`mutation { createSessionToken(input: { expiresInMinutes: 0 }) { id } }`, {}, { token: team.apiKey }),
        'VALIDATION_ERROR',
        400,
      );
      // a non-integer is refused by GraphQL itself before any resolver runs
      const coerced = await server.graphql(`mutation($i: CreateSessionTokenInput) { createSessionToken(input: $i) { id } }`, { i: { expiresInMinutes: 'abc' } }, { token: team.apiKey });
      expect(coerced.status).toBe(400);
      expect(coerced.data).toBeNull();
    });

    it('unknown oauthScopes are 400 INVALID_OAUTH_SCOPES, even mixed with valid ones', async () => {
      const error = expectError(await mint(team.apiKey, { oauthScopes: ['records:read', 'records:delete', 'everything'] }), 400, 'INVALID_OAUTH_SCOPES');
      expect(error.details).toEqual([
        { field: 'oauthScopes', message: 'unknown scope records:delete' },
        { field: 'oauthScopes', message: 'unknown scope everything' },
      ]);
      expectError(await mint(team.apiKey, { oauthScopes: ['RECORDS:READ'] }), 400, 'INVALID_OAUTH_SCOPES');
      expectGqlError(
        await server.graphql(`mutation { createSessionToken(input: { oauthScopes: ["nope"] }) { id } }`, {}, { token: team.apiKey }),
        'INVALID_OAUTH_SCOPES',
        400,
      );
      expect(await server.app.services.prisma.sessionToken.count({ where: { teamId: team.teamId, oauthScopes: { has: 'nope' } } })).toBe(0);
    });

    it('requested scopes the creator lacks are silently dropped', async () => {
      // the reader key has data READ only, no websites/files/conversations features, TEAM_ADMIN_USERS (admin:read)
      const requested = ['schema:read', 'records:read', 'records:write', 'wizards:run', 'websites:read', 'files:write', 'conversations:read', 'admin:read', 'identity:read'];
      const token = await mintOk(readKey.key, { oauthScopes: requested });
      expect(token.oauthScopes).toEqual(['schema:read', 'records:read', 'admin:read']);
      expect((await viewer(token.token)).oauthScopes).toEqual(['schema:read', 'records:read', 'admin:read']);

      // the full-access bootstrap key does hold records:write (but never identity:read)
      const full = await mintOk(team.apiKey, { oauthScopes: ['records:read', 'records:write', 'identity:read', 'records:write'] });
      expect(full.oauthScopes).toEqual(['records:read', 'records:write']);

      // an empty list is an explicit "no scopes"
      expect((await mintOk(team.apiKey, { oauthScopes: [] })).oauthScopes).toEqual([]);

      // a key without a role has no record scopes at all
      const noRole = await createApiKey(server, team, { name: 'no role', featurePermissions: [] });
      expect((await mintOk(noRole.key)).oauthScopes).toEqual(['schema:read']);
    });

    it('featurePermissions only narrow: omitted inherits all; NAME over a VIEW grant becomes NAME:VIEW; unknown-to-creator names dropped', async () => {
      const inherited = await mintOk(readKey.key);
      expect(sorted(inherited.featurePermissions)).toEqual(['TEAM_ADMIN_USERS', 'TEAM_SETTINGS:VIEW']);

      const narrowed = await mintOk(readKey.key, { featurePermissions: ['TEAM_SETTINGS', 'TEAM_ADMIN_USERS:VIEW', 'TEAM_ADMIN_API_KEYS', 'DATA_EXPORT:VIEW'] });
      expect(sorted(narrowed.featurePermissions)).toEqual(['TEAM_ADMIN_USERS:VIEW', 'TEAM_SETTINGS:VIEW']);
      expect((await viewer(narrowed.token)).featurePermissions).toEqual([
        { name: 'TEAM_ADMIN_USERS', level: 'VIEW' },
        { name: 'TEAM_SETTINGS', level: 'VIEW' },
      ]);
      // repeated names keep the higher level the creator allows
      const repeated = await mintOk(readKey.key, { featurePermissions: ['TEAM_ADMIN_USERS:VIEW', 'TEAM_ADMIN_USERS'] });
      expect(repeated.featurePermissions).toEqual(['TEAM_ADMIN_USERS']);
      // an empty list means none
      expect((await mintOk(readKey.key, { featurePermissions: [] })).featurePermissions).toEqual([]);
      // names outside the catalogue are a 400, not a silent drop
      expectError(await mint(readKey.key, { featurePermissions: ['MAKE_ME_ADMIN'] }), 400, 'VALIDATION_ERROR');
      expectError(await mint(readKey.key, { featurePermissions: ['TEAM_SETTINGS:OWNER'] }), 400, 'VALIDATION_ERROR');
    });

    it('DATA_FULL_ACCESS is retained only if the creator has it and it is in the token\'s featurePermissions; never team admin', async () => {
      const inherits = await mintOk(team.apiKey);
      expect(await viewer(inherits.token)).toMatchObject({ dataFullAccess: 'EDIT', hasDataAccess: true, isTeamAdmin: false, isSystemAdmin: false });

      const explicit = await mintOk(team.apiKey, { featurePermissions: ['DATA_FULL_ACCESS', 'TEAM_SETTINGS'] });
      expect(sorted(explicit.featurePermissions)).toEqual(['DATA_FULL_ACCESS', 'TEAM_SETTINGS']);
      expect((await viewer(explicit.token)).dataFullAccess).toBe('EDIT');

      // listed features without DATA_FULL_ACCESS: the role's collection grants remain, full access does not
      const without = await mintOk(team.apiKey, { featurePermissions: ['TEAM_SETTINGS'] });
      expect(await viewer(without.token)).toMatchObject({ dataFullAccess: null, hasDataAccess: true, teamRoleSimplyId: team.teamRoleSimplyId, isTeamAdmin: false });

      // asking only for view level keeps only read-level full access
      const viewOnly = await mintOk(team.apiKey, { featurePermissions: ['DATA_FULL_ACCESS:VIEW'] });
      expect(viewOnly.featurePermissions).toEqual(['DATA_FULL_ACCESS:VIEW']);
      expect((await viewer(viewOnly.token)).dataFullAccess).toBe('READ');

      // a creator without full access cannot get it by asking
      const reader = await mintOk(readKey.key, { featurePermissions: ['DATA_FULL_ACCESS', 'TEAM_ADMIN_USERS'] });
      expect(reader.featurePermissions).toEqual(['TEAM_ADMIN_USERS']);
      expect(await viewer(reader.token)).toMatchObject({
        dataFullAccess: null,
        hasDataAccess: true,
        dataPermissions: [{ dataCollectionSimplyId: '*', levels: ['READ'] }],
      });
    });

    it('metadata: free-form object up to 4 KB of JSON; larger or non-object is 400', async () => {
      const metadata = { partner: 'acme', nested: { list: [1, 2, 3], flag: true } };
      const ok = await mintOk(team.apiKey, { metadata });
      expect(ok.metadata).toEqual(metadata);

      const big = { blob: 'x'.repeat(4200) };
      const error = expectError(await mint(team.apiKey, { metadata: big }), 400, 'VALIDATION_ERROR');
      expect(error.details?.[0]?.field).toBe('metadata');
      // just under the limit is fine
      const edge = { b: 'y'.repeat(4096 - JSON.stringify({ b: '' }).length) };
      expect(JSON.stringify(edge).length).toBe(4096);
      expect((await mintOk(team.apiKey, { metadata: edge })).metadata).toEqual(edge);
      // the limit is in bytes: 1,400 three-byte characters are 4.2 KB
      const multibyte = { euro: '€'.repeat(1400) };
      expect(Buffer.byteLength(JSON.stringify(multibyte))).toBeGreaterThan(4096);
      expectError(await mint(team.apiKey, { metadata: multibyte }), 400, 'VALIDATION_ERROR');

      for (const value of [[1, 2], 'text', 42]) expectError(await mint(team.apiKey, { metadata: value }), 400, 'VALIDATION_ERROR');
      expectError(await mint(team.apiKey, { unknown: true }), 400, 'VALIDATION_ERROR');
      expectError(await server.request('POST', '/v1/session-tokens', { token: team.apiKey, body: [] }), 400, 'VALIDATION_ERROR');
      expectGqlError(
        await server.graphql(`mutation($m: JSON) { createSessionToken(input: { metadata: $m }) { id } }`, { m: big }, { token: team.apiKey }),
        'VALIDATION_ERROR',
        400,
      );
    });

    it('only API keys mint: a user JWT and a session token are 403, no credential 401, a user without team 400', async () => {
      expectError(await mint(team.userToken + '', {}), 400, 'VALIDATION_ERROR');
      expectError(await server.request('POST', '/v1/session-tokens', { token: team.userToken, teamId: team.teamSimplyId, body: {} }), 403, 'PERMISSION_DENIED');
      const session = await mintOk(team.apiKey);
      expectError(await mint(session.token, {}), 403, 'PERMISSION_DENIED');
      expectError(await mint('', {}), 401, 'UNAUTHENTICATED');
      expectGqlError(await server.graphql(`mutation { createSessionToken { id } }`, {}, { token: session.token }), 'PERMISSION_DENIED', 403);
      expectGqlError(
        await server.graphql(`mutation { createSessionToken { id } }`, {}, { token: team.userToken, teamId: team.teamSimplyId }),
        'PERMISSION_DENIED',
        403,
      );
      expectGqlError(await server.graphql(`mutation { createSessionToken { id } }`, {}), 'UNAUTHENTICATED', 401);
    });
  });

  describe('use', () => {
    it('is scope-limited: privileged routes are refused even with the feature; standard routes work', async () => {
      const token = await mintOk(team.apiKey);
      expect(token.featurePermissions).toContain('TEAM_ADMIN_USER_ROLES');
      expectError(await server.request('GET', '/v1/team-roles', { token: token.token }), 403, 'PERMISSION_DENIED');
      expectError(await server.request('GET', '/v1/api-keys', { token: token.token }), 403, 'PERMISSION_DENIED');
      expectOk(await server.request('GET', '/v1/users', { token: token.token }));
      const narrowed = await mintOk(team.apiKey, { featurePermissions: ['TEAM_SETTINGS'] });
      expectError(await server.request('GET', '/v1/users', { token: narrowed.token }), 403, 'PERMISSION_DENIED');
    });

    it('never holds more than its key holds now: narrowing the key narrows its tokens at once', async () => {
      const key = await createApiKey(server, team, { name: 'narrowed later', teamRoleSimplyId: readRole, featurePermissions: ['TEAM_ADMIN_USERS', 'TEAM_SETTINGS'] });
      const token = await mintOk(key.key);
      expectOk(await server.request('GET', '/v1/users', { token: token.token }));
      expectOk(await server.request('PATCH', `/v1/api-keys/${key.id}`, { token: team.apiKey, body: { featurePermissions: ['TEAM_ADMIN_USERS:VIEW'] } }));
      expect((await viewer(token.token)).featurePermissions).toEqual([{ name: 'TEAM_ADMIN_USERS', level: 'VIEW' }]);
      expectOk(await server.request('PATCH', `/v1/api-keys/${key.id}`, { token: team.apiKey, body: { featurePermissions: [] } }));
      expectError(await server.request('GET', '/v1/users', { token: token.token }), 403, 'PERMISSION_DENIED');
      expect((await viewer(token.token)).featurePermissions).toEqual([]);
      // the token inherits the key's team role as it is now, too
      expectOk(await server.request('PATCH', `/v1/api-keys/${key.id}`, { token: team.apiKey, body: { teamRoleSimplyId: null } }));
      expect(await viewer(token.token)).toMatchObject({ hasDataAccess: false, teamRoleSimplyId: null });
    });
  });

  describe('inspect and revoke', () => {
    it('GET shows the documented fields and the expired flag, never the token value (REST and GraphQL)', async () => {
      const created = await mintOk(team.apiKey, { expiresInMinutes: 30, oauthScopes: ['schema:read'], featurePermissions: ['TEAM_SETTINGS:VIEW'], metadata: { a: 1 } });
      const res = await server.request('GET', `/v1/session-tokens/${created.id}`, { token: team.apiKey });
      const data = expectOk(res);
      expect(data).toEqual({
        id: created.id,
        expiresAt: created.expiresAt,
        expired: false,
        revoked: false,
        featurePermissions: ['TEAM_SETTINGS:VIEW'],
        oauthScopes: ['schema:read'],
        metadata: { a: 1 },
        createdAt: created.createdAt,
      });
      expect(res.text.includes(created.token.slice(9))).toBe(false);

      const gql = gqlData(await server.graphql(operation`query($id: String!) { sessionToken(sessionTokenId: $id) { ${SESSION_TOKEN} } }`, { id: created.id }, { token: team.apiKey }));
      expect(gql.sessionToken).toEqual(data);
      const noToken = await server.graphql(`query($id: String!) { sessionToken(sessionTokenId: $id) { token } }`, { id: created.id }, { token: team.apiKey });
      expect(noToken.data).toBeNull();
      expect(noToken.errors?.[0]?.message).toMatch(/Cannot query field "token" on type "SessionToken"/);

      // the token may inspect itself
      expect(expectOk(await server.request('GET', `/v1/session-tokens/${created.id}`, { token: created.token })).id).toBe(created.id);
    });

    it('inspecting needs the minting key, the token itself, or TEAM_ADMIN_API_KEYS (view to read, edit to revoke)', async () => {
      const created = await mintOk(readKey.key);
      const sibling = await mintOk(readKey.key);
      const unrelated = await createApiKey(server, team, { name: 'unrelated', featurePermissions: ['TEAM_SETTINGS'] });
      const keyViewer = await createApiKey(server, team, { name: 'key viewer', featurePermissions: ['TEAM_ADMIN_API_KEYS:VIEW'] });

      expectOk(await server.request('GET', `/v1/session-tokens/${created.id}`, { token: readKey.key }));
      expectOk(await server.request('GET', `/v1/session-tokens/${created.id}`, { token: keyViewer.key }));
      expectOk(await server.request('GET', `/v1/session-tokens/${created.id}`, { token: team.userToken, teamId: team.teamSimplyId }));
      expectError(await server.request('GET', `/v1/session-tokens/${created.id}`, { token: unrelated.key }), 403, 'PERMISSION_DENIED');
      expectError(await server.request('GET', `/v1/session-tokens/${created.id}`, { token: sibling.token }), 403, 'PERMISSION_DENIED');
      expectError(await server.request('DELETE', `/v1/session-tokens/${created.id}`, { token: keyViewer.key }), 403, 'PERMISSION_DENIED');
      expectError(await server.request('DELETE', `/v1/session-tokens/${created.id}`, { token: sibling.token }), 403, 'PERMISSION_DENIED');
      expectError(await server.request('GET', `/v1/session-tokens/${created.id}`), 401, 'UNAUTHENTICATED');
      expectError(await server.request('GET', `/v1/session-tokens/${created.id}`, { token: team.userToken }), 400, 'VALIDATION_ERROR');
      // still valid after all those refusals
      expectOk(await server.request('GET', '/v1/users', { token: created.token }));
    });

    it('ids: the token value or a malformed id is 400; an unknown id or another team\'s token is 404, and that team cannot revoke it', async () => {
      const created = await mintOk(team.apiKey);
      for (const bad of [created.token, 'sess_short', '1', `sess_${'a'.repeat(23)}!`]) {
        const error = expectError(await server.request('GET', `/v1/session-tokens/${encodeURIComponent(bad)}`, { token: team.apiKey }), 400, 'VALIDATION_ERROR');
        expect(error.details?.[0]?.field).toBe('sessionTokenId');
      }
      expectError(await server.request('DELETE', `/v1/session-tokens/${created.token}`, { token: team.apiKey }), 400, 'VALIDATION_ERROR');
      const unknownId = `sess_${randomBytes(12).toString('hex')}`;
      const missing = expectError(await server.request('GET', `/v1/session-tokens/${unknownId}`, { token: team.apiKey }), 404, 'NOT_FOUND');

      const foreign = expectError(await server.request('GET', `/v1/session-tokens/${created.id}`, { token: other.apiKey }), 404, 'NOT_FOUND');
      expect(foreign.message.replace(created.id, '<id>')).toBe(missing.message.replace(unknownId, '<id>'));
      expectError(await server.request('DELETE', `/v1/session-tokens/${created.id}`, { token: other.apiKey }), 404, 'NOT_FOUND');
      expectError(
        await server.request('GET', `/v1/session-tokens/${created.id}`, { token: other.userToken, teamId: other.teamSimplyId }),
        404,
        'NOT_FOUND',
      );
      expectGqlError(
        await server.graphql(`query($id: String!) { sessionToken(sessionTokenId: $id) { id } }`, { id: created.id }, { token: other.apiKey }),
        'NOT_FOUND',
        404,
      );
      expectGqlError(
        await server.graphql(`mutation($id: String!) { revokeSessionToken(sessionTokenId: $id) }`, { id: created.id }, { token: other.apiKey }),
        'NOT_FOUND',
        404,
      );
      // untouched
      expect(expectOk(await server.request('GET', `/v1/session-tokens/${created.id}`, { token: team.apiKey })).revoked).toBe(false);
      expect((await viewer(created.token)).credentialId).toBe(created.id);
    });

    it('DELETE revokes at once (no cache clearing): 401 UNAUTHENTICATED afterwards; inspection shows revoked', async () => {
      const created = await mintOk(team.apiKey);
      expect((await viewer(created.token)).credentialId).toBe(created.id); // warm in the cache
      expectOk(await server.request('GET', '/v1/users', { token: created.token }));

      const res = await server.request('DELETE', `/v1/session-tokens/${created.id}`, { token: team.apiKey });
      expect(expectOk(res)).toEqual({ id: created.id, revoked: true });

      const error = expectError(await server.request('GET', '/v1/users', { token: created.token }), 401, 'UNAUTHENTICATED');
      expect(error.message).toMatch(/revoked/);
      const gql = await server.graphql(VIEWER, {}, { token: created.token });
      expect(gql.status).toBe(401);
      expect(gql.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
      expect(expectOk(await server.request('GET', `/v1/session-tokens/${created.id}`, { token: team.apiKey }))).toMatchObject({ revoked: true, expired: false });
      // revoking again is harmless
      expect(expectOk(await server.request('DELETE', `/v1/session-tokens/${created.id}`, { token: team.apiKey }))).toEqual({ id: created.id, revoked: true });
    });

    it('revokeSessionToken (GraphQL); a token may revoke itself', async () => {
      const a = await mintOk(team.apiKey);
      expect((await viewer(a.token)).credentialId).toBe(a.id);
      expect(gqlData(await server.graphql(`mutation($id: String!) { revokeSessionToken(sessionTokenId: $id) }`, { id: a.id }, { token: team.apiKey }))).toEqual({
        revokeSessionToken: true,
      });
      expect((await server.graphql(VIEWER, {}, { token: a.token })).status).toBe(401);

      const b = await mintOk(team.apiKey);
      expectOk(await server.request('DELETE', `/v1/session-tokens/${b.id}`, { token: b.token }));
      expectError(await server.request('GET', '/v1/users', { token: b.token }), 401, 'UNAUTHENTICATED');
    });

    it('expiry: past expiresAt is 401 UNAUTHENTICATED and inspection shows expired true', async () => {
      const created = await mintOk(team.apiKey, { expiresInMinutes: 1 });
      expectOk(await server.request('GET', '/v1/users', { token: created.token }));
      const past = new Date(Date.now() - 1000);
      await server.app.services.prisma.sessionToken.update({ where: { simplyId: created.id }, data: { expiresAt: past } });
      // the cached principal carries the old expiry; drop it as an expiry written elsewhere would be picked up after the TTL
      server.app.services.authenticator.cache.clear();

      const error = expectError(await server.request('GET', '/v1/users', { token: created.token }), 401, 'UNAUTHENTICATED');
      expect(error.message).toMatch(/expired/);
      expect((await server.graphql(VIEWER, {}, { token: created.token })).status).toBe(401);
      const inspected = expectOk(await server.request('GET', `/v1/session-tokens/${created.id}`, { token: team.apiKey }));
      expect(inspected).toMatchObject({ expired: true, revoked: false, expiresAt: past.toISOString() });
      const gql = gqlData(await server.graphql(`query($id: String!) { sessionToken(sessionTokenId: $id) { expired } }`, { id: created.id }, { token: team.apiKey }));
      expect(gql.sessionToken.expired).toBe(true);
    });

    it('a token minted by a key with an earlier expiry expires with the key', async () => {
      const keyExpiry = new Date(Date.now() + 10 * 60_000);
      const key = await createApiKey(server, team, { name: 'expiring', expiresAt: keyExpiry.toISOString() });
      const token = await mintOk(key.key, { expiresInMinutes: 1440 });
      expect(token.expiresAt).toBe(keyExpiry.toISOString());
      const short = await mintOk(key.key, { expiresInMinutes: 5 });
      expect(minutesFromNow(short.expiresAt)).toBeLessThanOrEqual(5);
    });
  });
});
