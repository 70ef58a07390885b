// Roles that read a collection but not all of its fields, for the tests that check hidden fields
// stay hidden (audit entries, schema export).
import type { CollectionFixture } from './data-fixtures.ts';
import { createApiKey, createRole, type TeamFixture } from './fixtures.ts';
import type { TestServer } from './server.ts';

/**
 * An API key whose role (named `roleName`) may READ `collection` except the field `hiddenColumn`.
 * The field rule is written directly: POST /v1/team-roles with fieldPermissions answered 500 when
 * these tests were written.
 */
export async function createKeyHidingField(
  server: TestServer,
  team: TeamFixture,
  collection: CollectionFixture,
  hiddenColumn: string,
  names: { role: string; key: string },
): Promise<string> {
  const role = await createRole(server, team, { name: names.role, dataPermissions: [{ dataCollectionSimplyId: collection.id, level: 'READ' }] });
  const { prisma } = server.app.services;
  const roleRow = await prisma.teamRole.findUniqueOrThrow({ where: { teamId_simplyId: { teamId: team.teamId, simplyId: role } } });
  await prisma.teamRoleFieldPermission.create({ data: { teamId: team.teamId, teamRoleId: roleRow.id, dataFieldSimplyId: collection.fields[hiddenColumn]!, level: 'NONE' } });
  return (await createApiKey(server, team, { name: names.key, teamRoleSimplyId: role })).key;
}
