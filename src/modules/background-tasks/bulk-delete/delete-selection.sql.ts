// The records a bulk delete means (read through the kernel), and what became of each
// (RecordTaskLink rows, relation TARGET). Every statement names the team first.
import type pg from 'pg';
import { type FieldDefinition, findCollectionMembers, type NormalizedFilter, scanRecordIds } from '../../../kernel/index.ts';
import { recordTaskLinkId } from '../background-tasks.ids.ts';

type Db = pg.Pool | pg.PoolClient;

/** simplyIds of the live records of the collection matching the filters (the search filter language), at most `limit`. */
export async function matchingRecordIds(db: Db, teamId: bigint, collectionId: bigint, filters: readonly NormalizedFilter[], fieldsById: ReadonlyMap<string, FieldDefinition>, limit: number): Promise<string[]> {
  const found = await scanRecordIds(db, { teamId, collectionId, filters, fieldsById }, { limit });
  return found.map((r) => r.simplyId);
}

export interface SelectedRecord {
  id: bigint;
  /** deleted before this task reached it */
  gone: boolean;
}

/** The records of the collection among `simplyIds` (deleted ones too); ids of other collections or teams are left out. */
export async function selectedRecords(db: Db, teamId: bigint, collectionId: bigint, simplyIds: readonly string[]): Promise<Map<string, SelectedRecord>> {
  const members = await findCollectionMembers(db, teamId, collectionId, simplyIds);
  return new Map(members.map((m) => [m.simplyId, { id: m.id, gone: m.deleted }]));
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
