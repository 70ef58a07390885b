// A database outage seen by one server (its PostgreSQL cut away behind a proxy, as during a restart
// or a network cut): every request that needs the database is answered 503 SERVICE_UNAVAILABLE
// with Retry-After, over REST and GraphQL, whether the credential was cached or not; /readyz is
// 503 and /healthz stays 200. Once the database is back the same server answers again within
// seconds, without a restart, and nothing attempted during the outage was written.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { query } from '../db/helpers.ts';
import { createCollection, type CollectionFixture } from '../support/data-fixtures.ts';
import { expectError, expectOk } from '../support/expect-envelope.ts';
import { createTeam, type TeamFixture } from '../support/fixtures.ts';
import { startPostgresProxy, type PostgresProxy } from '../support/postgres-proxy.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { untilWith } from '../support/until.ts';

const until = untilWith({ timeoutMs: 10_000, everyMs: 100 });
const databaseUrl = inject('databaseUrl');

function expectRetryAfter(headers: Headers): void {
  const seconds = Number(headers.get('retry-after'));
  expect(seconds).toBeGreaterThanOrEqual(1);
  expect(seconds).toBeLessThanOrEqual(30);
}

describe('a database outage', () => {
  let proxy: PostgresProxy;
  let server: TestServer;
  /** its API key was used before the cut: the credential is cached */
  let warm: TeamFixture;
  /** its API key is first used during the cut: checking it needs the database */
  let cold: TeamFixture;
  let people: CollectionFixture;

  beforeAll(async () => {
    proxy = await startPostgresProxy(databaseUrl);
    server = await startTestServer({ databaseUrl: proxy.url });
    [warm, cold] = await Promise.all([createTeam(server), createTeam(server)]);
    people = await createCollection(server, warm, { name: 'People', formula: '{name}', fields: { name: 'PLAIN_TEXT' } });
  });
  afterAll(async () => {
    await proxy?.restore();
    await server?.close();
    await proxy?.close();
  });

  it('answers 503 SERVICE_UNAVAILABLE with Retry-After while it lasts and serves again once it is over', { timeout: 60_000 }, async () => {
    expectOk(await server.request('GET', '/v1/team-roles', { token: warm.apiKey }));
    expect(gql(await server.graphql('{ teamRoles { nodes { id } } }', {}, { token: warm.apiKey })).status).toBe(200);
    expect((await server.request('GET', '/readyz')).status).toBe(200);

    await proxy.cut();
    const roleName = `Written during the outage ${Date.now()}`;
    const marker = `outage-${Date.now()}`;

    // REST: reads and writes, with a cached and an uncached credential
    const attempts = {
      'cached read': await server.request('GET', '/v1/team-roles', { token: warm.apiKey }),
      'uncached read': await server.request('GET', '/v1/team-roles', { token: cold.apiKey }),
      'role write': await server.request('POST', '/v1/team-roles', { token: warm.apiKey, body: { name: roleName } }),
      'batch write': await server.request('POST', '/v1/data-records/batch', {
        token: warm.apiKey,
        body: { dataCollectionSimplyId: people.id, records: [1, 2, 3].map((n) => ({ fields: { [people.fields.name!]: `${marker} ${n}` } })) },
      }),
    };
    for (const [label, response] of Object.entries(attempts)) {
      const error = expectError(response, 503, 'SERVICE_UNAVAILABLE', label);
      expect(error.message).not.toMatch(/127\.0\.0\.1|ECONN|Connection terminated/);
      expectRetryAfter(response.headers);
    }

    // GraphQL over HTTP: the code in errors[].extensions, and the response itself 503 with Retry-After
    for (const [label, token] of [['cached', warm.apiKey], ['uncached', cold.apiKey]] as const) {
      const response = await server.request('POST', '/graphql', { token, body: { query: '{ teamRoles { nodes { id name } } }' } });
      expect(response.status, `${label}: ${response.text}`).toBe(503);
      expect(response.body.errors[0].extensions, label).toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 503 });
      expect(response.body.errors[0].extensions).not.toHaveProperty('http');
      expectRetryAfter(response.headers);
    }
    const mutation = await server.request('POST', '/graphql', {
      token: warm.apiKey,
      body: { query: 'mutation($name: String!) { createTeamRole(input: { name: $name }) { id } }', variables: { name: `${roleName} (GraphQL)` } },
    });
    expect(mutation.status, mutation.text).toBe(503);
    expect(mutation.body.errors[0].extensions.code).toBe('SERVICE_UNAVAILABLE');

    // readiness follows the database; liveness does not
    const notReady = await server.request('GET', '/readyz');
    expectError(notReady, 503, 'NOT_READY');
    expectRetryAfter(notReady.headers);
    expectOk(await server.request('GET', '/healthz'));

    await proxy.restore();
    const back = Date.now();
    await until('/readyz to answer 200 again', async () => (await server.request('GET', '/readyz')).status === 200);
    await until('reads to succeed again', async () => (await server.request('GET', '/v1/team-roles', { token: cold.apiKey })).status === 200);
    expect(Date.now() - back).toBeLessThan(10_000);
    expect(gql(await server.graphql('{ teamRoles { nodes { id } } }', {}, { token: warm.apiKey })).status).toBe(200);
    expectOk(await server.request('POST', '/v1/team-roles', { token: warm.apiKey, body: { name: `${roleName} (after)` } }), 201);

    // nothing attempted during the outage reached the database, not even in part
    const roles = await query<{ name: string }>(databaseUrl, `SELECT name FROM "TeamRole" WHERE "teamId" = $1 AND name LIKE $2`, [warm.teamId, `${roleName}%`]);
    expect(roles.map((r) => r.name)).toEqual([`${roleName} (after)`]);
    const records = await query(databaseUrl, `SELECT 1 FROM "DataRecord" WHERE "collectionId" = $1`, [people.internalId]);
    expect(records).toHaveLength(0);
  });

  it('a request waiting for a connection when the database goes away fails fast with 503 too', { timeout: 30_000 }, async () => {
    await until('the server to be ready', async () => (await server.request('GET', '/readyz')).status === 200);
    // the pool's connections are cut while requests are on their way
    const inFlight = Array.from({ length: 20 }, () => server.request('GET', '/v1/team-roles', { token: warm.apiKey }));
    await proxy.cut();
    const statuses = (await Promise.all(inFlight)).map((r) => r.status);
    expect(statuses.every((s) => s === 200 || s === 503), statuses.join()).toBe(true);
    await proxy.restore();
    await until('reads to succeed again', async () => (await server.request('GET', '/v1/team-roles', { token: warm.apiKey })).status === 200);
  });
});

function gql(res: { status: number; errors?: unknown }) {
  expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
  return res;
}
