// Record history and record outputs (docs/api/background-tasks.md "Record history and outputs"):
// the tasks that worked on one record, newest first, each with what it left for the record (a
// generated document), and the download of one such output. Anyone who can read the record sees
// its history; an output's document goes to a team admin, a reader of the field it was written
// into, or the person who started the task (rule 4), and only once it SUCCEEDED.
import { fieldAccess, hasDataAccess, type Principal } from '../../app/auth/principal.ts';
import type { RequestContext } from '../../app/context.ts';
import { NotFoundError, PermissionDeniedError } from '../../app/errors.ts';
import { parsePaging } from '../../app/paging.ts';
import { requireTeam } from '../../app/require-team.ts';
import { parseInput } from '../../app/validate.ts';
import { type CollectionDefinition, findRecords, findRecordsById, memberCollectionIds, type TeamSchema } from '../../kernel/index.ts';
import { recordOutputId } from './background-tasks.ids.ts';
import { RecordOutputUnavailableError } from './record-outputs.errors.ts';
import { OUTPUT_DOWNLOAD_SECONDS, RECORD_HISTORY_LIMITS, recordHistoryInput } from './record-outputs.input.ts';
import { historyPage, outputBySimplyId, outputsOfLinks, type HistoryLinkRow, type OutputRow } from './record-outputs.sql.ts';

export interface RecordOutputView {
  row: OutputRow;
  /** whether this caller may download it now (rule 4, SUCCEEDED, file still there) */
  canDownload: boolean;
}

export interface RecordHistoryEntry {
  link: HistoryLinkRow;
  outputs: RecordOutputView[];
}

export interface RecordHistory {
  dataRecordSimplyId: string;
  dataCollectionSimplyId: string;
  tasks: RecordHistoryEntry[];
  total: number;
  limit: number;
  offset: number;
}

export interface RecordHistoryArgs {
  dataRecordSimplyId: string;
  dataCollectionSimplyId?: string | null;
  limit?: number | null;
  offset?: number | null;
}

/** Rule 4's people, whatever the output's state: a team admin, the task's starter, a reader of the destination field. */
function mayDownload(p: Principal, schema: TeamSchema, row: OutputRow): boolean {
  if (p.isTeamAdmin || p.isSystemAdmin) return true;
  if (row.taskUserId !== null && row.taskUserId === p.userId) return true;
  const collection = row.linkCollectionId === null ? undefined : schema.collectionsById.get(row.linkCollectionId);
  return collection !== undefined && row.destinationFieldSimplyId !== null && fieldAccess(p, collection.simplyId, row.destinationFieldSimplyId) !== 'NONE';
}

function outputView(p: Principal, schema: TeamSchema, row: OutputRow): RecordOutputView {
  return { row, canDownload: row.status === 'SUCCEEDED' && row.file !== null && mayDownload(p, schema, row) };
}

/** The collections of a live record the caller can read, the one it was created in first. */
async function readableCollections(ctx: RequestContext, schema: TeamSchema, record: { id: bigint; collectionId: bigint }): Promise<CollectionDefinition[]> {
  const memberships = (await memberCollectionIds(ctx.services.pool, schema.teamId, [record.id])).get(record.id) ?? [];
  const ids = [record.collectionId, ...memberships.filter((id) => id !== record.collectionId)];
  return ids.flatMap((id) => {
    const c = schema.collectionsById.get(id);
    return c && hasDataAccess(ctx.principal, c.simplyId, 'READ') ? [c] : [];
  });
}

export async function recordHistory(ctx: RequestContext, args: RecordHistoryArgs): Promise<RecordHistory> {
  const team = requireTeam(ctx);
  const input = parseInput(recordHistoryInput, { dataRecordSimplyId: args.dataRecordSimplyId, dataCollectionSimplyId: args.dataCollectionSimplyId ?? undefined }, 'Invalid record history query');
  const paging = parsePaging(args, { defaultLimit: RECORD_HISTORY_LIMITS.defaultLimit, maxLimit: RECORD_HISTORY_LIMITS.maxLimit });
  const [schema, [record]] = await Promise.all([ctx.services.schemas.get(team.id), findRecords(ctx.services.pool, team.id, [input.dataRecordSimplyId])]);
  // a record the caller cannot read (or reads through another collection than asked) is answered like a missing one
  const readable = record ? await readableCollections(ctx, schema, record) : [];
  const collection = input.dataCollectionSimplyId ? readable.find((c) => c.simplyId === input.dataCollectionSimplyId) : readable[0];
  if (!record || !collection) throw new NotFoundError('Data record', input.dataRecordSimplyId);
  const page = await historyPage(ctx.services.pool, team.id, record.id, paging.limit, paging.offset);
  const outputs = await outputsOfLinks(ctx.services.pool, team.id, page.rows.map((l) => l.id));
  return {
    dataRecordSimplyId: record.simplyId,
    dataCollectionSimplyId: collection.simplyId,
    tasks: page.rows.map((link) => ({ link, outputs: outputs.filter((o) => o.linkId === link.id).map((o) => outputView(ctx.principal, schema, o)) })),
    total: page.total,
    limit: paging.limit,
    offset: paging.offset,
  };
}

export interface RecordOutputDownload {
  recordOutputSimplyId: string;
  fileSimplyId: string;
  url: string;
  expiresIn: number;
  expiresAt: Date;
  filename: string;
  contentType: string;
}

/** A filename safe in a Content-Disposition header and on any disk. */
export function safeFilename(name: string): string {
  const cleaned = name.replace(/[\p{Cc}/\\:*?"<>|]+/gu, '_').replace(/\s+/g, ' ').trim().slice(0, 200);
  return cleaned === '' || /^\.+$/.test(cleaned) ? 'document.pdf' : cleaned;
}

/**
 * Rule 4: a URL valid for 60 seconds. Someone outside rule 4's people gets 404 when they cannot
 * read the record at all (its outputs stay unknown to them), 403 otherwise; an output that did not
 * succeed, or whose file was deleted since, is 409 RECORD_OUTPUT_NOT_AVAILABLE.
 */
export async function recordOutputDownload(ctx: RequestContext, simplyId: string): Promise<RecordOutputDownload> {
  const team = requireTeam(ctx);
  recordOutputId.assert(simplyId, 'recordOutputSimplyId');
  const [schema, row] = await Promise.all([ctx.services.schemas.get(team.id), outputBySimplyId(ctx.services.pool, team.id, simplyId)]);
  if (!row) throw new NotFoundError('Record output', simplyId);
  if (!mayDownload(ctx.principal, schema, row)) {
    const [record] = await findRecordsById(ctx.services.pool, team.id, [row.dataRecordId]);
    const readable = record && record.deletedAt === null ? await readableCollections(ctx, schema, record) : [];
    if (readable.length === 0) throw new NotFoundError('Record output', simplyId);
    throw new PermissionDeniedError('Only a team admin, someone who can read the field the document was written into, or the person who started the task can download it');
  }
  if (row.status !== 'SUCCEEDED') throw new RecordOutputUnavailableError(simplyId, `its status is ${row.status} (only SUCCEEDED outputs have a document)`);
  if (!row.file) throw new RecordOutputUnavailableError(simplyId, 'its file was deleted');
  const filename = safeFilename(row.file.filename);
  const signed = await ctx.services.fileStorage.presignDownload({ key: row.file.storageKey, filename, contentType: row.file.mimeType, expiresInSeconds: OUTPUT_DOWNLOAD_SECONDS });
  return { recordOutputSimplyId: row.simplyId, fileSimplyId: row.file.simplyId, url: signed.url, expiresIn: OUTPUT_DOWNLOAD_SECONDS, expiresAt: signed.expiresAt, filename, contentType: row.file.mimeType };
}
