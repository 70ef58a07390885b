// One chunk of an import (rows (k-1)·CHUNK_ROWS+1 … k·CHUNK_ROWS of the file): cells → field
// values, key matching, then the writes through the records service, exactly as batch writes make
// them (value layer, field permissions, audit entries, record events, one DATA_RECORDS_BULK_SYNCED
// event per write). The chunk's row errors and its record on the task (`importChunk<k>` in the
// task's internal values: counts, settled) commit inside the same transaction as its records, so a
// worker that dies mid-import redoes only the chunks not committed and writes nothing twice. Each
// chunk keeps its own key, so two chunks may be written side by side (chunk-pipeline.ts).
// An UPSERT chunk writes twice (creates, then updates): the first write records the rows it
// settled (doneRows), and a redone chunk leaves them out.
import type { RequestContext } from '../../../app/context.ts';
import type { ApiError } from '../../../app/errors.ts';
import { inTransaction } from '../../../app/transaction.ts';
import type pg from 'pg';
import {
  checkReferences,
  type CollectionAccess,
  createRecords,
  findRecordsByKey,
  type ItemFailure,
  prepareFields,
  updateRecordsById,
} from '../../../kernel/index.ts';
import type { TaskRun } from '../task-run.ts';
import type { TaskErrorEntry } from '../tasks.sql.ts';
import { cellValue } from './cell-values.ts';
import type { CsvItem } from './csv-rows.ts';
import type { ColumnPlan } from './import-columns.ts';
import type { ImportQueueData } from './import-queue-data.ts';
import { keyOfCell } from './key-match.sql.ts';
import { rowError, rowErrorOf } from './row-errors.ts';

/** rows per write: one transaction, one bulk-synced event */
export const CHUNK_ROWS = 500;
const SOURCE = 'BACKGROUND_TASK';

export type DataRow = Exclude<CsvItem, { kind: 'header' }>;

export interface ImportCounts {
  /** rows read (valid or not) */
  rows: number;
  created: number;
  updated: number;
  failed: number;
}

/** What a committed chunk left on the task (never answered). */
export interface ChunkRecord {
  counts: ImportCounts;
  /** every row of the chunk is settled */
  complete: boolean;
  /** rows already settled when not complete (the first write of an UPSERT chunk) */
  doneRows?: number[];
}

const CHUNK_KEY = /^importChunk(\d+)$/;

export const chunkIndexOf = (rowNumber: number): number => Math.floor((rowNumber - 1) / CHUNK_ROWS);

/** The chunks earlier attempts committed, by index. */
export function committedChunks(internal: Record<string, unknown>): Map<number, ChunkRecord> {
  const out = new Map<number, ChunkRecord>();
  for (const [key, value] of Object.entries(internal)) {
    const index = CHUNK_KEY.exec(key)?.[1];
    if (index !== undefined) out.set(Number(index), value as ChunkRecord);
  }
  return out;
}

export const zeroCounts = (): ImportCounts => ({ rows: 0, created: 0, updated: 0, failed: 0 });

export function addCounts(a: ImportCounts, b: Partial<ImportCounts>): ImportCounts {
  return { rows: a.rows + (b.rows ?? 0), created: a.created + (b.created ?? 0), updated: a.updated + (b.updated ?? 0), failed: a.failed + (b.failed ?? 0) };
}

export interface ImportState {
  run: TaskRun<ImportQueueData>;
  ctx: RequestContext;
  access: CollectionAccess;
  q: ImportQueueData;
  plan: ColumnPlan;
  /** keys of the rows read so far (UPDATE, UPSERT): a key may pick one row of the file only */
  seenKeys: Set<string>;
}

interface Pending {
  rowNumber: number;
  fields: Record<string, unknown>;
  key?: { key: string; prefix: Buffer | null };
  recordId?: string;
}

/** The key of a row, or why it has none (UPDATE and UPSERT). */
function keyOf(state: ImportState, cells: readonly string[]) {
  const match = state.plan.matchColumn!;
  return keyOfCell(match.field, cellValue(match.field, cells[match.index] ?? '', 'CLEAR'));
}

/** A row settled by an earlier attempt still claims its key. */
export function rememberKey(state: ImportState, row: DataRow): void {
  if (state.q.mode === 'CREATE' || row.kind !== 'row') return;
  const key = keyOf(state, row.cells);
  if (key.ok) state.seenKeys.add(key.key);
}

function fieldsOf(state: ImportState, cells: readonly string[]): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const c of state.plan.columns) {
    const value = cellValue(c.field, cells[c.index] ?? '', state.q.blankCells);
    if (value !== undefined) fields[c.field.dataFieldSimplyId] = value;
  }
  return fields;
}

/**
 * Applies (or, in a dry run, validates) chunk `index`, given what an earlier attempt committed of
 * it; answers the chunk's record. The rows' keys are claimed before the first await, so chunks
 * started in file order claim them in file order even when written side by side.
 */
export async function applyChunk(state: ImportState, index: number, rows: readonly DataRow[], prior: ChunkRecord | undefined): Promise<ChunkRecord> {
  const { q, plan } = state;
  const done = new Set(prior?.doneRows ?? []);
  const failures: TaskErrorEntry[] = [];
  const pending: Pending[] = [];
  for (const row of rows) {
    if (done.has(row.rowNumber)) {
      rememberKey(state, row);
      continue;
    }
    if (row.kind === 'bad') {
      failures.push(rowError(row.rowNumber, row.errorType, row.message));
      continue;
    }
    const item: Pending = { rowNumber: row.rowNumber, fields: fieldsOf(state, row.cells) };
    if (q.mode !== 'CREATE') {
      const key = keyOf(state, row.cells);
      const where = { column: plan.matchColumn!.column, dataFieldSimplyId: plan.matchColumn!.field.dataFieldSimplyId };
      if (!key.ok) {
        failures.push(rowError(row.rowNumber, 'INVALID_KEY', `the key column "${where.column}" ${key.message}`, where));
        continue;
      }
      if (state.seenKeys.has(key.key)) {
        failures.push(rowError(row.rowNumber, 'DUPLICATE_KEY', `an earlier row of the file has the same key in column "${where.column}"; each key is imported once`, where));
        continue;
      }
      state.seenKeys.add(key.key);
      item.key = { key: key.key, prefix: key.prefix };
    }
    pending.push(item);
  }
  const { creates, updates } = await sortByMatch(state, pending, failures);
  if (q.dryRun) return validateOnly(state, index, prior?.counts ?? zeroCounts(), creates, updates, failures);

  let counts = prior?.counts ?? zeroCounts();
  const settled = [...done];
  const phases = [creates.length > 0 ? 'create' : null, updates.length > 0 ? 'update' : null].filter((p): p is 'create' | 'update' => p !== null);
  if (phases.length === 0) {
    const record: ChunkRecord = { counts: addCounts(counts, { rows: failures.length, failed: failures.length }), complete: true };
    await inTransaction(state.ctx.services.pool, (db) => commit(state, db, failures, index, record));
    return record;
  }
  for (const [i, phase] of phases.entries()) {
    const last = i === phases.length - 1;
    const items = phase === 'create' ? creates : updates;
    // the rows failed before any write go with the chunk's first write
    const early = i === 0 ? failures : [];
    const base = counts;
    let after = base;
    const alsoInTransaction = async (db: pg.PoolClient, failed: readonly ItemFailure[]) => {
      const entries = [...early, ...failed.map((f) => rowErrorOf(items[f.index]!.rowNumber, f, plan.columns))];
      const ok = items.length - failed.length;
      after = addCounts(base, { rows: early.length + items.length, failed: early.length + failed.length, [phase === 'create' ? 'created' : 'updated']: ok });
      const record: ChunkRecord = last ? { counts: after, complete: true } : { counts: after, complete: false, doneRows: [...settled, ...early.map(rowOf), ...items.map((p) => p.rowNumber)] };
      await commit(state, db, entries, index, record);
    };
    const options = { batch: true, maxItems: CHUNK_ROWS, source: SOURCE, alsoInTransaction };
    if (phase === 'create') await createRecords(state.ctx, q.dataCollectionSimplyId, items.map((p) => p.fields), options);
    else await updateRecordsById(state.ctx, items.map((p) => ({ dataRecordSimplyId: p.recordId!, fields: p.fields })), options);
    counts = after;
    settled.push(...early.map(rowOf), ...items.map((p) => p.rowNumber));
  }
  return { counts, complete: true };
}

function rowOf(entry: TaskErrorEntry): number {
  return Number((entry.errorContext as { rowNumber: number }).rowNumber);
}

async function commit(state: ImportState, db: pg.PoolClient, entries: TaskErrorEntry[], index: number, record: ChunkRecord): Promise<void> {
  // in row order, so the task's error list reads like the file
  await state.run.addErrors([...entries].sort((x, y) => rowOf(x) - rowOf(y)), db);
  await state.run.setInternal({ [`importChunk${index}`]: record }, db);
}

/** UPDATE and UPSERT: the record each key picks; no record (UPDATE) or several are row errors. */
async function sortByMatch(state: ImportState, pending: Pending[], failures: TaskErrorEntry[]): Promise<{ creates: Pending[]; updates: Pending[] }> {
  if (state.q.mode === 'CREATE') return { creates: pending, updates: [] };
  const field = state.plan.matchColumn!.field;
  const found = await findRecordsByKey(state.ctx.services.pool, state.access.schema.teamId, state.access.collection.id, field, pending.map((p) => p.key!));
  const creates: Pending[] = [];
  const updates: Pending[] = [];
  const where = { column: state.plan.matchColumn!.column, dataFieldSimplyId: field.dataFieldSimplyId };
  for (const p of pending) {
    const ids = found.get(p.key!.key) ?? [];
    if (ids.length > 1) failures.push(rowError(p.rowNumber, 'AMBIGUOUS_MATCH', `${ids.length} records have this key in column "${where.column}"; make the key field unique first`, where));
    else if (ids.length === 1) updates.push({ ...p, recordId: ids[0]! });
    else if (state.q.mode === 'UPSERT') creates.push(p);
    else failures.push(rowError(p.rowNumber, 'RECORD_NOT_FOUND', `no record has this key in column "${where.column}"`, where));
  }
  return { creates, updates };
}

/** Dry run: the same value layer and reference checks as the writes, nothing written. */
async function validateOnly(state: ImportState, index: number, base: ImportCounts, creates: Pending[], updates: Pending[], failures: TaskErrorEntry[]): Promise<ChunkRecord> {
  const items = [...creates.map((p) => ({ p, mode: 'create' as const })), ...updates.map((p) => ({ p, mode: 'update' as const }))];
  const paths = items.map((_, i) => `records[${i}].fields`);
  const prepared = items.map(({ p, mode }, i) => prepareFields(state.access, p.fields, mode, paths[i]));
  await checkReferences(state.ctx.services.pool, state.ctx.services.fileReferences, state.access, prepared, paths);
  const invalid = prepared.map((x, i) => ({ error: x.error as ApiError | null, item: items[i]! })).filter((x) => x.error);
  for (const { error, item } of invalid) {
    failures.push(rowErrorOf(item.p.rowNumber, { error: { code: error!.code, status: error!.status, message: error!.message, details: error!.details } }, state.plan.columns));
  }
  const bad = new Set(invalid.map((x) => x.item.p));
  const counts = addCounts(base, {
    rows: failures.length - invalid.length + items.length,
    failed: failures.length,
    created: creates.filter((p) => !bad.has(p)).length,
    updated: updates.filter((p) => !bad.has(p)).length,
  });
  const record: ChunkRecord = { counts, complete: true };
  await inTransaction(state.ctx.services.pool, (db) => commit(state, db, failures, index, record));
  return record;
}
