// Which records an execution works on, read when it runs (not when it was triggered): the trigger
// record, if it is still a live member of the automation's collection and meets the filter
// conditions now; or, for a schedule, up to maxRecordsPerExecution matching records, oldest
// first. Conditions compile exactly like record search filters (src/modules/records/record-filters.sql.ts),
// so an automation's filter means what the same search would mean.
import type pg from 'pg';
import { compileFilters } from '../../kernel/index.ts';
import { findRecordPage, type RecordRow, toRecordRow } from '../../kernel/index.ts';
import { SqlParams } from '../../kernel/index.ts';
import type { CollectionDefinition, TeamSchema } from '../../kernel/index.ts';
import { type NormalizedFilter, normalizeFilters } from '../../kernel/index.ts';
import { InvalidConditionsError } from './automations.errors.ts';

/** The stored conditions against the collection's fields as they are now. */
export function currentFilters(schema: TeamSchema, collection: CollectionDefinition, stored: unknown): NormalizedFilter[] {
  const normalized = normalizeFilters(schema.fieldsOf(collection), stored ?? []);
  if (!normalized.ok) {
    throw new InvalidConditionsError(`The filter conditions no longer fit the collection: ${normalized.details.map((d) => `${d.field}: ${d.message}`).join('; ')}`);
  }
  return normalized.filters;
}

/** The record if it is a live member of `collection` meeting `filters`, else null. */
export async function recordIfMatching(pool: pg.Pool, schema: TeamSchema, collection: CollectionDefinition, recordSimplyId: string, filters: readonly NormalizedFilter[]): Promise<RecordRow | null> {
  const sql = new SqlParams();
  const team = sql.param(schema.teamId);
  const fieldsById = new Map(schema.fieldsOf(collection).map((f) => [f.dataFieldSimplyId, f]));
  const compiled = compileFilters(filters, fieldsById, sql, team);
  const simplyId = sql.param(recordSimplyId);
  // the membership by its whole primary key: a plan that scanned the collection's memberships for
  // the record (stale statistics make that look cheap) would cost one row per record of it
  const where = [
    `m."teamId" = ${team}`,
    `m."collectionId" = ${sql.param(collection.id)}`,
    `m."recordId" = (SELECT id FROM "DataRecord" WHERE "teamId" = ${team} AND "simplyId" = ${simplyId})`,
    `m.state = '${compiled.archived ? 'ARCHIVED' : 'ACTIVE'}'`,
    `r."simplyId" = ${simplyId}`,
    `r."deletedAt" IS NULL`,
    ...compiled.conditions,
  ];
  const { rows } = await pool.query(
    `SELECT r.id, r."simplyId", r."collectionId", r.values, r."calculatedName", r."createdAt", r."updatedAt", (m.state = 'ARCHIVED') AS "isArchived"
       FROM "DataRecordMembership" m JOIN "DataRecord" r ON r."teamId" = m."teamId" AND r.id = m."recordId"
      WHERE ${where.join(' AND ')}`,
    sql.values,
  );
  return rows[0] ? toRecordRow(rows[0]) : null;
}

/** A schedule run's records: the first `limit` matches, oldest first. */
export async function scheduledRecords(pool: pg.Pool, schema: TeamSchema, collection: CollectionDefinition, filters: readonly NormalizedFilter[], limit: number): Promise<RecordRow[]> {
  const { rows } = await findRecordPage(pool, {
    teamId: schema.teamId,
    collectionId: collection.id,
    filters,
    fieldsById: new Map(schema.fieldsOf(collection).map((f) => [f.dataFieldSimplyId, f])),
    sort: [{ key: 'createdAt', descending: false }],
    limit,
    offset: 0,
  });
  return rows;
}
