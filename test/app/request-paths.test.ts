// Paths are routed as sent: "." and ".." segments (raw, percent-encoded, between backslashes) are
// refused with 400 before anything resolves them, and a method a path is not served with is a 405
// with Allow, also where a parameter route's pattern would match the path.
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
