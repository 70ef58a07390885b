// Whether one record meets a collection's search filters now (an event-triggered automation checks
// its trigger record when it runs). The filters compile as for findRecordPage, so they mean what
// the same search of the collection would find.
import type pg from 'pg';
import type { NormalizedFilter } from '../values/index.ts';
import type { FieldDefinition } from '../schema/team-schema.ts';
import { compileFilters } from './record-filters.sql.ts';
import { type RecordRow, toRecordRow } from './records.sql.ts';
import { SqlParams } from '../../db/sql-params.ts';

export interface RecordMatchQuery {
  teamId: bigint;
  collectionId: bigint;
  recordSimplyId: string;
  filters: readonly NormalizedFilter[];
  fieldsById: ReadonlyMap<string, FieldDefinition>;
}

/** The live record if it is a member of the collection (archived ones only under an isArchived filter) meeting the filters, else null. */
export async function findMatchingRecord(db: pg.Pool | pg.PoolClient, q: RecordMatchQuery): Promise<RecordRow | null> {
  const sql = new SqlParams();
  const team = sql.param(q.teamId);
  const compiled = compileFilters(q.filters, q.fieldsById, sql, team);
  const simplyId = sql.param(q.recordSimplyId);
  // the membership by its whole primary key: a plan that scanned the collection's memberships for
  // the record (stale statistics make that look cheap) would cost one row per record of it
  const where = [
    `m."teamId" = ${team}`,
    `m."collectionId" = ${sql.param(q.collectionId)}`,
    `m."recordId" = (SELECT id FROM "DataRecord" WHERE "teamId" = ${team} AND "simplyId" = ${simplyId})`,
    `m.state = '${compiled.archived ? 'ARCHIVED' : 'ACTIVE'}'`,
    `r."simplyId" = ${simplyId}`,
    `r."deletedAt" IS NULL`,
    ...compiled.conditions,
  ];
  const { rows } = await db.query(
    `SELECT r.id, r."simplyId", r."collectionId", r.values, r."calculatedName", r."createdAt", r."updatedAt", (m.state = 'ARCHIVED') AS "isArchived"
       FROM "DataRecordMembership" m JOIN "DataRecord" r ON r."teamId" = m."teamId" AND r.id = m."recordId"
      WHERE ${where.join(' AND ')}`,
    sql.values,
  );
  return rows[0] ? toRecordRow(rows[0]) : null;
}
