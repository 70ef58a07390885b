// Paths are routed as sent: "." and ".." segments (raw, percent-encoded, between backslashes) are
// refused with 400 before anything resolves them, and a method a path is not served with is a 405
// with Allow, also where a parameter route's pattern would match the path. What Node's parser
// refuses (a head over 16 KiB, malformed HTTP) still gets the envelope (src/app/http/client-errors.ts).
import tls from 'node:tls';
import { expect, it } from 'vitest';
import { expectError } from '../support/expect-envelope.ts';
import { createCollection } from '../support/data-fixtures.ts';
import { rawRequest } from '../support/raw-https.ts';
import { useServer } from '../support/use-server.ts';

const suite = useServer({ teams: 1 });

/** The path goes out exactly as written: fetch would resolve the dot segments itself. */
const rawDelete = (path: string, token: string) => rawRequest(suite.server.baseUrl, suite.server.ca, { method: 'DELETE', path, token });
const rawGet = (path: string, token: string) => rawRequest(suite.server.baseUrl, suite.server.ca, { method: 'GET', path, token });

it('refuses "." and ".." segments without resolving them: the collection stays', async () => {
  const { server, teams: [team] } = suite;
  const people = await createCollection(server, team!, { name: 'People', formula: '{name}', fields: { name: 'PLAIN_TEXT' } });
  const one = `/v1/data-collections/${people.id}`;
  for (const path of [`${one}/fields/..`, `${one}/fields/%2e%2E`, `${one}/fields/%2E`, `${one}/fields/.`, `${one}/x/..?force=true`, `${one}/fields\\..`]) {
    const response = await rawDelete(path, team!.apiKey);
    expect({ path, status: response.status, code: response.body.error?.code }).toEqual({ path, status: 400, code: 'VALIDATION_ERROR' });
    expect(response.body.error.details?.[0]?.field).toBe('path');
  }
  expect((await server.request('GET', one, { token: team!.apiKey })).status).toBe(200);
  // a dot inside a segment is an ordinary character
  const dotted = await rawGet('/v1/data-collections/a.b', team!.apiKey);
  expect(dotted.body.error.details?.[0]?.field).not.toBe('path');
});

it('answers 405 with Allow for a method the path is not served with', async () => {
  const { server, teams: [team] } = suite;
  for (const [method, path] of [
    ['GET', '/v1/data-records/batch'],
    ['PUT', '/v1/data-records/batch'],
    ['GET', '/v1/data-records/search'],
  ] as const) {
    const response = await server.request(method, path, { token: team!.apiKey });
    expectError(response, 405, 'METHOD_NOT_ALLOWED');
    expect(response.headers.get('allow')).toMatch(/POST/);
  }
});

it('a request line and headers over 16 KiB get 431 in the envelope, on a fresh or kept-alive connection, at any size', async () => {
  const { server, teams: [team] } = suite;
  for (const size of [17_000, 40_000, 200_000]) {
    const long = expectError(await server.request('GET', `/v1/team-roles?q=${'v'.repeat(size)}`, { token: team!.apiKey }), 431, 'REQUEST_HEADERS_TOO_LARGE', `${size}`);
    expect(long.message).toMatch(/16 KiB/);
  }
  expectError(await server.request('GET', '/v1/team-roles', { token: team!.apiKey, headers: { 'x-filler': 'a'.repeat(20_000) } }), 431, 'REQUEST_HEADERS_TOO_LARGE');
  // the server itself is fine afterwards
  expect((await server.request('GET', '/v1/team-roles', { token: team!.apiKey })).status).toBe(200);
});

it('a request that is not HTTP/1.1 gets 400 in the envelope and the connection is closed', async () => {
  const { server } = suite;
  const url = new URL(server.baseUrl);
  const answer = await new Promise<string>((resolve, reject) => {
    const socket = tls.connect({ host: url.hostname, port: Number(url.port), ca: server.ca }, () => socket.write('GET /v1/team-roles HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n'));
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });
  const [head, body] = answer.split('\r\n\r\n');
  expect(head).toMatch(/^HTTP\/1\.1 400 /);
  expect(head).toMatch(/connection: close/i);
  const parsed = JSON.parse(body!);
  expect(parsed).toMatchObject({ error: { code: 'VALIDATION_ERROR', requestId: parsed.meta.requestId } });
  expect(head).toContain(`X-Request-Id: ${parsed.meta.requestId}`);
});
