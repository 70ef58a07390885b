// POST /v1/create-menu/data-records: what the dashboard's create menu does. The form posts
// `formData` keyed by field simplyId or by columnName (form inputs are named after columns);
// blank inputs mean "no value". Otherwise it is a normal create (validation, permissions, events).
import type { RequestContext } from '../../app/context.ts';
import { ValidationError } from '../../app/errors.ts';
import { collectionFor, createRecords, type WriteOutcome } from '../../kernel/index.ts';

export async function createFromMenu(ctx: RequestContext, collectionSimplyId: string, formData: unknown): Promise<WriteOutcome> {
  const access = await collectionFor(ctx, collectionSimplyId, 'EDIT');
  const data = formData ?? {};
  if (typeof data !== 'object' || Array.isArray(data)) throw new ValidationError('formData must be an object keyed by field simplyId or columnName', [{ field: 'formData', message: 'must be an object' }]);
  const byColumn = new Map(access.fields.map((f) => [f.columnName, f.dataFieldSimplyId]));
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) fields[byColumn.get(key) ?? key] = value;
  return createRecords(ctx, collectionSimplyId, [fields], { batch: false, source: 'CREATE_MENU' });
}
