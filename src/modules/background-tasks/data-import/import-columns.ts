// Which CSV column feeds which field, checked against the collection as the starter sees it and
// against the file's header. The same check runs when the task is created (a 400 or 403) and again
// in the worker with the starter's permissions then (the task fails without a retry).
import type { ErrorDetail } from '../../../app/errors.ts';
import { type CollectionAccess, type FieldDefinition, isLookupField } from '../../../kernel/index.ts';
import type { ImportQueueData } from './import-queue-data.ts';

export interface MappedColumn {
  /** 0-based position of the cell in a row */
  index: number;
  /** what the user calls the column (header text, or its 1-based position) */
  column: string;
  field: FieldDefinition;
}

export interface ColumnPlan {
  columns: MappedColumn[];
  matchColumn: MappedColumn | null;
  /** 400: unknown fields, columns missing from the header, required fields left out, a bad key field */
  invalid: ErrorDetail[];
  /** 403: mapped fields the starter may not write */
  denied: string[];
}

export function planColumns(q: ImportQueueData, access: CollectionAccess, header: readonly string[] | null, width: number | null): ColumnPlan {
  const plan: ColumnPlan = { columns: [], matchColumn: null, invalid: [], denied: [] };
  const readable = new Map(access.readable.map((f) => [f.dataFieldSimplyId, f]));
  q.mapping.forEach((m, i) => {
    const field = readable.get(m.dataFieldSimplyId);
    if (!field) {
      plan.invalid.push({ field: `queueData.mapping.${i}.dataFieldSimplyId`, message: `is not a field of collection ${access.collection.simplyId}` });
      return;
    }
    if (!access.editable.has(field.dataFieldSimplyId)) plan.denied.push(field.dataFieldSimplyId);
    let index: number;
    if (typeof m.column === 'number') {
      index = m.column - 1;
      if (width !== null && index >= width) plan.invalid.push({ field: `queueData.mapping.${i}.column`, message: `the file has ${width} columns` });
    } else {
      index = header ? header.indexOf(m.column.trim()) : -1;
      if (header && index < 0) plan.invalid.push({ field: `queueData.mapping.${i}.column`, message: `no column "${m.column}" in the header (it has: ${header.slice(0, 50).join(', ')})` });
    }
    const mapped = { index, column: String(m.column), field };
    plan.columns.push(mapped);
    if (field.dataFieldSimplyId === q.matchFieldSimplyId) plan.matchColumn = mapped;
  });
  if (plan.matchColumn && !isLookupField(plan.matchColumn.field)) {
    plan.invalid.push({ field: 'queueData.matchFieldSimplyId', message: `a ${plan.matchColumn.field.dataType} field cannot identify records; use a text, email, phone, URL, number, decimal, money, date or date-time field` });
  }
  if (q.mode !== 'UPDATE') {
    const mapped = new Set(q.mapping.map((m) => m.dataFieldSimplyId));
    for (const f of access.fields) {
      if (f.isRequired && !mapped.has(f.dataFieldSimplyId)) plan.invalid.push({ field: 'queueData.mapping', message: `the required field ${f.dataFieldSimplyId} (${f.columnName}) is not mapped: new records need it` });
    }
  }
  return plan;
}
