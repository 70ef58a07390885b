// Document 1 §1.1: HTTPS only. Plain HTTP on the HTTPS port gets 400 HTTPS_REQUIRED and never
// reaches a resolver; behind a TLS-terminating proxy (TRUST_PROXY) the app requires
// X-Forwarded-Proto: https and takes the client address from X-Forwarded-For (one trusted hop).
import http from 'node:http';
import { fetch } from 'undici';
import WebSocket from 'ws';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../support/fixtures.ts';
import { graphqlWsClient, wssUrl } from '../support/realtime.ts';
import { useServer } from '../support/use-server.ts';

interface PlainResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  body: any;
}

/** A plain-HTTP request with node:http (no TLS at all). */
function plainRequest(port: number, method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<PlainResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path, headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => {
        let parsed: unknown = null;
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = null;
        }
        resolve({ status: res.statusCode!, headers: res.headers, text, body: parsed });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Opens a raw WebSocket and reports whether the upgrade was accepted. */
function tryWebSocket(url: string, options: WebSocket.ClientOptions = {}): Promise<{ opened: boolean; status?: number }> {
  return new Promise((resolve) => {
    const socket = new WebSocket(url, 'graphql-transport-ws', options);
    socket.on('open', () => {
      socket.close();
      resolve({ opened: true });
    });
    socket.on('unexpected-response', (_req, res) => {
      resolve({ opened: false, status: res.statusCode });
      res.resume();
      socket.terminate();
    });
    socket.on('error', () => resolve({ opened: false }));
  });
}

/** graphql-ws connection_init outcome: acknowledged, or the close code the server chose. */
function connectGraphqlWs(url: string, key: string, options: WebSocket.ClientOptions): Promise<{ acked: boolean; code?: number }> {
  return new Promise((resolve) => {
    const client = graphqlWsClient(url, options, {
      connectionParams: { authorization: `Bearer ${key}` },
      lazy: false,
      onNonLazyError: () => {},
      on: {
        connected: () => {
          resolve({ acked: true });
          void client.dispose();
        },
        closed: (event) => resolve({ acked: false, code: (event as { code?: number })?.code }),
      },
    });
  });
}

const ROLES_VIEW = ['TEAM_ADMIN_USER_ROLES:VIEW'];

describe('HTTPS front door', () => {
  const { server, teams: [team] } = useServer({ teams: 1 });

  it('plain HTTP to the HTTPS port is 400 HTTPS_REQUIRED, never data', async () => {
    const port = server.app.port;
    const attempts = [
      await plainRequest(port, 'GET', '/healthz'),
      await plainRequest(port, 'GET', '/v1/team-roles', { authorization: `Bearer ${team.apiKey}` }),
      await plainRequest(port, 'GET', `/v1/users/me?teamSimplyId=${team.teamSimplyId}`, { authorization: `Bearer ${team.userToken}` }),
      await plainRequest(port, 'POST', '/graphql', { authorization: `Bearer ${team.apiKey}`, 'content-type': 'application/json' }, JSON.stringify({ query: '{ viewer { credentialKind teamSimplyId } }' })),
      await plainRequest(port, 'GET', '/.well-known/jwks.json'),
      await plainRequest(port, 'GET', '/metrics'),
    ];
    for (const response of attempts) {
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('HTTPS_REQUIRED');
      expect(response.body).not.toHaveProperty('data');
      expect(response.body.meta.requestId).toBe(response.body.error.requestId);
      expect(response.headers['x-request-id']).toBe(response.body.meta.requestId);
      expect(response.headers.connection).toBe('close');
      // nothing of the team or the key leaks into the refusal
      expect(response.text).not.toContain(team.teamSimplyId);
      expect(response.text).not.toContain('keys');
    }
  });

  it('the same port still serves HTTPS', async () => {
    const response = await server.request('GET', '/v1/team-roles', { token: team.apiKey });
    expect(response.status).toBe(200);
  });

  it('a WebSocket over plain ws:// is refused; wss:// is accepted', async () => {
    const plain = await tryWebSocket(`ws://127.0.0.1:${server.app.port}/graphql`);
    expect(plain).toEqual({ opened: false, status: 400 });
    const secure = await tryWebSocket(wssUrl(server.baseUrl), { ca: server.ca });
    expect(secure.opened).toBe(true);
    const wrongPath = await tryWebSocket(wssUrl(server.baseUrl, '/v1/team-roles'), { ca: server.ca });
    expect(wrongPath).toEqual({ opened: false, status: 400 });
  });

  it('X-Forwarded-For is ignored without TRUST_PROXY', async () => {
    const restricted = await createApiKey(server, team, { name: 'office only', allowedIpAddresses: ['203.0.113.7'], featurePermissions: ROLES_VIEW });
    const spoofed = await server.request('GET', '/v1/team-roles', { token: restricted.key, headers: { 'x-forwarded-for': '203.0.113.7' } });
    expect(spoofed.status).toBe(403);
    expect(spoofed.body.error).toMatchObject({ code: 'PERMISSION_DENIED', message: expect.stringMatching(/source address/) });
    // the same key from an allowed address works (proves the 403 above is the address, nothing else)
    const open = await createApiKey(server, team, { name: 'loopback', allowedIpAddresses: ['127.0.0.1'], featurePermissions: ROLES_VIEW });
    expect((await server.request('GET', '/v1/team-roles', { token: open.key, headers: { 'x-forwarded-for': '203.0.113.7' } })).status).toBe(200);
  });

  describe('behind a TLS-terminating proxy (TRUST_PROXY=true)', () => {
    const { server: proxied } = useServer({ env: { TRUST_PROXY: true } });
    let restrictedKey: string;
    let origin: string;
    const get = async (path: string, headers: Record<string, string>) => {
      const response = await fetch(`${origin}${path}`, { headers });
      const text = await response.text();
      return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
    };

    beforeAll(async () => {
      origin = `http://127.0.0.1:${proxied.app.port}`;
      // keys live in the shared database: create it through the HTTPS instance
      restrictedKey = (await createApiKey(server, team, { name: 'proxy office only', allowedIpAddresses: ['203.0.113.7'], featurePermissions: ROLES_VIEW })).key;
    });

    it('speaks plain HTTP (no TLS material)', () => {
      expect(proxied.app.tls).toBeNull();
    });

    it('without X-Forwarded-Proto: https every request is 400 HTTPS_REQUIRED', async () => {
      for (const headers of [{}, { 'x-forwarded-proto': 'http' }, { 'x-forwarded-proto': 'HTTPS, http' }] as Record<string, string>[]) {
        for (const path of ['/healthz', '/v1/team-roles']) {
          const response = await get(path, { ...headers, authorization: `Bearer ${team.apiKey}` });
          expect(response.status).toBe(400);
          expect(response.body.error.code).toBe('HTTPS_REQUIRED');
          expect(response.body).not.toHaveProperty('data');
        }
      }
    });

    it('with X-Forwarded-Proto: https requests work', async () => {
      const health = await get('/healthz', { 'x-forwarded-proto': 'https' });
      expect(health.status).toBe(200);
      const roles = await get('/v1/team-roles', { 'x-forwarded-proto': 'https', authorization: `Bearer ${team.apiKey}` });
      expect(roles.status).toBe(200);
      expect(roles.body.meta.pagination.total).toBeGreaterThan(0);
    });

    it('X-Forwarded-For (the hop the proxy appended) is the client address for IP allowlists', async () => {
      const call = (xff?: string) =>
        get('/v1/team-roles', { 'x-forwarded-proto': 'https', authorization: `Bearer ${restrictedKey}`, ...(xff ? { 'x-forwarded-for': xff } : {}) });
      expect((await call('203.0.113.7')).status).toBe(200);
      // the proxy appends the real peer last
      expect((await call('198.51.100.1, 203.0.113.7')).status).toBe(200);
      // whatever the client put before the last hop is not trusted; no header: the socket peer (127.0.0.1) counts
      for (const refused of [await call('203.0.113.7, 198.51.100.1'), await call('198.51.100.1'), await call()]) {
        expect(refused.status).toBe(403);
        expect(refused.body.error).toMatchObject({ code: 'PERMISSION_DENIED', message: expect.stringMatching(/source address/) });
      }
    });

    it('GraphQL WebSockets need X-Forwarded-Proto: https and use X-Forwarded-For too', async () => {
      const url = `ws://127.0.0.1:${proxied.app.port}/graphql`;
      expect(await tryWebSocket(url)).toEqual({ opened: false, status: 400 });
      expect((await tryWebSocket(url, { headers: { 'x-forwarded-proto': 'https' } })).opened).toBe(true);

      const fromOffice = await connectGraphqlWs(url, restrictedKey, { headers: { 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.7' } });
      expect(fromOffice.acked).toBe(true);
      const fromElsewhere = await connectGraphqlWs(url, restrictedKey, { headers: { 'x-forwarded-proto': 'https', 'x-forwarded-for': '198.51.100.1' } });
      expect(fromElsewhere).toEqual({ acked: false, code: 4403 });
    });
  });
});
