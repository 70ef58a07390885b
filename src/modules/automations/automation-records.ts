// Which records an execution works on, read when it runs (not when it was triggered): the trigger
// record, if it is still a live member of the automation's collection and meets the filter
// conditions now; or, for a schedule, up to maxRecordsPerExecution matching records, oldest
// first. Conditions compile exactly like record search filters (findMatchingRecord, findRecordPage),
// so an automation's filter means what the same search would mean.
import type pg from 'pg';
import {
  type CollectionDefinition,
  type FieldDefinition,
  findMatchingRecord,
  findRecordPage,
  type NormalizedFilter,
  normalizeFilters,
  type RecordRow,
  type TeamSchema,
} from '../../kernel/index.ts';
import { InvalidConditionsError } from './automations.errors.ts';

/** The stored conditions against the collection's fields as they are now. */
export function currentFilters(schema: TeamSchema, collection: CollectionDefinition, stored: unknown): NormalizedFilter[] {
  const normalized = normalizeFilters(schema.fieldsOf(collection), stored ?? []);
  if (!normalized.ok) {
    throw new InvalidConditionsError(`The filter conditions no longer fit the collection: ${normalized.details.map((d) => `${d.field}: ${d.message}`).join('; ')}`);
  }
  return normalized.filters;
}

function fieldsById(schema: TeamSchema, collection: CollectionDefinition): Map<string, FieldDefinition> {
  return new Map(schema.fieldsOf(collection).map((f) => [f.dataFieldSimplyId, f]));
}

/** The record if it is a live member of `collection` meeting `filters`, else null. */
export async function recordIfMatching(pool: pg.Pool, schema: TeamSchema, collection: CollectionDefinition, recordSimplyId: string, filters: readonly NormalizedFilter[]): Promise<RecordRow | null> {
  return findMatchingRecord(pool, { teamId: schema.teamId, collectionId: collection.id, recordSimplyId, filters, fieldsById: fieldsById(schema, collection) });
}

/** A schedule run's records: the first `limit` matches, oldest first. */
export async function scheduledRecords(pool: pg.Pool, schema: TeamSchema, collection: CollectionDefinition, filters: readonly NormalizedFilter[], limit: number): Promise<RecordRow[]> {
  const { rows } = await findRecordPage(pool, {
    teamId: schema.teamId,
    collectionId: collection.id,
    filters,
    fieldsById: fieldsById(schema, collection),
    sort: [{ key: 'createdAt', descending: false }],
    limit,
    offset: 0,
  });
  return rows;
}
