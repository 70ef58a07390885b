// Document 1 §1 conventions, §7 errors and §8 limits as the REST face shows them: the envelope
// and request ids, body handling, routing errors, paging, public identifiers and timestamps.
import https from 'node:https';
import { describe, expect, it } from 'vitest';
import { expectOk, UUID } from '../support/expect-envelope.ts';
import { createApiKey, createRole, createTeam } from '../support/fixtures.ts';
import type { TestResponse, TestServer } from '../support/server.ts';
import { rawRequest } from '../support/raw-https.ts';
import { useServer } from '../support/use-server.ts';

const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;
const BODY_LIMIT = 2048;

/** Every error leaves as `{ error: { code, message, requestId, details? }, meta: { requestId } }`. */
function expectErrorEnvelope(response: TestResponse, status: number, code: string): void {
  expect(response.status, response.text).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  const requestId = response.headers.get('x-request-id');
  expect(requestId).toMatch(UUID);
  expect(Object.keys(response.body).sort()).toEqual(['error', 'meta']);
  expect(response.body.meta).toEqual({ requestId });
  const keys = Object.keys(response.body.error).sort();
  expect(keys).toEqual(response.body.error.details ? ['code', 'details', 'message', 'requestId'] : ['code', 'message', 'requestId']);
  expect(response.body.error).toMatchObject({ code, requestId });
  expect(typeof response.body.error.message).toBe('string');
  expect(response.body.error.message.length).toBeGreaterThan(0);
  if (response.body.error.details) expect(Array.isArray(response.body.error.details)).toBe(true);
}

function expectDataEnvelope(response: TestResponse, status = 200): void {
  expect(response.status, response.text).toBe(status);
  const requestId = response.headers.get('x-request-id');
  expect(requestId).toMatch(UUID);
  expect(response.body).toHaveProperty('data');
  expect(response.body.meta.requestId).toBe(requestId);
  expect(response.body).not.toHaveProperty('error');
}

/** Walks a JSON value, calling `visit` with every (key, value) pair of every object. */
function walk(value: unknown, visit: (key: string, value: unknown, path: string) => void, path = '$'): void {
  if (Array.isArray(value)) value.forEach((item, i) => walk(item, visit, `${path}[${i}]`));
  else if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      visit(key, child, `${path}.${key}`);
      walk(child, visit, `${path}.${key}`);
    }
  }
}

/** Sends a request whose body arrives in pieces without a Content-Length (chunked). */
/** A POST whose JSON body is sent chunked, in these parts (no Content-Length to check up front). */
const chunkedRequest = (server: TestServer, path: string, token: string, chunks: string[], agent?: https.Agent) =>
  rawRequest(server.baseUrl, server.ca, { method: 'POST', path, token, chunks, agent });

describe('API conventions', () => {
  const METRICS_TOKEN = 'metrics-token-of-the-conventions-suite';
  const { server, teams: [team] } = useServer({ env: { BODY_LIMIT_BYTES: BODY_LIMIT, METRICS_TOKEN }, teams: 1 });
  /** every JSON body seen by the tests of this file, scanned for internal ids and timestamps at the end */
  const seen: { label: string; body: unknown }[] = [];
  const record = (label: string, response: TestResponse) => {
    seen.push({ label, body: response.body });
    return response;
  };

  describe('request ids', () => {
    it('every envelope carries meta.requestId equal to the X-Request-Id header, unique per request', async () => {
      const responses = [
        await server.request('GET', '/healthz'),
        await server.request('GET', '/readyz'),
        await server.request('GET', '/v1/team-roles', { token: team.apiKey }),
        await server.request('GET', '/v1/users/me', { token: team.userToken, teamId: team.teamSimplyId }),
      ];
      for (const response of responses) expectDataEnvelope(response);
      const errors = [
        [await server.request('GET', '/v1/team-roles'), 401, 'UNAUTHENTICATED'],
        [await server.request('GET', '/v1/team-roles', { token: 'svc_not-a-real-key' }), 401, 'UNAUTHENTICATED'],
        [await server.request('GET', '/v1/users/me', { token: team.apiKey }), 400, 'VALIDATION_ERROR'],
        [await server.request('GET', '/nowhere'), 404, 'NOT_FOUND'],
      ] as const;
      for (const [response, status, code] of errors) expectErrorEnvelope(response, status, code);
      const ids = [...responses, ...errors.map((e) => e[0])].map((r) => r.headers.get('x-request-id'));
      expect(new Set(ids).size).toBe(ids.length);
    });

    it('non-envelope answers (GraphQL, metrics, JWKS) still carry X-Request-Id', async () => {
      for (const response of [
        await server.request('POST', '/graphql', { token: team.apiKey, body: { query: '{ viewer { credentialKind } }' } }),
        await server.request('GET', '/metrics', { token: METRICS_TOKEN }),
        await server.request('GET', '/.well-known/jwks.json'),
      ]) {
        expect(response.status).toBe(200);
        expect(response.headers.get('x-request-id')).toMatch(UUID);
      }
    });
  });

  describe('request bodies', () => {
    it('malformed JSON is 400 VALIDATION_ERROR', async () => {
      const response = await server.request('POST', '/v1/team-roles', {
        token: team.apiKey,
        rawBody: '{"name": "Broken",',
        headers: { 'content-type': 'application/json' },
      });
      expectErrorEnvelope(response, 400, 'VALIDATION_ERROR');
    });

    it('a JSON body sent as text/plain is 415 UNSUPPORTED_MEDIA_TYPE, and nothing is created', async () => {
      const name = `Plain ${Date.now()}`;
      const response = await server.request('POST', '/v1/team-roles', {
        token: team.apiKey,
        rawBody: JSON.stringify({ name }),
        headers: { 'content-type': 'text/plain' },
      });
      expectErrorEnvelope(response, 415, 'UNSUPPORTED_MEDIA_TYPE');
      const missingType = await server.request('POST', '/v1/team-roles', { token: team.apiKey, rawBody: JSON.stringify({ name }) });
      expectErrorEnvelope(missingType, 415, 'UNSUPPORTED_MEDIA_TYPE');
      expect(await server.app.services.prisma.teamRole.count({ where: { teamId: team.teamId, name } })).toBe(0);
    });

    it('a body over BODY_LIMIT_BYTES is 413 PAYLOAD_TOO_LARGE (declared length or streamed)', async () => {
      const big = { name: 'Too big', padding: 'x'.repeat(BODY_LIMIT) };
      const declared = await server.request('POST', '/v1/team-roles', { token: team.apiKey, body: big });
      expectErrorEnvelope(declared, 413, 'PAYLOAD_TOO_LARGE');

      const json = JSON.stringify(big);
      const streamed = await chunkedRequest(server, '/v1/team-roles', team.apiKey, [json.slice(0, 1000), json.slice(1000, 2000), json.slice(2000)]);
      expect(streamed.status).toBe(413);
      expect(streamed.body.error.code).toBe('PAYLOAD_TOO_LARGE');
      expect(streamed.body.meta.requestId).toBe(streamed.headers['x-request-id']);
      // the rest of that body is still on the connection: it is closed after the answer, so the
      // next request (same keep-alive agent) gets a fresh one and is answered
      const agent = new https.Agent({ keepAlive: true, maxSockets: 1, ca: server.ca });
      try {
        const cut = await chunkedRequest(server, '/v1/team-roles', team.apiKey, [json.slice(0, 1000), json.slice(1000, 2000), json.slice(2000)], agent);
        expect(cut.status).toBe(413);
        expect(cut.headers.connection).toBe('close');
        const next = await new Promise<number>((resolve, reject) =>
          https.get(new URL('/healthz', server.baseUrl), { agent }, (res) => (res.resume(), resolve(res.statusCode!))).on('error', reject),
        );
        expect(next).toBe(200);
      } finally {
        agent.destroy();
      }

      // just under the limit is fine
      const fits = await server.request('POST', '/v1/team-roles', { token: team.apiKey, body: { name: `Fits ${'y'.repeat(40)}` } });
      expectDataEnvelope(fits, 201);
    });

    it('/graphql holds bodies to the same limit: 413 PAYLOAD_TOO_LARGE, declared or streamed; a body that fits runs', async () => {
      const query = `{ __typename }`;
      const big = JSON.stringify({ query, variables: { padding: 'x'.repeat(BODY_LIMIT) } });
      const declared = await server.request('POST', '/graphql', { token: team.apiKey, rawBody: big, headers: { 'content-type': 'application/json' } });
      expect(declared.status, declared.text).toBe(413);
      expect(declared.body.errors[0].extensions.code).toBe('PAYLOAD_TOO_LARGE');

      const streamed = await chunkedRequest(server, '/graphql', team.apiKey, [big.slice(0, 1000), big.slice(1000, 2000), big.slice(2000)]);
      expect(streamed.status).toBe(413);
      expect(streamed.body.errors[0].extensions.code).toBe('PAYLOAD_TOO_LARGE');

      const fits = JSON.stringify({ query });
      const streamedFit = await chunkedRequest(server, '/graphql', team.apiKey, [fits.slice(0, 5), fits.slice(5)]);
      expect(streamedFit.status).toBe(200);
      expect(streamedFit.body).toEqual({ data: { __typename: 'Query' } });
    });

    it('a body on a route that takes none is 400 VALIDATION_ERROR, and the route does not run', async () => {
      const { id } = await createApiKey(server, team, { name: 'to keep' });
      const response = await server.request('DELETE', `/v1/api-keys/${id}`, { token: team.apiKey, body: { reason: 'cleanup' } });
      expectErrorEnvelope(response, 400, 'VALIDATION_ERROR');
      expectOk(record('api key still there', await server.request('GET', `/v1/api-keys/${id}`, { token: team.apiKey })));
    });

    it('a route that needs a body answers 400 without one', async () => {
      const response = await server.request('POST', '/v1/team-roles', { token: team.apiKey });
      expectErrorEnvelope(response, 400, 'VALIDATION_ERROR');
    });

    it('an error message does not echo a long bad value back whole', async () => {
      const key = 'k'.repeat(1500);
      const response = await server.request('POST', '/v1/data-records/search', { token: team.apiKey, body: { dataCollectionSimplyId: 'AAAA-AAAA-AAAA', limit: { [key]: 1 } } });
      expectErrorEnvelope(response, 400, 'VALIDATION_ERROR');
      expect(response.body.error.message.length).toBeLessThan(600);
      expect(response.body.error.message).toMatch(/more characters\)$/);
    });
  });

  describe('routing', () => {
    it('an unknown /v1 route is 404 in the error envelope', async () => {
      for (const path of ['/v1/no-such-thing', '/v1', '/v1/team-roles/role-AAAA-AAAA-AAAA/extra']) {
        const response = await server.request('GET', path, { token: team.apiKey });
        expectErrorEnvelope(response, 404, 'NOT_FOUND');
      }
    });

    it('a known path with the wrong method is 405 with an Allow header', async () => {
      const collection = await server.request('DELETE', '/v1/team-roles', { token: team.apiKey });
      expectErrorEnvelope(collection, 405, 'METHOD_NOT_ALLOWED');
      expect(collection.headers.get('allow')?.split(/,\s*/).sort()).toEqual(['GET', 'POST']);

      const item = await server.request('POST', '/v1/team-roles/role-AAAA-AAAA-AAAA', { token: team.apiKey, body: {} });
      expectErrorEnvelope(item, 405, 'METHOD_NOT_ALLOWED');
      expect(item.headers.get('allow')?.split(/,\s*/).sort()).toEqual(['DELETE', 'GET', 'PUT']);
    });
  });

  describe('paging', () => {
    it.each([
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['limit=abc', 'limit'],
      ['limit=2.5', 'limit'],
      ['offset=-1', 'offset'],
      ['offset=xyz', 'offset'],
    ])('%s is 400 VALIDATION_ERROR naming the parameter', async (query, field) => {
      for (const path of ['/v1/team-roles', '/v1/api-keys']) {
        const response = await server.request('GET', `${path}?${query}`, { token: team.apiKey });
        expectErrorEnvelope(response, 400, 'VALIDATION_ERROR');
        expect(response.body.error.details).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
      }
      const users = await server.request('GET', `/v1/users?${query}`, { token: team.userToken, teamId: team.teamSimplyId });
      expectErrorEnvelope(users, 400, 'VALIDATION_ERROR');
    });

    it('limit 1 and 100 are accepted; the default limit is 25', async () => {
      for (const [query, limit] of [['limit=1', 1], ['limit=100', 100], ['', 25]] as const) {
        const response = await server.request('GET', `/v1/team-roles?${query}`, { token: team.apiKey });
        expectDataEnvelope(response);
        expect(response.body.meta.pagination).toMatchObject({ limit, offset: 0 });
      }
    });

    it('meta.pagination { total, limit, offset, hasMore } is right on every page', async () => {
      const own = await createTeam(server);
      const created = [];
      for (let i = 0; i < 6; i++) created.push(await createRole(server, own, { name: `Paging role ${i}` }));
      const all = record('all roles', await server.request('GET', '/v1/team-roles?limit=100', { token: own.apiKey }));
      expectDataEnvelope(all);
      const total = all.body.data.length;
      expect(total).toBe(created.length + 1); // plus the full-access role of the bootstrap
      expect(all.body.meta.pagination).toEqual({ total, limit: 100, offset: 0, hasMore: false });

      const seenIds: string[] = [];
      for (let offset = 0; offset < total + 3; offset += 3) {
        const page = record(`page ${offset}`, await server.request('GET', `/v1/team-roles?limit=3&offset=${offset}`, { token: own.apiKey }));
        expectDataEnvelope(page);
        expect(page.body.meta.pagination).toEqual({ total, limit: 3, offset, hasMore: offset + 3 < total });
        expect(page.body.data.length).toBe(Math.max(0, Math.min(3, total - offset)));
        seenIds.push(...page.body.data.map((r: { id: string }) => r.id));
      }
      // pages do not overlap and together list every role, newest first like the full list
      expect(seenIds).toEqual(all.body.data.map((r: { id: string }) => r.id));
      expect(seenIds).toEqual(expect.arrayContaining(created));

      const beyond = await server.request('GET', `/v1/team-roles?offset=${total + 10}`, { token: own.apiKey });
      expectDataEnvelope(beyond);
      expect(beyond.body.data).toEqual([]);
      expect(beyond.body.meta.pagination).toEqual({ total, limit: 25, offset: total + 10, hasMore: false });
    });
  });

  describe('identifiers and timestamps', () => {
    it.each([
      ['/v1/team-roles/1', 'teamRoleSimplyId'],
      ['/v1/api-keys/1', 'apiKeySimplyId'],
      ['/v1/users/1', 'userSimplyId'],
      ['/v1/session-tokens/1', 'sessionTokenId'],
    ])('internal numeric id %s is rejected with 400', async (path, field) => {
      const response = await server.request('GET', path, { token: team.userToken, teamId: team.teamSimplyId });
      expectErrorEnvelope(response, 400, 'VALIDATION_ERROR');
      expect(response.body.error.details).toEqual([expect.objectContaining({ field })]);
    });

    it('a team selected by internal id is not accepted', async () => {
      const response = await server.request('GET', '/v1/users/me', { token: team.userToken, teamId: String(team.teamId) });
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
      expect(response.body.error.code).toMatch(/VALIDATION_ERROR|PERMISSION_DENIED/);
    });

    it('no response carries an internal numeric id, and every timestamp is ISO 8601', async () => {
      const roleId = await createRole(server, team, { name: `Scan role ${Date.now()}`, dataPermissions: [{ dataCollectionSimplyId: '*', level: 'READ' }] });
      const key = await server.request('POST', '/v1/api-keys', {
        token: team.apiKey,
        body: { name: 'scan key', teamRoleSimplyId: roleId, expiresAt: new Date(Date.now() + 86_400_000).toISOString() },
      });
      record('create key', key);
      expectDataEnvelope(key, 201);
      const session = record('create session', await server.request('POST', '/v1/session-tokens', { token: team.apiKey, body: { metadata: { purpose: 'scan' } } }));
      expectDataEnvelope(session, 201);
      const reads = [
        ['GET', `/v1/team-roles/${roleId}`],
        ['GET', '/v1/team-roles'],
        ['GET', `/v1/api-keys/${key.body.data.id}`],
        ['GET', '/v1/api-keys'],
        ['GET', `/v1/session-tokens/${session.body.data.id}`],
        ['POST', `/v1/api-keys/${key.body.data.id}/rotate`],
      ];
      for (const [method, path] of reads) expectOk(record(path!, await server.request(method!, path!, { token: team.apiKey })));
      const asUser = { token: team.userToken, teamId: team.teamSimplyId };
      expectOk(record('me', await server.request('GET', '/v1/users/me?expand=teams,rolePermissions,permissionSnapshot', asUser)));
      expectOk(record('users', await server.request('GET', '/v1/users', asUser)));
      expectOk(record('user', await server.request('GET', `/v1/users/${team.userSimplyId}`, asUser)));
      const login = record('login', await server.request('POST', '/v1/auth/login', { body: { email: team.email, password: team.password } }));
      expectOk(login);
      const gql = await server.graphql(
        '{ viewer { credentialKind credentialId teamSimplyId expiresAt } apiKeys { nodes { id apiKeySimplyId teamRoleSimplyId createdAt } } }',
        {},
        { token: team.apiKey },
      );
      expect(gql.errors).toBeUndefined();
      seen.push({ label: 'graphql', body: gql.data });

      const problems: string[] = [];
      let timestamps = 0;
      for (const { label, body } of seen) {
        walk(body, (key, value, path) => {
          if (typeof value === 'number' && /(^id$|Id$|^ids$|Ids$)/.test(key)) problems.push(`${label} ${path}: numeric id ${value}`);
          if (typeof value === 'string' && /(^id$|Id$)/.test(key) && /^\d+$/.test(value)) problems.push(`${label} ${path}: bigint-looking id "${value}"`);
          if (typeof value === 'bigint') problems.push(`${label} ${path}: bigint`);
          if (/(At|^lastLoggedIn|^lastOpened)$/.test(key) && value !== null) {
            timestamps++;
            if (typeof value !== 'string' || !ISO_8601.test(value) || Number.isNaN(Date.parse(value))) {
              problems.push(`${label} ${path}: not ISO 8601: ${JSON.stringify(value)}`);
            }
          }
        });
        // belt and braces: the raw text never has `"...id": 123`
        const text = JSON.stringify(body);
        const raw = /"(\w*[iI]d)"\s*:\s*-?\d/.exec(text);
        if (raw) problems.push(`${label}: raw numeric ${raw[0]}`);
      }
      expect(problems).toEqual([]);
      expect(timestamps).toBeGreaterThan(15);
      // the internal ids of this team exist and are small integers, so the scan would have seen them
      expect(typeof team.teamId).toBe('bigint');
    });
  });

  describe('LocalizedText', () => {
    // Document 1 §1.6: a plain string or { <language_tag>: <string> } (src/app/localized-text.ts),
    // here through a collection's name, on both faces
    const CREATE = 'mutation($input: CreateDataCollectionInput!) { createDataCollection(input: $input) { name } }';

    it('accepts a string or { "en": "...", "pt-BR": "..." } and rejects bad language keys', async () => {
      for (const name of ['Members', { en: 'Members', 'pt-BR': 'Membros' }]) {
        expect(expectOk(await server.request('POST', '/v1/data-collections', { token: team.apiKey, body: { name } }), 201).name).toEqual(name);
        expect((await server.graphql(CREATE, { input: { name } }, { token: team.apiKey })).data?.createDataCollection).toEqual({ name });
      }
      for (const name of [{ 'not a tag': 'x' }, {}, '', { en: '' }]) {
        expectErrorEnvelope(await server.request('POST', '/v1/data-collections', { token: team.apiKey, body: { name } }), 400, 'VALIDATION_ERROR');
        const viaGraphql = await server.graphql(CREATE, { input: { name } }, { token: team.apiKey });
        expect(viaGraphql.errors?.[0]?.extensions?.code, JSON.stringify(name)).toBe('VALIDATION_ERROR');
      }
    });
  });
});
