// Collections and fields for record tests, written straight to the database (the schema
// administration routes have their own tests), then the team's cached schema is dropped.
import { newSimplyId } from '../../src/app/ids.ts';
import type { TeamFixture } from './fixtures.ts';
import type { TestServer } from './server.ts';
import { dataFieldId } from '../../src/modules/collections/collections.ids.ts';

export interface FieldSpec {
  title?: string;
  columnName: string;
  dataType: string;
  isRequired?: boolean;
  config?: Record<string, unknown>;
}

export interface CollectionFixture {
  id: string;
  internalId: bigint;
  /** columnName → field simplyId */
  fields: Record<string, string>;
}

export async function createCollection(
  server: TestServer,
  team: TeamFixture,
  options: { name?: string; fields: FieldSpec[]; formula?: string; type?: 'STANDARD' | 'SMART' | 'CUSTOM_LIST'; parentId?: bigint; filterCriteria?: unknown },
): Promise<CollectionFixture> {
  const { prisma } = server.app.services;
  const collection = await prisma.dataCollection.create({
    data: {
      teamId: team.teamId,
      simplyId: newSimplyId(),
      name: options.name ?? 'Collection',
      type: options.type ?? 'STANDARD',
      parentId: options.parentId ?? null,
      calculatedNameFormula: options.formula ?? null,
      filterCriteria: (options.filterCriteria ?? undefined) as never,
    },
  });
  const fields: Record<string, string> = {};
  let sortOrder = 0;
  for (const spec of options.fields) {
    const field = await prisma.dataField.create({
      data: {
        teamId: team.teamId,
        collectionId: collection.id,
        simplyId: dataFieldId.create(),
        title: spec.title ?? spec.columnName,
        columnName: spec.columnName,
        dataType: spec.dataType,
        isRequired: spec.isRequired ?? false,
        config: (spec.config ?? {}) as never,
        sortOrder: sortOrder++,
      },
    });
    fields[spec.columnName] = field.simplyId;
  }
  server.app.services.schemas.invalidate(team.teamId);
  return { id: collection.simplyId, internalId: collection.id, fields };
}
