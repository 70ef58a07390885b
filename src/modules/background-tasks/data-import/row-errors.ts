// A failed row as a task error entry: the row number, and the column and field the value layer
// named. One entry per row (dedupeKey `row:<n>`), so a chunk repeated after a crash reports
// nothing twice; a row with several bad values lists them all in errorContext.problems.
import type { ItemFailure } from '../../../kernel/index.ts';
import type { TaskErrorEntry } from '../tasks.sql.ts';
import type { MappedColumn } from './import-columns.ts';

const ERROR_TYPES: Record<string, string> = {
  VALIDATION_ERROR: 'INVALID_VALUE',
  PERMISSION_DENIED: 'PERMISSION_DENIED',
  NOT_FOUND: 'RECORD_NOT_FOUND',
};

interface Problem {
  column: string | null;
  dataFieldSimplyId: string | null;
  message: string;
}

export function rowError(rowNumber: number, errorType: string, message: string, where: Partial<Pick<Problem, 'column' | 'dataFieldSimplyId'>> = {}): TaskErrorEntry {
  return {
    errorType,
    errorMessage: `Row ${rowNumber}: ${message}`,
    errorContext: { rowNumber, column: where.column ?? null, dataFieldSimplyId: where.dataFieldSimplyId ?? null },
    dedupeKey: `row:${rowNumber}`,
  };
}

/** The records service's failure of one item, in the words of the file (columns, not paths). */
export function rowErrorOf(rowNumber: number, failure: Pick<ItemFailure, 'error'>, columns: readonly MappedColumn[]): TaskErrorEntry {
  const byField = new Map(columns.map((c) => [c.field.dataFieldSimplyId, c]));
  const details = Array.isArray(failure.error.details) ? (failure.error.details as { field?: string; message?: string }[]) : [];
  const problems: Problem[] = details.map((d) => {
    const fieldId = /fields\.([^.\s]+)$/.exec(d.field ?? '')?.[1] ?? null;
    const column = fieldId ? (byField.get(fieldId)?.column ?? null) : null;
    return { column, dataFieldSimplyId: fieldId, message: d.message ?? failure.error.message };
  });
  const errorType = ERROR_TYPES[failure.error.code] ?? failure.error.code;
  if (problems.length === 0) return rowError(rowNumber, errorType, failure.error.message);
  const text = problems.map((p) => (p.column ? `column "${p.column}" ${p.message}` : p.dataFieldSimplyId ? `field ${p.dataFieldSimplyId} ${p.message}` : p.message)).join('; ');
  const entry = rowError(rowNumber, errorType, text, problems[0]!);
  entry.errorContext = { ...entry.errorContext, problems };
  return entry;
}
