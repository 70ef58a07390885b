// Two server instances on one database (as behind a load balancer): realtime events and
// credential-cache invalidation travel through PostgreSQL LISTEN/NOTIFY, so what one instance
// writes, the other delivers or enforces at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey, createRole, createTeam, unique, type TeamFixture } from '../support/fixtures.ts';
import { subscribeTeamEvents, TEAM_EVENT_FIELDS, warmUp } from '../support/realtime.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { untilWith } from '../support/until.ts';

const until = untilWith({ timeoutMs: 3000, everyMs: 20 });

describe('two instances on one database', () => {
  let a: TestServer;
  let b: TestServer;
  let team: TeamFixture;
  beforeAll(async () => {
    a = await startTestServer();
    // same data folder: same JWT signing key and TLS certificate, like replicas of one deployment
    b = await startTestServer({ dataDir: a.dataDir });
    team = await createTeam(a);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('shares the signing key: a user token issued by A works on B', async () => {
    const me = await b.request('GET', '/v1/users/me', { token: team.userToken, teamId: team.teamSimplyId });
    expect(me.status).toBe(200);
    expect(b.ca).toBe(a.ca);
  });

  it('a subscriber on B receives the team event of a role created through A', async () => {
    const sub = subscribeTeamEvents(b, { authorization: `Bearer ${team.apiKey}` }, `${TEAM_EVENT_FIELDS} occurredAt`);
    try {
      // The subscription is live once B has registered it, which the protocol does not announce:
      // create roles through A until the first of them reaches B.
      const created = await warmUp(a, team, sub, 'the first event on B');
      expect(sub.state.errors).toEqual([]);
      expect(created).toContain(sub.state.events[0]!.resourceId);

      // now the subscription is certainly live: this exact event must arrive
      const before = sub.state.events.length;
      const roleId = await createRole(a, team, { name: `Realtime ${unique()}` });
      const event = await until('the TEAM_ROLE_CREATED event', () => sub.state.events.slice(before).find((e) => e.resourceId === roleId));
      expect(event).toEqual({
        type: 'TEAM_ROLE_CREATED',
        resourceType: 'TeamRole',
        resourceId: roleId,
        occurredAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
        actor: { kind: 'API_KEY', id: team.apiKeySimplyId },
      });

      // other kinds of administrative change, made through A, arrive too
      const key = await createApiKey(a, team, { name: 'evented key' });
      await until('API_KEY_CREATED', () => sub.state.events.find((e) => e.type === 'API_KEY_CREATED' && e.resourceId === key.id));
      expect((await a.request('DELETE', `/v1/api-keys/${key.id}`, { token: team.apiKey })).status).toBe(200);
      await until('API_KEY_REVOKED', () => sub.state.events.find((e) => e.type === 'API_KEY_REVOKED' && e.resourceId === key.id));
      expect(sub.state.errors).toEqual([]);
    } finally {
      await sub.close();
    }
  });

  it('revoking a key through A makes B refuse it within a second, though B had it cached', async () => {
    const key = await createApiKey(a, team, { name: 'cached on B', featurePermissions: ['TEAM_ADMIN_USER_ROLES:VIEW'] });
    // warm: B answers from its cache (a load racing with any instance's invalidation is not
    // cached, and other test files write to the same database, hence the repeat)
    await until('B to answer from its cache', async () => {
      const loads = b.app.services.authenticator.loads;
      expect((await b.request('GET', '/v1/team-roles', { token: key.key })).status).toBe(200);
      return b.app.services.authenticator.loads === loads;
    });

    const revoked = await a.request('DELETE', `/v1/api-keys/${key.id}`, { token: team.apiKey });
    expect(revoked.status).toBe(200);
    const started = Date.now();
    const refusal = await until('B to refuse the revoked key', async () => {
      const response = await b.request('GET', '/v1/team-roles', { token: key.key });
      return response.status === 200 ? undefined : response;
    }, 1000);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(refusal.status).toBe(401);
    expect(refusal.body.error.code).toBe('UNAUTHENTICATED');
  });

  it('rotating a key through A retires the old secret on B; the new one works there', async () => {
    const key = await createApiKey(a, team, { name: 'rotated', featurePermissions: ['TEAM_ADMIN_USER_ROLES:VIEW'] });
    expect((await b.request('GET', '/v1/team-roles', { token: key.key })).status).toBe(200);
    const rotated = await a.request('POST', `/v1/api-keys/${key.id}/rotate`, { token: team.apiKey });
    expect(rotated.status).toBe(200);
    await until('B to refuse the old secret', async () => (await b.request('GET', '/v1/team-roles', { token: key.key })).status === 401, 1000);
    expect((await b.request('GET', '/v1/team-roles', { token: rotated.body.data.fullApiKey })).status).toBe(200);
  });

  it("changing a key's permissions through A takes effect on B", async () => {
    const key = await createApiKey(a, team, { name: 'narrowed', featurePermissions: ['TEAM_ADMIN_USER_ROLES:VIEW'] });
    expect((await b.request('GET', '/v1/team-roles', { token: key.key })).status).toBe(200);
    const patched = await a.request('PATCH', `/v1/api-keys/${key.id}`, { token: team.apiKey, body: { featurePermissions: [] } });
    expect(patched.status).toBe(200);
    const denied = await until('B to apply the new permissions', async () => {
      const response = await b.request('GET', '/v1/team-roles', { token: key.key });
      return response.status === 403 ? response : undefined;
    }, 1000);
    expect(denied.body.error.code).toBe('PERMISSION_DENIED');
  });
});
