// Records written and read over REST, the People collection several record tests share, and a
// server with a second team whose ids the first must not reach.
import { type CollectionFixture, createCollection, REQUIRED_TEXT } from './data-fixtures.ts';
import { expectOk } from './expect-envelope.ts';
import { createTeam, startServerWithTeam, type TeamFixture } from './fixtures.ts';
import type { TestServer } from './server.ts';

/** People: first_name (required), last_name, age (NUMBER), balance (MONEY, EUR); named "{first_name} {last_name}". */
export function createPeople(server: TestServer, team: TeamFixture, name = 'People'): Promise<CollectionFixture> {
  return createCollection(server, team, {
    name,
    formula: '{first_name} {last_name}',
    fields: {
      first_name: REQUIRED_TEXT,
      last_name: 'PLAIN_TEXT',
      age: 'NUMBER',
      balance: { dataType: 'MONEY', config: { currency: 'EUR' } },
    },
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

export interface TwoTeams {
  server: TestServer;
  team: TeamFixture;
  /** another team: its ids must be 404 to `team` */
  other: TeamFixture;
  /** "Theirs": one PLAIN_TEXT field */
  otherCollection: CollectionFixture;
  /** a record of `otherCollection` */
  otherRecordId: string;
}

/**
 * Starts a server with a team and another team whose collection "Theirs" (one PLAIN_TEXT field
 * `column`) holds one record named `name`: what the "another team's id is a 404" checks need.
 */
export async function startServerWithTwoTeams(options: { column?: string; name?: string } = {}): Promise<TwoTeams> {
  const { column = 'label', name = 'theirs' } = options;
  const { server, team } = await startServerWithTeam();
  try {
    const other = await createTeam(server);
    const otherCollection = await createCollection(server, other, { name: 'Theirs', fields: { [column]: 'PLAIN_TEXT' } });
    const otherRecordId = (await createRecord(server, other.apiKey, otherCollection.id, { [otherCollection.fields[column]!]: name })).id;
    return { server, team, other, otherCollection, otherRecordId };
  } catch (error) {
    await server.close();
    throw error;
  }
}
