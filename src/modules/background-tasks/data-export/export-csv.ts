// Streams an export into storage: pages of records → CSV text (csv-stringify, RFC 4180: quotes
// where needed, CRLF line ends, UTF-8 without a byte-order mark), one chunk per page → the object
// storage's write, which spools to a file (local disk, or a temporary file before the S3 upload)
// and never holds the whole CSV in memory. A page is formatted as one chunk because a chunk per
// row cost a write call per row (seconds at 100,000 rows); the next page is read while the current
// one is formatted and written. The header row comes first, so zero records give a header-only CSV.
import { pipeline, Readable, Transform, type TransformCallback } from 'node:stream';
import type pg from 'pg';
import { stringify } from 'csv-stringify/sync';
import type { ObjectStorage } from '../../files/index.ts';
import type { ExportColumn } from './export-columns.ts';
import { type ExportPage, type ExportQuery, exportPage } from './export-records.sql.ts';

/** records read per statement: big enough that a round trip is cheap next to the rows, small enough for flat memory */
export const EXPORT_PAGE_SIZE = 2000;

const CSV_OPTIONS = { record_delimiter: 'windows' } as const;

export interface CsvExport {
  storage: ObjectStorage;
  key: string;
  contentType: string;
  db: pg.Pool;
  query: ExportQuery;
  columns: readonly ExportColumn[];
  /** after each page, with the records written so far (throws to stop: a cancel) */
  onPage(processedCount: number): Promise<void>;
}

class ByteCounter extends Transform {
  bytes = 0;
  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    done(null, chunk);
  }
}

export async function writeCsvExport(job: CsvExport): Promise<{ recordCount: number; sizeBytes: number }> {
  let recordCount = 0;
  let failure: unknown = null;
  const read = (after: bigint) => exportPage(job.db, job.query, after, EXPORT_PAGE_SIZE);
  async function* chunks(): AsyncGenerator<Buffer> {
    let pending: Promise<ExportPage> | null = null;
    try {
      yield Buffer.from(stringify([job.columns.map((c) => c.header)], CSV_OPTIONS));
      pending = read(0n);
      for (;;) {
        const page: ExportPage = await pending;
        pending = page.next === null ? null : read(page.next);
        if (page.rows.length > 0) yield Buffer.from(stringify(page.rows.map((row) => job.columns.map((c) => c.cell(row))), CSV_OPTIONS));
        recordCount += page.rows.length;
        await job.onPage(recordCount);
        if (!pending) return;
      }
    } catch (error) {
      // kept as thrown (a cancel, a lost database): the storage sees only "stream destroyed"
      failure ??= error;
      throw error;
    } finally {
      // a read started for a page that will not be written must not fail unobserved
      pending?.catch(() => {});
    }
  }
  const counter = new ByteCounter();
  // the callback form destroys every stage with the first error, so the storage's own read of
  // `counter` fails with it too and no partial object is committed
  pipeline(Readable.from(chunks(), { objectMode: false }), counter, (error) => {
    if (error) failure ??= error;
  });
  try {
    await job.storage.write(job.key, counter, { contentType: job.contentType });
  } catch (error) {
    throw failure ?? error;
  }
  if (failure) throw failure;
  return { recordCount, sizeBytes: counter.bytes };
}
