// BULK_DELETE: records of one collection, named by id or by the record-search filters, deleted in
// chunks through the records service (audit entries and record events as single deletes make
// them, one DATA_RECORDS_BULK_SYNCED event per chunk). Each record's outcome is a RecordTaskLink
// (SUCCEEDED, FAILED, or SKIPPED when it was already deleted), written in the chunk's transaction
// with its error entries and its note on the task (`deleteChunk<k>`, never answered), so a resumed
// task redoes only the chunks not committed and deletes nothing twice; two chunks are written side
// by side. A filter is resolved once, when the worker starts, and kept on the task: a restart
// deletes the same set.
import type pg from 'pg';
import type { RequestContext } from '../../../app/context.ts';
import { ValidationError } from '../../../app/errors.ts';
import { inTransaction } from '../../../app/transaction.ts';
import { type CollectionAccess, collectionFor, deleteRecordsById, type ItemFailure, type NormalizedFilter, normalizeFilters } from '../../../kernel/index.ts';
import { TaskFailedError, type TaskRun } from '../task-run.ts';
import { defineTaskType } from '../task-types.ts';
import { readTask, type TaskErrorEntry } from '../tasks.sql.ts';
import { ChunkPipeline } from '../data-import/chunk-pipeline.ts';
import { type DeleteQueueData, MAX_DELETE_RECORDS, parseDeleteQueueData } from './delete-queue-data.ts';
import { linkRecords, matchingRecordIds, type RecordOutcome, selectedRecords } from './delete-selection.sql.ts';

/** records per delete: one transaction, one bulk-synced event */
const CHUNK_RECORDS = 1000;
const SOURCE = 'BACKGROUND_TASK';

interface DeleteCounts {
  succeeded: number;
  failed: number;
  skipped: number;
}

/** chunks written side by side: one in PostgreSQL while the next is read and checked */
const CHUNKS_IN_FLIGHT = 2;
const CHUNK_KEY = /^deleteChunk(\d+)$/;

/** The counts of the chunks committed so far, by chunk index (selection positions k·CHUNK_RECORDS …). */
function committedChunks(internal: Record<string, unknown>): Map<number, DeleteCounts> {
  const out = new Map<number, DeleteCounts>();
  for (const [key, value] of Object.entries(internal)) {
    const index = CHUNK_KEY.exec(key)?.[1];
    if (index !== undefined) out.set(Number(index), (value as { counts: DeleteCounts }).counts);
  }
  return out;
}

function sum(counts: Iterable<DeleteCounts>): DeleteCounts {
  const total = { succeeded: 0, failed: 0, skipped: 0 };
  for (const c of counts) {
    total.succeeded += c.succeeded;
    total.failed += c.failed;
    total.skipped += c.skipped;
  }
  return total;
}

function filtersOf(access: CollectionAccess, requestFilter: unknown[], onInvalid: (details: { field?: string; message: string }[]) => never): NormalizedFilter[] {
  const normalized = normalizeFilters(access.readable, requestFilter);
  if (!normalized.ok) onInvalid(normalized.details.map((d) => ({ ...d, field: d.field?.replace(/^filters/, 'queueData.requestFilter') })));
  return [...(normalized as { filters: NormalizedFilter[] }).filters];
}

async function matching(ctx: RequestContext, access: CollectionAccess, filters: NormalizedFilter[]): Promise<string[]> {
  const fieldsById = new Map(access.readable.map((f) => [f.dataFieldSimplyId, f]));
  return matchingRecordIds(ctx.services.pool, access.schema.teamId, access.collection.id, filters, fieldsById, MAX_DELETE_RECORDS + 1);
}

/** The selection: the ids given, or the filter's matches as the starter may see them now (resolved once). */
async function selectionOf(run: TaskRun<DeleteQueueData>, ctx: RequestContext, access: CollectionAccess): Promise<string[]> {
  if (run.queueData.dataRecordSimplyIds) return run.queueData.dataRecordSimplyIds;
  const kept = run.task.internal.selection;
  if (Array.isArray(kept)) return kept as string[];
  const filters = filtersOf(access, run.queueData.requestFilter ?? [], (details) => {
    throw new TaskFailedError('INVALID_FILTER', `The filter no longer fits the collection or your permissions: ${details.map((d) => `${d.field} ${d.message}`).join('; ')}`);
  });
  const ids = await matching(ctx, access, filters);
  if (ids.length > MAX_DELETE_RECORDS) throw new TaskFailedError('SELECTION_TOO_LARGE', `The filter matches more than ${MAX_DELETE_RECORDS} records; narrow it or delete in several tasks`);
  await run.setInternal({ selection: ids });
  return ids;
}

export const bulkDeleteTask = defineTaskType<DeleteQueueData>({
  type: 'BULK_DELETE',
  creatableByApi: true,

  async prepare(ctx, raw) {
    const q = parseDeleteQueueData(raw);
    const access = await collectionFor(ctx, q.dataCollectionSimplyId, 'EDIT', 'queueData.dataCollectionSimplyId');
    if (q.dataRecordSimplyIds) return { queueData: q, totalCount: q.dataRecordSimplyIds.length };
    const filters = filtersOf(access, q.requestFilter ?? [], (details) => {
      throw new ValidationError('Invalid queueData for BULK_DELETE', details);
    });
    const count = (await matching(ctx, access, filters)).length;
    if (count > MAX_DELETE_RECORDS) {
      throw new ValidationError(`The filter matches more than ${MAX_DELETE_RECORDS} records, the most one bulk delete takes`, [
        { field: 'queueData.requestFilter', message: `matches more than ${MAX_DELETE_RECORDS} records: narrow it or delete in several tasks` },
      ]);
    }
    return { queueData: q, totalCount: count };
  },

  async run(run) {
    const ctx = await run.actor();
    const q = run.queueData;
    const access = await collectionFor(ctx, q.dataCollectionSimplyId, 'EDIT', 'queueData.dataCollectionSimplyId');
    const ids = await selectionOf(run, ctx, access);
    const committed = committedChunks(run.task.internal);
    const done = sum(committed.values());
    let processed = [...committed.keys()].reduce((n, k) => n + Math.min(CHUNK_RECORDS, ids.length - k * CHUNK_RECORDS), 0);
    const pipeline = new ChunkPipeline(CHUNKS_IN_FLIGHT);
    for (let index = 0; index * CHUNK_RECORDS < ids.length; index++) {
      if (committed.has(index)) continue;
      await pipeline.add(async () => {
        const counts = await deleteChunk(run, ctx, access, ids, index);
        const total = sum([done, counts]);
        Object.assign(done, total);
        processed += counts.succeeded + counts.failed + counts.skipped;
        await run.progress({ processedCount: processed, totalCount: ids.length, successCount: done.succeeded, failureCount: done.failed, skippedCount: done.skipped });
      });
    }
    await pipeline.drain();
    // the counts as committed: every chunk, whichever attempt wrote it
    const c = sum(committedChunks((await readTask(run.services.pool, run.task.teamId, run.task.id))?.internal ?? {}).values());
    await run.progress({ processedCount: ids.length, totalCount: ids.length, successCount: c.succeeded, failureCount: c.failed, skippedCount: c.skipped }, { force: true });
    const status = c.failed === 0 ? 'COMPLETED' : c.succeeded === 0 && c.skipped === 0 ? 'FAILED' : 'PARTIAL_SUCCESS';
    return { result: { recordCount: ids.length, successCount: c.succeeded, failureCount: c.failed, skippedCount: c.skipped }, status };
  },
});

function notInCollection(id: string, collection: string): TaskErrorEntry {
  return { errorType: 'RECORD_NOT_FOUND', errorMessage: `Record ${id} is not a record of collection ${collection}`, errorContext: { dataRecordSimplyId: id }, dedupeKey: `record:${id}` };
}

/** Deletes chunk `index` of the selection; answers its counts. */
async function deleteChunk(run: TaskRun<DeleteQueueData>, ctx: RequestContext, access: CollectionAccess, ids: readonly string[], index: number): Promise<DeleteCounts> {
  const { teamId } = run.task;
  const chunk = ids.slice(index * CHUNK_RECORDS, (index + 1) * CHUNK_RECORDS);
  const found = await selectedRecords(ctx.services.pool, teamId, access.collection.id, chunk);
  const missing = chunk.filter((id) => !found.has(id)).map((id) => notInCollection(id, access.collection.simplyId));
  const gone = chunk.filter((id) => found.get(id)?.gone);
  const live = chunk.filter((id) => found.get(id) && !found.get(id)!.gone);

  let counts: DeleteCounts = { succeeded: 0, failed: 0, skipped: 0 };
  const settle = async (db: pg.PoolClient, failures: readonly ItemFailure[]) => {
    const failedById = new Map(failures.map((f) => [f.dataRecordSimplyId, f]));
    const links: { dataRecordId: bigint; outcome: RecordOutcome }[] = gone.map((id) => ({ dataRecordId: found.get(id)!.id, outcome: 'SKIPPED' }));
    const entries = [...missing];
    // computed afresh on every attempt of the transaction (a deadlock reruns it)
    const outcome: DeleteCounts = { succeeded: 0, failed: missing.length, skipped: gone.length };
    for (const id of live) {
      const failure = failedById.get(id);
      // deleted by someone else between the read above and the delete's lock: already gone
      const status: RecordOutcome = !failure ? 'SUCCEEDED' : failure.error.code === 'NOT_FOUND' ? 'SKIPPED' : 'FAILED';
      links.push({ dataRecordId: found.get(id)!.id, outcome: status });
      if (status === 'SUCCEEDED') outcome.succeeded += 1;
      else if (status === 'SKIPPED') outcome.skipped += 1;
      else {
        outcome.failed += 1;
        entries.push({ errorType: failure!.error.code, errorMessage: `Record ${id}: ${failure!.error.message}`, errorContext: { dataRecordSimplyId: id }, dedupeKey: `record:${id}` });
      }
    }
    await linkRecords(db, teamId, run.task.id, access.collection.id, links);
    await run.addErrors(entries, db);
    await run.setInternal({ [`deleteChunk${index}`]: { counts: outcome } }, db);
    counts = outcome;
  };
  if (live.length > 0) await deleteRecordsById(ctx, live, { batch: true, maxItems: CHUNK_RECORDS, source: SOURCE, alsoInTransaction: settle });
  else await inTransaction(ctx.services.pool, (db) => settle(db, []));
  return counts;
}
