// Authentication and authorization at the edges: missing or malformed credentials, unknown
// tokens, team selection, and cross-team identifiers that must look exactly like missing ones.
import http from 'node:http';
import { Agent, fetch as undiciFetch } from 'undici';
import { beforeAll, describe, expect, it } from 'vitest';
import { newApiKey, newSessionToken } from '../../src/app/auth/tokens.ts';
import { expectError, expectGqlError, expectOk } from '../support/expect-envelope.ts';
import { addMember, createApiKey, createRole, createTeam } from '../support/fixtures.ts';
import type { TestResponse } from '../support/server.ts';
import { useServer } from '../support/use-server.ts';


describe('authorization edges', () => {
  const { server, teams: [a, b] } = useServer({ teams: 2 });
  /** resources of team B */
  let bRole: string;
  let bKey: { key: string; id: string };
  let bSession: { token: string; id: string };
  let bMember: { userSimplyId: string };

  beforeAll(async () => {
    bRole = await createRole(server, b, { name: 'B role' });
    bKey = await createApiKey(server, b, { name: 'B key', featurePermissions: ['TEAM_SETTINGS'] });
    const minted = await server.request('POST', '/v1/session-tokens', { token: b.apiKey, body: {} });
    bSession = { token: minted.body.data.token, id: minted.body.data.id };
    bMember = await addMember(server, b);
  });

  // Every protected route, with a body where it needs one (a missing body is a 400 of its own).
  const protectedRoutes = (): [string, string, unknown?][] => [
    ['GET', '/v1/api-keys'],
    ['POST', '/v1/api-keys', { name: 'x' }],
    ['GET', `/v1/api-keys/${a.apiKeySimplyId}`],
    ['PATCH', `/v1/api-keys/${a.apiKeySimplyId}`, { name: 'x' }],
    ['DELETE', `/v1/api-keys/${a.apiKeySimplyId}`],
    ['POST', `/v1/api-keys/${a.apiKeySimplyId}/rotate`],
    ['POST', '/v1/session-tokens', {}],
    ['GET', `/v1/session-tokens/${bSession.id}`],
    ['DELETE', `/v1/session-tokens/${bSession.id}`],
    ['GET', '/v1/team-roles'],
    ['POST', '/v1/team-roles', { name: 'x' }],
    ['GET', `/v1/team-roles/${a.teamRoleSimplyId}`],
    ['PUT', `/v1/team-roles/${a.teamRoleSimplyId}`, { name: 'x' }],
    ['DELETE', `/v1/team-roles/${a.teamRoleSimplyId}`],
    ['GET', '/v1/users/me'],
    ['PATCH', '/v1/users/me', { firstName: 'x' }],
    ['GET', '/v1/users'],
    ['GET', `/v1/users/${a.userSimplyId}`],
    ['POST', '/v1/users', { email: 'nobody@example.test' }],
  ];

  describe('credentials', () => {
    it('no Authorization header: 401 UNAUTHENTICATED on every protected route, and nothing changes', async () => {
      for (const [method, path, body] of protectedRoutes()) {
        expectError(await server.request(method, path, { body }), 401, 'UNAUTHENTICATED', `${method} ${path}`);
      }
      // even with a team selected
      expectError(await server.request('GET', '/v1/team-roles', { teamId: a.teamSimplyId }), 401, 'UNAUTHENTICATED');
      // the targets are intact
      expect(expectOk(await server.request('GET', `/v1/api-keys/${a.apiKeySimplyId}`, { token: a.apiKey })).name).toBe('Bootstrap key');
      expectOk(await server.request('GET', `/v1/team-roles/${a.teamRoleSimplyId}`, { token: a.apiKey }));
      expectOk(await server.request('GET', '/v1/users', { token: bSession.token }));
      // public routes need none
      expectOk(await server.request('GET', '/healthz'));
    });

    it('GraphQL without a credential: every protected field is UNAUTHENTICATED (401 in extensions)', async () => {
      const fields = [
        '{ viewer { credentialKind } }',
        '{ me { id } }',
        '{ apiKeys { nodes { id } } }',
        '{ teamRoles { nodes { id } } }',
        '{ users { nodes { id } } }',
        `{ sessionToken(sessionTokenId: "${bSession.id}") { id } }`,
        'mutation { createSessionToken { id } }',
        'mutation { createApiKey(input: { name: "x" }) { fullApiKey } }',
        'mutation { createTeamRole(input: { name: "x" }) { id } }',
        'mutation { createUser(input: { email: "nobody@example.test" }) { id } }',
        'mutation { updateMe(input: { firstName: "x" }) { id } }',
      ];
      for (const query of fields) {
        const res = await server.graphql(query);
        expectGqlError(res, 'UNAUTHENTICATED', 401);
        expect(res.data, query).toBeNull();
      }
    });

    it('malformed Authorization headers are 401 (REST and GraphQL)', async () => {
      const headers = ['Basic dXNlcjpwYXNz', 'Bearer', 'Bearer    ', `Bearer ${a.apiKey} extra`, `Token ${a.apiKey}`, a.apiKey, 'Bearer: abc'];
      for (const authorization of headers) {
        const res = await server.request('GET', '/v1/team-roles', { headers: { authorization } });
        expectError(res, 401, 'UNAUTHENTICATED', authorization);
        const gql = await server.request('POST', '/graphql', { headers: { authorization }, body: { query: '{ viewer { credentialKind } }' } });
        expect(gql.status, authorization).toBe(401);
        expect(gql.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
      }
      // the scheme is case-insensitive
      expectOk(await server.request('GET', '/v1/team-roles', { headers: { authorization: `bearer ${a.apiKey}` } }));
    });

    it('unknown or unrecognised tokens are 401: svc_live_, svc_sess_, garbage, JWT-shaped garbage', async () => {
      const tokens = [
        newApiKey(),
        newSessionToken(),
        'svc_live_',
        `${a.apiKey.slice(0, -1)}${a.apiKey.endsWith('A') ? 'B' : 'A'}`,
        'svc_refresh_abc',
        'abc',
        'a.b.c',
        `${a.apiKeySimplyId}`,
        `${bSession.id}`,
      ];
      for (const token of tokens) {
        const res = await server.request('GET', '/v1/team-roles', { token, teamId: a.teamSimplyId });
        expectError(res, 401, 'UNAUTHENTICATED', token);
        expect((await server.graphql('{ viewer { credentialKind } }', {}, { token })).status, token).toBe(401);
      }
    });
  });

  describe('team selection', () => {
    it('an API key always acts in its own team: X-Team-Id / teamSimplyId naming another team is ignored', async () => {
      const roles = expectOk(await server.request('GET', `/v1/team-roles?teamSimplyId=${b.teamSimplyId}`, { token: a.apiKey, teamId: b.teamSimplyId }));
      const ids = roles.map((r: { id: string }) => r.id);
      expect(ids).toContain(a.teamRoleSimplyId);
      expect(ids).not.toContain(bRole);
      const viewer = await server.graphql('{ viewer { teamSimplyId } }', {}, { token: a.apiKey, teamId: b.teamSimplyId });
      expect(viewer.data).toEqual({ viewer: { teamSimplyId: a.teamSimplyId } });
      // writes land in the key's team too
      const created = expectOk(await server.request('POST', '/v1/team-roles', { token: a.apiKey, teamId: b.teamSimplyId, body: { name: 'Landed in A' } }), 201);
      expectOk(await server.request('GET', `/v1/team-roles/${created.id}`, { token: a.apiKey }));
      expectError(await server.request('GET', `/v1/team-roles/${created.id}`, { token: b.apiKey }), 404, 'NOT_FOUND');
    });

    it('a user naming a team they do not belong to is 403 PERMISSION_DENIED everywhere', async () => {
      for (const teamId of [b.teamSimplyId, 'tm-ZZZZ-ZZZZ-ZZZZ']) {
        expectError(await server.request('GET', '/v1/team-roles', { token: a.userToken, teamId }), 403, 'PERMISSION_DENIED', teamId);
        expectError(await server.request('GET', `/v1/users/${bMember.userSimplyId}`, { token: a.userToken, teamId }), 403, 'PERMISSION_DENIED', teamId);
        expectGqlError(await server.graphql('{ apiKeys { nodes { id } } }', {}, { token: a.userToken, teamId }), 'PERMISSION_DENIED', 403);
      }
      // a system administrator may select any existing team
      const sysadmin = await createTeam(server, { isSystemAdmin: true });
      const roles = expectOk(await server.request('GET', '/v1/team-roles', { token: sysadmin.userToken, teamId: b.teamSimplyId }));
      expect(roles.map((r: { id: string }) => r.id)).toContain(bRole);
      expectError(await server.request('GET', '/v1/team-roles', { token: sysadmin.userToken, teamId: 'tm-ZZZZ-ZZZZ-ZZZZ' }), 403, 'PERMISSION_DENIED');
    });

    it('a malformed team id (numeric or not a simplyId) is 400 VALIDATION_ERROR, also on /v1/users/me', async () => {
      for (const teamId of ['1', 'not a team']) {
        expectError(await server.request('GET', '/v1/team-roles', { token: a.userToken, teamId }), 400, 'VALIDATION_ERROR', teamId);
        expectError(await server.request('GET', '/v1/users/me', { token: a.userToken, teamId }), 400, 'VALIDATION_ERROR', teamId);
        expectGqlError(await server.graphql('{ apiKeys { nodes { id } } }', {}, { token: a.userToken, teamId }), 'VALIDATION_ERROR', 400);
      }
    });

    it('the most fundamental problem wins: no team (400) beats a missing permission (403)', async () => {
      const plain = await addMember(server, a);
      expectError(await server.request('GET', '/v1/api-keys', { token: plain.token }), 400, 'VALIDATION_ERROR');
      expectError(await server.request('GET', '/v1/api-keys', { token: plain.token, teamId: a.teamSimplyId }), 403, 'PERMISSION_DENIED');
      expectGqlError(await server.graphql('{ teamRoles { nodes { id } } }', {}, { token: plain.token }), 'VALIDATION_ERROR', 400);
      expectGqlError(await server.graphql('{ teamRoles { nodes { id } } }', {}, { token: plain.token, teamId: a.teamSimplyId }), 'PERMISSION_DENIED', 403);
    });
  });

  describe('cross-team identifiers', () => {
    /** Same status, code and message (up to the id itself), and no details: nothing tells them apart. */
    function expectIndistinguishable(foreign: TestResponse, foreignId: string, missing: TestResponse, missingId: string) {
      const f = expectError(foreign, 404, 'NOT_FOUND');
      const m = expectError(missing, 404, 'NOT_FOUND');
      expect(f.message.replace(foreignId, '<id>')).toBe(m.message.replace(missingId, '<id>'));
      expect(f.details).toBeUndefined();
      expect(m.details).toBeUndefined();
      expect(Object.keys(foreign.body.error).sort()).toEqual(Object.keys(missing.body.error).sort());
    }

    it('another team\'s API key, role, session token and user are 404 exactly like missing ones', async () => {
      const as = { token: a.apiKey };
      const missingKey = 'key-ZZZZ-ZZZZ-ZZZZ';
      for (const [method, suffix, body] of [
        ['GET', '', undefined],
        ['PATCH', '', { name: 'stolen' }],
        ['DELETE', '', undefined],
        ['POST', '/rotate', undefined],
      ] as const) {
        expectIndistinguishable(
          await server.request(method, `/v1/api-keys/${bKey.id}${suffix}`, { ...as, body }),
          bKey.id,
          await server.request(method, `/v1/api-keys/${missingKey}${suffix}`, { ...as, body }),
          missingKey,
        );
      }
      const missingRole = 'role-ZZZZ-ZZZZ-ZZZZ';
      for (const [method, body] of [
        ['GET', undefined],
        ['PUT', { name: 'stolen', dataFullAccess: 'EDIT' }],
        ['DELETE', undefined],
      ] as const) {
        expectIndistinguishable(
          await server.request(method, `/v1/team-roles/${bRole}`, { ...as, body }),
          bRole,
          await server.request(method, `/v1/team-roles/${missingRole}`, { ...as, body }),
          missingRole,
        );
      }
      const missingSession = 'sess_ZZZZZZZZZZZZZZZZZZZZZZZZ';
      for (const method of ['GET', 'DELETE']) {
        expectIndistinguishable(
          await server.request(method, `/v1/session-tokens/${bSession.id}`, as),
          bSession.id,
          await server.request(method, `/v1/session-tokens/${missingSession}`, as),
          missingSession,
        );
      }
      const missingUser = 'usr-ZZZZ-ZZZZ-ZZZZ';
      expectIndistinguishable(
        await server.request('GET', `/v1/users/${bMember.userSimplyId}`, as),
        bMember.userSimplyId,
        await server.request('GET', `/v1/users/${missingUser}`, as),
        missingUser,
      );
      // a cross-team role reference inside a body is a 404 too
      expectIndistinguishable(
        await server.request('POST', '/v1/api-keys', { ...as, body: { name: 'x', teamRoleSimplyId: bRole } }),
        bRole,
        await server.request('POST', '/v1/api-keys', { ...as, body: { name: 'x', teamRoleSimplyId: missingRole } }),
        missingRole,
      );

      // GraphQL: the same
      const gqlForeign = await server.graphql('query($id: String!) { teamRole(teamRoleSimplyId: $id) { id } }', { id: bRole }, as);
      const gqlMissing = await server.graphql('query($id: String!) { teamRole(teamRoleSimplyId: $id) { id } }', { id: missingRole }, as);
      expectGqlError(gqlForeign, 'NOT_FOUND', 404);
      expectGqlError(gqlMissing, 'NOT_FOUND', 404);
      expect(gqlForeign.errors?.[0]?.message.replace(bRole, '<id>')).toBe(gqlMissing.errors?.[0]?.message.replace(missingRole, '<id>'));

      // and team B's resources are untouched
      expect(expectOk(await server.request('GET', `/v1/team-roles/${bRole}`, { token: b.apiKey }))).toMatchObject({ name: 'B role', dataFullAccess: null });
      expect(expectOk(await server.request('GET', `/v1/api-keys/${bKey.id}`, { token: b.apiKey }))).toMatchObject({ name: 'B key', lastRotatedAt: null });
      expect((await server.graphql('{ viewer { credentialId } }', {}, { token: bKey.key })).data).toEqual({ viewer: { credentialId: bKey.id } });
      expect(expectOk(await server.request('GET', `/v1/session-tokens/${bSession.id}`, { token: b.apiKey })).revoked).toBe(false);
      expectOk(await server.request('GET', '/v1/users', { token: bSession.token }));
    });

    it('numeric (internal-looking) ids are rejected as input: 400 VALIDATION_ERROR', async () => {
      for (const path of ['/v1/api-keys/1', '/v1/team-roles/1', '/v1/users/1', '/v1/session-tokens/1']) {
        expectError(await server.request('GET', path, { token: a.apiKey }), 400, 'VALIDATION_ERROR', path);
      }
    });
  });

  describe('transport and routing', () => {
    it('plain HTTP is refused with 400 HTTPS_REQUIRED before any credential is looked at', async () => {
      const url = new URL(server.baseUrl);
      const res = await new Promise<{ status: number; body: any }>((resolve, reject) => {
        const req = http.request({ host: url.hostname, port: url.port, path: '/v1/users/me', headers: { authorization: `Bearer ${a.apiKey}` } }, (response) => {
          let text = '';
          response.on('data', (chunk) => (text += chunk));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) }));
        });
        req.on('error', reject);
        req.end();
      });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('HTTPS_REQUIRED');
    });

    it('unknown routes are 404 and wrong methods 405 with Allow, in the error envelope', async () => {
      expectError(await server.request('GET', '/v1/nothing-here', { token: a.apiKey }), 404, 'NOT_FOUND');
      const res = await server.request('PUT', '/v1/api-keys', { token: a.apiKey, body: {} });
      expectError(res, 405, 'METHOD_NOT_ALLOWED');
      expect(res.headers.get('allow')?.split(', ').sort()).toEqual(['GET', 'POST']);
    });

    it('an IP-restricted key is judged by the real source address', async () => {
      const key = await createApiKey(server, a, { name: 'from .2 only', allowedIpAddresses: ['127.0.0.2'], featurePermissions: ['TEAM_ADMIN_USER_ROLES:VIEW'] });
      const agent = new Agent({ localAddress: '127.0.0.2', connect: { ca: server.ca } });
      try {
        const fromTwo = await undiciFetch(`${server.baseUrl}/v1/team-roles`, { headers: { authorization: `Bearer ${key.key}` }, dispatcher: agent });
        expect(fromTwo.status, await fromTwo.clone().text()).toBe(200);
        // a spoofed X-Forwarded-For is not believed without TRUST_PROXY
        expectError(
          await server.request('GET', '/v1/team-roles', { token: key.key, headers: { 'x-forwarded-for': '127.0.0.2' } }),
          403,
          'PERMISSION_DENIED',
        );
      } finally {
        await agent.close();
      }
    });
  });
});
