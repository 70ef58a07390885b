// One record of a DOCUMENT_GENERATION run, in two steps that each leave a state a retry resumes
// from: (1) render the PDF and store it as a team file, then note the file on the record's output
// (status SUCCEEDED); (2) write the file into the destination field through the records service,
// whose transaction also marks the output WRITTEN, the record SUCCEEDED and the task's progress.
// A crash between storing and noting renders again and, since the bytes are the same
// (pdf-renderer.ts fixDates), storeGeneratedFileVersion answers the file it already stored: no
// second file. A crash after the write committed finds the record done and skips it.
import type { RequestContext } from '../../../app/context.ts';
import { ApiError } from '../../../app/errors.ts';
import { inTransaction } from '../../../app/transaction.ts';
import { type FieldDefinition, findRecords, type RecordRow, updateRecordsById } from '../../../kernel/index.ts';
import { fieldValueWithFile, storeGeneratedFileVersion } from '../../files/index.ts';
import { RendererNotConfiguredError } from '../background-tasks.errors.ts';
import { safeFilename } from '../record-outputs.service.ts';
import { ensureOutput, finishRecord, noteFileStored, type LinkState, type OutputState, type WriteStatus } from '../record-outputs.sql.ts';
import type { TaskRun } from '../task-run.ts';
import type { TaskErrorEntry } from '../tasks.sql.ts';
import type { DocumentGenerationQueueData } from './document-generation.input.ts';
import { documentFor } from './document-html.ts';
import type { PdfRenderer } from './pdf-renderer.ts';

export interface Counts {
  total: number;
  succeeded: number;
  failed: number;
}

export interface Generation {
  run: TaskRun<DocumentGenerationQueueData>;
  actor: RequestContext;
  /** launched on first use (a resumed run whose documents are all stored needs none) */
  renderer: () => Promise<PdfRenderer>;
  template: { simplyId: string; name: string; documentSettings: unknown };
  field: FieldDefinition;
  counts: Counts;
  /** the task's creation: the date inside every PDF */
  createdAt: Date;
}

function progressOf(counts: Counts, succeeded: number, failed: number) {
  return { processedCount: counts.succeeded + counts.failed + succeeded + failed, totalCount: counts.total, successCount: counts.succeeded + succeeded, failureCount: counts.failed + failed };
}

/** The name a record's document is stored under: the template's, then the record's. */
export function documentFilename(templateName: string, record: Pick<RecordRow, 'simplyId' | 'calculatedName'>): string {
  return safeFilename(`${templateName} - ${record.calculatedName.trim() || record.simplyId}`.slice(0, 200) + '.pdf');
}

/** A record that cannot be done: its entry, its states and the progress, in one transaction. */
async function failRecord(g: Generation, record: RecordRow, link: LinkState, output: OutputState | null, entry: TaskErrorEntry, writeStatus: WriteStatus): Promise<void> {
  const { run } = g;
  await inTransaction(run.services.pool, async (db) => {
    await finishRecord(db, run.task.teamId, link.linkId, {
      recordStatus: 'FAILED',
      ...(output ? { outputId: output.id, outputStatus: output.status === 'SUCCEEDED' ? 'SUCCEEDED' : 'FAILED', destinationWriteStatus: writeStatus } : {}),
    });
    await run.addErrors([{ ...entry, errorContext: { dataRecordSimplyId: record.simplyId, ...entry.errorContext }, dedupeKey: `${run.queueData.outputKey}:${record.simplyId}` }], db);
    await run.saveIn(db, progressOf(g.counts, 0, 1));
  });
  g.counts.failed++;
}

/** An error that belongs to this record (it is reported and the run goes on); anything else ends the attempt. */
function recordError(error: unknown): ApiError | null {
  if (error instanceof RendererNotConfiguredError) return null;
  if (error instanceof ApiError) return error;
  if (error instanceof Error && error.name === 'TimeoutError') return new ApiError(504, 'RENDER_TIMEOUT', `Rendering the document took too long: ${error.message.split('\n')[0]}`);
  return null;
}

/** Step 1: the PDF as a team file, noted on the output. */
async function storeDocument(g: Generation, record: RecordRow, output: OutputState): Promise<string> {
  const { run } = g;
  const doc = await documentFor(g.actor, g.template, record.simplyId, g.createdAt);
  const pdf = await (await g.renderer()).render(doc);
  const filename = documentFilename(g.template.name, record);
  const stored = await storeGeneratedFileVersion(run.services, {
    teamId: run.task.teamId,
    dataRecordId: record.id,
    fileFieldSimplyId: g.field.dataFieldSimplyId,
    filename,
    contentType: 'application/pdf',
    bytes: pdf,
  });
  await noteFileStored(run.services.pool, run.task.teamId, output.id, stored.fileSimplyId, {
    externalTemplateName: g.template.name,
    filename,
    contentType: 'application/pdf',
    fileSizeBytes: pdf.length,
  });
  return stored.fileSimplyId;
}

/** The field's value holding the new file: REPLACE leaves only it, APPEND adds it to what a MULTI_FILE field holds. */
function fieldValue(g: Generation, current: Record<string, unknown>, fileSimplyId: string): string | string[] {
  const type = g.field.dataType as 'SINGLE_FILE' | 'MULTI_FILE';
  if (g.run.queueData.destination.writeMode === 'APPEND') return fieldValueWithFile(current[g.field.dataFieldSimplyId], type, fileSimplyId);
  return type === 'SINGLE_FILE' ? fileSimplyId : [fileSimplyId];
}

export async function generateForRecord(g: Generation, record: RecordRow, link: LinkState): Promise<void> {
  const { run } = g;
  const teamId = run.task.teamId;
  const output = link.output ?? (await ensureOutput(run.services.pool, teamId, { ...link, taskId: run.task.id }, run.queueData.outputKey, run.queueData.destination));
  let fileSimplyId = output.status === 'SUCCEEDED' ? output.fileSimplyId : null;
  if (!fileSimplyId) {
    try {
      fileSimplyId = await storeDocument(g, record, output);
    } catch (error) {
      const known = recordError(error);
      if (!known) throw error;
      return failRecord(g, record, link, output, { errorType: known.code === 'NOT_FOUND' ? 'RECORD_NOT_READABLE' : known.code, errorMessage: `No document for record ${record.simplyId}: ${known.message}` }, 'SKIPPED');
    }
  }
  const storedOutput: OutputState = { ...output, status: 'SUCCEEDED', fileSimplyId };
  const [current] = await findRecords(run.services.pool, teamId, [record.simplyId]);
  if (!current) {
    return failRecord(g, record, link, storedOutput, { errorType: 'RECORD_NOT_FOUND', errorMessage: `Record ${record.simplyId} was deleted before its document could be written into it` }, 'SKIPPED');
  }
  try {
    await updateRecordsById(g.actor, [{ dataRecordSimplyId: record.simplyId, fields: { [g.field.dataFieldSimplyId]: fieldValue(g, current.values, fileSimplyId) } }], {
      batch: false,
      source: 'BACKGROUND_TASK',
      alsoInTransaction: async (db) => {
        await finishRecord(db, teamId, link.linkId, { recordStatus: 'SUCCEEDED', outputId: output.id, outputStatus: 'SUCCEEDED', destinationWriteStatus: 'WRITTEN' });
        await run.saveIn(db, progressOf(g.counts, 1, 0));
      },
    });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const details = error.details?.map((d) => d.message).join('; ');
    return failRecord(
      g,
      record,
      link,
      storedOutput,
      { errorType: 'DESTINATION_WRITE_FAILED', errorMessage: `The document of record ${record.simplyId} is stored but could not be written into field ${g.field.dataFieldSimplyId}: ${error.message}${details ? ` (${details})` : ''}`, errorContext: { field: g.field.dataFieldSimplyId } },
      'FAILED',
    );
  }
  g.counts.succeeded++;
}
