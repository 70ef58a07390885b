// The statements a running task makes many times (claim, progress, error entries, internal notes),
// in SQL so they can join the caller's transaction (a chunk of an import commits with its note),
// and the list's reads (a page, its total from the trigger-kept counts, one visible task). Every
// statement names the team with the row.
import type pg from 'pg';
import type { Principal } from '../../app/auth/principal.ts';
import { SqlParams } from '../../db/sql-params.ts';
import { publicObject } from './task-public.ts';
import { visibleSql } from './task-visibility.ts';
import { backgroundTaskErrorId } from './background-tasks.ids.ts';
import type { BackgroundTaskEvent } from './background-tasks.events.ts';

type Db = pg.Pool | pg.PoolClient;

export interface TaskRow {
  id: bigint;
  simplyId: string;
  teamId: bigint;
  teamSimplyId: string;
  taskType: string;
  status: string;
  userId: bigint | null;
  queueData: unknown;
  progress: Record<string, unknown>;
  result: Record<string, unknown> | null;
  internal: Record<string, unknown>;
  errorCount: number;
  unacknowledgedErrorCount: number;
  attempts: number;
  cancelRequestedAt: Date | null;
  lastUpdatedAt: Date;
  completedAt: Date | null;
}

const COLUMNS = `t.id, t."simplyId", t."teamId", tm."simplyId" AS "teamSimplyId", t."taskType", t.status, t."userId", t."queueData", t.progress, t.result,
  t.internal, t."errorCount", t."unacknowledgedErrorCount", t.attempts, t."cancelRequestedAt", t."lastUpdatedAt", t."completedAt"`;

function toRow(r: Record<string, any>): TaskRow {
  return {
    ...(r as TaskRow),
    id: BigInt(r.id),
    teamId: BigInt(r.teamId),
    userId: r.userId === null ? null : BigInt(r.userId),
  };
}

export function eventOf(row: Pick<TaskRow, 'simplyId' | 'taskType' | 'status' | 'progress' | 'errorCount' | 'unacknowledgedErrorCount' | 'lastUpdatedAt' | 'completedAt'>): BackgroundTaskEvent {
  return {
    backgroundTaskSimplyId: row.simplyId,
    enumBackgroundTaskTypeId: row.taskType,
    status: row.status,
    progress: row.progress,
    errorCount: row.errorCount,
    unacknowledgedErrorCount: row.unacknowledgedErrorCount,
    lastUpdatedAt: new Date(row.lastUpdatedAt).toISOString(),
    completedAt: row.completedAt ? new Date(row.completedAt).toISOString() : null,
  };
}

export async function readTask(db: Db, teamId: bigint, id: bigint): Promise<TaskRow | null> {
  const { rows } = await db.query(`SELECT ${COLUMNS} FROM "BackgroundTask" t JOIN "Team" tm ON tm.id = t."teamId" WHERE t."teamId" = $1 AND t.id = $2`, [teamId, id]);
  return rows[0] ? toRow(rows[0]) : null;
}

/** QUEUED → PROCESSING (or PROCESSING again after a crash); null when the task already finished. */
export async function claimTask(db: Db, teamId: bigint, id: bigint): Promise<TaskRow | null> {
  const { rows } = await db.query(
    `UPDATE "BackgroundTask" t SET status = 'PROCESSING', "startedAt" = coalesce(t."startedAt", now()), attempts = t.attempts + 1, "lastUpdatedAt" = clock_timestamp()
       FROM "Team" tm
      WHERE t."teamId" = $1 AND t.id = $2 AND t.status IN ('QUEUED', 'PROCESSING') AND tm.id = t."teamId"
      RETURNING ${COLUMNS}`,
    [teamId, id],
  );
  return rows[0] ? toRow(rows[0]) : null;
}

/**
 * Progress of a processing task, in `db`'s transaction when it is one. Answers the row after the
 * change; null when the task is no longer processing (finished, or cancelled while queued).
 */
export async function saveProgress(db: Db, teamId: bigint, id: bigint, progress: Record<string, unknown>): Promise<TaskRow | null> {
  const { rows } = await db.query(
    `UPDATE "BackgroundTask" t SET progress = $3::jsonb, "lastUpdatedAt" = clock_timestamp()
       FROM "Team" tm
      WHERE t."teamId" = $1 AND t.id = $2 AND t.status = 'PROCESSING' AND tm.id = t."teamId"
      RETURNING ${COLUMNS}`,
    [teamId, id, JSON.stringify(progress)],
  );
  return rows[0] ? toRow(rows[0]) : null;
}

/** Merges keys into the task's internal object (never answered). */
export async function mergeInternal(db: Db, teamId: bigint, id: bigint, patch: Record<string, unknown>): Promise<void> {
  await db.query(`UPDATE "BackgroundTask" SET internal = internal || $3::jsonb, "hasResultFile" = (internal || $3::jsonb) ? 'resultFile' WHERE "teamId" = $1 AND id = $2`, [
    teamId,
    id,
    JSON.stringify(patch),
  ]);
}

export interface TaskErrorEntry {
  errorType: string;
  errorMessage: string;
  errorContext?: Record<string, unknown>;
  /** a retried unit of work reports the same error once */
  dedupeKey?: string | null;
}

/**
 * The statement that adds error entries (a repeated dedupeKey is skipped) and counts them on the
 * task; their contexts are made public here, so no path stores more. A statement, not a call, so
 * the final move's Prisma transaction (task-finish.ts) runs the same one.
 */
export function insertErrorsStatement(teamId: bigint, taskId: bigint, entries: readonly TaskErrorEntry[]): { text: string; values: unknown[] } {
  const rows = entries.map((e) => ({
    simplyId: backgroundTaskErrorId.create(),
    errorType: e.errorType,
    errorMessage: e.errorMessage.slice(0, 2000),
    errorContext: publicObject(e.errorContext),
    dedupeKey: e.dedupeKey ?? null,
  }));
  return {
    text: `WITH added AS (
       INSERT INTO "BackgroundTaskError" ("simplyId", "teamId", "taskId", "errorType", "errorMessage", "errorContext", "dedupeKey")
       SELECT e."simplyId", $1, $2, e."errorType", e."errorMessage", e."errorContext", e."dedupeKey"
         FROM jsonb_to_recordset($3::jsonb) AS e("simplyId" text, "errorType" text, "errorMessage" text, "errorContext" jsonb, "dedupeKey" text)
       ON CONFLICT ("teamId", "taskId", "dedupeKey") DO NOTHING
       RETURNING 1)
     UPDATE "BackgroundTask" SET "errorCount" = "errorCount" + (SELECT count(*) FROM added), "unacknowledgedErrorCount" = "unacknowledgedErrorCount" + (SELECT count(*) FROM added)
      WHERE "teamId" = $1 AND id = $2 AND (SELECT count(*) FROM added) > 0`,
    values: [teamId, taskId, JSON.stringify(rows)],
  };
}

export async function insertErrors(db: Db, teamId: bigint, taskId: bigint, entries: readonly TaskErrorEntry[]): Promise<void> {
  if (entries.length === 0) return;
  const statement = insertErrorsStatement(teamId, taskId, entries);
  await db.query(statement.text, statement.values);
}

/**
 * Tasks left QUEUED or PROCESSING with no pg-boss job that could still run them (the job failed
 * for good, e.g. its worker died on the last try, or was lost): the sweep fails them.
 */
export async function orphanedTasks(db: Db, queue: string, quietSeconds: number): Promise<{ teamId: bigint; id: bigint }[]> {
  const { rows } = await db.query(
    `SELECT t."teamId", t.id FROM "BackgroundTask" t
      WHERE t.status IN ('QUEUED', 'PROCESSING') AND t."lastUpdatedAt" < now() - make_interval(secs => $2)
        AND NOT EXISTS (SELECT 1 FROM pgboss.job j WHERE j.name = $1 AND j.singleton_key = t."simplyId" AND j.state < 'completed')
      LIMIT 100`,
    [queue, quietSeconds],
  );
  return rows.map((r) => ({ teamId: BigInt(r.teamId), id: BigInt(r.id) }));
}

/** A task as lists and the routes about one task read it: never its queueData, internal or result. */
export interface ListedTask {
  id: bigint;
  simplyId: string;
  teamId: bigint;
  taskType: string;
  status: string;
  userId: bigint | null;
  progress: Record<string, unknown>;
  errorCount: number;
  unacknowledgedErrorCount: number;
  hasResultFile: boolean;
  cancelRequestedAt: Date | null;
  createdAt: Date;
  startedAt: Date | null;
  completedAt: Date | null;
  lastUpdatedAt: Date;
  clearedAt: Date | null;
}

const LISTED = `t.id, t."simplyId", t."teamId", t."taskType", t.status, t."userId", t.progress, t."errorCount", t."unacknowledgedErrorCount",
  t."hasResultFile", t."cancelRequestedAt", t."createdAt", t."startedAt", t."completedAt", t."lastUpdatedAt", t."clearedAt"`;

function toListed(r: Record<string, any>): ListedTask {
  return { ...(r as ListedTask), id: BigInt(r.id), teamId: BigInt(r.teamId), userId: r.userId === null ? null : BigInt(r.userId) };
}

export interface TaskListQuery {
  teamId: bigint;
  principal: Principal;
  status?: string;
  taskType?: string;
  includeArchived: boolean;
  limit: number;
  offset: number;
}

/**
 * A page of the tasks `principal` may see, newest first, and how many there are. The total is a
 * sum over BackgroundTaskCount (kept by triggers): a few rows per starter, type and status, so it
 * costs the same at 100 tasks or 100,000.
 */
export async function listVisibleTasks(db: Db, q: TaskListQuery): Promise<{ rows: ListedTask[]; total: number }> {
  const counting = new SqlParams();
  const counted = `SELECT coalesce(sum(c.count), 0)::int AS total FROM "BackgroundTaskCount" c WHERE ${listConditions(q, 'c', counting).join(' AND ')}`;
  // the page's ids from a list index alone (an offset skips index entries, not rows), then its rows
  const paging = new SqlParams();
  const page = `SELECT ${LISTED}
       FROM (SELECT t.id, t."createdAt" FROM "BackgroundTask" t WHERE ${listConditions(q, 't', paging).join(' AND ')}
              ORDER BY t."createdAt" DESC, t.id DESC LIMIT ${paging.param(q.limit)} OFFSET ${paging.param(q.offset)}) p
       JOIN "BackgroundTask" t ON t."teamId" = ${paging.param(q.teamId)} AND t.id = p.id
      ORDER BY p."createdAt" DESC, p.id DESC`;
  const [total, rows] = await Promise.all([db.query(counted, counting.values), db.query(page, paging.values)]);
  return { rows: rows.rows.map(toListed), total: total.rows[0].total };
}

/** The list's conditions on tasks (`t`) or on their count rows (`c`, which say `archived` where tasks hold `clearedAt`). */
function listConditions(q: TaskListQuery, alias: 't' | 'c', sql: SqlParams): string[] {
  return [
    visibleSql(q.principal, sql.param(q.teamId), sql, alias),
    ...(q.includeArchived ? [] : [alias === 't' ? 't."clearedAt" IS NULL' : 'NOT c.archived']),
    ...(q.status ? [`${alias}.status = ${sql.param(q.status)}`] : []),
    ...(q.taskType ? [`${alias}."taskType" = ${sql.param(q.taskType)}`] : []),
  ];
}

/** One task `principal` may see, by simplyId; null for anything else (another team's, someone else's). */
export async function findVisibleTask(db: Db, teamId: bigint, principal: Principal, simplyId: string): Promise<ListedTask | null> {
  const sql = new SqlParams();
  const visible = visibleSql(principal, sql.param(teamId), sql);
  const { rows } = await db.query(`SELECT ${LISTED} FROM "BackgroundTask" t WHERE ${visible} AND t."simplyId" = ${sql.param(simplyId)}`, sql.values);
  return rows[0] ? toListed(rows[0]) : null;
}
