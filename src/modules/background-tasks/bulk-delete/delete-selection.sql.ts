// The records a bulk delete means, and what became of each (RecordTaskLink rows, relation TARGET).
// Every statement names the team first.
import type pg from 'pg';
import type { FieldDefinition } from '../../../kernel/index.ts';
import type { NormalizedFilter } from '../../../kernel/index.ts';
import { compileFilters } from '../../../kernel/index.ts';
import { SqlParams } from '../../../kernel/index.ts';
import { recordTaskLinkId } from '../background-tasks.ids.ts';

type Db = pg.Pool | pg.PoolClient;

/** simplyIds of the live records of the collection matching the filters (the search filter language), at most `limit`. */
export async function matchingRecordIds(db: Db, teamId: bigint, collectionId: bigint, filters: readonly NormalizedFilter[], fieldsById: ReadonlyMap<string, FieldDefinition>, limit: number): Promise<string[]> {
  const sql = new SqlParams();
  const team = sql.param(teamId);
  const collection = sql.param(collectionId);
  const compiled = compileFilters(filters, fieldsById, sql, team);
  const where = [`m."teamId" = ${team}`, `m."collectionId" = ${collection}`, `m.state = '${compiled.archived ? 'ARCHIVED' : 'ACTIVE'}'`, ...compiled.conditions];
  const { rows } = await db.query(
    `SELECT r."simplyId" FROM "DataRecordMembership" m
       JOIN "DataRecord" r ON r."teamId" = m."teamId" AND r.id = m."recordId" AND r."deletedAt" IS NULL
      WHERE ${where.join(' AND ')}
      ORDER BY m."recordId" LIMIT ${sql.param(limit)}`,
    sql.values,
  );
  return rows.map((r) => r.simplyId as string);
}

export interface SelectedRecord {
  id: bigint;
  /** deleted before this task reached it */
  gone: boolean;
}

/** The records of the collection among `simplyIds` (deleted ones too); ids of other collections or teams are left out. */
export async function selectedRecords(db: Db, teamId: bigint, collectionId: bigint, simplyIds: readonly string[]): Promise<Map<string, SelectedRecord>> {
  const { rows } = await db.query(
    `SELECT r.id, r."simplyId", r."deletedAt" IS NOT NULL AS gone FROM "DataRecord" r
      WHERE r."teamId" = $1 AND r."simplyId" = ANY($2::text[])
        AND EXISTS (SELECT 1 FROM "DataRecordMembership" m WHERE m."teamId" = $1 AND m."collectionId" = $3 AND m."recordId" = r.id)`,
    [teamId, simplyIds, collectionId],
  );
  return new Map(rows.map((r) => [r.simplyId as string, { id: BigInt(r.id), gone: r.gone === true }]));
}

export type RecordOutcome = 'SUCCEEDED' | 'FAILED' | 'SKIPPED';

/** One TARGET link per record and task, in the caller's transaction (a repeat overwrites its outcome). */
export async function linkRecords(db: Db, teamId: bigint, taskId: bigint, collectionId: bigint, links: readonly { dataRecordId: bigint; outcome: RecordOutcome }[]): Promise<void> {
  if (links.length === 0) return;
  await db.query(
    `INSERT INTO "RecordTaskLink" ("simplyId", "teamId", "taskId", "dataRecordId", "collectionId", "relationType", "recordStatus", "completedAt")
     SELECT x.s, $1, $2, x.r, $3, 'TARGET', x.o, now() FROM unnest($4::text[], $5::bigint[], $6::text[]) AS x(s, r, o)
     ON CONFLICT ("teamId", "taskId", "dataRecordId") DO UPDATE SET "recordStatus" = EXCLUDED."recordStatus", "completedAt" = EXCLUDED."completedAt"`,
    [teamId, taskId, collectionId, links.map(() => recordTaskLinkId.create()), links.map((l) => l.dataRecordId), links.map((l) => l.outcome)],
  );
}
