// DATA_EXPORT (Document 3 §4.2 rules 2 and 3): records of a collection or view as a CSV that only
// its starter can download. The scope (collection or view, readable fields, filters, selection)
// is checked at creation and its fingerprint kept on the task; the worker recomputes it with the
// starter's permissions at that moment and fails the task when it changed; a download recomputes
// it once more. The CSV is a private object in storage (never a team file, never in /v1/files);
// a worker that crashed starts the file over under the same key, so a retry leaves one CSV.
import { ExportScopeChangedError } from '../background-tasks.errors.ts';
import { requireTeam } from '../../../app/require-team.ts';
import { exportObjectKey } from '../../files/index.ts';
import { TaskFailedError } from '../task-run.ts';
import { defineTaskType } from '../task-types.ts';
import { exportColumns, exportFilename, localized } from './export-columns.ts';
import { writeCsvExport } from './export-csv.ts';
import { type ExportQueueData, parseExportQueueData } from './export-input.ts';
import { countScannedRecords, liveRecordIds } from '../../../kernel/index.ts';
import type { ExportQuery } from './export-records.sql.ts';
import { resolveExportScope, scopeChange } from './export-scope.ts';

export const EXPORT_CONTENT_TYPE = 'text/csv';

/** Where the finished CSV is (internal.resultFile): read by the result download, never answered. */
export interface ExportResultFile {
  storageKey: string;
  filename: string;
  contentType: string;
  sizeBytes: number;
}

export const dataExportTask = defineTaskType<ExportQueueData>({
  type: 'DATA_EXPORT',
  creatableByApi: true,

  async prepare(ctx, raw) {
    const queueData = parseExportQueueData(raw);
    const scope = await resolveExportScope(ctx, queueData);
    return { queueData, internal: { fingerprint: scope.fingerprint, storageKey: exportObjectKey(requireTeam(ctx).simplyId) } };
  },

  async run(run) {
    const ctx = await run.actor();
    const q = run.queueData;
    const checked = await scopeChange(ctx, q, run.task.internal.fingerprint);
    if (checked.reason !== null) {
      throw new TaskFailedError('EXPORT_SCOPE_CHANGED', `The export was not made because what you may read changed since it was created: ${checked.reason}. Start a new export.`);
    }
    const { scope } = checked;
    const { services } = run;
    const user = run.task.userId === null ? null : await services.prisma.user.findUnique({ where: { id: run.task.userId }, select: { defaultInterfaceLanguageId: true } });
    const language = user?.defaultInterfaceLanguageId ?? null;

    const query: ExportQuery = {
      teamId: run.task.teamId,
      collectionId: scope.collection.id,
      filters: scope.filters,
      fieldsById: new Map(scope.schema.fieldsOf(scope.collection).map((f) => [f.dataFieldSimplyId, f])),
      // a view and a request filter asking for opposite archive states select nothing
      recordIds: scope.contradictory ? [] : q.dataRecordSimplyIds ? await liveRecordIds(services.pool, run.task.teamId, q.dataRecordSimplyIds) : null,
    };
    const totalCount = await countScannedRecords(services.pool, query);
    await run.progress({ processedCount: 0, totalCount }, { force: true });

    // chosen at creation, so every attempt writes (and a retry overwrites) the same object
    const storageKey = typeof run.task.internal.storageKey === 'string' ? run.task.internal.storageKey : exportObjectKey(run.task.teamSimplyId);
    if (storageKey !== run.task.internal.storageKey) await run.setInternal({ storageKey });
    const filename = exportFilename(localized(scope.collection.name, language), new Date());
    const { recordCount, sizeBytes } = await writeCsvExport({
      storage: services.fileStorage,
      key: storageKey,
      contentType: EXPORT_CONTENT_TYPE,
      db: services.pool,
      query,
      columns: exportColumns(q.systemColumns, scope.fields, language),
      // records may be added while the export runs: the total never reads below what was written
      onPage: (processedCount) => run.progress({ processedCount, totalCount: Math.max(totalCount, processedCount) }),
    });
    try {
      await run.progress({ processedCount: recordCount, totalCount: recordCount }, { force: true });
    } catch (error) {
      // cancelled just as the file was complete: no result, so no object left behind either
      await services.fileStorage.delete([storageKey]).catch(() => {});
      throw error;
    }
    const resultFile: ExportResultFile = { storageKey: storageKey, filename, contentType: EXPORT_CONTENT_TYPE, sizeBytes };
    await run.setInternal({ resultFile });
    return { result: { filename, contentType: EXPORT_CONTENT_TYPE, recordCount, fileSizeBytes: sizeBytes } };
  },

  async checkResultAccess(ctx, task) {
    const checked = await scopeChange(ctx, task.queueData, task.internal.fingerprint);
    if (checked.reason !== null) {
      throw new ExportScopeChangedError(`The export no longer matches what you may read (${checked.reason}); start a new export`);
    }
  },
});
