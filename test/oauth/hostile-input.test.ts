// Malformed and hostile requests to the authorization server, the consent page and the MCP
// endpoint: every answer is a 4xx with a readable body, never a 5xx, and nothing is issued.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useServer } from '../support/use-server.ts';

const { server, teams } = useServer({ teams: 1 });
const [team] = teams;

const form = { 'content-type': 'application/x-www-form-urlencoded' };
const json = { 'content-type': 'application/json' };
const junk = randomBytes(300).toString('latin1');

describe('hostile input to /oauth and /mcp', () => {
  it('answers every malformed request with a 4xx', async () => {
    const cases: [string, string, { rawBody?: string; headers?: Record<string, string>; token?: string; teamId?: string }][] = [
      ['POST', '/oauth/token', { rawBody: 'grant_type=authorization_code&code=nope&redirect_uri=x&client_id=nobody', headers: form }],
      ['POST', '/oauth/token', { rawBody: 'grant_type=password&username=a&password=b&client_id=x', headers: form }],
      ['POST', '/oauth/token', { rawBody: junk, headers: form }],
      ['POST', '/oauth/token', { rawBody: '{"grant_type":"authorization_code"}', headers: json }],
      ['POST', '/oauth/token', { rawBody: `grant_type=refresh_token&refresh_token=${'x'.repeat(5000)}&client_id=x`, headers: form }],
      ['POST', '/oauth/register', { rawBody: '{not json', headers: json }],
      ['POST', '/oauth/register', { rawBody: JSON.stringify({ redirect_uris: ['javascript:alert(1)'] }), headers: json }],
      ['POST', '/oauth/register', { rawBody: JSON.stringify({ redirect_uris: 'nope', token_endpoint_auth_method: 'none' }), headers: json }],
      ['POST', '/oauth/revoke', { rawBody: 'token=abc', headers: form }],
      ['GET', `/oauth/authorize?client_id=${encodeURIComponent(junk)}&response_type=code`, {}],
      ['GET', '/oauth/authorize?response_type=token&client_id=x', {}],
      ['POST', '/oauth/authorize', { rawBody: 'decision=approve&client_id=x&client_id=y', headers: form, token: team.userToken, teamId: team.teamSimplyId }],
      ['POST', '/oauth/authorize', { rawBody: '{"decision":"approve"}', headers: json, token: team.userToken, teamId: team.teamSimplyId }],
      ['POST', '/oauth/authorize', { rawBody: `client_id=${'y'.repeat(70_000)}`, headers: form, token: team.userToken, teamId: team.teamSimplyId }],
      ['GET', '/oauth/interaction/..%2F..%2Fetc', {}],
      ['POST', '/oauth/interaction/abc/decision', { rawBody: 'decision=approve&csrf=x', headers: form, token: team.userToken, teamId: team.teamSimplyId }],
      ['GET', '/oauth/assets/../oauth-provider.ts', {}],
      ['GET', '/oauth/nothing-here', {}],
      ['POST', '/mcp', { rawBody: '{not json', headers: { ...json, accept: 'application/json, text/event-stream' }, token: team.apiKey }],
      ['POST', '/mcp', { rawBody: junk, headers: { ...json, accept: 'application/json, text/event-stream' }, token: team.apiKey }],
      ['POST', '/mcp', { rawBody: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_record', arguments: { dataRecordSimplyId: 42 } } }), headers: { ...json, accept: 'application/json, text/event-stream' }, token: team.apiKey }],
      ['POST', '/mcp', { rawBody: JSON.stringify([{ jsonrpc: '2.0', id: 1, method: 'nope' }]), headers: { ...json, accept: 'application/json, text/event-stream' }, token: team.apiKey }],
      ['POST', '/mcp', { rawBody: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }), headers: { 'content-type': 'text/plain' }, token: team.apiKey }],
      ['GET', '/mcp', { token: team.apiKey }],
      ['DELETE', '/mcp', { token: team.apiKey }],
      ['POST', '/mcp/extra', { token: team.apiKey }],
      ['GET', '/.well-known/oauth-protected-resource/elsewhere', {}],
    ];
    const answers: string[] = [];
    for (const [method, path, options] of cases) {
      const response = await server.request(method, path, options);
      answers.push(`${method} ${path.slice(0, 60)} → ${response.status}`);
      expect(response.status, `${method} ${path.slice(0, 80)}: ${response.text.slice(0, 200)}`).toBeGreaterThanOrEqual(200);
      expect(response.status, `${method} ${path.slice(0, 80)}: ${response.text.slice(0, 200)}`).toBeLessThan(500);
    }
    // nothing was issued to anyone
    const issued = await server.app.services.prisma.oAuthState.count({ where: { model: { in: ['AccessToken', 'RefreshToken', 'AuthorizationCode'] }, accountId: { startsWith: `${team.userSimplyId}@` } } });
    expect(issued, answers.join('\n')).toBe(0);
  });
});
