// A CSV file as a stream of numbered rows (csv-parse, RFC 4180: quoted cells, doubled quotes,
// line breaks inside quotes, CRLF or LF, a UTF-8 byte order mark dropped). A row that cannot be
// read (bad quoting, a column count unlike the header's) comes out as a `bad` row with its number
// instead of stopping the file: an import reports it as that row's error and goes on.
import type { Readable } from 'node:stream';
import { CsvError, parse } from 'csv-parse';

export interface CsvOptions {
  delimiter: string;
  hasHeaderRow: boolean;
}

/** rowNumber: 1 is the first data row (the row under the header when there is one) */
export type CsvItem =
  | { kind: 'header'; cells: string[] }
  | { kind: 'row'; rowNumber: number; cells: string[] }
  | { kind: 'bad'; rowNumber: number; errorType: 'INVALID_CSV_ROW' | 'COLUMN_COUNT_MISMATCH'; message: string };

interface Skipped {
  line: number;
  message: string;
}

/** Why csv-parse gave up on the whole file (not one row), in words for the task's error entry. */
export function csvFailureMessage(error: unknown): string | null {
  return error instanceof CsvError ? `The file is not readable as CSV: ${error.message}` : null;
}

export async function* csvRows(source: Readable, options: CsvOptions): AsyncGenerator<CsvItem> {
  const skipped: Skipped[] = [];
  const parser = source.pipe(
    parse({
      bom: true,
      delimiter: options.delimiter,
      info: true,
      relax_column_count: true,
      skip_empty_lines: true,
      skip_records_with_error: true,
      on_skip: (error) => {
        if (error) skipped.push({ line: Number(error.lines), message: error.message });
        return undefined;
      },
    }),
  );
  // a failing source (storage read error) must end the parse too, not leave it waiting
  source.once('error', (error) => parser.destroy(error));
  let rowNumber = 0;
  let width: number | null = null;
  let headerPending = options.hasHeaderRow;
  // a skipped record lies between the records around it: report the skips before the record
  // whose last line comes after them, so row numbers follow the file's order
  const skipsBefore = function* (line: number): Generator<CsvItem> {
    while (skipped.length > 0 && skipped[0]!.line < line) {
      const skip = skipped.shift()!;
      yield { kind: 'bad', rowNumber: ++rowNumber, errorType: 'INVALID_CSV_ROW', message: `Row could not be read as CSV: ${skip.message}` };
    }
  };
  for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
    yield* skipsBefore(info.lines);
    if (headerPending) {
      headerPending = false;
      width = record.length;
      yield { kind: 'header', cells: record.map((c) => c.trim()) };
      continue;
    }
    width ??= record.length;
    rowNumber += 1;
    if (record.length !== width) {
      yield { kind: 'bad', rowNumber, errorType: 'COLUMN_COUNT_MISMATCH', message: `Row has ${record.length} cells where the ${options.hasHeaderRow ? 'header has' : 'first row has'} ${width}` };
      continue;
    }
    yield { kind: 'row', rowNumber, cells: record };
  }
  yield* skipsBefore(Number.POSITIVE_INFINITY);
}
