// Collections and schema versions as the collections, views and team-schema tests use them:
// created through the REST face (so every test goes through the real administration path).
import { expectOk } from './expect-envelope.ts';
import type { TestServer } from './server.ts';

/** POST /v1/data-collections expecting 201; the created collection with its fields. */
export async function postCollection(server: TestServer, token: string, body: unknown): Promise<any> {
  return expectOk(await server.request('POST', '/v1/data-collections', { token, body }), 201);
}

/** columnName → field simplyId (any: tests name only the columns they created). */
export const fieldIdsByColumn = (collection: { fields: { columnName: string; id: string }[] }): Record<string, any> =>
  Object.fromEntries(collection.fields.map((f) => [f.columnName, f.id]));

/** The team's schema versions, oldest first. */
export const schemaVersions = (server: TestServer, teamId: bigint) =>
  server.app.services.prisma.teamSchemaVersion.findMany({ where: { teamId }, orderBy: { version: 'asc' } });

export const schemaVersionCount = (server: TestServer, teamId: bigint) => server.app.services.prisma.teamSchemaVersion.count({ where: { teamId } });
