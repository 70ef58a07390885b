import { describe, expect, it } from 'vitest';
import { useServer } from '../support/use-server.ts';

describe('server smoke', () => {
  const { server, teams: [team] } = useServer({ teams: 1 });

  it('answers health, REST and GraphQL over HTTPS', async () => {
    const health = await server.request('GET', '/healthz');
    expect(health.status).toBe(200);
    expect(health.body.data.status).toBe('ok');
    expect(health.body.meta.requestId).toMatch(/^[0-9a-f-]{36}$/);

    const me = await server.request('GET', '/v1/users/me', { token: team.userToken, teamId: team.teamSimplyId });
    expect(me.status).toBe(200);
    expect(me.body.data.userSimplyId).toBe(team.userSimplyId);

    const viewer = await server.graphql('{ viewer { credentialKind dataFullAccess } }', {}, { token: team.apiKey });
    expect(viewer.data).toEqual({ viewer: { credentialKind: 'API_KEY', dataFullAccess: 'EDIT' } });
  });
});
