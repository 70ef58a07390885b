// Client JSON nested deeper than MAX_JSON_DEPTH (src/app/http/json-depth.ts) is refused at the edge,
// on REST bodies and GraphQL variables: 10,000 levels of session-token metadata used to overflow
// the stack of the size check (a 500). Up to the limit, JSON goes through as before.
import { expect, it } from 'vitest';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../../src/app/http/json-depth.ts';
import { expectError } from '../support/expect-envelope.ts';
import { useServer } from '../support/use-server.ts';

const suite = useServer({ teams: 1 });

/** the JSON text of `{ "a": { "a": … 1 } }` with `levels` objects (JSON.stringify itself overflows on it) */
const nestedText = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
const json = { 'content-type': 'application/json' };

/** `{ "a": { "a": … 1 } }` with `levels` objects */
function nested(levels: number): Record<string, unknown> {
  let value: Record<string, unknown> = { a: 1 };
  for (let i = 1; i < levels; i++) value = { a: value };
  return value;
}

it('counts depth without recursion, at any depth', () => {
  expect(nestsDeeperThan(nested(MAX_JSON_DEPTH))).toBe(false);
  expect(nestsDeeperThan(nested(MAX_JSON_DEPTH + 1))).toBe(true);
  expect(nestsDeeperThan(JSON.parse(`${'['.repeat(200_000)}${']'.repeat(200_000)}`))).toBe(true);
  expect(nestsDeeperThan([1, 'x', null, { b: [true] }])).toBe(false);
});

it('REST: a body nested 10,000 deep is 400 VALIDATION_ERROR, nothing stored; within the limit it works', async () => {
  const { server, teams: [team] } = suite;
  const rawBody = `{"metadata":${nestedText(10_000)}}`;
  const deep = expectError(await server.request('POST', '/v1/session-tokens', { token: team!.apiKey, rawBody, headers: json }), 400, 'VALIDATION_ERROR');
  expect(deep.message).toMatch(/deeper than 64 levels/);
  const fine = await server.request('POST', '/v1/session-tokens', { token: team!.apiKey, body: { metadata: nested(MAX_JSON_DEPTH - 2) } });
  expect(fine.status).toBe(201);
});

it('GraphQL: variables nested 10,000 deep are 400 VALIDATION_ERROR', async () => {
  const { server, teams: [team] } = suite;
  const query = JSON.stringify('mutation($input: CreateSessionTokenInput) { createSessionToken(input: $input) { token } }');
  const rawBody = `{"query":${query},"variables":{"input":{"metadata":${nestedText(10_000)}}}}`;
  const res = await server.request('POST', '/graphql', { token: team!.apiKey, rawBody, headers: json });
  expect(res.status).toBe(400);
  expect(res.body.errors?.[0]?.extensions?.code).toBe('VALIDATION_ERROR');
});
