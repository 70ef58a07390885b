// Records (Document 1 §2.3, §4.2): reads, search and writes for every face. Writes run in one
// transaction that also writes the audit log, the outbox event and the subscription NOTIFY
// (record-changes.ts); batch items are validated one by one so a bad item never rolls back the others.
import { hasDataAccess } from '../../app/auth/principal.ts';
import type { RequestContext } from '../../app/context.ts';
import { parsePaging } from '../../app/paging.ts';
import { requireTeam } from '../../app/require-team.ts';
import { ApiError, ConflictError, NotFoundError, PermissionDeniedError, ValidationError } from '../../app/errors.ts';
import { assertDataSimplyId, isSimplyId, newSimplyId } from '../../app/ids.ts';
import { accessTo, type CollectionAccess, collectionFor, requireRecordCredential } from '../schema/access.ts';
import type { CollectionDefinition, FieldDefinition, TeamSchema } from '../schema/team-schema.ts';
import { MAX_FILTERS, normalizeFilters } from '../values/index.ts';
import { calculateName } from './calculated-name.ts';
import { RecordView } from './record-view.ts';
import { type BulkSummary, type ChangeActor, type RecordChange, recordChanges } from './record-changes.ts';
import { checkReferences, prepareFields, type PreparedFields } from './record-input.ts';
import { applyRecordRewrites } from './record-updates.ts';
import { findRecordPage, findRecords, insertRecords, lockRecords, parseSort, type RecordRow, softDeleteRecords, syncSmartMemberships } from './records.sql.ts';
import { inTransaction } from '../../app/transaction.ts';
import { claimEffect, findEffect } from '../../app/effects.ts';
import type pg from 'pg';

export const MAX_BATCH_ITEMS = 100;
export const MAX_QUERY_LENGTH = 128;
export const MAX_SEARCH_OFFSET = 5000;

function project(access: CollectionAccess, only: readonly string[] | null | undefined): FieldDefinition[] {
  if (!only || only.length === 0) return access.readable;
  const wanted = new Set(only);
  return access.readable.filter((f) => wanted.has(f.dataFieldSimplyId));
}

function actorOf(ctx: RequestContext, source?: string): ChangeActor {
  const team = requireTeam(ctx);
  return { teamId: team.id, teamSimplyId: team.simplyId, principal: ctx.principal, source: source ?? ctx.source ?? 'GRAPHQL', requestId: ctx.requestId };
}

// ------------------------------------------------------------------------------------------
// Reads

export async function getRecord(ctx: RequestContext, simplyId: string, only?: readonly string[] | null): Promise<RecordView> {
  const team = requireTeam(ctx);
  assertDataSimplyId(simplyId, 'dataRecordSimplyId');
  requireRecordCredential(ctx.principal, 'READ');
  const [schema, rows] = await Promise.all([ctx.services.schemas.get(team.id), findRecords(ctx.services.pool, team.id, [simplyId])]);
  const row = rows[0];
  const collection = row && schema.collectionsById.get(row.collectionId);
  if (!row || !collection) throw new NotFoundError('Data record', simplyId);
  if (!hasDataAccess(ctx.principal, collection.simplyId, 'READ')) {
    throw new PermissionDeniedError(`The credential's team role cannot read records of collection ${collection.simplyId}`);
  }
  const access = accessTo(ctx.principal, schema, collection);
  return new RecordView(row, access, project(access, only));
}

/** Records by simplyId for nested reads (reference fields): unreadable or missing ones are left out. */
export async function loadRecordViews(ctx: RequestContext, schema: TeamSchema, simplyIds: readonly string[]): Promise<Map<string, RecordView>> {
  const out = new Map<string, RecordView>();
  const valid = simplyIds.filter((id) => isSimplyId(id));
  if (valid.length === 0 || (!ctx.principal.data && !ctx.principal.isTeamAdmin && !ctx.principal.isSystemAdmin)) return out;
  for (const row of await findRecords(ctx.services.pool, schema.teamId, valid)) {
    const collection = schema.collectionsById.get(row.collectionId);
    if (!collection || !hasDataAccess(ctx.principal, collection.simplyId, 'READ')) continue;
    const access = accessTo(ctx.principal, schema, collection);
    out.set(row.simplyId, new RecordView(row, access));
  }
  return out;
}

export interface RecordPage {
  nodes: RecordView[];
  pagination: { total: number; limit: number; offset: number; hasMore: boolean };
}

function pageOf(access: CollectionAccess, rows: RecordRow[], total: number, limit: number, offset: number, only?: readonly string[] | null): RecordPage {
  const shown = project(access, only);
  return { nodes: rows.map((row) => new RecordView(row, access, shown)), pagination: { total, limit, offset, hasMore: offset + rows.length < total } };
}

export interface ListArgs {
  dataCollectionSimplyId: string;
  limit?: number | null;
  offset?: number | null;
  sort?: string | null;
  fields?: readonly string[] | null;
}

export async function listRecords(ctx: RequestContext, args: ListArgs): Promise<RecordPage> {
  if (!args.dataCollectionSimplyId) throw new ValidationError('dataCollectionSimplyId is required', [{ field: 'dataCollectionSimplyId', message: 'is required' }]);
  const paging = parsePaging(args);
  const access = await collectionFor(ctx, args.dataCollectionSimplyId, 'READ');
  const { rows, total } = await findRecordPage(ctx.services.pool, {
    teamId: access.schema.teamId,
    collectionId: access.collection.id,
    filters: [],
    fieldsById: new Map(),
    sort: parseSort(args.sort),
    ...paging,
  });
  return pageOf(access, rows, total, paging.limit, paging.offset, args.fields);
}

export interface SearchArgs extends ListArgs {
  query?: string | null;
  filters?: unknown;
}

export async function searchRecords(ctx: RequestContext, args: SearchArgs): Promise<RecordPage> {
  if (!args.dataCollectionSimplyId) throw new ValidationError('dataCollectionSimplyId is required', [{ field: 'dataCollectionSimplyId', message: 'is required' }]);
  const paging = parsePaging(args, { maxOffset: MAX_SEARCH_OFFSET });
  const query = args.query ?? '';
  if (typeof query !== 'string' || [...query].length > MAX_QUERY_LENGTH) {
    throw new ValidationError(`query must be at most ${MAX_QUERY_LENGTH} characters`, [{ field: 'query', message: `at most ${MAX_QUERY_LENGTH} characters` }]);
  }
  const access = await collectionFor(ctx, args.dataCollectionSimplyId, 'READ');
  // filters see only readable fields: an unreadable field is "not a field of this collection"
  const normalized = normalizeFilters(access.readable, args.filters);
  if (!normalized.ok) throw new ValidationError(`Invalid search filters (at most ${MAX_FILTERS}, AND-ed)`, normalized.details);
  const filters = [...normalized.filters];
  // the keyword is compared like a calculatedName `contains` operand: NFC (names are stored NFC), lower-cased
  const keyword = query.normalize('NFC').trim().toLowerCase();
  if (keyword) filters.push({ field: 'calculatedName', dataType: null, operator: 'contains', value: keyword });
  const { rows, total } = await findRecordPage(ctx.services.pool, {
    teamId: access.schema.teamId,
    collectionId: access.collection.id,
    filters,
    fieldsById: new Map(access.readable.map((f) => [f.dataFieldSimplyId, f])),
    sort: parseSort(args.sort),
    ...paging,
  });
  return pageOf(access, rows, total, paging.limit, paging.offset, args.fields);
}

// ------------------------------------------------------------------------------------------
// Writes

export interface ItemFailure {
  index: number;
  dataRecordSimplyId: string | null;
  error: { code: string; status: number; message: string; details?: unknown };
}

export interface WriteOutcome {
  records: RecordView[];
  /** per input item: the record or the failure */
  items: ({ ok: true; index: number; record: RecordView } | ({ ok: false } & ItemFailure))[];
  warnings: string[];
  eventIds: string[];
}

function failure(index: number, id: string | null, error: ApiError): { ok: false } & ItemFailure {
  return { ok: false, index, dataRecordSimplyId: id, error: { code: error.code, status: error.status, message: error.message, ...(error.details ? { details: error.details } : {}) } };
}

function unknownKeyWarnings(unknown: string[], path: string): string[] {
  return unknown.map((key) => `${path}.${key} is not a field of this collection and was skipped`);
}

function assertBatchSize(length: number, name: string, max = MAX_BATCH_ITEMS): void {
  if (length === 0 || length > max) {
    throw new ValidationError(`${name} takes 1 to ${max} items (got ${length})`, [{ field: name, message: `1 to ${max} items` }]);
  }
}

function writableCollection(access: CollectionAccess): void {
  if (access.collection.type === 'SMART') {
    throw new ValidationError(`Collection ${access.collection.simplyId} is SMART: its records come from its criteria; create records in ${access.schema.parentSimplyId(access.collection) ?? 'its source collection'}`, [
      { field: 'dataCollectionSimplyId', message: 'is a SMART collection' },
    ]);
  }
  if (access.collection.isArchived) throw new ValidationError(`Collection ${access.collection.simplyId} is archived`, [{ field: 'dataCollectionSimplyId', message: 'is archived' }]);
}

/** A new record stores only the fields that have a value, like an update that clears a field
 *  (which removes its key): an empty field reads the same however it became empty. */
function storedValues(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== null && v !== undefined));
}

export interface CreateOptions {
  /** batch: per-item failures and one DATA_RECORDS_BULK_SYNCED event; single: the first failure is thrown */
  batch: boolean;
  source?: string;
  /** a batch larger than the API's MAX_BATCH_ITEMS (background tasks writing a chunk of a file) */
  maxItems?: number;
  /**
   * More work in the write's own transaction, given the items that failed (and, for creates, the
   * new records' simplyIds in order): a background task stores its checkpoint and row errors with
   * the records, so a crash never applies a chunk twice; a booking claims its time naming its record.
   */
  alsoInTransaction?: (db: pg.PoolClient, failures: readonly ItemFailure[], created?: readonly string[]) => Promise<void>;
  /**
   * Updates only: each record's updatedAt (ISO) as the caller last saw it. When a locked record
   * differs (someone wrote it since), nothing is written and RecordChangedError is thrown.
   */
  expectUpdatedAt?: ReadonlyMap<string, string>;
}

/** A record changed after the caller read the version it means to change (CreateOptions.expectUpdatedAt). */
export class RecordChangedError extends ConflictError {
  readonly simplyIds: string[];
  constructor(simplyIds: string[]) {
    super(`Record${simplyIds.length > 1 ? 's' : ''} ${simplyIds.join(', ')} changed since they were read`);
    this.simplyIds = simplyIds;
  }
}

export interface CreateRecordsOptions extends CreateOptions {
  /**
   * The create is one keyed effect (src/app/effects.ts). The key is claimed in the create's
   * transaction; a call repeating a key an earlier call committed creates nothing and answers with
   * what that call created (the records as they are now), so a job run again after its worker died
   * does not create its records twice.
   */
  effectKey?: string;
}

/** What a keyed create settles its key with: enough to answer a repeat as the first call was answered. */
interface CreateEffect {
  created: { index: number; dataRecordSimplyId: string }[];
  failures: ItemFailure[];
  eventIds: string[];
}

/** The outcome of a keyed create made before: its records re-read (one deleted since is a 404 item). */
async function repeatedCreate(ctx: RequestContext, access: CollectionAccess, effect: CreateEffect | null): Promise<WriteOutcome> {
  const done = effect ?? { created: [], failures: [], eventIds: [] };
  const found = await findRecords(ctx.services.pool, access.schema.teamId, done.created.map((c) => c.dataRecordSimplyId));
  const rows = new Map(found.map((row) => [row.simplyId, row]));
  const items: WriteOutcome['items'] = [
    ...done.failures.map((f) => ({ ok: false as const, ...f })),
    ...done.created.map(({ index, dataRecordSimplyId: id }) => {
      const row = rows.get(id);
      return row ? { ok: true as const, index, record: new RecordView(row, access) } : failure(index, id, new NotFoundError('Data record', id));
    }),
  ].sort((a, b) => a.index - b.index);
  return { records: items.flatMap((i) => (i.ok ? [i.record] : [])), items, warnings: [], eventIds: done.eventIds };
}

export async function createRecords(ctx: RequestContext, collectionSimplyId: string, inputs: readonly unknown[], options: CreateRecordsOptions): Promise<WriteOutcome> {
  if (options.batch) assertBatchSize(inputs.length, 'records', options.maxItems);
  const access = await collectionFor(ctx, collectionSimplyId, 'EDIT');
  // a repeat is answered before the inputs are checked again: what was valid then was created
  const earlier = options.effectKey ? await findEffect<CreateEffect>(ctx.services.pool, access.schema.teamId, options.effectKey) : null;
  if (earlier) return repeatedCreate(ctx, access, earlier.result);
  writableCollection(access);
  const path = (i: number) => (options.batch ? `records[${i}].fields` : 'fields');
  const prepared = inputs.map((input, i) => prepareFields(access, input, 'create', path(i)));
  await checkReferences(ctx.services.pool, ctx.services.fileReferences, access, prepared, inputs.map((_, i) => path(i)));
  if (!options.batch && prepared[0]!.error) throw prepared[0]!.error;
  const good = prepared.map((p, index) => ({ p, index })).filter(({ p }) => !p.error);
  const source = access.schema.fieldSource(access.collection);
  const formula = source.calculatedNameFormula;
  const actor = actorOf(ctx, options.source);
  const written = await inTransaction(ctx.services.pool, async (db) => {
    // first, so a concurrent call with the same key waits here and then finds this one's records
    const claim = options.effectKey ? await claimEffect<CreateEffect>(db, access.schema.teamId, options.effectKey) : null;
    if (claim && !claim.claimed) return { repeated: claim.result };
    const rows = await insertRecords(
      db,
      access.schema.teamId,
      access.collection,
      access.fields,
      good.map(({ p }) => ({ simplyId: newSimplyId(), values: storedValues(p.result.values), calculatedName: calculateName(formula, access.fields, p.result.values) })),
    );
    await syncSmartMemberships(db, access.schema, access.collection, rows.map((r) => r.id));
    const fieldsById = new Map(access.fields.map((f) => [f.dataFieldSimplyId, f]));
    const changes: RecordChange[] = rows.map((record, i) => ({
      kind: 'CREATED',
      record,
      collection: access.collection,
      fields: access.fields,
      changedFields: Object.keys(good[i]!.p.result.values).filter((id) => good[i]!.p.result.values[id] !== null).map((id) => fieldsById.get(id)!),
    }));
    const bulk: BulkSummary | undefined = options.batch ? { operation: 'CREATE', collection: access.collection, succeeded: rows.length, failed: inputs.length - rows.length } : undefined;
    const eventIds = await recordChanges(db, ctx.services, actor, changes, bulk);
    const failures = prepared.flatMap((p, index) => (p.error ? [failure(index, null, p.error)] : []));
    await options.alsoInTransaction?.(db, failures, rows.map((row) => row.simplyId));
    if (claim) await claim.settle({ created: rows.map((row, i) => ({ index: good[i]!.index, dataRecordSimplyId: row.simplyId })), failures: failures.map(({ ok: _, ...f }) => f), eventIds });
    return { rows, eventIds };
  });
  if ('repeated' in written) return repeatedCreate(ctx, access, written.repeated ?? null);
  const { rows, eventIds } = written;
  void ctx.services.outbox.nudge();
  const views = rows.map((row) => new RecordView(row, access));
  const byIndex = new Map(good.map(({ index }, i) => [index, views[i]!]));
  return {
    records: views,
    items: prepared.map((p, index) => (p.error ? failure(index, null, p.error) : { ok: true as const, index, record: byIndex.get(index)! })),
    warnings: prepared.flatMap((p, i) => unknownKeyWarnings(p.result.unknownKeys, path(i))),
    eventIds,
  };
}

export interface UpdateItem {
  dataRecordSimplyId: string;
  fields?: unknown;
}

/** PATCH and PUT (same merge): only supplied fields are written; null clears. */
export async function updateRecordsById(ctx: RequestContext, items: readonly UpdateItem[], options: CreateOptions): Promise<WriteOutcome> {
  const team = requireTeam(ctx);
  if (options.batch) assertBatchSize(items.length, 'records', options.maxItems);
  requireRecordCredential(ctx.principal, 'EDIT');
  const path = (i: number) => (options.batch ? `records[${i}].fields` : 'fields');
  const idPath = (i: number) => (options.batch ? `records[${i}].dataRecordSimplyId` : 'dataRecordSimplyId');
  const schema = await ctx.services.schemas.get(team.id);
  const actor = actorOf(ctx, options.source);
  const results: WriteOutcome['items'] = [];
  const warnings: string[] = [];
  const outcome = await inTransaction(ctx.services.pool, async (db) => {
    const ids = items.map((item) => item.dataRecordSimplyId).filter((id) => typeof id === 'string' && isSimplyId(id));
    const locked = new Map((await lockRecords(db, team.id, [...new Set(ids)])).map((r) => [r.simplyId, r]));
    if (options.expectUpdatedAt) {
      const changed = [...options.expectUpdatedAt].filter(([id, at]) => locked.get(id)?.updatedAt !== at).map(([id]) => id);
      if (changed.length > 0) throw new RecordChangedError(changed);
    }
    const prepared: { index: number; access: CollectionAccess; before: RecordRow; p: PreparedFields }[] = [];
    items.forEach((item, index) => {
      const id = typeof item?.dataRecordSimplyId === 'string' ? item.dataRecordSimplyId : '';
      if (!isSimplyId(id)) {
        results.push(failure(index, id || null, new ValidationError(`${idPath(index)} must be a record simplyId (XXXX-XXXX-XXXX)`, [{ field: idPath(index), message: 'malformed identifier' }])));
        return;
      }
      const before = locked.get(id);
      const collection = before && schema.collectionsById.get(before.collectionId);
      if (!before || !collection) return results.push(failure(index, id, new NotFoundError('Data record', id)));
      if (!hasDataAccess(ctx.principal, collection.simplyId, 'EDIT')) {
        return results.push(failure(index, id, new PermissionDeniedError(`The credential's team role cannot edit records of collection ${collection.simplyId}`)));
      }
      if (prepared.some((p) => p.before.id === before.id)) {
        return results.push(failure(index, id, new ValidationError(`${id} appears more than once in this batch`, [{ field: idPath(index), message: 'duplicate record' }])));
      }
      const access = accessTo(ctx.principal, schema, collection);
      const p = prepareFields(access, item.fields, 'update', path(index));
      warnings.push(...unknownKeyWarnings(p.result.unknownKeys, path(index)));
      prepared.push({ index, access, before, p });
    });
    // references of all items, grouped per collection (one query per collection)
    const byCollection = new Map<bigint, typeof prepared>();
    for (const item of prepared) byCollection.set(item.access.collection.id, [...(byCollection.get(item.access.collection.id) ?? []), item]);
    for (const group of byCollection.values()) await checkReferences(db, ctx.services.fileReferences, group[0]!.access, group.map((g) => g.p), group.map((g) => path(g.index)));
    if (!options.batch) {
      const first = results[0];
      if (first && !first.ok) throw rethrow(first);
      if (prepared[0]?.p.error) throw prepared[0].p.error;
    }
    const good = prepared.filter((item) => {
      if (item.p.error) results.push(failure(item.index, item.before.simplyId, item.p.error));
      return !item.p.error;
    });
    const rewrites = good.map(({ access, before, p }) => {
      const values = { ...before.values };
      for (const [id, next] of Object.entries(p.result.values)) {
        if (next === null) delete values[id];
        else values[id] = next;
      }
      return { before, collection: access.collection, values };
    });
    const bulk: BulkSummary | undefined = options.batch ? { operation: 'UPDATE', collection: null, succeeded: good.length, failed: items.length - good.length } : undefined;
    const { rows: after, eventIds } = await applyRecordRewrites(db, ctx.services, schema, actor, rewrites, bulk);
    await options.alsoInTransaction?.(db, results.filter((r): r is { ok: false } & ItemFailure => !r.ok));
    for (const g of good) {
      const row = after.get(g.before.simplyId) ?? g.before;
      results.push({ ok: true, index: g.index, record: new RecordView(row, g.access) });
    }
    return { eventIds };
  });
  if (outcome.eventIds.length > 0) void ctx.services.outbox.nudge();
  results.sort((a, b) => a.index - b.index);
  return { records: results.flatMap((r) => (r.ok ? [r.record] : [])), items: results, warnings, eventIds: outcome.eventIds };
}

function rethrow(f: ItemFailure): ApiError {
  return new ApiError(f.error.status, f.error.code, f.error.message, { details: f.error.details as never });
}

export async function deleteRecordsById(ctx: RequestContext, simplyIds: readonly unknown[], options: CreateOptions): Promise<WriteOutcome> {
  const team = requireTeam(ctx);
  if (options.batch) assertBatchSize(simplyIds.length, 'dataRecordSimplyIds', options.maxItems);
  requireRecordCredential(ctx.principal, 'EDIT');
  const schema = await ctx.services.schemas.get(team.id);
  const actor = actorOf(ctx, options.source);
  const results: WriteOutcome['items'] = [];
  const eventIds = await inTransaction(ctx.services.pool, async (db) => {
    const ids = simplyIds.filter((id): id is string => typeof id === 'string' && isSimplyId(id));
    const locked = new Map((await lockRecords(db, team.id, [...new Set(ids)])).map((r) => [r.simplyId, r]));
    const doomed: { index: number; row: RecordRow; collection: CollectionDefinition; access: CollectionAccess }[] = [];
    simplyIds.forEach((raw, index) => {
      const at = options.batch ? `dataRecordSimplyIds[${index}]` : 'dataRecordSimplyId';
      if (typeof raw !== 'string' || !isSimplyId(raw)) {
        return results.push(failure(index, typeof raw === 'string' ? raw : null, new ValidationError(`${at} must be a record simplyId (XXXX-XXXX-XXXX)`, [{ field: at, message: 'malformed identifier' }])));
      }
      const row = locked.get(raw);
      const collection = row && schema.collectionsById.get(row.collectionId);
      if (!row || !collection || doomed.some((d) => d.row.id === row.id)) return results.push(failure(index, raw, new NotFoundError('Data record', raw)));
      if (!hasDataAccess(ctx.principal, collection.simplyId, 'EDIT')) {
        return results.push(failure(index, raw, new PermissionDeniedError(`The credential's team role cannot edit records of collection ${collection.simplyId}`)));
      }
      doomed.push({ index, row, collection, access: accessTo(ctx.principal, schema, collection) });
    });
    if (!options.batch && results[0] && !results[0].ok) throw rethrow(results[0]);
    await softDeleteRecords(db, team.id, doomed.map((d) => d.row.id));
    const changes: RecordChange[] = doomed.map((d) => ({ kind: 'DELETED', record: d.row, collection: d.collection, fields: d.access.fields, changedFields: [] }));
    const bulk: BulkSummary | undefined = options.batch ? { operation: 'DELETE', collection: null, succeeded: doomed.length, failed: simplyIds.length - doomed.length } : undefined;
    await options.alsoInTransaction?.(db, results.filter((r): r is { ok: false } & ItemFailure => !r.ok));
    for (const d of doomed) results.push({ ok: true, index: d.index, record: new RecordView(d.row, d.access) });
    return recordChanges(db, ctx.services, actor, changes, bulk);
  });
  if (eventIds.length > 0) void ctx.services.outbox.nudge();
  results.sort((a, b) => a.index - b.index);
  return { records: results.flatMap((r) => (r.ok ? [r.record] : [])), items: results, warnings: [], eventIds };
}
