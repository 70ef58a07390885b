// Collections and fields for record tests, written straight to the database (the schema
// administration routes have their own tests), then the team's cached schema is dropped.
import { newSimplyId } from '../../src/app/ids.ts';
import type { TeamFixture } from './fixtures.ts';
import type { TestServer } from './server.ts';
import { dataFieldId } from '../../src/kernel/schema/collections.ids.ts';

export interface FieldSpec {
  title?: string;
  columnName: string;
  dataType: string;
  isRequired?: boolean;
  config?: Record<string, unknown>;
}

/**
 * columnName → data type, or → the rest of its spec: `{ title: 'PLAIN_TEXT', price: { dataType: 'MONEY', config: { currency: 'EUR' } } }`.
 * Fields are created in the map's order.
 */
export type ColumnMap = Record<string, string | Omit<FieldSpec, 'columnName'>>;

/** The usual name column: `{ title: REQUIRED_TEXT }`. */
export const REQUIRED_TEXT = { dataType: 'PLAIN_TEXT', isRequired: true } as const;

/** A field list from either form `createCollection` accepts. */
export function fieldSpecs(fields: FieldSpec[] | ColumnMap): FieldSpec[] {
  if (Array.isArray(fields)) return fields;
  return Object.entries(fields).map(([columnName, spec]) => (typeof spec === 'string' ? { columnName, dataType: spec } : { columnName, ...spec }));
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
  options: { name?: string; fields: FieldSpec[] | ColumnMap; formula?: string; type?: 'STANDARD' | 'SMART' | 'CUSTOM_LIST'; parentId?: bigint; filterCriteria?: unknown },
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
  for (const spec of fieldSpecs(options.fields)) {
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

/** A collection whose one field is the PLAIN_TEXT `label`: a reference target or a bystander. */
export function createLabelCollection(server: TestServer, team: TeamFixture, name: string, formula?: string): Promise<CollectionFixture> {
  return createCollection(server, team, { name, formula, fields: { label: 'PLAIN_TEXT' } });
}

/** A SMART collection over `parent`: its members are the parent's records matching `filterCriteria`. */
export function createSmartCollection(server: TestServer, team: TeamFixture, name: string, parent: CollectionFixture, filterCriteria: unknown[]): Promise<CollectionFixture> {
  return createCollection(server, team, { name, type: 'SMART', parentId: parent.internalId, fields: [], filterCriteria });
}
