// Operational endpoints: liveness, readiness, Prometheus metrics and the JWKS that lets other
// services verify first-party access tokens.
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { createRole } from '../support/fixtures.ts';
import { useServer } from '../support/use-server.ts';
import { samples } from '../support/prometheus-samples.ts';

const METRICS_TOKEN = 'metrics-token-of-the-health-suite';

describe('health, readiness, metrics and JWKS', () => {
  const { server, teams: [team] } = useServer({ teams: 1, env: { METRICS_TOKEN } });

  it('/healthz and /readyz answer 200 without credentials', async () => {
    const health = await server.request('GET', '/healthz');
    expect(health.status).toBe(200);
    expect(health.body.data).toEqual({ status: 'ok' });
    const ready = await server.request('GET', '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body.data).toEqual({ status: 'ready', database: 'ok' });
    expect(ready.headers.get('cache-control')).toBe('no-store');
  });

  it('/metrics is Prometheus text with svc_http_requests_total labelled by route template', async () => {
    const roleId = await createRole(server, team, { name: 'Metrics role' });
    await server.request('GET', `/v1/team-roles/${roleId}`, { token: team.apiKey });
    await server.request('GET', `/v1/team-roles/${roleId}`, { token: team.apiKey });
    await server.request('GET', '/v1/team-roles/role-2222-2222-2222', { token: team.apiKey });
    await server.request('GET', '/v1/no-such-route', { token: team.apiKey });
    await server.graphql('{ viewer { credentialKind } }', {}, { token: team.apiKey });
    await server.request('GET', '/healthz');

    const response = await server.request('GET', '/metrics', { token: METRICS_TOKEN });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = response.text;
    expect(text).toContain('# TYPE svc_http_requests_total counter');
    expect(text).toContain('# TYPE svc_http_request_duration_seconds histogram');
    expect(text).toMatch(/^svc_process_cpu_seconds_total /m);

    const requests = samples(text, 'svc_http_requests_total');
    const count = (labels: Record<string, string>) => requests.find((s) => Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;
    // the template, never the concrete id: one series per route, whatever ids are requested
    expect(count({ method: 'GET', route: '/v1/team-roles/{teamRoleSimplyId}', status: '200' })).toBe(2);
    expect(count({ method: 'GET', route: '/v1/team-roles/{teamRoleSimplyId}', status: '404' })).toBe(1);
    expect(count({ method: 'POST', route: '/v1/team-roles', status: '201' })).toBe(1);
    expect(count({ method: 'GET', route: 'v1-unmatched', status: '404' })).toBe(1);
    expect(count({ method: 'POST', route: '/graphql', status: '200' })).toBe(1);
    expect(count({ method: 'GET', route: '/healthz', status: '200' })).toBeGreaterThanOrEqual(1);
    expect(requests.some((s) => s.labels.route?.includes(roleId))).toBe(false);

    const durations = samples(text, 'svc_http_request_duration_seconds_count');
    expect(durations.find((s) => s.labels.route === '/v1/team-roles/{teamRoleSimplyId}')?.value).toBe(3);
    expect(samples(text, 'svc_credential_cache_entries')).toHaveLength(1);
    expect(samples(text, 'svc_credential_cache_misses_total')[0]!.value).toBeGreaterThanOrEqual(1);
  });

  it('/.well-known/jwks.json publishes the EdDSA public key (never `d`) that verifies access tokens', async () => {
    const response = await server.request('GET', '/.well-known/jwks.json');
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toMatch(/max-age=\d+/);
    const { keys } = response.body as { keys: Record<string, unknown>[] };
    expect(keys.length).toBeGreaterThanOrEqual(1);
    for (const key of keys) {
      expect(key).toMatchObject({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA' });
      expect(typeof key.kid).toBe('string');
      expect(typeof key.x).toBe('string');
      expect(key).not.toHaveProperty('d');
      for (const secret of ['p', 'q', 'dp', 'dq', 'qi', 'k']) expect(key).not.toHaveProperty(secret);
    }
    expect(response.text).not.toMatch(/"d"\s*:/);

    const header = decodeProtectedHeader(team.userToken);
    expect(header.alg).toBe('EdDSA');
    expect(keys.map((k) => k.kid)).toContain(header.kid);
    const { payload } = await jwtVerify(team.userToken, createLocalJWKSet({ keys: keys as never }));
    expect(payload.sub).toBe(team.userSimplyId);
  });
});
