// Shared by collections.service.ts and fields.service.ts: the team schema as seen inside a schema
// transaction (after schemaWrite's advisory lock, so no other change can interleave), the
// administrator's view of a collection, and the checks both services apply (field configs,
// display-name formulas, SMART criteria).
import type { CollectionAccess } from './access.ts';
import { type ErrorDetail, NotFoundError, ValidationError } from '../../app/errors.ts';
import { assertDataSimplyId } from '../../app/ids.ts';
import { dataFieldId } from './collections.ids.ts';
import { unknownPlaceholders } from '../records/calculated-name.ts';
import { type CollectionDefinition, type CollectionType, type FieldDefinition, TeamSchema } from './team-schema.ts';
import { type NormalizedFilter, normalizeFilters, validateFieldConfig } from '../values/index.ts';
import { type Tx } from '../../app/transaction.ts';

/** The team's schema read inside the caller's transaction (two queries). */
export async function loadSchemaTx(tx: Tx, teamId: bigint): Promise<TeamSchema> {
  const [collections, fields] = await Promise.all([
    tx.dataCollection.findMany({ where: { teamId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] }),
    tx.dataField.findMany({ where: { teamId }, orderBy: [{ collectionId: 'asc' }, { sortOrder: 'asc' }, { id: 'asc' }] }),
  ]);
  const byCollection = new Map<string, FieldDefinition[]>();
  for (const f of fields) {
    const def: FieldDefinition = {
      id: f.id,
      collectionId: f.collectionId,
      dataFieldSimplyId: f.simplyId,
      title: f.title,
      columnName: f.columnName,
      dataType: f.dataType,
      isRequired: f.isRequired,
      sortOrder: f.sortOrder,
      config: (f.config ?? {}) as Record<string, unknown>,
      createdAt: f.createdAt,
      updatedAt: f.updatedAt,
    };
    const key = String(f.collectionId);
    byCollection.set(key, [...(byCollection.get(key) ?? []), def]);
  }
  return new TeamSchema(
    teamId,
    collections.map(
      (c): CollectionDefinition => ({
        id: c.id,
        simplyId: c.simplyId,
        name: c.name,
        singularName: c.singularName,
        pluralName: c.pluralName,
        archetype: c.archetype,
        type: c.type as CollectionType,
        parentId: c.parentId,
        calculatedNameFormula: c.calculatedNameFormula,
        filterCriteria: c.filterCriteria,
        isArchived: c.isArchived,
        createdAt: c.createdAt,
        updatedAt: c.updatedAt,
        ownFields: byCollection.get(String(c.id)) ?? [],
      }),
    ),
  );
}

export function findCollection(schema: TeamSchema, simplyId: string, field = 'dataCollectionSimplyId'): CollectionDefinition {
  assertDataSimplyId(simplyId, field, 'collection');
  const collection = schema.collectionsBySimplyId.get(simplyId);
  if (!collection) throw new NotFoundError('Data collection', simplyId);
  return collection;
}

/** A field defined on `collection` (not a SMART collection's source field). */
export function findOwnField(collection: CollectionDefinition, simplyId: string): FieldDefinition {
  dataFieldId.assert(simplyId, 'dataFieldSimplyId');
  const field = collection.ownFields.find((f) => f.dataFieldSimplyId === simplyId);
  if (!field) throw new NotFoundError('Data field', simplyId);
  return field;
}

/** Schema administrators see the whole definition, whatever their data role hides. */
export function adminAccess(schema: TeamSchema, collection: CollectionDefinition): CollectionAccess {
  const fields = schema.fieldsOf(collection);
  return { schema, collection, fields, readable: fields, editable: new Set(fields.map((f) => f.dataFieldSimplyId)), canEdit: true };
}

/** SMART collections have no fields of their own: their records and fields are their source's. */
export function assertOwnsFields(collection: CollectionDefinition, field = 'dataCollectionSimplyId'): void {
  if (collection.type === 'SMART') {
    throw new ValidationError(`Collection ${collection.simplyId} is SMART: it shows the fields of its source collection; change them there`, [
      { field, message: 'is a SMART collection' },
    ]);
  }
}

/**
 * A field's config for its type (canonical form), with reference targets checked against the
 * team's collections (`extraCollections`: simplyIds that will exist, e.g. the one being created).
 * Details are prefixed with `path` (e.g. `fields.2`).
 */
export function checkFieldConfig(schema: TeamSchema, dataType: string, config: unknown, path: string, details: ErrorDetail[], extraCollections: readonly string[] = []): Record<string, unknown> {
  const prefix = path ? `${path}.` : '';
  const result = validateFieldConfig(dataType, config);
  if (!result.ok) {
    details.push(...result.details.map((d) => ({ ...d, field: `${prefix}${d.field ?? 'config'}` })));
    return {};
  }
  const canonical = result.config as Record<string, unknown>;
  const target = canonical.targetDataCollectionSimplyId;
  if (typeof target === 'string' && !schema.collectionsBySimplyId.has(target) && !extraCollections.includes(target)) {
    details.push({ field: `${prefix}config.targetDataCollectionSimplyId`, message: `${target} is not a collection of this team` });
  }
  return canonical;
}

export type FormulaResult = { formula: string | null } | { unknown: string[] };

/**
 * A display-name formula in stored form: trimmed (blank = none), every `{column_name}` replaced by
 * `{fld-…}` so later column renames cannot break it; placeholders must name fields of the collection.
 */
export function canonicalFormula(formula: string | null | undefined, fields: readonly Pick<FieldDefinition, 'dataFieldSimplyId' | 'columnName'>[]): FormulaResult {
  const text = (formula ?? '').trim();
  if (!text) return { formula: null };
  const unknown = [...new Set(unknownPlaceholders(text, fields as FieldDefinition[]))];
  if (unknown.length > 0) return { unknown };
  const byColumn = new Map(fields.map((f) => [f.columnName, f.dataFieldSimplyId]));
  return { formula: text.replace(/\{([^{}]{1,64})\}/g, (whole, name: string) => (byColumn.has(name) ? `{${byColumn.get(name)}}` : whole)) };
}

export function formulaDetails(unknown: string[], field = 'dataRecordCalculatedNameFormula'): ErrorDetail[] {
  return unknown.map((name) => ({ field, message: `{${name}} is not a field of this collection (use {fld-…} or {column_name})` }));
}

/** Stored form of SMART criteria: normalized filters without their dataType. */
export function checkCriteria(sourceFields: readonly FieldDefinition[], criteria: unknown, details: ErrorDetail[], field = 'filterCriteria'): { field: string; operator: string; value: unknown }[] {
  const normalized = normalizeFilters(sourceFields, criteria ?? []);
  if (!normalized.ok) {
    details.push(...normalized.details.map((d) => ({ ...d, field: `${field}${(d.field ?? '').replace(/^filters/, '').replace(/\[(\d+)\]/g, '.$1')}` })));
    return [];
  }
  return normalized.filters.map((f: NormalizedFilter) => ({ field: f.field, operator: f.operator, value: f.value }));
}

/** Field simplyIds a collection's stored SMART criteria read. */
export function criteriaFields(collection: CollectionDefinition): string[] {
  const list = Array.isArray(collection.filterCriteria) ? (collection.filterCriteria as { field?: unknown }[]) : [];
  return list.map((f) => f?.field).filter((f): f is string => typeof f === 'string');
}

/** Every SMART collection (archived ones too) whose records come from `source`. */
export function smartOver(schema: TeamSchema, source: CollectionDefinition): CollectionDefinition[] {
  return schema.collections.filter((s) => s.type === 'SMART' && s.id !== source.id && schema.fieldSource(s).id === source.id);
}

export function throwIfDetails(message: string, details: ErrorDetail[]): void {
  if (details.length > 0) throw new ValidationError(message, details);
}
