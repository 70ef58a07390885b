// Rate limits (Document 1 §7: 429 RATE_LIMIT_EXCEEDED): a token bucket per credential and, for
// anonymous callers, per client address; REST and GraphQL draw from the same bucket.
import { Agent, fetch } from 'undici';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../support/fixtures.ts';
import { useServer } from '../support/use-server.ts';

const PER_MINUTE = 5;
const ANONYMOUS_PER_MINUTE = 3;

describe('rate limiting', () => {
  // the fixtures below use the limited server, so give them their own keys before the buckets matter
  const { server, teams: [team] } = useServer({ env: { RATE_LIMIT_PER_MINUTE: PER_MINUTE, RATE_LIMIT_ANONYMOUS_PER_MINUTE: ANONYMOUS_PER_MINUTE }, teams: 1 });
  const keys: string[] = [];
  beforeAll(async () => {
    // one key per test: a key's bucket is spent by the test that uses it (createApiKey spends team.apiKey's)
    for (let i = 0; i < 4; i++) keys.push((await createApiKey(server, team, { name: `limited ${i}`, featurePermissions: ['TEAM_ADMIN_USER_ROLES:VIEW'] })).key);
  });

  it(`the ${PER_MINUTE + 1}th request of a credential within a minute is 429 with Retry-After; another key is unaffected`, async () => {
    const [key, other] = keys as [string, string];
    for (let i = 0; i < PER_MINUTE; i++) {
      const ok = await server.request('GET', '/v1/team-roles', { token: key });
      expect(ok.status, `request ${i + 1}`).toBe(200);
    }
    const limited = await server.request('GET', '/v1/team-roles', { token: key });
    expect(limited.status).toBe(429);
    expect(limited.body.error).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED', requestId: limited.headers.get('x-request-id') });
    expect(limited.body.meta.requestId).toBe(limited.headers.get('x-request-id'));
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter)).toBe(true);
    // one token comes back every 60/PER_MINUTE seconds
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60 / PER_MINUTE);

    // still limited on any route, including one that would fail anyway
    expect((await server.request('GET', '/v1/api-keys', { token: key })).status).toBe(429);

    const fresh = await server.request('GET', '/v1/team-roles', { token: other });
    expect(fresh.status).toBe(200);
    // health checks are never limited
    expect((await server.request('GET', '/healthz')).status).toBe(200);
  });

  it('GraphQL is limited too, and shares the bucket with REST', async () => {
    const [, , key, shared] = keys as [string, string, string, string];
    for (let i = 0; i < PER_MINUTE; i++) {
      const ok = await server.graphql('{ viewer { credentialKind } }', {}, { token: key });
      expect(ok.status, `request ${i + 1}`).toBe(200);
      expect(ok.data).toEqual({ viewer: { credentialKind: 'API_KEY' } });
    }
    const limited = await server.request('POST', '/graphql', { token: key, body: { query: '{ viewer { credentialKind } }' } });
    expect(limited.status).toBe(429);
    expect(limited.body.errors[0].extensions.code).toBe('RATE_LIMIT_EXCEEDED');
    expect(limited.body).not.toHaveProperty('data');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);

    // REST calls spend the same bucket as GraphQL calls
    for (let i = 0; i < PER_MINUTE - 1; i++) expect((await server.request('GET', '/v1/team-roles', { token: shared })).status).toBe(200);
    expect((await server.graphql('{ viewer { credentialKind } }', {}, { token: shared })).status).toBe(200);
    expect((await server.request('GET', '/v1/team-roles', { token: shared })).status).toBe(429);
    expect((await server.graphql('{ viewer { credentialKind } }', {}, { token: shared })).status).toBe(429);
  });

  it('anonymous callers are limited per client address', async () => {
    // two real client addresses on the loopback network
    const from = (localAddress: string) => new Agent({ localAddress, connect: { ca: server.ca } });
    const first = from('127.0.0.2');
    const second = from('127.0.0.3');
    const call = async (agent: Agent, path = '/v1/team-roles') => {
      const response = await fetch(`${server.baseUrl}${path}`, { dispatcher: agent });
      return { status: response.status, headers: response.headers, body: (await response.json()) as any };
    };
    try {
      for (let i = 0; i < ANONYMOUS_PER_MINUTE; i++) {
        const response = await call(first, i % 2 ? '/v1/team-roles' : '/graphql?query=%7Bviewer%7BcredentialKind%7D%7D');
        expect(response.status, `request ${i + 1}`).not.toBe(429);
      }
      const limited = await call(first);
      expect(limited.status).toBe(429);
      expect(limited.body.error.code).toBe('RATE_LIMIT_EXCEEDED');
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect((await call(first, '/graphql?query=%7Bviewer%7BcredentialKind%7D%7D')).status).toBe(429);

      // another address has its own bucket, and a credential from the limited address is not anonymous
      const other = await call(second);
      expect(other.status).toBe(401);
      expect(other.body.error.code).toBe('UNAUTHENTICATED');
      const withKey = await fetch(`${server.baseUrl}/v1/team-roles`, { dispatcher: first, headers: { authorization: `Bearer ${keys[1]}` } });
      expect(withKey.status).toBe(200);
      await withKey.text();
    } finally {
      await first.close();
      await second.close();
    }
  });
  // runs last: it spends this address's failure budget
  it('made-up tokens count against the address: after the anonymous limit of failures, 429 before any lookup', async () => {
    for (let i = 0; i < ANONYMOUS_PER_MINUTE; i++) {
      const bad = await server.request('GET', '/v1/team-roles', { token: `svc_live_madeup${i}xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx` });
      expect(bad.status, `attempt ${i + 1}`).toBe(401);
    }
    const loadsBefore = server.app.services.authenticator.loads;
    const limited = await server.request('GET', '/v1/team-roles', { token: 'svc_live_yetanotherguessxxxxxxxxxxxxxxxxxxxxxxx' });
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('RATE_LIMIT_EXCEEDED');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(server.app.services.authenticator.loads).toBe(loadsBefore);
  });
});
