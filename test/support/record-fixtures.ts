// Records written and read over REST, and the People collection several record tests share.
import { type CollectionFixture, createCollection } from './data-fixtures.ts';
import { expectOk } from './expect-envelope.ts';
import type { TeamFixture } from './fixtures.ts';
import type { TestServer } from './server.ts';

/** People: first_name (required), last_name, age (NUMBER), balance (MONEY, EUR); named "{first_name} {last_name}". */
export function createPeople(server: TestServer, team: TeamFixture, name = 'People'): Promise<CollectionFixture> {
  return createCollection(server, team, {
    name,
    formula: '{first_name} {last_name}',
    fields: [
      { columnName: 'first_name', dataType: 'PLAIN_TEXT', isRequired: true },
      { columnName: 'last_name', dataType: 'PLAIN_TEXT' },
      { columnName: 'age', dataType: 'NUMBER' },
      { columnName: 'balance', dataType: 'MONEY', config: { currency: 'EUR' } },
    ],
  });
}

/** POST /v1/data-records, expecting 201; returns `data`. */
export async function createRecord(server: TestServer, token: string, collectionSimplyId: string, fields: Record<string, unknown>): Promise<any> {
  return expectOk(await server.request('POST', '/v1/data-records', { token, body: { dataCollectionSimplyId: collectionSimplyId, fields } }), 201);
}

/** GET /v1/data-records/{id}, expecting 200; returns `data`. */
export async function readRecord(server: TestServer, token: string, id: string): Promise<any> {
  return expectOk(await server.request('GET', `/v1/data-records/${id}`, { token }));
}
