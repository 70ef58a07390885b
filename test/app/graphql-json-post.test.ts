// Plain JSON POSTs to /graphql are answered without Yoga's Fetch adaptation
// (src/app/graphql/json-post.ts); every other request goes through Yoga. Each case here is sent
// twice, with a declared Content-Length (the direct path takes it when it can) and chunked (always
// Yoga), and both answers must be the same: status, media type and body, byte for byte.
// Which path answered shows in the case of the Content-Type header's name: Yoga writes
// "Content-Type", the direct path "content-type".
import { expect, it } from 'vitest';
import { answerType } from '../../src/app/graphql/json-post.ts';
import { createCollection } from '../support/data-fixtures.ts';
import { rawRequest, type RawAnswer } from '../support/raw-https.ts';
import { useServer } from '../support/use-server.ts';

const suite = useServer({ teams: 1 });

const GET = 'query One($id: String!) { dataRecord(dataRecordSimplyId: $id) { id dataRecordSimplyId name fields createdAt } }';
const TWO = `${GET} query Two { teamRoles(limit: 1) { pagination { total } } }`;
const BOTH_JSON = 'application/graphql-response+json, application/json';

interface Case {
  name: string;
  body: unknown;
  accept?: string;
  token?: string | null;
  /** whether the direct path answers it (false: it hands the request to Yoga) */
  direct: boolean;
}

async function both(c: Case, token: string): Promise<[RawAnswer, RawAnswer]> {
  const headers: Record<string, string> = c.accept ? { accept: c.accept } : {};
  const base = { method: 'POST', path: '/graphql', ...(c.token === null ? {} : { token: c.token ?? token }), headers };
  const { baseUrl, ca } = suite.server;
  return [await rawRequest(baseUrl, ca, { ...base, body: c.body }), await rawRequest(baseUrl, ca, { ...base, chunks: [JSON.stringify(c.body)] })];
}

function answeredBy(answer: RawAnswer): 'direct' | 'yoga' {
  return answer.rawHeaders.includes('content-type') ? 'direct' : 'yoga';
}

it('answers each request as Yoga does, and takes the plain ones itself', async () => {
  const { server, teams: [team] } = suite;
  const people = await createCollection(server, team!, { name: 'People', formula: '{first_name}', fields: { first_name: 'PLAIN_TEXT' } });
  const created = await server.request('POST', '/v1/data-records', { token: team!.apiKey, body: { dataCollectionSimplyId: people.id, fields: { [people.fields.first_name!]: 'Ada' } } });
  expect(created.status).toBe(201);
  const id = created.body.data.id as string;
  const cases: Case[] = [
    { name: 'a get, both JSON types accepted', body: { query: GET, variables: { id } }, accept: BOTH_JSON, direct: true },
    { name: 'a get, no Accept', body: { query: GET, variables: { id } }, direct: true },
    { name: 'a get, application/json', body: { query: GET, variables: { id }, operationName: 'One', extensions: {} }, accept: 'application/json', direct: true },
    { name: 'a get, application/*', body: { query: GET, variables: { id } }, accept: 'application/*', direct: true },
    { name: 'an unknown record (application/json)', body: { query: GET, variables: { id: 'ZZZZ-ZZZZ-ZZZZ' } }, accept: 'application/json', direct: true },
    { name: 'an unknown record (graphql-response+json)', body: { query: GET, variables: { id: 'ZZZZ-ZZZZ-ZZZZ' } }, accept: BOTH_JSON, direct: true },
    { name: 'a malformed id', body: { query: GET, variables: { id: 'nope' } }, accept: BOTH_JSON, direct: true },
    { name: 'a variable of the wrong type', body: { query: GET, variables: { id: 5 } }, accept: BOTH_JSON, direct: true },
    { name: 'a missing variable', body: { query: GET }, direct: true },
    { name: 'a field needing a credential, without one', body: { query: '{ me { id } }' }, token: null, accept: BOTH_JSON, direct: true },
    { name: 'the chosen one of two operations', body: { query: TWO, operationName: 'Two' }, direct: true },
    { name: 'a mutation refused for its input', body: { query: 'mutation { createTeamRole(input: { name: "" }) { id } }' }, accept: BOTH_JSON, direct: true },
    { name: 'two operations, none chosen', body: { query: TWO }, direct: false },
    { name: 'a bad credential', body: { query: '{ __typename }' }, token: 'svc_live_not-a-key', direct: false },
    { name: 'a syntax error', body: { query: '{ dataRecord(' }, direct: false },
    { name: 'an unknown field', body: { query: '{ nothingHere }' }, direct: false },
    { name: 'an unknown parameter', body: { query: '{ __typename }', other: 1 }, direct: false },
    { name: 'variables that are a list', body: { query: GET, variables: [id] }, direct: false },
    { name: 'a NUL in the variables', body: { query: GET, variables: { id: 'a\u0000b' } }, direct: false },
    { name: 'a NUL in a literal', body: { query: '{ dataRecord(dataRecordSimplyId: "a\\u0000b") { id } }' }, direct: false },
    { name: 'extensions', body: { query: '{ __typename }', extensions: { persistedQuery: { version: 1 } } }, direct: false },
    { name: 'an event stream accepted', body: { query: '{ __typename }' }, accept: 'text/event-stream', direct: false },
    { name: 'a subscription', body: { query: 'subscription { __typename }' }, accept: 'application/json', direct: false },
  ];
  for (const c of cases) {
    const [declared, chunked] = await both(c, team!.apiKey);
    expect(answeredBy(chunked), c.name).toBe('yoga');
    expect(answeredBy(declared), c.name).toBe(c.direct ? 'direct' : 'yoga');
    expect({ status: declared.status, type: declared.headers['content-type'], text: declared.text }, c.name).toEqual({
      status: chunked.status,
      type: chunked.headers['content-type'],
      text: chunked.text,
    });
  }
});

it('picks the media type Yoga would for a query or mutation, and leaves other Accept headers to Yoga', () => {
  expect(answerType(undefined)).toBe('application/json');
  expect(answerType('*/*')).toBe('application/json');
  expect(answerType('application/json')).toBe('application/json');
  expect(answerType('application/graphql-response+json')).toBe('application/graphql-response+json');
  expect(answerType(BOTH_JSON)).toBe('application/graphql-response+json');
  expect(answerType('application/json, application/graphql-response+json')).toBe('application/json');
  expect(answerType('application/json;charset=latin1, application/graphql-response+json')).toBe('application/graphql-response+json');
  expect(answerType('text/event-stream')).toBeNull();
  expect(answerType('multipart/mixed, application/json')).toBeNull();
  expect(answerType('text/html')).toBeNull();
});
