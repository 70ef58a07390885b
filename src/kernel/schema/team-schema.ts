// A team's data schema (collections and their fields) as one in-memory object: every record
// operation needs the field definitions of its collection, so they are loaded once per team and
// kept until a schema change invalidates them (schema-cache.ts).
import type pg from 'pg';
import type { FieldDef } from '../values/index.ts';

export type CollectionType = 'STANDARD' | 'SMART' | 'CUSTOM_LIST';

export interface FieldDefinition extends FieldDef {
  id: bigint;
  collectionId: bigint;
  dataFieldSimplyId: string;
  title: unknown;
  columnName: string;
  dataType: string;
  isRequired: boolean;
  sortOrder: number;
  config: Record<string, unknown>;
  createdAt: Date;
  updatedAt: Date;
}

export interface CollectionDefinition {
  id: bigint;
  simplyId: string;
  name: unknown;
  singularName: unknown;
  pluralName: unknown;
  archetype: string | null;
  type: CollectionType;
  parentId: bigint | null;
  calculatedNameFormula: string | null;
  filterCriteria: unknown;
  isArchived: boolean;
  createdAt: Date;
  updatedAt: Date;
  /** fields defined on this collection, in sortOrder */
  ownFields: FieldDefinition[];
}

export class TeamSchema {
  readonly collectionsById = new Map<bigint, CollectionDefinition>();
  readonly collectionsBySimplyId = new Map<string, CollectionDefinition>();
  readonly fieldsById = new Map<bigint, FieldDefinition>();
  readonly fieldsBySimplyId = new Map<string, FieldDefinition>();

  readonly teamId: bigint;

  constructor(teamId: bigint, collections: CollectionDefinition[]) {
    this.teamId = teamId;
    for (const c of collections) {
      this.collectionsById.set(c.id, c);
      this.collectionsBySimplyId.set(c.simplyId, c);
      for (const f of c.ownFields) {
        this.fieldsById.set(f.id, f);
        this.fieldsBySimplyId.set(f.dataFieldSimplyId, f);
      }
    }
  }

  get collections(): CollectionDefinition[] {
    return [...this.collectionsById.values()];
  }

  /** The collection whose fields records of `c` carry: a SMART collection shows its source's. */
  fieldSource(c: CollectionDefinition): CollectionDefinition {
    let current = c;
    for (let hops = 0; current.type === 'SMART' && current.parentId !== null && hops < 16; hops++) {
      const parent = this.collectionsById.get(current.parentId);
      if (!parent) break;
      current = parent;
    }
    return current;
  }

  fieldsOf(c: CollectionDefinition): FieldDefinition[] {
    return this.fieldSource(c).ownFields;
  }

  /** The archetype set on the collection, else the nearest ancestor's. */
  effectiveArchetype(c: CollectionDefinition): string | null {
    let current: CollectionDefinition | undefined = c;
    for (let hops = 0; current && hops < 16; hops++) {
      if (current.archetype) return current.archetype;
      current = current.parentId === null ? undefined : this.collectionsById.get(current.parentId);
    }
    return null;
  }

  parentSimplyId(c: CollectionDefinition): string | null {
    return c.parentId === null ? null : (this.collectionsById.get(c.parentId)?.simplyId ?? null);
  }

  /** SMART collections whose membership depends on records of `c`. */
  smartCollectionsOver(c: CollectionDefinition): CollectionDefinition[] {
    return this.collections.filter((s) => s.type === 'SMART' && !s.isArchived && this.fieldSource(s).id === c.id && s.id !== c.id);
  }
}

/** Two queries, whatever the team's size. */
export async function loadTeamSchema(pool: pg.Pool, teamId: bigint): Promise<TeamSchema> {
  const [collections, fields] = await Promise.all([
    pool.query(
      `SELECT id, "simplyId", name, "singularName", "pluralName", archetype, type, "parentId", "calculatedNameFormula",
              "filterCriteria", "isArchived", "createdAt", "updatedAt"
         FROM "DataCollection" WHERE "teamId" = $1 ORDER BY "createdAt", id`,
      [teamId],
    ),
    pool.query(
      `SELECT id, "simplyId", "collectionId", title, "columnName", "dataType", "isRequired", "sortOrder", config, "createdAt", "updatedAt"
         FROM "DataField" WHERE "teamId" = $1 ORDER BY "collectionId", "sortOrder", id`,
      [teamId],
    ),
  ]);
  const byCollection = new Map<string, FieldDefinition[]>();
  for (const row of fields.rows) {
    const field: FieldDefinition = {
      id: BigInt(row.id),
      collectionId: BigInt(row.collectionId),
      dataFieldSimplyId: row.simplyId,
      title: row.title,
      columnName: row.columnName,
      dataType: row.dataType,
      isRequired: row.isRequired,
      sortOrder: row.sortOrder,
      config: row.config ?? {},
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    };
    const key = String(field.collectionId);
    const list = byCollection.get(key);
    if (list) list.push(field);
    else byCollection.set(key, [field]);
  }
  return new TeamSchema(
    teamId,
    collections.rows.map((row) => ({
      id: BigInt(row.id),
      simplyId: row.simplyId,
      name: row.name,
      singularName: row.singularName,
      pluralName: row.pluralName,
      archetype: row.archetype,
      type: row.type,
      parentId: row.parentId === null ? null : BigInt(row.parentId),
      calculatedNameFormula: row.calculatedNameFormula,
      filterCriteria: row.filterCriteria,
      isArchived: row.isArchived,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
      ownFields: byCollection.get(String(row.id)) ?? [],
    })),
  );
}
