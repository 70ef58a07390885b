// GET / : a small self-contained HTML page leading to the API reference, the OpenAPI document and
// GraphiQL, or saying that GraphiQL is off; HEAD alike; any other method a 405 envelope.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';

let on: TestServer;
let off: TestServer;

beforeAll(async () => {
  [on, off] = await Promise.all([startTestServer({ env: { GRAPHIQL: true } }), startTestServer({ env: { GRAPHIQL: false } })]);
});

afterAll(async () => {
  await Promise.all([on?.close(), off?.close()]);
});

const links = (html: string) => [...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1]);

describe('the front page', () => {
  it('is a small HTML page that links /docs, /openapi.json and GraphiQL', async () => {
    const page = await on.request('GET', '/');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.text.length).toBeLessThan(8_000);
    expect(page.text).toContain('<title>svc platform</title>');
    expect(links(page.text)).toEqual(['data:,', '/docs', '/openapi.json', '/graphql']);
    expect(page.text).not.toContain('GraphiQL is off');
  });

  it('asks for nothing from anywhere: no script, no remote URL, and a policy that would refuse one', async () => {
    const page = await on.request('GET', '/');
    expect(page.text).not.toMatch(/<script|<img|<iframe|@import|url\(/i);
    expect(page.text).not.toMatch(/(?:https?:|wss?:)?\/\/[a-z0-9]/i);
    expect(page.headers.get('content-security-policy')).toMatch(/^default-src 'none'/);
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('says GraphiQL is off instead of linking it when it is', async () => {
    const page = await off.request('GET', '/');
    expect(page.status).toBe(200);
    expect(page.text).toContain('GraphiQL is off');
    expect(links(page.text)).toEqual(['data:,', '/docs', '/openapi.json']);
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const [get, head] = [await on.request('GET', '/'), await on.request('HEAD', '/')];
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(head.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(get.text)));
  });

  it('answers another method with 405 and the methods it takes', async () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      const response = await on.request(method, '/', { body: {} });
      expect(response.status, method).toBe(405);
      expect(response.headers.get('allow'), method).toBe('GET, HEAD');
      expect(response.body.error.code, method).toBe('METHOD_NOT_ALLOWED');
      expect(response.body.error.requestId, method).toBe(response.headers.get('x-request-id'));
    }
  });

  it('leaves other unknown paths a 404 envelope', async () => {
    const response = await on.request('GET', '/index.html');
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('NOT_FOUND');
  });
});
