// BULK_DATA_IMPORT: rows of an uploaded CSV file become records of one collection (create, update
// or upsert matched on a key field), or a dry run reports what would fail without writing. The
// file and the mapping are checked when the task is created; the worker streams the file in
// chunks through the records service as the starter acting now (import-chunk.ts).
import type { RequestContext } from '../../../app/context.ts';
import { PermissionDeniedError, ValidationError } from '../../../app/errors.ts';
import { requireTeam } from '../../../app/require-team.ts';
import { type CollectionAccess, collectionFor } from '../../../kernel/index.ts';
import { useImportToken } from '../../collections/index.ts';
import { TaskFailedError, type TaskRun } from '../task-run.ts';
import { defineTaskType, type TaskOutcome } from '../task-types.ts';
import { readTask } from '../tasks.sql.ts';
import { csvFailureMessage, csvRows } from './csv-rows.ts';
import { type ColumnPlan, planColumns } from './import-columns.ts';
import { ChunkPipeline } from './chunk-pipeline.ts';
import { addCounts, applyChunk, chunkIndexOf, committedChunks, type DataRow, type ImportCounts, type ImportState, rememberKey, zeroCounts } from './import-chunk.ts';
import { importFileFor, openImportFile } from './import-file.ts';
import { type ImportQueueData, parseImportQueueData } from './import-queue-data.ts';

interface ImportInternal {
  fileVersionNumber: number;
}

/** chunks written side by side: one in PostgreSQL while the next is read and validated */
const CHUNKS_IN_FLIGHT = 2;

function writableCollection(access: CollectionAccess): void {
  if (access.collection.type === 'SMART') {
    throw new ValidationError('Records cannot be imported into a SMART collection', [{ field: 'queueData.dataCollectionSimplyId', message: 'is a SMART collection: import into its source collection' }]);
  }
  if (access.collection.isArchived) throw new ValidationError('The collection is archived', [{ field: 'queueData.dataCollectionSimplyId', message: 'is archived' }]);
}

function checkPlan(plan: ColumnPlan): void {
  if (plan.invalid.length > 0) throw new ValidationError('Invalid queueData for BULK_DATA_IMPORT', plan.invalid);
  if (plan.denied.length > 0) throw new PermissionDeniedError(`Your team role cannot edit field${plan.denied.length > 1 ? 's' : ''} ${plan.denied.join(', ')}, so it cannot import into ${plan.denied.length > 1 ? 'them' : 'it'}`);
}

/** Reads the file once at creation: its header, its width and how many data rows it has. */
async function scanFile(ctx: RequestContext, q: ImportQueueData, versionNumber: number, maxRows: number) {
  const source = await openImportFile(ctx.services, requireTeam(ctx).id, q.fileSimplyId, versionNumber);
  let header: string[] | null = null;
  let width: number | null = null;
  let rows = 0;
  try {
    for await (const item of csvRows(source, q)) {
      if (item.kind === 'header') {
        header = item.cells;
        width = item.cells.length;
        continue;
      }
      if (item.kind === 'row') width ??= item.cells.length;
      rows += 1;
      if (rows > maxRows) break;
    }
  } catch (error) {
    const message = csvFailureMessage(error);
    if (message) throw new ValidationError(message, [{ field: 'queueData.fileSimplyId', message: 'is not readable as CSV' }]);
    throw error;
  } finally {
    source.destroy();
  }
  return { header, width, rows };
}

export const dataImportTask = defineTaskType<ImportQueueData>({
  type: 'BULK_DATA_IMPORT',
  creatableByApi: true,

  async prepare(ctx, raw) {
    const q = parseImportQueueData(raw);
    const { IMPORT_MAX_BYTES: maxBytes, IMPORT_MAX_ROWS: maxRows } = ctx.services.config;
    const access = await collectionFor(ctx, q.dataCollectionSimplyId, 'EDIT', 'queueData.dataCollectionSimplyId');
    writableCollection(access);
    // fields first: a wrong field id is reported without reading the file
    checkPlan(planColumns(q, access, null, null));
    const file = await importFileFor(ctx, q.fileSimplyId, maxBytes);
    const scan = await scanFile(ctx, q, file.versionNumber, maxRows);
    if (q.hasHeaderRow && scan.header === null) throw new ValidationError('The file is empty', [{ field: 'queueData.fileSimplyId', message: 'has no header row' }]);
    if (scan.rows > maxRows) {
      throw new ValidationError(`The file has more than ${maxRows} data rows, the most one import takes`, [{ field: 'queueData.fileSimplyId', message: `has more than ${maxRows} data rows: split the file` }]);
    }
    checkPlan(planColumns(q, access, scan.header, scan.width));
    // everything else checked: the token (when given) is used up now, and not kept with the task
    const { importToken, ...queueData } = q;
    if (importToken !== undefined) await useImportToken(ctx, importToken, q.dataCollectionSimplyId);
    const internal: ImportInternal = { fileVersionNumber: file.versionNumber };
    return { queueData, internal: { ...internal }, totalCount: scan.rows };
  },

  async run(run) {
    const ctx = await run.actor();
    const q = run.queueData;
    const access = await collectionFor(ctx, q.dataCollectionSimplyId, 'EDIT', 'queueData.dataCollectionSimplyId');
    const internal = run.task.internal as unknown as ImportInternal;
    const source = await openImportFile(run.services, run.task.teamId, q.fileSimplyId, internal.fileVersionNumber);
    const totalCount = typeof run.task.progress.totalCount === 'number' ? run.task.progress.totalCount : null;
    const committed = committedChunks(run.task.internal);
    let totals = zeroCounts();
    for (const record of committed.values()) if (record.complete) totals = addCounts(totals, record.counts);
    let state: ImportState | null = null;
    const startWith = (header: string[] | null, width: number): ImportState => {
      const plan = planColumns(q, access, header, width);
      if (plan.invalid.length > 0) throw new TaskFailedError('UNKNOWN_COLUMN', `The file or the collection no longer fits the mapping: ${plan.invalid.map((d) => `${d.field} ${d.message}`).join('; ')}`);
      if (plan.denied.length > 0) throw new TaskFailedError('PERMISSION_DENIED', `Your team role can no longer edit ${plan.denied.join(', ')}`);
      return { run, ctx, access, q, plan, seenKeys: new Set<string>() };
    };
    const pipeline = new ChunkPipeline(CHUNKS_IN_FLIGHT);
    const settle = (index: number, rows: DataRow[]) =>
      pipeline.add(async () => {
        const prior = committed.get(index);
        if (prior?.complete) {
          // committed by an earlier attempt: its rows still claim their keys
          for (const row of rows) rememberKey(state!, row);
          return;
        }
        const record = await applyChunk(state!, index, rows, prior);
        totals = addCounts(totals, record.counts);
        await run.progress({ processedCount: totals.rows, totalCount, successCount: totals.created + totals.updated, failureCount: totals.failed });
      });
    let chunk: DataRow[] = [];
    let chunkIndex = 0;
    try {
      for await (const item of csvRows(source, q)) {
        if (item.kind === 'header') {
          state = startWith(item.cells, item.cells.length);
          continue;
        }
        state ??= startWith(null, item.kind === 'row' ? item.cells.length : 0);
        const index = chunkIndexOf(item.rowNumber);
        if (index !== chunkIndex && chunk.length > 0) {
          await settle(chunkIndex, chunk);
          chunk = [];
        }
        chunkIndex = index;
        chunk.push(item);
      }
      if (chunk.length > 0) await settle(chunkIndex, chunk);
      await pipeline.drain();
    } catch (error) {
      await pipeline.drain().catch(() => undefined);
      const message = csvFailureMessage(error);
      if (message) throw new TaskFailedError('INVALID_CSV', `${message}. The rows before it were imported (see progress).`);
      throw error;
    } finally {
      source.destroy();
    }
    // the counts as committed: every chunk, whichever attempt wrote it
    const now = await readTask(run.services.pool, run.task.teamId, run.task.id);
    let counts = zeroCounts();
    for (const record of committedChunks(now?.internal ?? {}).values()) counts = addCounts(counts, record.counts);
    return outcome(run, q, counts);
  },
});

async function outcome(run: TaskRun<ImportQueueData>, q: ImportQueueData, c: ImportCounts): Promise<TaskOutcome> {
  const successCount = c.created + c.updated;
  await run.progress({ processedCount: c.rows, totalCount: c.rows, successCount, failureCount: c.failed }, { force: true });
  const counts = { recordCount: c.rows, successCount, failureCount: c.failed };
  const result = q.dryRun ? { dryRun: true, ...counts, recordsCreated: 0, recordsUpdated: 0, recordsToCreate: c.created, recordsToUpdate: c.updated } : { ...counts, recordsCreated: c.created, recordsUpdated: c.updated };
  const status = c.failed === 0 ? 'COMPLETED' : successCount === 0 ? 'FAILED' : 'PARTIAL_SUCCESS';
  return { result, status };
}
