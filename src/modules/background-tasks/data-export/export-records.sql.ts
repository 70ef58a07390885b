// The records of an export, read in pages by record id through the kernel's scans (one index range
// per page, however far into the collection; memory holds one page at a time). A record selection
// is resolved to internal ids once and walked in slices.
import type pg from 'pg';
import { type FieldDefinition, type NormalizedFilter, type ScannedRecord, scanRecords } from '../../../kernel/index.ts';

export type ExportRecordRow = ScannedRecord;

export interface ExportQuery {
  teamId: bigint;
  collectionId: bigint;
  filters: readonly NormalizedFilter[];
  /** the fields filters may name (simplyId → definition) */
  fieldsById: ReadonlyMap<string, FieldDefinition>;
  /** internal ids of the selected records, ascending; null: no selection */
  recordIds: readonly bigint[] | null;
}

export interface ExportPage {
  rows: ExportRecordRow[];
  /** the cursor of the following page; null: this was the last one */
  next: bigint | null;
}

/** The page after record id `after` (0n: from the start): at most `limit` rows, by record id. */
export async function exportPage(db: pg.Pool, q: ExportQuery, after: bigint, limit: number): Promise<ExportPage> {
  // a selection is walked in slices of its sorted ids, so no statement carries more than `limit`
  // of them; a slice whose records the filters all drop is an empty page, not the end
  let slice: bigint[] | null = null;
  if (q.recordIds) {
    slice = q.recordIds.filter((id) => id > after).slice(0, limit);
    if (slice.length === 0) return { rows: [], next: null };
  }
  const rows = await scanRecords(db, { ...q, recordIds: slice }, { after, limit });
  if (slice) return { rows, next: slice.length === limit ? slice[slice.length - 1]! : null };
  return { rows, next: rows.length === limit ? rows[rows.length - 1]!.id : null };
}
