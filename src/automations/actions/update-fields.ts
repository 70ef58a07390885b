// UPDATE_FIELDS: the record the run works on, through the data core's record update (same value
// formats, validation, audit and events as PATCH /v1/data-records/{id}).
import { updateRecordsById } from '../../data/records/records.service.ts';
import { type ActionHandler, requireRecord } from './action-run.ts';

export const updateFields: ActionHandler = async (run) => {
  const record = requireRecord(run, 'UPDATE_FIELDS');
  const outcome = await updateRecordsById(run.ctx, [{ dataRecordSimplyId: record.simplyId, fields: run.config.fields }], { batch: false, source: 'JOB' });
  return { record: outcome.records[0]?.row ?? record };
};
