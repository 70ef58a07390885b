import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CollectionFixture } from '../support/data-fixtures.ts';
import { expectError, expectOk } from '../support/expect-envelope.ts';
import { startServerWithTeam, type TeamFixture } from '../support/fixtures.ts';
import type { TestServer } from '../support/server.ts';
import { createPeople } from '../support/record-fixtures.ts';

let server: TestServer;
let team: TeamFixture;
let people: CollectionFixture;

beforeAll(async () => {
  ({ server, team } = await startServerWithTeam());
  people = await createPeople(server, team);
});
afterAll(() => server?.close());

describe('records smoke', () => {
  it('creates, gets, lists, searches, updates and deletes', async () => {
    const f = people.fields;
    const created = expectOk(
      await server.request('POST', '/v1/data-records', {
        token: team.apiKey,
        body: { dataCollectionSimplyId: people.id, fields: { [f.first_name!]: 'Ada', [f.last_name!]: 'Lovelace', [f.age!]: 36, [f.balance!]: '12.5', nope: 1 } },
      }),
      201,
    );
    expect(created.name).toBe('Ada Lovelace');
    expect(created.fields[f.balance!]).toBe('12.50');
    const id = created.id;
    const got = await server.request('GET', `/v1/data-records/${id}?expand=collection,fieldDefinitions&fields=${f.age}`, { token: team.apiKey });
    expect(expectOk(got).fields).toEqual({ [f.age!]: 36 });
    expect(got.body.meta.expanded.collection.id).toBe(people.id);
    for (let i = 0; i < 3; i++) {
      await server.request('POST', '/v1/data-records', { token: team.apiKey, body: { dataCollectionSimplyId: people.id, fields: { [f.first_name!]: `P${i}`, [f.age!]: 20 + i } } });
    }
    const list = await server.request('GET', `/v1/data-records?dataCollectionSimplyId=${people.id}&limit=2`, { token: team.apiKey });
    expect(expectOk(list)).toHaveLength(2);
    expect(list.body.meta.pagination).toEqual({ total: 4, limit: 2, offset: 0, hasMore: true });
    const search = await server.request('POST', '/v1/data-records/search', {
      token: team.apiKey,
      body: { dataCollectionSimplyId: people.id, filters: [{ field: f.age, operator: 'gte', value: 21 }, { field: 'calculatedName', operator: 'startsWith', value: 'p' }] },
    });
    expect(expectOk(search).map((r: any) => r.name).sort()).toEqual(['P1', 'P2']);
    const patched = expectOk(await server.request('PATCH', `/v1/data-records/${id}`, { token: team.apiKey, body: { fields: { [f.last_name!]: null } } }));
    expect(patched.name).toBe('Ada');
    expectOk(await server.request('DELETE', `/v1/data-records/${id}`, { token: team.apiKey }));
    expectError(await server.request('GET', `/v1/data-records/${id}`, { token: team.apiKey }), 404, 'NOT_FOUND');
    const batch = await server.request('POST', '/v1/data-records/batch', {
      token: team.apiKey,
      body: { dataCollectionSimplyId: people.id, records: [{ fields: { [f.first_name!]: 'B1' } }, { fields: { [f.age!]: 'x' } }] },
    });
    const data = expectOk(batch);
    expect(data.created).toBe(1);
    expect(data.failed).toBe(1);
    expect(data.results[1].error.code).toBe('VALIDATION_ERROR');
  });
});
