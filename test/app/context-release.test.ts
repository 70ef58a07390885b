// Every request lets go of the scope cache the scope-auth plugin keeps for its context
// (releaseContext, src/app/create-context.ts): a cache left in the plugin's module-level WeakMap
// kept the whole request alive through young-generation collections. Checked on each face that
// builds a context: REST, GraphQL's direct JSON path, GraphQL through Yoga.
import { RequestCache } from '@pothos/plugin-scope-auth';
import { expect, it, vi } from 'vitest';
import { createCollection } from '../support/data-fixtures.ts';
import { rawRequest } from '../support/raw-https.ts';
import { useServer } from '../support/use-server.ts';

const suite = useServer({ teams: 1 });

/** The contexts whose scope cache was built while `run` ran, and whether each was released after. */
async function cachesDuring(run: () => Promise<void>): Promise<{ built: number; released: number }> {
  const built = new Set<object>();
  const released = new Set<object>();
  const fromContext = RequestCache.fromContext.bind(RequestCache);
  const clearForContext = RequestCache.clearForContext.bind(RequestCache);
  vi.spyOn(RequestCache, 'fromContext').mockImplementation((context, builder) => {
    built.add(context as object);
    return fromContext(context, builder);
  });
  vi.spyOn(RequestCache, 'clearForContext').mockImplementation((context) => {
    released.add(context as object);
    clearForContext(context);
  });
  try {
    await run();
  } finally {
    vi.restoreAllMocks();
  }
  return { built: built.size, released: [...built].filter((c) => released.has(c)).length };
}

it('releases the context of a REST request, a direct GraphQL POST and a Yoga request', async () => {
  const { server, teams: [team] } = suite;
  const people = await createCollection(server, team!, { name: 'People', formula: '{name}', fields: { name: 'PLAIN_TEXT' } });
  const created = await server.request('POST', '/v1/data-records', { token: team!.apiKey, body: { dataCollectionSimplyId: people.id, fields: { [people.fields.name!]: 'Ada' } } });
  expect(created.status).toBe(201);
  const id = created.body.data.id as string;
  const query = { query: 'query($id: String!) { dataRecord(dataRecordSimplyId: $id) { id name } }', variables: { id } };

  const rest = await cachesDuring(async () => {
    expect((await server.request('GET', `/v1/data-records/${id}`, { token: team!.apiKey })).status).toBe(200);
  });
  expect(rest.built).toBeGreaterThanOrEqual(1);
  expect(rest.released).toBe(rest.built);

  const direct = await cachesDuring(async () => {
    const answer = await server.request('POST', '/graphql', { token: team!.apiKey, body: query });
    expect(answer.body).toMatchObject({ data: { dataRecord: { name: 'Ada' } } });
  });
  expect(direct).toEqual({ built: 1, released: 1 });

  // chunked: no declared length, so Yoga answers it
  const yoga = await cachesDuring(async () => {
    const { baseUrl, ca } = server;
    const answer = await rawRequest(baseUrl, ca, { method: 'POST', path: '/graphql', token: team!.apiKey, chunks: [JSON.stringify(query)] });
    expect(answer.status).toBe(200);
    expect(answer.text).toContain('Ada');
  });
  expect(yoga).toEqual({ built: 1, released: 1 });
});
