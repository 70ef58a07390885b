// The rows that tie a task to the records it worked on (RecordTaskLink, one per record) and what
// it left for each (RecordTaskOutput, one per record and outputKey), in SQL so the worker's steps
// can join the records service's write transaction (the destination write and the note that it
// happened commit together). Also the reads of record history. Every statement names the team.
import type pg from 'pg';
import { recordOutputId, recordTaskLinkId } from './background-tasks.ids.ts';

type Db = pg.Pool | pg.PoolClient;

export type RecordStatus = 'PENDING' | 'SUCCEEDED' | 'FAILED' | 'SKIPPED';
export type OutputStatus = 'PENDING' | 'SUCCEEDED' | 'FAILED';
export type WriteStatus = 'PENDING' | 'WRITTEN' | 'SKIPPED' | 'FAILED';

/** One output as the worker resumes it. */
export interface OutputState {
  id: bigint;
  simplyId: string;
  status: OutputStatus;
  destinationWriteStatus: WriteStatus;
  fileSimplyId: string | null;
}

/** One record of a task and, when it has one yet, its output of the task's outputKey. */
export interface LinkState {
  linkId: bigint;
  dataRecordId: bigint;
  recordStatus: RecordStatus;
  output: OutputState | null;
}

/** Links the task to its records (once: a retried run finds them there). */
export async function ensureLinks(db: Db, teamId: bigint, taskId: bigint, collectionId: bigint, recordIds: readonly bigint[]): Promise<void> {
  if (recordIds.length === 0) return;
  await db.query(
    `INSERT INTO "RecordTaskLink" ("simplyId", "teamId", "taskId", "dataRecordId", "collectionId", "relationType", "recordStatus")
     SELECT s, $1, $2, r, $3, 'TARGET', 'PENDING' FROM unnest($4::text[], $5::bigint[]) AS u(s, r)
     ON CONFLICT ("teamId", "taskId", "dataRecordId") DO NOTHING`,
    [teamId, taskId, collectionId, recordIds.map(() => recordTaskLinkId.create()), recordIds.map(String)],
  );
}

function outputOf(r: Record<string, any>): OutputState | null {
  if (r.outputId === null || r.outputId === undefined) return null;
  return { id: BigInt(r.outputId), simplyId: r.outputSimplyId, status: r.outputStatus, destinationWriteStatus: r.destinationWriteStatus, fileSimplyId: r.fileSimplyId ?? null };
}

/** Every record of the task with its state, by record id. */
export async function taskLinks(db: Db, teamId: bigint, taskId: bigint, outputKey: string): Promise<Map<bigint, LinkState>> {
  const { rows } = await db.query(
    `SELECT l.id AS "linkId", l."dataRecordId", l."recordStatus", o.id AS "outputId", o."simplyId" AS "outputSimplyId", o.status AS "outputStatus",
            o."destinationWriteStatus", f."simplyId" AS "fileSimplyId"
       FROM "RecordTaskLink" l
       LEFT JOIN "RecordTaskOutput" o ON o."teamId" = l."teamId" AND o."linkId" = l.id AND o."outputKey" = $3
       LEFT JOIN "StoredFile" f ON f."teamId" = o."teamId" AND f.id = o."fileId"
      WHERE l."teamId" = $1 AND l."taskId" = $2`,
    [teamId, taskId, outputKey],
  );
  return new Map(
    rows.map((r) => [BigInt(r.dataRecordId), { linkId: BigInt(r.linkId), dataRecordId: BigInt(r.dataRecordId), recordStatus: r.recordStatus, output: outputOf(r) }]),
  );
}

export interface OutputDestination {
  dataFieldSimplyId: string;
  writeMode: 'REPLACE' | 'APPEND';
}

/** The record's output row (PENDING when new); an existing one is answered as it is. */
export async function ensureOutput(
  db: Db,
  teamId: bigint,
  link: Pick<LinkState, 'linkId' | 'dataRecordId'> & { taskId: bigint },
  outputKey: string,
  destination: OutputDestination,
): Promise<OutputState> {
  await db.query(
    `INSERT INTO "RecordTaskOutput" ("simplyId", "teamId", "taskId", "linkId", "dataRecordId", "outputKey", "outputKind", "destinationWriteMode", "destinationFieldSimplyId", "updatedAt")
     VALUES ($1, $2, $3, $4, $5, $6, 'FILE', $7, $8, now())
     ON CONFLICT ("teamId", "linkId", "outputKey") DO NOTHING`,
    [recordOutputId.create(), teamId, link.taskId, link.linkId, link.dataRecordId, outputKey, destination.writeMode, destination.dataFieldSimplyId],
  );
  const { rows } = await db.query(
    `SELECT o.id AS "outputId", o."simplyId" AS "outputSimplyId", o.status AS "outputStatus", o."destinationWriteStatus", f."simplyId" AS "fileSimplyId"
       FROM "RecordTaskOutput" o LEFT JOIN "StoredFile" f ON f."teamId" = o."teamId" AND f.id = o."fileId"
      WHERE o."teamId" = $1 AND o."linkId" = $2 AND o."outputKey" = $3`,
    [teamId, link.linkId, outputKey],
  );
  return outputOf(rows[0])!;
}

/** The document is stored as a team file: the output succeeded; writing it into the field is the next step. */
export async function noteFileStored(db: Db, teamId: bigint, outputId: bigint, fileSimplyId: string, result: Record<string, unknown>): Promise<void> {
  await db.query(
    `UPDATE "RecordTaskOutput" SET status = 'SUCCEEDED', result = $4::jsonb, "updatedAt" = now(),
            "fileId" = (SELECT id FROM "StoredFile" WHERE "teamId" = $1 AND "simplyId" = $3)
      WHERE "teamId" = $1 AND id = $2`,
    [teamId, outputId, fileSimplyId, JSON.stringify(result)],
  );
}

/** Ends one record of the task: its link's status, and its output's states when it has one. */
export async function finishRecord(
  db: Db,
  teamId: bigint,
  linkId: bigint,
  outcome: { recordStatus: Exclude<RecordStatus, 'PENDING'>; outputId?: bigint; outputStatus?: OutputStatus; destinationWriteStatus?: WriteStatus },
): Promise<void> {
  await db.query(`UPDATE "RecordTaskLink" SET "recordStatus" = $3, "completedAt" = now() WHERE "teamId" = $1 AND id = $2`, [teamId, linkId, outcome.recordStatus]);
  if (outcome.outputId === undefined) return;
  await db.query(
    `UPDATE "RecordTaskOutput" SET status = coalesce($3, status), "destinationWriteStatus" = coalesce($4, "destinationWriteStatus"), "updatedAt" = now()
      WHERE "teamId" = $1 AND id = $2`,
    [teamId, outcome.outputId, outcome.outputStatus ?? null, outcome.destinationWriteStatus ?? null],
  );
}

// ------------------------------------------------------------------------------------------
// Record history

export interface HistoryLinkRow {
  id: bigint;
  simplyId: string;
  relationType: string;
  recordStatus: string;
  createdAt: Date;
  completedAt: Date | null;
  collectionId: bigint | null;
  taskSimplyId: string;
  taskType: string;
  taskStatus: string;
  taskUserId: bigint | null;
}

/** One page of the tasks that worked on a record, newest first, and how many there are. */
export async function historyPage(db: Db, teamId: bigint, recordId: bigint, limit: number, offset: number): Promise<{ rows: HistoryLinkRow[]; total: number }> {
  const [page, count] = await Promise.all([
    db.query(
      `SELECT l.id, l."simplyId", l."relationType", l."recordStatus", l."createdAt", l."completedAt", l."collectionId",
              t."simplyId" AS "taskSimplyId", t."taskType", t.status AS "taskStatus", t."userId" AS "taskUserId"
         FROM "RecordTaskLink" l JOIN "BackgroundTask" t ON t."teamId" = l."teamId" AND t.id = l."taskId"
        WHERE l."teamId" = $1 AND l."dataRecordId" = $2
        ORDER BY l."createdAt" DESC, l.id DESC
        LIMIT $3 OFFSET $4`,
      [teamId, recordId, limit, offset],
    ),
    db.query(`SELECT count(*)::int AS n FROM "RecordTaskLink" WHERE "teamId" = $1 AND "dataRecordId" = $2`, [teamId, recordId]),
  ]);
  return {
    rows: page.rows.map((r) => ({
      ...(r as HistoryLinkRow),
      id: BigInt(r.id),
      collectionId: r.collectionId === null ? null : BigInt(r.collectionId),
      taskUserId: r.taskUserId === null ? null : BigInt(r.taskUserId),
    })),
    total: count.rows[0].n,
  };
}

export interface OutputRow {
  id: bigint;
  simplyId: string;
  linkId: bigint;
  dataRecordId: bigint;
  outputKey: string;
  outputKind: string;
  status: string;
  destinationWriteStatus: string;
  destinationWriteMode: string | null;
  destinationFieldSimplyId: string | null;
  result: Record<string, unknown>;
  createdAt: Date;
  updatedAt: Date;
  /** the stored document, when there is one and it is not deleted */
  file: { simplyId: string; filename: string; mimeType: string; storageKey: string } | null;
  /** of the task that made it */
  taskUserId: bigint | null;
  linkCollectionId: bigint | null;
}

const OUTPUT_SELECT = `SELECT o.id, o."simplyId", o."linkId", o."dataRecordId", o."outputKey", o."outputKind", o.status, o."destinationWriteStatus", o."destinationWriteMode",
         o."destinationFieldSimplyId", o.result, o."createdAt", o."updatedAt",
         f."simplyId" AS "fileSimplyId", f.filename, f."mimeType", f."storageKey", t."userId" AS "taskUserId", l."collectionId" AS "linkCollectionId"
    FROM "RecordTaskOutput" o
    JOIN "RecordTaskLink" l ON l."teamId" = o."teamId" AND l.id = o."linkId"
    JOIN "BackgroundTask" t ON t."teamId" = o."teamId" AND t.id = o."taskId"
    LEFT JOIN "StoredFile" f ON f."teamId" = o."teamId" AND f.id = o."fileId" AND f."deletedAt" IS NULL`;

function toOutputRow(r: Record<string, any>): OutputRow {
  return {
    id: BigInt(r.id),
    simplyId: r.simplyId,
    linkId: BigInt(r.linkId),
    dataRecordId: BigInt(r.dataRecordId),
    outputKey: r.outputKey,
    outputKind: r.outputKind,
    status: r.status,
    destinationWriteStatus: r.destinationWriteStatus,
    destinationWriteMode: r.destinationWriteMode,
    destinationFieldSimplyId: r.destinationFieldSimplyId,
    result: r.result ?? {},
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    file: r.fileSimplyId ? { simplyId: r.fileSimplyId, filename: r.filename, mimeType: r.mimeType, storageKey: r.storageKey } : null,
    taskUserId: r.taskUserId === null ? null : BigInt(r.taskUserId),
    linkCollectionId: r.linkCollectionId === null ? null : BigInt(r.linkCollectionId),
  };
}

/** The outputs of some links (one page of history), oldest first. */
export async function outputsOfLinks(db: Db, teamId: bigint, linkIds: readonly bigint[]): Promise<OutputRow[]> {
  if (linkIds.length === 0) return [];
  const { rows } = await db.query(`${OUTPUT_SELECT} WHERE o."teamId" = $1 AND o."linkId" = ANY($2::bigint[]) ORDER BY o.id`, [teamId, linkIds.map(String)]);
  return rows.map(toOutputRow);
}

export async function outputBySimplyId(db: Db, teamId: bigint, simplyId: string): Promise<OutputRow | null> {
  const { rows } = await db.query(`${OUTPUT_SELECT} WHERE o."teamId" = $1 AND o."simplyId" = $2`, [teamId, simplyId]);
  return rows[0] ? toOutputRow(rows[0]) : null;
}
