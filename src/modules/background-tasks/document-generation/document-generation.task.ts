// DOCUMENT_GENERATION (docs/api/background-tasks.md "Document generation"): a document template
// rendered to PDF for each selected record, each PDF stored as a team file and written into a
// file field of its record (REPLACE or APPEND), with a record history entry and an output per
// record. Created by someone who can read the collection, use the template and edit the
// destination field; the worker checks all of it again as the starter is now, then resumes
// record by record from the link and output rows (record-document.ts).
import type { RequestContext } from '../../../app/context.ts';
import { ValidationError } from '../../../app/errors.ts';
import type { ContentTemplate } from '../../../generated/prisma/client.ts';
import { type CollectionAccess, collectionFor, findRecords } from '../../../kernel/index.ts';
import { assess } from '../../content-templates/index.ts';
import { applicableDefault, checkDestination, documentTemplateFor } from '../output-defaults.service.ts';
import { ensureLinks, taskLinks } from '../record-outputs.sql.ts';
import { TaskFailedError } from '../task-run.ts';
import { defineTaskType } from '../task-types.ts';
import { parseDocumentQueueData, type DocumentGenerationQueueData } from './document-generation.input.ts';
import { PdfRenderer } from './pdf-renderer.ts';
import { generateForRecord, type Counts, type Generation } from './record-document.ts';
import { selectRecords } from './selected-records.ts';

const TYPE = 'DOCUMENT_GENERATION';

/** A template's name as one text (a localized name: English, else its first language). */
export function templateName(name: unknown): string {
  if (typeof name === 'string' && name.trim()) return name.trim();
  if (name && typeof name === 'object') {
    const texts = name as Record<string, unknown>;
    const text = texts.en ?? Object.values(texts).find((v) => typeof v === 'string' && v.trim());
    if (typeof text === 'string' && text.trim()) return text.trim();
  }
  return 'Document';
}

function blockingIssues(template: ContentTemplate, access: CollectionAccess) {
  return assess(template, access.schema).filter((i) => i.severity === 'BLOCKING');
}

/** The destination the task names, else the output default that applies; 400 when there is neither. */
async function destinationOf(ctx: RequestContext, access: CollectionAccess, q: ReturnType<typeof parseDocumentQueueData>, templateSimplyId: string): Promise<DocumentGenerationQueueData['destination']> {
  if (q.destination) {
    checkDestination(access, q.destination.dataFieldSimplyId, q.destination.writeMode, { field: 'queueData.destination.dataFieldSimplyId', writeMode: 'queueData.destination.writeMode' });
    return { ...q.destination, outputDefaultSimplyId: null };
  }
  const fallback = await applicableDefault(ctx, access.schema.teamId, access.collection.id, TYPE, q.outputKey, templateSimplyId);
  if (!fallback) {
    throw new ValidationError('Where should the documents go? Name a destination or set an output default', [
      { field: 'queueData.destination', message: `give { dataFieldSimplyId, writeMode }, or set an output default for collection ${access.collection.simplyId} and outputKey ${q.outputKey} (PUT /v1/background-tasks/output-defaults)` },
    ]);
  }
  const writeMode = fallback.writeMode === 'APPEND' ? 'APPEND' : 'REPLACE';
  const at = `queueData.destination (from output default ${fallback.simplyId})`;
  checkDestination(access, fallback.dataFieldSimplyId, writeMode, { field: at, writeMode: at });
  return { dataFieldSimplyId: fallback.dataFieldSimplyId, writeMode, outputDefaultSimplyId: fallback.simplyId };
}

export const documentGenerationTask = defineTaskType<DocumentGenerationQueueData>({
  type: TYPE,
  creatableByApi: true,

  prepare: async (ctx, raw) => {
    const q = parseDocumentQueueData(raw);
    const access = await collectionFor(ctx, q.dataCollectionSimplyId, 'READ', 'queueData.dataCollectionSimplyId');
    const template = await documentTemplateFor(ctx, q.contentTemplateSimplyId, access.schema, access.collection, 'queueData.contentTemplateSimplyId');
    const blocking = blockingIssues(template, access);
    if (blocking.length > 0) {
      throw new ValidationError(
        `Template ${template.simplyId} is not ready to be rendered`,
        blocking.map((i) => ({ field: `queueData.contentTemplateSimplyId`, message: `${i.code}: ${i.message}`, code: i.code })),
      );
    }
    const destination = await destinationOf(ctx, access, q, template.simplyId);
    const dataRecordSimplyIds = await selectRecords(ctx, access, q);
    return {
      queueData: {
        contentTemplateSimplyId: template.simplyId,
        dataCollectionSimplyId: access.collection.simplyId,
        dataRecordSimplyIds,
        requestFilter: q.requestFilter ?? null,
        outputKey: q.outputKey,
        destination,
      },
      totalCount: dataRecordSimplyIds.length,
    };
  },

  run: async (run) => {
    const q = run.queueData;
    const teamId = run.task.teamId;
    // everything the creation checked, again, for the starter as they are now (ApiErrors end the task FAILED)
    const actor = await run.actor();
    const access = await collectionFor(actor, q.dataCollectionSimplyId, 'READ');
    const template = await documentTemplateFor(actor, q.contentTemplateSimplyId, access.schema, access.collection, 'contentTemplateSimplyId');
    const blocking = blockingIssues(template, access);
    if (blocking.length > 0) {
      throw new TaskFailedError('TEMPLATE_NOT_READY', `Template ${template.simplyId} can no longer be rendered: ${blocking.map((i) => i.message).join('; ')}`, { issues: blocking.map((i) => i.code) });
    }
    const field = checkDestination(access, q.destination.dataFieldSimplyId, q.destination.writeMode, { field: 'destination.dataFieldSimplyId', writeMode: 'destination.writeMode' });
    const task = await run.services.prisma.backgroundTask.findFirstOrThrow({ where: { teamId, id: run.task.id }, select: { createdAt: true } });

    const rows = await findRecords(run.services.pool, teamId, q.dataRecordSimplyIds);
    const bySimplyId = new Map(rows.map((r) => [r.simplyId, r]));
    const missing = q.dataRecordSimplyIds.filter((id) => !bySimplyId.has(id));
    if (missing.length > 0) {
      await run.addErrors(
        missing.map((id) => ({ errorType: 'RECORD_NOT_FOUND', errorMessage: `Record ${id} was deleted before its document was generated`, errorContext: { dataRecordSimplyId: id }, dedupeKey: `${q.outputKey}:${id}` })),
      );
    }
    await ensureLinks(run.services.pool, teamId, run.task.id, access.collection.id, rows.map((r) => r.id));
    const links = await taskLinks(run.services.pool, teamId, run.task.id, q.outputKey);
    const states = [...links.values()];
    const counts: Counts = {
      total: q.dataRecordSimplyIds.length,
      succeeded: states.filter((l) => l.recordStatus === 'SUCCEEDED').length,
      failed: states.filter((l) => l.recordStatus === 'FAILED').length + missing.length,
    };
    await run.progress({ processedCount: counts.succeeded + counts.failed, totalCount: counts.total, successCount: counts.succeeded, failureCount: counts.failed }, { force: true });

    let renderer: PdfRenderer | null = null;
    const generation: Generation = {
      run,
      actor,
      renderer: async () => (renderer ??= await PdfRenderer.launch({ creator: `svc document generation, task ${run.task.simplyId}` })),
      template: { simplyId: template.simplyId, name: templateName(template.name), documentSettings: template.documentSettings },
      field,
      counts,
      createdAt: task.createdAt,
    };
    try {
      for (const id of q.dataRecordSimplyIds) {
        const record = bySimplyId.get(id);
        const link = record && links.get(record.id);
        if (!record || !link || link.recordStatus !== 'PENDING') continue;
        await generateForRecord(generation, record, link);
        run.throwIfCancelled();
      }
    } finally {
      await (renderer as PdfRenderer | null)?.close();
    }
    return {
      result: {
        recordCount: counts.total,
        successCount: counts.succeeded,
        failureCount: counts.failed,
        outputKey: q.outputKey,
        externalTemplateName: generation.template.name,
        destinationDataFieldSimplyId: field.dataFieldSimplyId,
        destinationWriteMode: q.destination.writeMode,
      },
      // nothing produced at all is a failure; some records failing is a partial success (the default)
      ...(counts.succeeded === 0 && counts.failed > 0 ? { status: 'FAILED' as const } : {}),
    };
  },
});
