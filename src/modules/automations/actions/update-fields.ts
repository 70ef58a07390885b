// UPDATE_FIELDS: the record the run works on, through the data core's record update (same value
// formats, validation, audit and events as PATCH /v1/data-records/{id}). A field that no longer
// exists fails the action before anything is written (the record update would skip it quietly).
// It needs no effect key: it sets fields to fixed values, so a run repeated after a crash finds them
// set, and an update that changes nothing writes nothing and fires no event (record-updates.ts).
import { updateRecordsById } from '../../../kernel/index.ts';
import { type ActionHandler, fieldsOf, requireRecord } from './action-run.ts';
import { InvalidConfigError } from '../automations.errors.ts';

export function staleFieldKeys(fields: readonly { dataFieldSimplyId: string }[], values: unknown): string[] {
  const known = new Set(fields.map((f) => f.dataFieldSimplyId));
  return values && typeof values === 'object' ? Object.keys(values).filter((key) => !known.has(key)) : [];
}

export const updateFields: ActionHandler = async (run) => {
  const record = requireRecord(run, 'UPDATE_FIELDS');
  const stale = staleFieldKeys(fieldsOf(run), run.config.fields);
  if (stale.length > 0) throw new InvalidConfigError(`The action writes fields the collection no longer has: ${stale.join(', ')}`);
  const outcome = await updateRecordsById(run.ctx, [{ dataRecordSimplyId: record.simplyId, fields: run.config.fields }], { batch: false, source: 'JOB' });
  return { record: outcome.records[0]?.row ?? record };
};
